/**
 * Benchmark 1: durable payment throughput over real HTTP on loopback.
 *
 *   node --import tsx bench/payments.ts [--connections 50] [--seconds 10] [--rounds 2] [--steady-seconds 10]
 *                                       [--steady-rate N] [--postbacks] [--no-ceiling] [--short]
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
 * The last line is the one-line verdict: throughput ratio, CPU ratio, p99 at the same rate.
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
  /** Server CPU (user + system) per answered request over the closed-loop run, microseconds. */
  cpuUsPerRequest: number;
  steady?: LoadResult;
}

async function measure(server: Server, request: ReturnType<typeof paymentRequest>, prefix: string, steady: boolean): Promise<Measured> {
  const base = { host: server.host, port: server.port, connections, requests: [request], graceMs: 5_000 };
  if (warmupMs > 0) await runLoad({ ...base, durationMs: warmupMs, prefix: `${prefix}-warm-` }, 1);
  const before = processCpuMicros(server.pid);
  const closed = await runLoad({ ...base, durationMs, prefix: `${prefix}-run-` }, 1);
  const cpuUsPerRequest = Math.round((processCpuMicros(server.pid) - before) / Math.max(1, closed.completed));
  if (!steady) return { closed, cpuUsPerRequest };
  steadyRate ??= Math.round(closed.requestsPerSecond / 2);
  const open = await runLoad(
    { ...base, connections: Math.min(connections, 20), rate: steadyRate, durationMs: steadyMs, prefix: `${prefix}-steady-` },
    1,
  );
  return { closed, cpuUsPerRequest, steady: open };
}

async function gatewayRound(round: number, postbackUrl?: string): Promise<Measured> {
  const dir = tempDir('tillgate-bench-pay-');
  const merchant = createMerchant(dir);
  const server = await startGateway(dir, { cpu: 0, args: values.args ? values.args.split(' ') : [] });
  try {
    return await measure(server, paymentRequest(basicAuth(merchant), postbackUrl ? { postbackUrl } : {}), `g${round}`, true);
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
  statuses: m.closed.statuses,
  errors: m.closed.errors + m.closed.timeouts + (m.steady ? m.steady.errors + m.steady.timeouts : 0),
});
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

const machineBefore = machine();
const sink = values.postbacks ? await receiver() : undefined;
const runs: Array<{
  round: number;
  gateway?: Measured;
  naive?: Measured;
  ceiling?: Measured;
  ratio?: number;
  cpuRatio?: number;
  steadyP99Ratio?: number;
}> = [];
for (let round = 1; round <= rounds; round += 1) {
  // The naive server first: its closed-loop rate sets the steady rate both are offered.
  const naive = values.only === 'gateway' ? undefined : await naiveRound(round);
  const gateway = values.only === 'naive' ? undefined : await gatewayRound(round, sink?.url);
  const ceiling = values.only || noCeiling ? undefined : await naiveRound(round, 'OFF');
  const both = gateway && naive ? { gateway, naive } : undefined;
  const run = {
    round,
    gateway,
    naive,
    ceiling,
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
      ratio: run.ratio,
      cpuRatio: run.cpuRatio,
      steadyP99Ratio: run.steadyP99Ratio,
    }),
  );
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
  runs: runs.map((r) => ({
    round: r.round,
    ratio: r.ratio,
    cpuRatio: r.cpuRatio,
    steadyP99Ratio: r.steadyP99Ratio,
    gateway: r.gateway,
    naive: r.naive,
    ceilingNoFsync: r.ceiling,
  })),
  postbacksReceived: sink?.count(),
});
console.log(`written ${file}`);
for (const r of runs) {
  if (!r.gateway || !r.naive) continue;
  const g = r.gateway;
  const n = r.naive;
  console.log(
    `payments round ${r.round}: throughput ${g.closed.requestsPerSecond}/s vs naive ${n.closed.requestsPerSecond}/s = ${r.ratio}x (target >= 2)` +
      ` | CPU per payment ${g.cpuUsPerRequest} us vs ${n.cpuUsPerRequest} us = ${r.cpuRatio}x (target <= 2)` +
      (g.steady && n.steady
        ? ` | p99 at ${steadyRate}/s ${g.steady.latencyMs.p99} ms vs ${n.steady.latencyMs.p99} ms = ${r.steadyP99Ratio}x (target <= 1)`
        : '') +
      ` | non-200: ${
        Object.entries({ ...g.closed.statuses })
          .filter(([code]) => code !== '200')
          .reduce((sum, [, count]) => sum + count, 0) +
        g.closed.errors +
        g.closed.timeouts
      }`,
  );
}
