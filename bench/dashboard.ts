/**
 * Benchmark 6: the dashboard's one call, GET /ui/dashboard?period=today|7d|month, at a million
 * transactions.
 *
 *   node --import tsx bench/dashboard.ts [--data-dir DIR] [--count 1000000] [--requests 400] [--time-zone Europe/Berlin]
 *
 * Uses (or seeds, as bench/list-queries.ts does) DIR. A database seeded before migration 0015 is
 * migrated first, and the time the rollup's backfill takes is recorded. Then, once per DIR, what
 * the seed does not write and the dashboard reads: refunds of the refunded transactions (2 hours
 * after each), the 7-day expiry of the authorizations, 50,000 postbacks (10 % failed, 2 % being
 * retried), 5,000 invoices with expiries and e-mails (10 % failed) and 2,000 network tokens (5 %
 * suspended). Measured:
 *
 * - the endpoint: `gateway serve` (pinned to CPU 0) with a back-office session, `--requests`
 *   sequential calls per period over one keep-alive connection (load generator on CPU 1), after
 *   a warm-up: p50, p99, max;
 * - in process, the repository's reads per period (the rollup), and for comparison the same sums
 *   taken straight from the transactions, through a covering index made for the run and through
 *   the existing list index: what the rollup saves;
 * - what the rollup's triggers cost each write: 100,000 inserts and 100,000 status changes into
 *   a fresh database with and without them.
 *
 * Writes bench/results/dashboard.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { DASHBOARD_PERIODS, type DashboardPeriod } from '../contract/constants.js';
import { createDashboardRepository, DASHBOARD_SQL } from '../db/dashboard/repositories.js';
import { sqliteSql } from '../db/sql.js';
import { migrate, schemaVersion } from '../db/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { DATABASE_FILE, openDatabase } from '../db/open.js';
import { planPeriod } from '../main/core/dashboard/periods.js';
import { GATEWAY_BIN, machine, runLoad, startGateway, tempDir, writeResult } from './lib/procs.js';
import { seed, type SeedResult } from './seed.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    count: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '400' },
    'time-zone': { type: 'string', default: 'Europe/Berlin' },
  },
});

const timeZone = values['time-zone'] ?? 'Europe/Berlin';
const REQUESTS = Number(values.requests);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const dataDir = values['data-dir'] ?? tempDir('tillgate-bench-1m-');
const seededFile = join(dataDir, 'bench-merchant.json');
let seeded: SeedResult;
if (existsSync(seededFile)) {
  seeded = JSON.parse(readFileSync(seededFile, 'utf8')) as SeedResult;
  console.log(`using ${seeded.count} seeded transactions in ${dataDir}`);
} else {
  console.log(`seeding ${values.count} transactions into ${dataDir}`);
  seeded = seed(dataDir, { count: Number(values.count), years: 2, events: false, log: (line) => console.log(line) });
}
const merchantId = seeded.merchant.merchant_id;

function percentiles(samples: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? 0) };
}

function time(times: number, work: () => unknown): { p50: number; p99: number; max: number } {
  for (let i = 0; i < Math.min(5, times); i += 1) work();
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  return percentiles(samples);
}

const machineBefore = machine();
const db = openDatabase(join(dataDir, DATABASE_FILE));
db.pragma('cache_size = -262144');

// ---- migration of a database seeded before 0015 --------------------------------------------------
let migration: Record<string, unknown> | null = null;
const versionBefore = schemaVersion(db);
if (versionBefore < migrations.length) {
  const started = performance.now();
  const report = migrate(db);
  migration = { from: report.from, to: report.to, applied: report.applied, seconds: Math.round((performance.now() - started) / 100) / 10 };
  console.log(`migrated ${report.from} -> ${report.to} in ${String(migration.seconds)} s`);
}

// ---- what the seed does not write ----------------------------------------------------------------
function addExtras(database: Database.Database): Record<string, number> {
  const started = performance.now();
  const now = Date.now();
  const counts: Record<string, number> = {};
  database.transaction(() => {
    counts.refunds = database
      .prepare(
        `INSERT INTO refunds (id, transaction_id, merchant_id, amount_minor, status_code, created_at)
         SELECT 'r-' || id, id, merchant_id, refunded_minor, 1, strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+2 hours') FROM transactions
         WHERE merchant_id = ? AND refunded_minor > 0`,
      )
      .run(merchantId).changes;
    counts.authorizationsWithExpiry = database
      .prepare(
        "UPDATE transactions SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+7 days') WHERE merchant_id = ? AND status_code = 4",
      )
      .run(merchantId).changes;
    const outbox = database.prepare(
      `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
       VALUES (?, ?, 'transaction', ?, 1, 'https://shop.example/postbacks', '{}', ?, ?, ?, ?)`,
    );
    for (let i = 0; i < 50_000; i += 1) {
      const at = now - Math.floor((i / 50_000) * 60 * DAY);
      const state = i % 50 === 0 ? 'pending' : i % 10 === 1 ? 'failed' : 'delivered';
      // A retried postback's next try is tomorrow: the server under test does not deliver during the run.
      const next = state === 'pending' ? now + DAY : at + HOUR;
      outbox.run(
        uuidv7({ msecs: at }),
        merchantId,
        `tx-${i}`,
        state,
        state === 'delivered' ? 1 : state === 'failed' ? 32 : 3,
        new Date(next).toISOString(),
        new Date(at).toISOString(),
      );
    }
    counts.postbacks = 50_000;
    const channel = database.prepare('SELECT id FROM channels WHERE merchant_id = ? LIMIT 1').get(merchantId) as { id: string };
    const invoice = database.prepare(
      `INSERT INTO invoices (uuid, merchant_id, channel_id, debt_claim_number, active, status, print_date, amount_minor, currency, redirect_after_payments,
         send_initial_email, expires_in, expires_in_unit, expires_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 1, ?, '2026-01-01', ?, 'EUR', 0, 1, 30, 'days', ?, ?, ?)`,
    );
    const email = database.prepare(
      `INSERT INTO emails (id, merchant_id, invoice_id, email_type, locale, recipient, subject, body_text, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, 'initial', 'en', 'customer@example.com', 'Invoice', 'Text', ?, 1, ?, ?)`,
    );
    for (let i = 0; i < 5_000; i += 1) {
      const created = now - Math.floor((i / 5_000) * 60 * DAY);
      const { lastInsertRowid } = invoice.run(
        uuidv7({ msecs: created }),
        merchantId,
        channel.id,
        `BENCH-${String(i).padStart(5, '0')}`,
        i % 3 === 0 ? 'paid' : 'pending',
        1000 + i,
        new Date(created + 30 * DAY).toISOString(),
        new Date(created).toISOString(),
        new Date(created).toISOString(),
      );
      email.run(
        uuidv7({ msecs: created }),
        merchantId,
        Number(lastInsertRowid),
        i % 10 === 0 ? 'failed' : 'sent',
        new Date(created).toISOString(),
        new Date(created).toISOString(),
      );
    }
    counts.invoices = 5_000;
    const token = database.prepare(
      `INSERT INTO network_tokens (id, merchant_id, status, network, provider, card_fingerprint, card_sealed, token_fingerprint, token_sealed, payment_account_reference, created_at, updated_at)
       VALUES (?, ?, ?, 'visa', 'simulated', ?, 'x', ?, 'x', 'V001BENCH', ?, ?)`,
    );
    for (let i = 0; i < 2_000; i += 1) {
      const at = new Date(now - i * HOUR).toISOString();
      token.run(uuidv7(), merchantId, i % 20 === 0 ? 'suspended' : 'active', `card-${i}`, `token-${i}`, at, at);
    }
    counts.networkTokens = 2_000;
    database.prepare('CREATE TABLE IF NOT EXISTS bench_dashboard_extras (added_at TEXT NOT NULL)').run();
    database.prepare('INSERT INTO bench_dashboard_extras (added_at) VALUES (?)').run(new Date(now).toISOString());
  })();
  counts.seconds = Math.round((performance.now() - started) / 100) / 10;
  return counts;
}

const hasExtras = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'bench_dashboard_extras'").get() !== undefined;
const extras = hasExtras ? null : addExtras(db);
if (extras) console.log(`added ${JSON.stringify(extras)}`);
db.pragma('wal_checkpoint(TRUNCATE)');
const rollupRows = (db.prepare('SELECT count(*) AS n FROM dashboard_hours WHERE merchant_id = ?').get(merchantId) as { n: number }).n;
const refundRows = (db.prepare('SELECT count(*) AS n FROM refunds WHERE merchant_id = ?').get(merchantId) as { n: number }).n;

// ---- in process: the repository's reads, and the same sums straight from the transactions -----------
const now = new Date();
const plans = Object.fromEntries(DASHBOARD_PERIODS.map((period) => [period, planPeriod(period, now, timeZone)])) as Record<
  DashboardPeriod,
  ReturnType<typeof planPeriod>
>;
const rangesOf = (period: DashboardPeriod) => plans[period].buckets.map((b) => ({ from: b.start.toISOString(), to: b.end.toISOString() }));
const repository = createDashboardRepository(sqliteSql(db));
const inProcess: Record<string, unknown> = {};
for (const period of DASHBOARD_PERIODS) {
  const ranges = rangesOf(period);
  inProcess[period] = {
    buckets: ranges.length,
    transactionsInPeriod: (
      db
        .prepare('SELECT count(*) AS n FROM transactions WHERE merchant_id = ? AND created_at >= ? AND created_at < ?')
        .get(merchantId, ranges[0]?.from, ranges.at(-1)?.to) as { n: number }
    ).n,
    rollupRowsRead: (
      db
        .prepare('SELECT count(*) AS n FROM dashboard_hours WHERE merchant_id = ? AND hour >= ? AND hour < ?')
        .get(merchantId, ranges[0]?.from.slice(0, 13), ranges.at(-1)?.to.slice(0, 13)) as { n: number }
    ).n,
    figuresMs: time(200, () => void repository.figures(merchantId, ranges)),
  };
}
const until = new Date(now.getTime() + DAY).toISOString();
inProcess.attentionMs = time(200, () => void repository.attention(merchantId, now.toISOString(), until, 5));
const planOf = (sql: string, ...params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
const monthRanges = rangesOf('month');
inProcess.plans = {
  hours: planOf(DASHBOARD_SQL.hours, JSON.stringify(monthRanges.map((r, i) => [i, r.from.slice(0, 13), r.to.slice(0, 13)])), merchantId),
  attention: Object.fromEntries(
    (
      [
        'postbacksRetrying',
        'postbacksFailed',
        'invoicesExpiringCount',
        'emailsFailedCount',
        'tokensSuspended',
        'authorizationsExpiringCount',
      ] as const
    ).map((name) => [
      name,
      planOf(
        DASHBOARD_SQL[name],
        ...(name === 'invoicesExpiringCount' || name === 'authorizationsExpiringCount'
          ? [merchantId, now.toISOString(), until]
          : [merchantId]),
      ),
    ]),
  ),
};

// ---- the endpoint ------------------------------------------------------------------------------------
db.close();
const staff = spawnSync(
  process.execPath,
  [
    GATEWAY_BIN,
    'staff',
    'create',
    '--data-dir',
    dataDir,
    '--merchant',
    merchantId,
    '--role',
    'back_office',
    '--login',
    `bench-office-${Date.now()}`,
    '--pin',
    '4711',
    '--json',
  ],
  { encoding: 'utf8', timeout: 60_000 },
);
if (staff.status !== 0) throw new Error(`staff create failed: ${staff.stderr}`);
const login = (JSON.parse(staff.stdout) as { login: string }).login;

const server = await startGateway(dataDir, { cpu: 0, args: ['--log-level', 'warn', '--time-zone', timeZone] });
const endpoint: Record<string, unknown> = {};
let sample: Record<string, unknown> = {};
try {
  const session = await fetch(`${server.url}/ui/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, pin: '4711' }),
  });
  if (session.status !== 200) throw new Error(`login failed: ${session.status} ${await session.text()}`);
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const request = (period: DashboardPeriod) => ({ method: 'GET', path: `/ui/dashboard?period=${period}`, headers: { cookie } });
  // Warm-up: JIT, statement cache, the serializer of the route's answer.
  await runLoad(
    {
      host: server.host,
      port: server.port,
      connections: 1,
      durationMs: 2000,
      maxRequests: 150,
      prefix: 'w',
      requests: DASHBOARD_PERIODS.map(request),
    },
    1,
  );
  for (const period of DASHBOARD_PERIODS) {
    const answer = await fetch(`${server.url}/ui/dashboard?period=${period}`, { headers: { cookie } });
    const text = await answer.text();
    const body = JSON.parse(text) as { totals: unknown; series: unknown[]; volume: unknown[]; attention: unknown };
    if (period === 'month') sample = { totals: body.totals, volume: body.volume, attention: body.attention };
    const result = await runLoad(
      {
        host: server.host,
        port: server.port,
        connections: 1,
        durationMs: 60_000,
        maxRequests: REQUESTS,
        prefix: period,
        requests: [request(period)],
      },
      1,
    );
    endpoint[period] = {
      requests: result.completed,
      statuses: result.statuses,
      p50: result.latencyMs.p50,
      p99: result.latencyMs.p99,
      max: result.latencyMs.max,
      answerBytes: text.length,
      buckets: body.series.length,
    };
    console.log(
      `GET /ui/dashboard?period=${period}: p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms, max ${result.latencyMs.max.toFixed(2)} ms (${result.completed} requests, ${text.length} bytes)`,
    );
  }
} finally {
  await server.stop();
}

// ---- for comparison: the same sums straight from the transactions ---------------------------------
// Every range read as a "piece" (db/dashboard/repositories.ts), through the list index (the table
// looked up for the other columns) and through a covering index made for the run.
const compare = openDatabase(join(dataDir, DATABASE_FILE));
compare.pragma('cache_size = -262144');
function straight(label: string, repeats: number): Record<string, unknown> {
  const statement = compare.prepare(DASHBOARD_SQL.transactionPieces);
  const result: Record<string, unknown> = {};
  for (const period of DASHBOARD_PERIODS) {
    const json = JSON.stringify(rangesOf(period).map((r, i) => [i, r.from, r.to]));
    result[period] = time(repeats, () => statement.all(json, merchantId));
  }
  result.plan = (
    compare
      .prepare(`EXPLAIN QUERY PLAN ${DASHBOARD_SQL.transactionPieces}`)
      .all(JSON.stringify(monthRanges.map((r, i) => [i, r.from, r.to])), merchantId) as Array<{ detail: string }>
  ).map((r) => r.detail);
  console.log(`straight from the transactions (${label}): ${JSON.stringify(result)}`);
  return result;
}
const listIndex = straight('the list index, rows looked up in the table', 20);
const building = performance.now();
compare.exec(
  'CREATE INDEX bench_dashboard_covering ON transactions(merchant_id, created_at, operation, amount_minor, status_code, reason_code, authorized_minor, captured_minor, currency, payment_type)',
);
const indexBuiltMs = Math.round(performance.now() - building);
const covering = { ...straight('a covering index made for the run', 100), indexBuiltMs };
compare.exec('DROP INDEX bench_dashboard_covering');
compare.close();
const straightResults = { listIndex, covering };

// ---- what the triggers cost each write ------------------------------------------------------------
function writeCost(withTriggers: boolean): Record<string, number> {
  const dir = tempDir('tillgate-bench-writes-');
  const database = openDatabase(join(dir, DATABASE_FILE));
  migrate(database);
  if (!withTriggers) {
    for (const name of ['dashboard_hours_transaction_insert', 'dashboard_hours_transaction_update', 'dashboard_hours_transaction_delete'])
      database.exec(`DROP TRIGGER ${name}`);
  }
  database
    .prepare(
      "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m', 'Shop', 'EUR', 'x', '2026-01-01T00:00:00.000Z')",
    )
    .run();
  const insert = database.prepare(
    `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, order_id, currency, amount_minor, authorized_minor, created_at, updated_at)
     VALUES (?, 'm', ?, 'authorize', 4, ?, ?, ?, ?, ?, ?)`,
  );
  const capture = database.prepare(
    'UPDATE transactions SET captured_minor = amount_minor, status_code = 3, updated_at = ? WHERE id = ? AND status_code = 4',
  );
  const ids: string[] = [];
  const COUNT = 100_000;
  const start = Date.now() - 60 * DAY;
  const inserted = performance.now();
  for (let batch = 0; batch < COUNT; batch += 10_000) {
    database.transaction(() => {
      for (let i = batch; i < batch + 10_000; i += 1) {
        const at = start + i * 50_000;
        const id = uuidv7({ msecs: at });
        ids.push(id);
        const iso = new Date(at).toISOString();
        insert.run(
          id,
          i % 3 ? 'cardpos' : 'cardecom',
          `o-${i}`,
          ['EUR', 'USD', 'GBP'][i % 3],
          100 + (i % 5000),
          100 + (i % 5000),
          iso,
          iso,
        );
      }
    })();
  }
  const insertMs = performance.now() - inserted;
  const updated = performance.now();
  for (let batch = 0; batch < COUNT; batch += 10_000) {
    database.transaction(() => {
      for (let i = batch; i < batch + 10_000; i += 1) capture.run(new Date().toISOString(), ids[i]);
    })();
  }
  const updateMs = performance.now() - updated;
  database.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    insertMicrosPerRow: Math.round((insertMs * 10_000) / COUNT) / 10,
    captureMicrosPerRow: Math.round((updateMs * 10_000) / COUNT) / 10,
  };
}
const writes = {
  withoutTriggers: writeCost(false),
  withTriggers: writeCost(true),
  again: { withoutTriggers: writeCost(false), withTriggers: writeCost(true) },
};
console.log(`write cost: ${JSON.stringify(writes)}`);

const file = writeResult('dashboard', {
  benchmark: 'GET /ui/dashboard per period, one keep-alive connection, sequential, back-office session',
  transactions: seeded.count,
  timeZone,
  dataDir,
  machine: machineBefore,
  machineAfter: { loadAverage: machine().loadAverage, otherNodeTestRuns: machine().otherNodeTestRuns },
  migration,
  extras,
  rows: { rollup: rollupRows, refunds: refundRows },
  endpoint,
  worstP99: Math.max(...DASHBOARD_PERIODS.map((p) => (endpoint[p] as { p99: number }).p99)),
  inProcess,
  straightFromTransactions: straightResults,
  writes,
  sample,
});
console.log(`written ${file}`);
