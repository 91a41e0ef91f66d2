/**
 * Benchmark: durable payment throughput and latency with one and two gateway instances on
 * PostgreSQL, against the SQLite gateway in the same run (issue 19).
 *
 *   node --import tsx bench/postgres-scaling.ts [--connections 32] [--seconds 10] [--rounds 2] [--terminals 16]
 *
 * PostgreSQL 15 from Debian runs in a temp dir with its production durability (fsync and
 * synchronous_commit on: a payment answered 200 is on disk), as tests/helpers/postgres.ts starts
 * it. Each configuration gets a fresh database (or data dir), a merchant, a 2 s warm-up, then
 * `seconds` of closed-loop load: POST /rest/payment (cardpos, approved, unique Idempotency-Key),
 * spread over `terminals` tills. With two instances the load generator spreads its connections
 * over both, as a round-robin balancer would. The gateways are pinned to CPU 0, the load generator
 * to CPU 1, PostgreSQL is not pinned: on this 2-core machine every configuration shares the same two
 * cores, which is what docs/benchmarks.md says about what can and cannot be seen here.
 * CPU per payment is measured from /proc over the closed-loop run: the gateway processes' user +
 * system time, plus, on PostgreSQL, the whole cluster's (the postmaster, every backend and
 * background process, and the children that exited meanwhile, whose time the postmaster collects).
 * From it: projected payments per core = 1 s / CPU per payment, what one more core buys when the
 * work is CPU-bound and spreads (it says nothing about the disk's fsync rate or lock waits).
 * Writes bench/results/postgres-scaling.json.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDatabase, startCluster } from '../tests/helpers/postgres.js';
import { clusterCpu, merchantOn } from './lib/postgres-cluster.js';
import type { LoadResult } from './lib/loadgen.js';
import {
  basicAuth,
  machine,
  paymentRequest,
  processCpuMicros,
  runLoad,
  startGateway,
  tempDir,
  writeResult,
  type Server,
} from './lib/procs.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    terminals: { type: 'string', default: '16' },
  },
});
const connections = Number(values.connections);
const durationMs = Number(values.seconds) * 1000;
const rounds = Math.min(10, Number(values.rounds));
const warmupMs = Number(values.warmup) * 1000;
const terminals = Number(values.terminals);
const dataKey = randomBytes(32).toString('base64');

type Config = 'sqlite' | 'postgres-1' | 'postgres-2';

interface Measured extends LoadResult {
  /** Microseconds of CPU per answered payment: the gateways, and the PostgreSQL cluster. */
  cpu: { gatewayUs: number; postgresUs: number; totalUs: number };
}

async function measure(servers: Server[], auth: string, prefix: string, dataDir: string | undefined): Promise<Measured> {
  const requests = Array.from({ length: terminals }, (_unused, i) =>
    paymentRequest(auth, { terminalId: `T-${String(i + 1).padStart(4, '0')}` }),
  );
  const first = servers[0] as Server;
  const base = { host: first.host, port: first.port, ports: servers.map((s) => s.port), connections, requests, graceMs: 5_000 };
  if (warmupMs > 0) await runLoad({ ...base, durationMs: warmupMs, prefix: `${prefix}-warm-` }, 1);
  const gatewaysBefore = servers.reduce((sum, s) => sum + processCpuMicros(s.pid), 0);
  const postgresBefore = dataDir ? clusterCpu(dataDir) : 0;
  const result = await runLoad({ ...base, durationMs, prefix: `${prefix}-run-` }, 1);
  const answered = Math.max(1, result.completed);
  const gatewayUs = Math.round((servers.reduce((sum, s) => sum + processCpuMicros(s.pid), 0) - gatewaysBefore) / answered);
  const postgresUs = dataDir ? Math.round((clusterCpu(dataDir) - postgresBefore) / answered) : 0;
  return { ...result, cpu: { gatewayUs, postgresUs, totalUs: gatewayUs + postgresUs } };
}

async function round(config: Config, n: number, clusterUrl: string, clusterDir: string): Promise<Measured & { stored: number | null }> {
  const dirs = [tempDir('tillgate-bench-pg-a-'), tempDir('tillgate-bench-pg-b-')];
  const database =
    config === 'sqlite' ? undefined : await createDatabase(clusterUrl, `bench_${config.replace('-', '_')}_${n}_${Date.now().toString(36)}`);
  const servers: Server[] = [];
  try {
    const merchant = merchantOn(dirs[0] as string, database, { GATEWAY_DATA_KEY: dataKey }, 'Bench Chain');
    const instances = config === 'postgres-2' ? 2 : 1;
    for (let i = 0; i < instances; i += 1) {
      servers.push(
        await startGateway(dirs[i] as string, {
          cpu: 0,
          args: database ? ['--database', database] : [],
          env: { GATEWAY_DATA_KEY: dataKey, GATEWAY_LOG_LEVEL: 'warn' },
        }),
      );
    }
    const result = await measure(servers, basicAuth(merchant), `${config}-${n}`, database ? clusterDir : undefined);
    // Server errors are reported with the gateways' own log lines, which the run then deletes.
    const serverErrors = Object.entries(result.statuses).filter(([status]) => Number(status) >= 500);
    if (serverErrors.length > 0) {
      for (const dir of dirs) {
        const log = join(dir, 'gateway.log');
        if (existsSync(log))
          for (const line of readFileSync(log, 'utf8')
            .split('\n')
            .filter((l) => l.includes('"level":50'))
            .slice(0, 3))
            console.log(`  ${line.slice(0, 600)}`);
      }
    }
    let stored: number | null = null;
    if (database) {
      const client = new pg.Client({ connectionString: database });
      await client.connect();
      stored = Number((await client.query('SELECT count(*) AS n FROM transactions')).rows[0].n);
      await client.end();
    }
    return { ...result, stored };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const summary = (r: Measured & { stored: number | null }) => ({
  requestsPerSecond: Math.round(r.requestsPerSecond),
  cpuUsPerPayment: r.cpu,
  projectedPaymentsPerCore: Math.round(1e6 / Math.max(1, r.cpu.totalUs)),
  p50: r.latencyMs.p50,
  p99: r.latencyMs.p99,
  max: r.latencyMs.max,
  completed: r.completed,
  errors: r.errors + r.timeouts,
  statuses: r.statuses,
  stored: r.stored,
  ...(r.sampleErrorBody ? { sampleErrorBody: r.sampleErrorBody } : {}),
});

const cluster = await startCluster({ durable: true });
try {
  const results: Record<Config, ReturnType<typeof summary>[]> = { sqlite: [], 'postgres-1': [], 'postgres-2': [] };
  for (let n = 0; n < rounds; n += 1) {
    for (const config of ['sqlite', 'postgres-1', 'postgres-2'] as const) {
      const result = summary(await round(config, n, cluster.url, cluster.dataDir));
      results[config].push(result);
      const cpu = result.cpuUsPerPayment;
      console.log(
        `${config} round ${n + 1}: ${result.requestsPerSecond} payments/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors}, statuses ${JSON.stringify(result.statuses)}; ` +
          `CPU per payment ${cpu.totalUs} us (gateway ${cpu.gatewayUs}, PostgreSQL ${cpu.postgresUs}), projected ${result.projectedPaymentsPerCore} payments/s per core`,
      );
    }
    const sqlite = results.sqlite[n]?.cpuUsPerPayment.totalUs;
    const pg1 = results['postgres-1'][n]?.cpuUsPerPayment.totalUs;
    const pg2 = results['postgres-2'][n]?.cpuUsPerPayment.totalUs;
    if (sqlite && pg1 && pg2)
      console.log(
        `round ${n + 1}: CPU per payment, PostgreSQL / SQLite: 1 instance ${(pg1 / sqlite).toFixed(2)}x, 2 instances ${(pg2 / sqlite).toFixed(2)}x (target <= 2)`,
      );
  }
  const file = writeResult('postgres-scaling', { machine: machine(), connections, durationMs, terminals, rounds, results });
  console.log(`wrote ${file}`);
} finally {
  cluster.stop();
}
