/**
 * Benchmark 3: GET /rest/transactions with every filter combination at a million transactions.
 *
 *   node --import tsx bench/list-queries.ts [--data-dir DIR] [--count 1000000] [--requests 200] [--seconds 5]
 *
 * Uses DIR when it holds a seeded database (bench/seed.ts writes DIR/bench-merchant.json), else
 * seeds a new temp dir with --count transactions. Starts `gateway serve` on it and asks, for each
 * combination of order_id x currency x status (none, one, a list) x time (none, a month, from a
 * day on), `--requests` pages of 50 (rotating through 20 parameter sets, one connection, at most
 * `--seconds` per combination), then records p50/p99/max and SQLite's EXPLAIN QUERY PLAN of the
 * query the repository builds (db/payments/transactions.ts transactionListSql). Writes
 * bench/results/list-queries.json.
 *
 * `--engine postgres` runs the same on PostgreSQL (issue 19): a durable cluster in a temp dir
 * (tests/helpers/postgres.ts), the schema by the gateway's own migrations, the seeded merchant and
 * transactions copied over from the SQLite seed, ANALYZE, then `gateway serve --database` and
 * PostgreSQL's EXPLAIN of each query; it records which plan nodes each query uses, so a Sort or a
 * Seq Scan on transactions shows. Writes bench/results/list-queries-postgres.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../db/open.js';
import { transactionListSql } from '../db/payments/transactions.js';
import { copyToPostgres, postgresPlan, type PostgresCopy } from './lib/postgres-copy.js';
import type { TransactionFilter } from '../main/core/payments/ports.js';
import { basicAuth, machine, runLoad, startGateway, tempDir, writeResult } from './lib/procs.js';
import { seed, type SeedResult } from './seed.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    count: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '5' },
    only: { type: 'string' },
    engine: { type: 'string', default: 'sqlite' },
  },
});
const onPostgres = values.engine === 'postgres';

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

const first = Date.parse(seeded.firstCreatedAt);
const last = Date.parse(seeded.lastCreatedAt);
const DAY = 24 * 60 * 60 * 1000;
const VARIANTS = 20;

type StatusKind = 'none' | 'one' | 'list';
type TimeKind = 'none' | 'month' | 'from';
interface Combination {
  name: string;
  order: boolean;
  currency: boolean;
  status: StatusKind;
  time: TimeKind;
}

const combinations: Combination[] = [];
for (const order of [false, true]) {
  for (const currency of [false, true]) {
    for (const status of ['none', 'one', 'list'] as const) {
      for (const time of ['none', 'month', 'from'] as const) {
        const parts = [
          order && 'order_id',
          currency && 'currency',
          status === 'one' && 'status',
          status === 'list' && 'status list',
          time === 'month' && 'from+to (a month)',
          time === 'from' && 'from (last day)',
        ].filter(Boolean);
        combinations.push({ name: parts.length ? parts.join(' + ') : 'no filter', order, currency, status, time });
      }
    }
  }
}

const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK'];
const STATUS_LISTS = [
  [3, 8],
  [10, 12],
  [6, 11],
  [1, 2],
  [7, 8],
  [4, 5],
  [9, 10, 11],
];

/** The filter of variant `v` of a combination (deterministic). */
function filterOf(c: Combination, v: number): Omit<TransactionFilter, 'limit' | 'offset'> {
  const filter: Omit<TransactionFilter, 'limit' | 'offset'> = {};
  if (c.order) filter.orderId = `order-${Math.floor(((v * 7919) % VARIANTS) * (seeded.count / VARIANTS)) + v}`;
  if (c.currency) filter.currency = CURRENCIES[v % CURRENCIES.length] as string;
  if (c.status === 'one') filter.statusCodes = [(v % 12) + 1];
  if (c.status === 'list') filter.statusCodes = STATUS_LISTS[v % STATUS_LISTS.length] as number[];
  if (c.time === 'month') {
    const from = first + ((last - first - 31 * DAY) * ((v * 37) % VARIANTS)) / VARIANTS;
    filter.from = new Date(from).toISOString();
    filter.to = new Date(from + 31 * DAY).toISOString();
  }
  if (c.time === 'from') filter.from = new Date(last - DAY).toISOString();
  return filter;
}

function queryString(filter: Omit<TransactionFilter, 'limit' | 'offset'>): string {
  const params = new URLSearchParams();
  if (filter.orderId) params.set('order_id', filter.orderId);
  if (filter.currency) params.set('currency', filter.currency);
  if (filter.statusCodes) params.set('status', filter.statusCodes.join(','));
  if (filter.from) params.set('from', filter.from);
  if (filter.to) params.set('to', filter.to);
  const text = params.toString();
  return text ? `?${text}` : '';
}

const machineBefore = machine();
const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
const target: PostgresCopy | undefined = onPostgres ? await copyToPostgres(db, (line) => console.log(line)) : undefined;
const plans = new Map<string, unknown>();
for (const c of combinations) {
  const { sql, params } = transactionListSql(
    seeded.merchant.merchant_id,
    { limit: 50, offset: 0, ...filterOf(c, 1) },
    target ? 'postgres' : 'sqlite',
  );
  plans.set(
    c.name,
    target
      ? await postgresPlan(target.pool, sql, params)
      : (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail),
  );
}
const rowsOf = async (c: Combination, v: number) => {
  const { sql, params } = transactionListSql(
    seeded.merchant.merchant_id,
    { limit: 50, offset: 0, ...filterOf(c, v) },
    target ? 'postgres' : 'sqlite',
  );
  return target ? (await target.query(sql, params)).length : (db.prepare(sql).all(...params) as unknown[]).length;
};

const server = await startGateway(dataDir, { cpu: 0, args: ['--log-level', 'warn', ...(target ? ['--database', target.url] : [])] });
const auth = basicAuth(seeded.merchant);
const results: Array<Record<string, unknown>> = [];
try {
  // Warm the server (JIT, statement cache) on one combination.
  await runLoad(
    {
      host: server.host,
      port: server.port,
      connections: 1,
      durationMs: 1000,
      prefix: 'w',
      requests: [{ method: 'GET', path: '/rest/transactions', headers: { authorization: auth } }],
    },
    1,
  );
  for (const c of combinations) {
    if (values.only && !c.name.includes(values.only)) continue;
    const requests = Array.from({ length: VARIANTS }, (_unused, v) => ({
      method: 'GET',
      path: `/rest/transactions${queryString(filterOf(c, v))}`,
      headers: { authorization: auth },
    }));
    const result = await runLoad(
      {
        host: server.host,
        port: server.port,
        connections: 1,
        durationMs: Number(values.seconds) * 1000,
        maxRequests: Number(values.requests),
        prefix: 'q',
        requests,
      },
      1,
    );
    const row = {
      combination: c.name,
      requests: result.completed,
      statuses: result.statuses,
      p50: result.latencyMs.p50,
      p99: result.latencyMs.p99,
      max: result.latencyMs.max,
      rowsPerPage: await Promise.all(Array.from({ length: 4 }, (_unused, v) => rowsOf(c, v))),
      example: requests[1]?.path,
      plan: plans.get(c.name),
    };
    results.push(row);
    console.log(
      `${row.p50.toFixed(2).padStart(8)} ${row.p99.toFixed(2).padStart(8)} ms  ${c.name}  ${JSON.stringify(onPostgres ? (row.plan as { nodes: string[] }).nodes : row.plan)}`,
    );
  }
} finally {
  await server.stop();
  db.close();
  await target?.close();
}

const file = writeResult(onPostgres ? 'list-queries-postgres' : 'list-queries', {
  benchmark: 'GET /rest/transactions, page of 50, one connection, 20 parameter sets per combination',
  engine: onPostgres ? 'postgres' : 'sqlite',
  transactions: seeded.count,
  dataDir,
  machine: machineBefore,
  machineAfter: { loadAverage: machine().loadAverage, otherNodeTestRuns: machine().otherNodeTestRuns },
  worstP99: Math.max(...results.map((r) => r.p99 as number)),
  results,
});
console.log(`written ${file}`);
