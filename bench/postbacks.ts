/**
 * Benchmark 5: draining a postback backlog while the API keeps working.
 *
 *   node --import tsx bench/postbacks.ts [--count 100000] [--receivers 1] [--rate 100] [--max-seconds 300]
 *
 * Seeds a fresh data dir (merchant through the CLI) with `--count` completed transactions and one
 * pending outbox record each, written straight into the real schema and due 25 s after seeding,
 * addressed to `--receivers` local receivers (127.0.0.1, separate ports, answering 204; they run
 * in a child process of their own). Starts `gateway serve` with default settings, measures the API
 * alone (POST /rest/payment at a steady `--rate` req/s over 10 connections, no postback_url) for
 * 10 s, waits until the backlog falls due, then measures the same API load during the drain
 * until every postback has been received (at most `--max-seconds`). Reports deliveries/s and the
 * API p50/p99 before and during the drain. Writes bench/results/postbacks-<receivers>.json.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { DATABASE_FILE, openDatabase } from '../db/open.js';
import { transactionColumns, transactionToRow } from '../db/payments/transactions.js';
import { transactionPostback } from '../main/core/payments/views.js';
import type { TransactionRecord } from '../main/core/payments/ports.js';
import {
  basicAuth,
  createMerchant,
  machine,
  median,
  paymentRequest,
  ROOT,
  runLoad,
  sleep,
  startGateway,
  tempDir,
  writeResult,
} from './lib/procs.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    receivers: { type: 'string', default: '1' },
    rate: { type: 'string', default: '100' },
    'max-seconds': { type: 'string', default: '300' },
    'due-in': { type: 'string', default: '25' },
  },
});
const count = Number(values.count);
const receiverCount = Math.max(1, Math.min(64, Number(values.receivers)));
const rate = Number(values.rate);
const maxMs = Number(values['max-seconds']) * 1000;

interface ReceiverStats {
  count: number;
  firstAt: number | null;
  lastAt: number | null;
}

/** The receivers in their own process: {ports} once listening, {stats} on request. */
async function startReceivers(n: number): Promise<{ child: ChildProcess; ports: number[]; stats(): Promise<ReceiverStats>; stop(): void }> {
  const child = fork(join(ROOT, 'bench/lib/receivers.ts'), [String(n)], { execArgv: ['--import', 'tsx'] });
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { ports: number[] }).ports));
    child.once('exit', () => reject(new Error('receivers exited')));
  });
  return {
    child,
    ports,
    stats: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve(message as ReceiverStats));
        child.send('stats');
      }),
    stop: () => child.kill('SIGTERM'),
  };
}

function seedOutbox(dataDir: string, merchantId: string, urls: string[], dueAt: string): number {
  const started = performance.now();
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  const insertTransaction = db.prepare(
    `INSERT INTO transactions (${transactionColumns.map(([, c]) => c).join(', ')}) VALUES (${transactionColumns.map(([, c]) => `@${c}`).join(', ')})`,
  );
  const insertOutbox = db.prepare(
    `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
     VALUES (?, ?, 'transaction', ?, 1, ?, ?, 'pending', 0, ?, ?)`,
  );
  const now = Date.now();
  const write = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      const ms = now - (count - i) * 10;
      const iso = new Date(ms).toISOString();
      const url = urls[i % urls.length] as string;
      const t: TransactionRecord = {
        id: uuidv7({ msecs: ms }),
        merchantId,
        paymentType: 'cardpos',
        operation: 'payment',
        statusCode: 3,
        orderId: `pb-order-${i}`,
        currency: 'EUR',
        amountMinor: 1234,
        authorizedMinor: 1234,
        capturedMinor: 1234,
        refundedMinor: 0,
        reversedMinor: 0,
        feesMinor: 0,
        recurring: 0,
        parentId: null,
        sepaMandate: null,
        sepaMsgId: null,
        message: 'Approved',
        reasonCode: null,
        additionalTransactionData: null,
        merchantReference: null,
        postbackUrl: url,
        successUrl: null,
        errorUrl: null,
        cardBrand: 'visa',
        cardLastFour: '1111',
        cardBin: '411111',
        cardExpiryMonth: 12,
        cardExpiryYear: 2029,
        cardSealed: null,
        cardFingerprint: null,
        details: {
          pos: { entry_mode: 'contactless', terminal: { id: 'T-0001', type: 'softpos', attended: true, capabilities: [] } },
          authorization_code: '123456',
        },
        createdAt: iso,
        updatedAt: iso,
        invoiceNumber: null,
        tillId: null,
        expiresAt: null,
      };
      insertTransaction.run(transactionToRow(t));
      insertOutbox.run(uuidv7({ msecs: ms }), merchantId, t.id, url, JSON.stringify(transactionPostback(t)), dueAt, iso);
    }
  });
  for (let from = 0; from < count; from += 20_000) write(from, Math.min(count, from + 20_000));
  db.close();
  return Math.round(performance.now() - started);
}

const machineBefore = machine();
const dir = tempDir('tillgate-bench-postbacks-');
const merchant = createMerchant(dir);
const receivers = await startReceivers(receiverCount);
const urls = receivers.ports.map((port) => `http://127.0.0.1:${port}/postbacks`);
const dueAtMs = Date.now() + Number(values['due-in']) * 1000;
const seedMs = seedOutbox(dir, merchant.merchant_id, urls, new Date(dueAtMs).toISOString());
console.log(`seeded ${count} pending postbacks in ${seedMs} ms, due in ${Math.round((dueAtMs - Date.now()) / 1000)} s`);
if (dueAtMs - Date.now() < 14_000) throw new Error('seeding took too long for the baseline window; raise --due-in');

const server = await startGateway(dir, { cpu: 0 });
const auth = basicAuth(merchant);
const api = (seconds: number, prefix: string) =>
  runLoad(
    { host: server.host, port: server.port, connections: 10, rate, durationMs: seconds * 1000, prefix, requests: [paymentRequest(auth)] },
    1,
  );

let baseline;
let during;
let drain: { seconds: number; delivered: number; perSecond: number; complete: boolean } | undefined;
try {
  await api(2, 'warm-');
  baseline = await api(8, 'base-');
  const before = await receivers.stats();
  if (before.count > 0) console.log(`warning: ${before.count} postbacks arrived before the backlog was due`);
  await sleep(Math.max(0, dueAtMs - Date.now()));
  // The API load runs in slices of 5 s until the receivers have everything (bounded by --max-seconds).
  const slices = [];
  const drainStart = Date.now();
  for (;;) {
    slices.push(await api(5, `drain-${slices.length}-`));
    const stats = await receivers.stats();
    if (stats.count >= count || Date.now() - drainStart > maxMs) break;
  }
  const stats = await receivers.stats();
  const seconds = stats.firstAt !== null && stats.lastAt !== null ? (stats.lastAt - stats.firstAt) / 1000 : 0;
  drain = {
    seconds: Math.round(seconds * 10) / 10,
    delivered: stats.count,
    perSecond: seconds > 0 ? Math.round(stats.count / seconds) : 0,
    complete: stats.count >= count,
  };
  // Latency over all slices that ran while the drain was going on.
  const all = slices.flatMap((s) => s.worstPerSecond);
  during = {
    slices: slices.map((s) => ({
      rps: s.requestsPerSecond,
      p50: s.latencyMs.p50,
      p99: s.latencyMs.p99,
      max: s.latencyMs.max,
      statuses: s.statuses,
    })),
    p50Median: median(slices.map((s) => s.latencyMs.p50)),
    p99Worst: Math.max(...slices.map((s) => s.latencyMs.p99)),
    p99Median: median(slices.map((s) => s.latencyMs.p99)),
    worstPerSecond: all,
  };
} finally {
  await server.stop();
  receivers.stop();
  rmSync(dir, { recursive: true, force: true });
}

const summary = {
  deliveriesPerSecond: drain?.perSecond,
  drainSeconds: drain?.seconds,
  delivered: drain?.delivered,
  apiP99Before: baseline?.latencyMs.p99,
  apiP99During: during?.p99Median,
  apiP99DuringWorstSlice: during?.p99Worst,
  p99Growth: baseline && during ? Math.round((during.p99Median / baseline.latencyMs.p99) * 100) / 100 : null,
};
console.log(JSON.stringify(summary));
const file = writeResult(`postbacks-${receiverCount}`, {
  benchmark: `${count} queued postbacks to ${receiverCount} local receiver(s); API: POST /rest/payment at ${rate} req/s, 10 connections`,
  machine: machineBefore,
  machineAfter: { loadAverage: machine().loadAverage, otherNodeTestRuns: machine().otherNodeTestRuns },
  summary,
  drain,
  apiBefore: baseline && { rps: baseline.requestsPerSecond, latencyMs: baseline.latencyMs, statuses: baseline.statuses },
  apiDuring: during,
});
console.log(`written ${file}`);
