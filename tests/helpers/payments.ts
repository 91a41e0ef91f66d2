/**
 * A payments test harness on the public interfaces: compose() on the run's engine (SQLite in a temp
 * dir, or PostgreSQL with TEST_ENGINE=postgres) with a movable clock and no background timer (tests
 * run due tasks themselves after moving the clock), buildServer() for inject(), merchants with HTTP
 * Basic credentials, and small request builders.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Composition, GatewayStore } from '../../main/compose.js';
import type { Gateway } from '../../main/core/gateway.js';
import { buildServer } from '../../main/http/server.js';
import { createLogger } from '../../main/infra/logger.js';
import { encryptPinBlock, TEST_PIN_KEY } from '../../main/processor/pin-block.js';
import { TEST_PIN } from '../../main/processor/test-cards.js';
import { resolveSettings } from '../../main/settings.js';
import { DATABASE_FILE } from '../../db/open.js';
import { sqlOf } from './sql.js';
import { composeForTest, createTestMerchant, tempDir, TestClock, type TestGateway, type TestMerchant } from './api.js';

export const SIM_DELAY_MS = 20;
export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;
export const EXPIRY_YEAR = new Date().getUTCFullYear() + 3;
export const POSTBACK_URL = 'https://shop.example/postbacks';
/** The fields the redirect integration needs (docs/decisions.md "Payments engine"). */
export const REDIRECT = {
  success_url: 'https://shop.example/ok',
  error_url: 'https://shop.example/failed',
  postback_url: POSTBACK_URL,
  merchant_reference: 'Order 1/2026',
} as const;
export const SETTLING_IBAN = 'DE89370400440532013000';

export interface Harness extends TestGateway {
  gateway: Gateway;
  /** Moves the clock and runs every scheduled task that became due. */
  advance(ms: number): Promise<number>;
}

/** `flags`: more command-line style settings, e.g. `{ database: url }` for PostgreSQL. */
export async function startHarness(flags: Record<string, string> = {}, options: { dataKey?: Buffer } = {}): Promise<Harness> {
  const dir = tempDir('tillgate-payments-');
  const clock = new TestClock();
  // Instances of one PostgreSQL database share its data key, as they must (a start with another
  // key is refused: db/key-check.ts); each SQLite data directory gets its own.
  const dataKey =
    options.dataKey ?? (flags.database ? createHash('sha256').update(`test data key ${flags.database}`).digest() : randomBytes(32));
  const settings = resolveSettings(dir, { 'sim-delay-ms': String(SIM_DELAY_MS), 'sim-slow-answer-ms': '50', ...flags }, {});
  const composition: Composition<GatewayStore> = await composeForTest({
    settings,
    clock,
    dataKey,
    background: false,
    logger: createLogger({ level: 'silent' }),
  });
  const app: FastifyInstance = await buildServer(composition.gateway);
  const gateway = composition.gateway;
  return {
    dir,
    clock,
    dataKey,
    composition,
    app,
    gateway,
    async advance(ms) {
      clock.advance(ms);
      return gateway.scheduler.runDue();
    },
    async close() {
      await app.close();
      await composition.close();
    },
  };
}

export async function newMerchant(h: Harness, name = 'Payments Shop'): Promise<TestMerchant> {
  return createTestMerchant(h, name);
}

export interface Api {
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  get(path: string): Promise<LightMyRequestResponse>;
  /** POST that must answer 200; returns the parsed body. */
  ok<T = Record<string, unknown>>(path: string, body: unknown): Promise<T>;
  transaction(id: string): Promise<Record<string, unknown>>;
  log(
    id: string,
  ): Promise<
    Array<{ type: string; status: number; amount: number; message: string | null; execution_date: string | null; created_at: string }>
  >;
}

export function api(h: Harness, merchant: TestMerchant): Api {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    h.app.inject({
      method: 'POST',
      url: path,
      headers: { authorization: merchant.auth, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
  const get = (path: string) => h.app.inject({ method: 'GET', url: path, headers: { authorization: merchant.auth } });
  const getOk = async (path: string) => {
    const response = await get(path);
    assert.equal(response.statusCode, 200, `GET ${path}: ${response.body}`);
    return response.json();
  };
  return {
    post,
    get,
    async ok(path, body) {
      const response = await post(path, body);
      assert.equal(response.statusCode, 200, `POST ${path} ${JSON.stringify(body)}: ${response.body}`);
      const parsed = response.json();
      assert.equal(parsed.error_code, 0);
      return parsed;
    },
    transaction: (id) => getOk(`/rest/transactions/${id}`),
    log: (id) => getOk(`/rest/transactions/${id}/log`),
  };
}

let orderCounter = 0;
export function orderId(prefix = 'order'): string {
  orderCounter += 1;
  return `${prefix}-${process.pid}-${orderCounter}`;
}

/** Server-to-server card fields (cardecom, devicewallet). */
export function cardFields(pan: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    card_number: pan,
    card_expiry_month: '12',
    card_expiry_year: String(EXPIRY_YEAR),
    card_cvv: '123',
    card_holder: 'Ada Lovelace',
    ...overrides,
  };
}

export function cardPayment(pan: string, amount: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { payment_type: 'cardecom', order_id: orderId('card'), amount, currency: 'EUR', ...cardFields(pan), ...extra };
}

/** Completes a Luhn-valid card number from its leading digits (one digit short of the length). */
export function luhnComplete(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i += 1) {
    let digit = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${partial}${(10 - (sum % 10)) % 10}`;
}

let panCounter = 0;
/** A fresh Luhn-valid Visa number that is not a test card (approved by the simulator). */
export function freshPan(): string {
  panCounter += 1;
  return luhnComplete(`49${String(process.pid % 1_000_000).padStart(6, '0')}${String(panCounter).padStart(7, '0')}`);
}

export interface PosOptions {
  pan: string;
  entry?: string;
  sequence?: 'initial' | 'subsequent';
  /** Clear PIN to encrypt under the test key; omitted: no PIN block. */
  pin?: string;
  keyId?: string;
  /** `pos_data.terminal.id` (default T-0001). */
  terminal?: string;
}

export function posData(options: PosOptions): Record<string, unknown> {
  const data: Record<string, unknown> = {
    type: { terminal_entry_mode: options.entry ?? 'contactless', ...(options.sequence ? { sequence: options.sequence } : {}) },
    card: { number: options.pan, expiry_month: 12, expiry_year: EXPIRY_YEAR },
    terminal: { id: options.terminal ?? 'T-0001', type: 'softpos', attended: true, capabilities: ['contactlessChip', 'onlinePin'] },
  };
  if (options.pin !== undefined) {
    data.pin_block = {
      format: 'ISO-0',
      block: encryptPinBlock(options.pin, options.pan, TEST_PIN_KEY.key),
      zone_id: TEST_PIN_KEY.zoneId,
      key_id: options.keyId ?? TEST_PIN_KEY.keyId,
    };
  }
  return data;
}

export function posPayment(
  amount: number,
  options: PosOptions & { order?: string },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    payment_type: 'cardpos',
    order_id: options.order ?? orderId('pos'),
    amount,
    currency: 'EUR',
    pos_data: posData(options),
    ...extra,
  };
}

export { TEST_PIN };

export interface OutboxRow {
  sequence: number;
  url: string;
  state: string;
  payload: Record<string, unknown>;
}

export async function outboxOf(h: Harness, transactionId: string): Promise<OutboxRow[]> {
  const rows = await sqlOf(h).all<{ sequence: number; url: string; state: string; payload: string }>(
    "SELECT sequence, url, state, payload FROM postback_outbox WHERE subject_type = 'transaction' AND subject_id = ? ORDER BY sequence",
    transactionId,
  );
  return rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) as Record<string, unknown> }));
}

/**
 * Asserts that none of `values` is stored anywhere, as ASCII (and with `bcd`, as BCD: the digits
 * packed two to a byte). On SQLite: not in the database files (main file and WAL, free pages
 * included). On PostgreSQL: not in any column of any row of any table (each row as JSON text,
 * where bytea shows as hex: ASCII shows as its hex, BCD as the digits themselves).
 */
export async function assertNotStored(
  h: Pick<Harness, 'dir' | 'composition'>,
  values: readonly string[],
  options: { bcd?: boolean; what?: string } = {},
): Promise<void> {
  const what = options.what ?? 'a secret';
  const sql = sqlOf(h);
  if (sql.dialect === 'postgres') {
    const tables = await sql.all<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    assert.ok(
      tables.some((t) => t.name === 'transactions'),
      'the tables are found',
    );
    for (const { name } of tables) {
      const rows = await sql.all<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`);
      for (const { row } of rows) {
        for (const value of values) {
          assert.ok(!row.includes(value), `${what} ${value} found in ${name}`);
          assert.ok(!row.includes(Buffer.from(value, 'latin1').toString('hex')), `${what} ${value} (ASCII in bytea) found in ${name}`);
        }
      }
    }
    return;
  }
  const files = [DATABASE_FILE, `${DATABASE_FILE}-wal`].map((name) => join(h.dir, name)).filter((path) => existsSync(path));
  assert.ok(files.length > 0, 'database files exist');
  for (const path of files) {
    const bytes = readFileSync(path);
    for (const value of values) {
      assert.equal(bytes.indexOf(value, 0, 'latin1'), -1, `${what} ${value} found in ${path}`);
      if (options.bcd) assert.equal(bytes.indexOf(Buffer.from(value, 'hex')), -1, `${what} ${value} (BCD) found in ${path}`);
    }
  }
}

/** Asserts that none of the card numbers is stored anywhere, as ASCII or BCD (assertNotStored). */
export function assertNoPanAtRest(h: Pick<Harness, 'dir' | 'composition'>, pans: readonly string[]): Promise<void> {
  return assertNotStored(h, pans, { bcd: true, what: 'card number' });
}
