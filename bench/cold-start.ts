/**
 * Benchmark 4: headless cold start on the million-transaction database, then RSS under a minute
 * of mixed load.
 *
 *   node --import tsx bench/cold-start.ts [--data-dir DIR] [--count 1000000] [--starts 5] [--seconds 60] [--rate 500] [--drop-caches]
 *
 * Uses (or seeds, as bench/list-queries.ts does) DIR. Each start spawns `gateway serve` on a free
 * port and polls it every 2 ms until an authenticated GET /rest/transactions answers 200: the
 * time from spawn to that answer is the cold start (new process, the database file in the page
 * cache; with --drop-caches, run as root, the page cache is dropped before each start as well).
 * The last server then takes `--seconds` of mixed load at `--rate` req/s over 20 connections
 * (60 % POST /rest/payment with idempotency keys, 30 % list queries with filters, 10 % the event
 * log of a transaction); RSS is sampled every second. Writes bench/results/cold-start.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { basicAuth, GATEWAY_BIN, machine, paymentRequest, rssMiB, runLoad, sleep, tempDir, writeResult } from './lib/procs.js';
import { seed, type SeedResult } from './seed.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    count: { type: 'string', default: '1000000' },
    starts: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '500' },
    'drop-caches': { type: 'boolean', default: false },
  },
});

const dataDir = values['data-dir'] ?? tempDir('tillgate-bench-1m-');
const seededFile = join(dataDir, 'bench-merchant.json');
const seeded: SeedResult = existsSync(seededFile)
  ? (JSON.parse(readFileSync(seededFile, 'utf8')) as SeedResult)
  : seed(dataDir, { count: Number(values.count), years: 2, events: false, log: (line) => console.log(line) });
const auth = basicAuth(seeded.merchant);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { authorization: auth }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function dropCaches(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

async function start(): Promise<{ ms: number; pid: number; port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const started = performance.now();
  const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, GATEWAY_BIN, 'serve', '--data-dir', dataDir, '--port', String(port)], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = started + 30_000;
  for (;;) {
    if (performance.now() > deadline) throw new Error('no answer within 30 s');
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    try {
      const answer = await get(port, '/rest/transactions?limit=1');
      if (answer.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(2);
  }
  const ms = Math.round(performance.now() - started);
  return {
    ms,
    pid: child.pid as number,
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const machineBefore = machine();
const starts: Array<{ ms: number; rssAtStartMiB: number | null; cachesDropped: boolean }> = [];
let last: Awaited<ReturnType<typeof start>> | undefined;
const count = Math.max(1, Math.min(20, Number(values.starts)));
for (let i = 0; i < count; i += 1) {
  const dropped = values['drop-caches'] ? dropCaches() : false;
  const s = await start();
  starts.push({ ms: s.ms, rssAtStartMiB: rssMiB(s.pid), cachesDropped: dropped });
  console.log(`start ${i + 1}: first answer after ${s.ms} ms${dropped ? ' (page cache dropped)' : ''}, RSS ${rssMiB(s.pid)} MiB`);
  if (i < count - 1) await s.stop();
  else last = s;
}
if (!last) throw new Error('no server');

// A minute of mixed load with RSS samples.
const list = ['', '?currency=USD', '?status=3,8', '?status=6&from=2025-06-01T00:00:00Z&to=2025-07-01T00:00:00Z', '?order_id=order-4242'];
const first = JSON.parse((await get(last.port, '/rest/transactions?limit=1')).body) as Array<{ transaction_id: string }>;
const someId = first[0]?.transaction_id ?? 'none';
const requests = [
  ...Array.from({ length: 6 }, () => paymentRequest(auth)),
  ...list.slice(0, 3).map((q) => ({ method: 'GET', path: `/rest/transactions${q}`, headers: { authorization: auth } })),
  { method: 'GET', path: `/rest/transactions/${someId}/log`, headers: { authorization: auth } },
];
const rss: number[] = [];
const sampler = setInterval(() => {
  const value = last ? rssMiB(last.pid) : null;
  if (value !== null) rss.push(value);
}, 1000);
const durationMs = Number(values.seconds) * 1000;
const load = await runLoad(
  { host: '127.0.0.1', port: last.port, connections: 20, rate: Number(values.rate), durationMs, prefix: `mix${Date.now()}-`, requests },
  1,
);
clearInterval(sampler);
const finalRss = rssMiB(last.pid);
await last.stop();

const sorted = [...starts].map((s) => s.ms).sort((a, b) => a - b);
const file = writeResult('cold-start', {
  benchmark: 'gateway serve on the seeded database: spawn to first authenticated answer; RSS during mixed load',
  transactions: seeded.count,
  databaseBytes: seeded.databaseBytes,
  machine: machineBefore,
  starts,
  medianStartMs: sorted[Math.floor(sorted.length / 2)],
  maxStartMs: sorted[sorted.length - 1],
  gatewayNodeArgs: process.env.BENCH_GATEWAY_NODE_ARGS ?? null,
  mixedLoad: {
    seconds: Number(values.seconds),
    rate: Number(values.rate),
    mix: '60 % POST /rest/payment, 30 % GET /rest/transactions with filters, 10 % GET /rest/transactions/{id}/log',
    requestsPerSecond: load.requestsPerSecond,
    statuses: load.statuses,
    latencyMs: load.latencyMs,
  },
  rssMiB: { samples: rss, max: Math.max(...rss), final: finalRss },
  machineAfter: { loadAverage: machine().loadAverage, otherNodeTestRuns: machine().otherNodeTestRuns },
});
console.log(`RSS max ${Math.max(...rss)} MiB, final ${finalRss} MiB; written ${file}`);
