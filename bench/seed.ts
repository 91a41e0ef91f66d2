/**
 * Seeds a gateway data dir with many transactions for the query, cold-start and RSS benchmarks:
 *
 *   node --import tsx bench/seed.ts --data-dir DIR [--count 1000000] [--years 2] [--events]
 *
 * Creates a merchant through the CLI (so the data dir has its key file and API credentials),
 * then writes the transactions straight into the real schema (db/migrate.ts) with better-sqlite3
 * in transactions of 50,000 rows, through the repositories' column layout. created_at runs
 * evenly over the last `years` years with jitter, ids are UUIDv7 of that time (as the gateway
 * makes them); 5 currencies, every status code, unique order ids with some PIN-retry pairs.
 * With --events every transaction also gets its authorization event. Prints the merchant
 * credentials as JSON on the last line and writes DIR/bench-merchant.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { migrate } from '../db/migrate.js';
import { DATABASE_FILE, openDatabase } from '../db/open.js';
import { transactionColumns, transactionToRow } from '../db/payments/transactions.js';
import type { TransactionRecord } from '../main/core/payments/ports.js';
import { createMerchant } from './lib/procs.js';

export const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK'] as const;
/** Share of each currency (EUR most, SEK least). */
const CURRENCY_WEIGHTS = [0.6, 0.2, 0.1, 0.06, 0.04];
/** status code -> share; every status occurs, completed most. */
export const STATUS_WEIGHTS: Record<number, number> = {
  1: 0.01,
  2: 0.01,
  3: 0.7,
  4: 0.05,
  5: 0.02,
  6: 0.1,
  7: 0.03,
  8: 0.02,
  9: 0.01,
  10: 0.02,
  11: 0.02,
  12: 0.01,
};

/** A small deterministic PRNG (mulberry32), so two seeds of the same size are the same data (tests use it too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(values: readonly T[], weights: readonly number[], r: number): T {
  let acc = 0;
  for (let i = 0; i < values.length; i += 1) {
    acc += weights[i] ?? 0;
    if (r < acc) return values[i] as T;
  }
  return values[values.length - 1] as T;
}

export interface SeedResult {
  dataDir: string;
  merchant: ReturnType<typeof createMerchant>;
  count: number;
  firstCreatedAt: string;
  lastCreatedAt: string;
  seconds: number;
  databaseBytes: number;
}

export function seed(
  dataDir: string,
  options: { count: number; years: number; events: boolean; log?: (line: string) => void },
): SeedResult {
  const started = performance.now();
  const merchant = createMerchant(dataDir, 'Seeded Shop');
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  migrate(db);
  db.pragma('cache_size = -262144');
  const insert = db.prepare(
    `INSERT INTO transactions (${transactionColumns.map(([, c]) => c).join(', ')}) VALUES (${transactionColumns.map(([, c]) => `@${c}`).join(', ')})`,
  );
  const insertEvent = db.prepare(
    'INSERT INTO transaction_events (id, transaction_id, type, status, amount_minor, execution_date, message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const random = prng(20261121);
  const end = Date.now() - 60_000;
  const start = end - options.years * 365 * 24 * 60 * 60 * 1000;
  const step = (end - start) / options.count;
  const statuses = Object.keys(STATUS_WEIGHTS).map(Number);
  const statusWeights = statuses.map((s) => STATUS_WEIGHTS[s] ?? 0);
  const BATCH = 50_000;
  let firstCreatedAt = '';
  let lastCreatedAt = '';
  let written = 0;
  let previousOrder: string | null = null;

  const writeBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      const ms = Math.floor(start + i * step + random() * step * 0.9);
      const iso = new Date(ms).toISOString();
      const status = pick(statuses, statusWeights, random());
      const currency = pick(CURRENCIES, CURRENCY_WEIGHTS, random());
      const amount = 100 + Math.floor(random() * 20_000);
      const captured = [3, 7, 8, 12].includes(status) ? amount : 0;
      const refunded = status === 7 ? amount : status === 8 ? Math.floor(amount / 2) : 0;
      // One in fifty orders is a PIN retry of the previous order (two transactions, one order id).
      const retry = previousOrder !== null && random() < 0.02;
      const orderId: string = retry && previousOrder ? previousOrder : `order-${i}`;
      previousOrder = orderId;
      const pos = random() < 0.7;
      const record: TransactionRecord = {
        id: uuidv7({ msecs: ms }),
        merchantId: merchant.merchant_id,
        paymentType: pos ? 'cardpos' : 'cardecom',
        operation: status === 4 ? 'authorize' : 'payment',
        statusCode: status,
        orderId,
        currency,
        amountMinor: amount,
        authorizedMinor: [3, 4, 5, 7, 8, 12].includes(status) ? amount : 0,
        capturedMinor: captured,
        refundedMinor: refunded,
        reversedMinor: status === 5 ? amount : 0,
        feesMinor: captured ? Math.round(amount * 0.015) + 10 : 0,
        recurring: 0,
        parentId: null,
        sepaMandate: null,
        sepaMsgId: null,
        message: status === 6 ? '51 Insufficient funds' : 'Approved',
        reasonCode: status === 6 ? '51' : null,
        additionalTransactionData: null,
        merchantReference: null,
        postbackUrl: random() < 0.3 ? 'https://shop.example/postbacks' : null,
        successUrl: null,
        errorUrl: null,
        cardBrand: 'visa',
        cardLastFour: String(1000 + Math.floor(random() * 9000)),
        cardBin: '491234',
        cardExpiryMonth: 12,
        cardExpiryYear: 2029,
        cardSealed: null,
        cardFingerprint: `fp-${Math.floor(random() * 200_000)}`,
        details: pos
          ? {
              pos: { entry_mode: 'contactless', terminal: { id: 'T-0001', type: 'softpos', attended: true, capabilities: [] } },
              authorization_code: '123456',
            }
          : { authorization_code: '123456' },
        createdAt: iso,
        updatedAt: iso,
        invoiceNumber: null,
        tillId: null,
        expiresAt: null,
      };
      insert.run(transactionToRow(record));
      if (options.events) insertEvent.run(uuidv7({ msecs: ms }), record.id, 'authorization', status, amount, null, record.message, iso);
      if (i === 0) firstCreatedAt = iso;
      lastCreatedAt = iso;
    }
  });

  for (let from = 0; from < options.count; from += BATCH) {
    const to = Math.min(options.count, from + BATCH);
    writeBatch(from, to);
    written = to;
    options.log?.(`${written} transactions, ${Math.round((performance.now() - started) / 1000)} s`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const result: SeedResult = {
    dataDir,
    merchant,
    count: written,
    firstCreatedAt,
    lastCreatedAt,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    databaseBytes: pages * pageSize,
  };
  writeFileSync(join(dataDir, 'bench-merchant.json'), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      count: { type: 'string', default: '1000000' },
      years: { type: 'string', default: '2' },
      events: { type: 'boolean', default: false },
    },
  });
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir DIR is required');
  const result = seed(dataDir, {
    count: Number(values.count),
    years: Number(values.years),
    events: values.events ?? false,
    log: (line) => console.error(line),
  });
  console.log(JSON.stringify(result));
}
