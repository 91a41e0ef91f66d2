/**
 * Benchmark 1: durable payment throughput over real HTTP on loopback.
 *
 *   node --import tsx bench/payments.ts [--connections 50] [--seconds 10] [--rounds 2] [--steady-seconds 10]
 *                                       [--steady-rate N] [--postbacks] [--no-ceiling] [--short] [--skip-postgres]
 *
 * Runs, alternately and `rounds` times, the gateway (`gateway serve` with default settings, a
 * fresh data dir, POST /rest/payment cardpos approved with a unique Idempotency-Key each) and the
 * naive reference (bench/naive-server.ts), each after a 2 s warm-up, with the load generator in a
 * separate process (server pinned to CPU 0, load generator to CPU 1 where taskset exists).
 * Each server is measured three ways in one start:
 * - closed loop, `connections` connections: requests per second, p50/p99;
 * - server CPU per request: the server process's utime+stime from /proc over the closed-loop run,
 *   divided by the answers;
 * - open loop at one steady offered rate, the same for both (`--steady-rate`, default half of the
 *   naive server's closed-loop rate in round 1): p99 without coordinated omission.
 * - the garbage collector over the closed-loop run (the gateway runs with V8's --trace-gc-nvp, whose
 *   lines it writes to stdout: bytes allocated and promoted per payment, full collections per
 *   10,000 payments);
 * - PostgreSQL in the same run (unless --skip-postgres or PostgreSQL 15 is not installed): the same
 *   gateway on a fresh database of one durable cluster (tests/helpers/postgres.ts), the cluster
 *   pinned to the gateway's core, closed loop only; its CPU per payment counts the gateway and every
 *   process of the cluster (bench/lib/postgres-cluster.ts).
 * The last line of each round is the one-line verdict, in the order of issue 38's table: throughput
 * and CPU per payment against the naive stack, p99 at the same steady rate, allocation per payment,
 * and PostgreSQL's CPU per payment against SQLite's.
 * `--short` (CI): 1 round of 3 s closed and 3 s steady, no ceiling; it reports, it does not judge.
 * With --postbacks every payment carries a postback_url to a local receiver, so the outbox is
 * written and drained during the run. Each round also runs the naive server without fsync
 * (`synchronous=OFF`, not durable) as the ceiling: the most this stack answers per second on one
 * core when durability costs nothing (--no-ceiling skips it). Writes bench/results/payments.json.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import type { LoadResult } from './lib/loadgen.js';
import {
  basicAuth,
  createMerchant,
  machine,
  paymentRequest,
  processCpuMicros,
  runLoad,
  startGateway,
  startNaive,
  tempDir,
  writeResult,
  type Server,
} from './lib/procs.js';
import { clusterCpu, merchantOn, pinCluster } from './lib/postgres-cluster.js';
import { createDatabase, postgresAvailable, startCluster, type TestCluster } from '../tests/helpers/postgres.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    postbacks: { type: 'boolean', default: false },
    short: { type: 'boolean', default: false },
    'steady-seconds': { type: 'string', default: '10' },
    'steady-rate': { type: 'string' },
    'no-ceiling': { type: 'boolean', default: false },
    only: { type: 'string' },
    args: { type: 'string', default: '' },
    'skip-postgres': { type: 'boolean', default: false },
  },
});
const short = values.short;
const connections = Number(values.connections);
const durationMs = (short ? 3 : Number(values.seconds)) * 1000;
const rounds = short ? 1 : Math.min(10, Number(values.rounds));
const warmupMs = (short ? 1 : Number(values.warmup)) * 1000;
const steadyMs = (short ? 3 : Number(values['steady-seconds'])) * 1000;
const noCeiling = short || values['no-ceiling'];
/** The offered rate of the steady phase: fixed by --steady-rate, else half the naive's first closed-loop rate. */
let steadyRate = values['steady-rate'] ? Number(values['steady-rate']) : undefined;

async function receiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/postbacks`,
    count: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Measured {
  closed: LoadResult;
  /** Server CPU (user + system) per answered request over the closed-loop run, microseconds (a cluster's included). */
  cpuUsPerRequest: number;
  /** The garbage collector over the closed-loop run, per answered request (a gateway started with gcTrace). */
  gc?: { allocatedBytesPerRequest: number; promotedBytesPerRequest: number; markCompactsPer10k: number };
  steady?: LoadResult;
}

async function measure(
  server: Server,
  request: ReturnType<typeof paymentRequest>,
  prefix: string,
  steady: boolean,
  clusterDir?: string,
): Promise<Measured> {
  const base = { host: server.host, port: server.port, connections, requests: [request], graceMs: 5_000 };
  if (warmupMs > 0) await runLoad({ ...base, durationMs: warmupMs, prefix: `${prefix}-warm-` }, 1);
  const cpu = () => processCpuMicros(server.pid) + (clusterDir ? clusterCpu(clusterDir) : 0);
  const before = cpu();
  const gcBefore = server.gc();
  const closed = await runLoad({ ...base, durationMs, prefix: `${prefix}-run-` }, 1);
  const answered = Math.max(1, closed.completed);
  const cpuUsPerRequest = Math.round((cpu() - before) / answered);
  const gcAfter = server.gc();
  const gc =
    gcBefore && gcAfter
      ? {
          allocatedBytesPerRequest: Math.round((gcAfter.allocatedBytes - gcBefore.allocatedBytes) / answered),
          promotedBytesPerRequest: Math.round((gcAfter.promotedBytes - gcBefore.promotedBytes) / answered),
          markCompactsPer10k: Math.round(((gcAfter.markCompacts - gcBefore.markCompacts) * 10_000 * 10) / answered) / 10,
        }
      : undefined;
  if (!steady) return { closed, cpuUsPerRequest, ...(gc ? { gc } : {}) };
  steadyRate ??= Math.round(closed.requestsPerSecond / 2);
  const open = await runLoad(
    { ...base, connections: Math.min(connections, 20), rate: steadyRate, durationMs: steadyMs, prefix: `${prefix}-steady-` },
    1,
  );
  return { closed, cpuUsPerRequest, ...(gc ? { gc } : {}), steady: open };
}

async function gatewayRound(round: number, postbackUrl?: string): Promise<Measured> {
  const dir = tempDir('tillgate-bench-pay-');
  const merchant = createMerchant(dir);
  const server = await startGateway(dir, { cpu: 0, args: values.args ? values.args.split(' ') : [], gcTrace: true });
  try {
    return await measure(server, paymentRequest(basicAuth(merchant), postbackUrl ? { postbackUrl } : {}), `g${round}`, true);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same gateway on PostgreSQL (a fresh database of the run's durable cluster, pinned to the
 * gateway's core): closed loop only, CPU per payment of the gateway and the whole cluster.
 */
async function postgresRound(round: number, cluster: TestCluster): Promise<Measured> {
  const dir = tempDir('tillgate-bench-pay-pg-');
  const database = await createDatabase(cluster.url, `bench_payments_${round}_${Date.now().toString(36)}`);
  const merchant = merchantOn(dir, database);
  const server = await startGateway(dir, {
    cpu: 0,
    args: ['--database', database, ...(values.args ? values.args.split(' ') : [])],
    gcTrace: true,
  });
  try {
    return await measure(server, paymentRequest(basicAuth(merchant)), `p${round}`, false, cluster.dataDir);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function naiveRound(round: number, synchronous: 'FULL' | 'OFF' = 'FULL'): Promise<Measured> {
  const dir = tempDir('tillgate-bench-naive-');
  const server = await startNaive(dir, { cpu: 0, synchronous });
  try {
    return await measure(server, paymentRequest('Basic none'), `n${round}`, synchronous === 'FULL');
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const summary = (m: Measured) => ({
  rps: m.closed.requestsPerSecond,
  p50: m.closed.latencyMs.p50,
  p99: m.closed.latencyMs.p99,
  max: m.closed.latencyMs.max,
  cpuUsPerRequest: m.cpuUsPerRequest,
  ...(m.steady
    ? { steady: { rate: m.steady.targetRate, p50: m.steady.latencyMs.p50, p99: m.steady.latencyMs.p99, max: m.steady.latencyMs.max } }
    : {}),
  ...(m.gc ? { gc: m.gc } : {}),
  statuses: m.closed.statuses,
  errors: m.closed.errors + m.closed.timeouts + (m.steady ? m.steady.errors + m.steady.timeouts : 0),
});
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

const machineBefore = machine();
const sink = values.postbacks ? await receiver() : undefined;
// PostgreSQL in the same run: one durable cluster for every round, pinned to the gateway's core.
const cluster =
  !values['skip-postgres'] && values.only === undefined && postgresAvailable() ? await startCluster({ durable: true }) : undefined;
const clusterPinned = cluster ? pinCluster(cluster.dataDir, 0) : false;
const runs: Array<{
  round: number;
  gateway?: Measured;
  naive?: Measured;
  ceiling?: Measured;
  postgres?: Measured;
  ratio?: number;
  cpuRatio?: number;
  steadyP99Ratio?: number;
  postgresCpuRatio?: number;
}> = [];
try {
  for (let round = 1; round <= rounds; round += 1) {
    // The naive server first: its closed-loop rate sets the steady rate both are offered.
    const naive = values.only === 'gateway' ? undefined : await naiveRound(round);
    const gateway = values.only === 'naive' ? undefined : await gatewayRound(round, sink?.url);
    const ceiling = values.only || noCeiling ? undefined : await naiveRound(round, 'OFF');
    const postgres = cluster ? await postgresRound(round, cluster) : undefined;
    const both = gateway && naive ? { gateway, naive } : undefined;
    const run = {
      round,
      gateway,
      naive,
      ceiling,
      postgres,
      ...(postgres && gateway ? { postgresCpuRatio: ratio(postgres.cpuUsPerRequest, gateway.cpuUsPerRequest) } : {}),
      ...(both
        ? {
            ratio: ratio(both.gateway.closed.requestsPerSecond, both.naive.closed.requestsPerSecond),
            cpuRatio: ratio(both.gateway.cpuUsPerRequest, both.naive.cpuUsPerRequest),
            ...(both.gateway.steady && both.naive.steady
              ? { steadyP99Ratio: ratio(both.gateway.steady.latencyMs.p99, both.naive.steady.latencyMs.p99) }
              : {}),
          }
        : {}),
    };
    runs.push(run);
    console.log(
      JSON.stringify({
        round,
        gateway: gateway && summary(gateway),
        naive: naive && summary(naive),
        ceiling: ceiling && summary(ceiling),
        postgres: postgres && summary(postgres),
        ratio: run.ratio,
        cpuRatio: run.cpuRatio,
        steadyP99Ratio: run.steadyP99Ratio,
        postgresCpuRatio: run.postgresCpuRatio,
      }),
    );
  }
} finally {
  cluster?.stop();
}
await sink?.close();

const file = writeResult(values.postbacks ? 'payments-postbacks' : short ? 'payments-short' : 'payments', {
  benchmark: 'POST /rest/payment cardpos approved, Idempotency-Key per request, closed loop',
  connections,
  durationMs,
  warmupMs,
  postbacks: values.postbacks,
  serverArgs: values.args || null,
  gatewayBin: process.env.BENCH_GATEWAY_BIN ?? null,
  machine: machineBefore,
  machineAfter: { loadAverage: machine().loadAverage, otherNodeTestRuns: machine().otherNodeTestRuns },
  steadyRate: steadyRate ?? null,
  postgres: cluster ? { durable: true, pinnedToCpu0: clusterPinned } : null,
  runs: runs.map((r) => ({
    round: r.round,
    ratio: r.ratio,
    cpuRatio: r.cpuRatio,
    steadyP99Ratio: r.steadyP99Ratio,
    postgresCpuRatio: r.postgresCpuRatio,
    gateway: r.gateway,
    naive: r.naive,
    ceilingNoFsync: r.ceiling,
    postgres: r.postgres,
  })),
  postbacksReceived: sink?.count(),
});
console.log(`written ${file}`);
const kb = (bytes: number) => `${Math.round(bytes / 100) / 10} KB`;
for (const r of runs) {
  if (!r.gateway || !r.naive) continue;
  const g = r.gateway;
  const n = r.naive;
  const nonOk =
    Object.entries({ ...g.closed.statuses })
      .filter(([code]) => code !== '200')
      .reduce((sum, [, count]) => sum + count, 0) +
    g.closed.errors +
    g.closed.timeouts;
  // One line: the issue 38 table's figures in its order.
  console.log(
    `payments round ${r.round}: throughput ${g.closed.requestsPerSecond}/s vs naive ${n.closed.requestsPerSecond}/s = ${r.ratio}x (target >= 1.2)` +
      ` | CPU per payment ${g.cpuUsPerRequest} us vs ${n.cpuUsPerRequest} us = ${r.cpuRatio}x (target <= 1.25)` +
      (g.steady && n.steady
        ? ` | p99 at ${steadyRate}/s ${g.steady.latencyMs.p99} ms vs ${n.steady.latencyMs.p99} ms = ${r.steadyP99Ratio}x (target <= 2)`
        : '') +
      (g.gc
        ? ` | allocated ${kb(g.gc.allocatedBytesPerRequest)}, promoted ${kb(g.gc.promotedBytesPerRequest)} per payment, ${g.gc.markCompactsPer10k} full GCs per 10,000`
        : '') +
      (r.postgres
        ? ` | PostgreSQL CPU per payment ${r.postgres.cpuUsPerRequest} us (gateway + cluster, one core) vs SQLite ${g.cpuUsPerRequest} us = ${r.postgresCpuRatio}x (target <= 2.5)`
        : '') +
      ` | non-200: ${nonOk}`,
  );
}
