/**
 * Benchmark 1: durable payment throughput over real HTTP on loopback.
 *
 *   node --import tsx bench/payments.ts [--connections 50] [--seconds 10] [--rounds 2] [--postbacks] [--no-ceiling]
 *
 * Runs, alternately and `rounds` times, the gateway (`gateway serve` with default settings, a
 * fresh data dir, POST /rest/payment cardpos approved with a unique Idempotency-Key each) and the
 * naive reference (bench/naive-server.ts), each after a 2 s warm-up, with the load generator in a
 * separate process (server pinned to CPU 0, load generator to CPU 1 where taskset exists).
 * With --postbacks every payment carries a postback_url to a local receiver, so the outbox is
 * written and drained during the run. Each round also runs the naive server without fsync
 * (`synchronous=OFF`, not durable) as the ceiling: the most this stack answers per second on one
 * core when durability costs nothing (--no-ceiling skips it). Writes bench/results/payments.json.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import type { LoadResult } from './lib/loadgen.js';
import { basicAuth, createMerchant, machine, paymentRequest, runLoad, startGateway, startNaive, tempDir, writeResult, type Server } from './lib/procs.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    postbacks: { type: 'boolean', default: false },
    'no-ceiling': { type: 'boolean', default: false },
    only: { type: 'string' },
    args: { type: 'string', default: '' },
  },
});
const connections = Number(values.connections);
const durationMs = Number(values.seconds) * 1000;
const rounds = Math.min(10, Number(values.rounds));
const warmupMs = Number(values.warmup) * 1000;

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
  return { url: `http://127.0.0.1:${port}/postbacks`, count: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function measure(server: Server, request: ReturnType<typeof paymentRequest>, prefix: string): Promise<LoadResult> {
  const base = { host: server.host, port: server.port, connections, requests: [request], graceMs: 5_000 };
  if (warmupMs > 0) await runLoad({ ...base, durationMs: warmupMs, prefix: `${prefix}-warm-` }, 1);
  return runLoad({ ...base, durationMs, prefix: `${prefix}-run-` }, 1);
}

async function gatewayRound(round: number, postbackUrl?: string): Promise<LoadResult> {
  const dir = tempDir('tillgate-bench-pay-');
  const merchant = createMerchant(dir);
  const server = await startGateway(dir, { cpu: 0, args: values.args ? values.args.split(' ') : [] });
  try {
    return await measure(server, paymentRequest(basicAuth(merchant), postbackUrl ? { postbackUrl } : {}), `g${round}`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function naiveRound(round: number, synchronous: 'FULL' | 'OFF' = 'FULL'): Promise<LoadResult> {
  const dir = tempDir('tillgate-bench-naive-');
  const server = await startNaive(dir, { cpu: 0, synchronous });
  try {
    return await measure(server, paymentRequest('Basic none'), `n${round}`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const summary = (r: LoadResult) => ({
  rps: r.requestsPerSecond,
  p50: r.latencyMs.p50,
  p99: r.latencyMs.p99,
  max: r.latencyMs.max,
  statuses: r.statuses,
  errors: r.errors + r.timeouts,
});

const machineBefore = machine();
const sink = values.postbacks ? await receiver() : undefined;
const runs: Array<{ round: number; gateway?: LoadResult; naive?: LoadResult; ceiling?: LoadResult; ratio?: number }> = [];
for (let round = 1; round <= rounds; round += 1) {
  const gateway = values.only === 'naive' ? undefined : await gatewayRound(round, sink?.url);
  const naive = values.only === 'gateway' ? undefined : await naiveRound(round);
  const ceiling = values.only || values['no-ceiling'] ? undefined : await naiveRound(round, 'OFF');
  const ratio = gateway && naive ? Math.round((gateway.requestsPerSecond / naive.requestsPerSecond) * 100) / 100 : undefined;
  runs.push({ round, gateway, naive, ceiling, ratio });
  console.log(JSON.stringify({ round, gateway: gateway && summary(gateway), naive: naive && summary(naive), ceiling: ceiling && summary(ceiling), ratio }));
}
await sink?.close();

const file = writeResult(values.postbacks ? 'payments-postbacks' : 'payments', {
  benchmark: 'POST /rest/payment cardpos approved, Idempotency-Key per request, closed loop',
  connections,
  durationMs,
  warmupMs,
  postbacks: values.postbacks,
  serverArgs: values.args || null,
  gatewayBin: process.env.BENCH_GATEWAY_BIN ?? null,
  machine: machineBefore,
  machineAfter: { loadAverage: machine().loadAverage, otherNodeTestRuns: machine().otherNodeTestRuns },
  runs: runs.map((r) => ({ round: r.round, ratio: r.ratio, gateway: r.gateway, naive: r.naive, ceilingNoFsync: r.ceiling })),
  postbacksReceived: sink?.count(),
});
console.log(`written ${file}`);
