/**
 * CPU per payment of builds side by side, on PostgreSQL (the gateway's and its cluster's apart) or
 * SQLite: an A/B comparison that holds on a shared machine.
 *
 *   node --import tsx bench/side-by-side.ts [--engine postgres|sqlite|both] [--seconds 8] [--connections 50] [--rounds 3]
 *                                          [--bin A/bin/gateway.js --bin B/bin/gateway.js]
 *
 * With `--engine both` each build runs on SQLite and on PostgreSQL at once, and PostgreSQL's CPU per
 * payment is also given against the same build's SQLite in the same round (issue 38's measure).
 * Each build (default: this checkout's bin/gateway.js) gets a fresh data dir and, on PostgreSQL, a
 * durable cluster of its own (tests/helpers/postgres.ts) with a fresh database, and all of them run
 * at the same time: every gateway and every cluster pinned to CPU 0, one Debian wrk per build
 * (bench/wrk/payment.lua) on CPU 1. On this machine the speed of a core changes by up to 3x within minutes (other guests); run
 * side by side, the builds meet the same slowdowns, so the ratio between them holds where their
 * absolute figures do not. After a 3 s warm-up, the gateway's and every cluster process's
 * utime+stime are read from /proc before and after the run, and pg_stat_database's commits and
 * rollbacks (a rollback is mostly a unit run again after a serialization failure). One line per
 * build and round, then the medians and each build's median ratio to the first build's.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { basicAuth, GATEWAY_BIN, machine, processCpuMicros, ROOT, startGateway, tempDir, writeResult } from './lib/procs.js';
import { clusterCpu, merchantOn, pinCluster } from './lib/postgres-cluster.js';
import { createDatabase, startCluster, type TestCluster } from '../tests/helpers/postgres.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    engine: { type: 'string', default: 'postgres' },
    syscalls: { type: 'boolean', default: false },
    bin: { type: 'string', multiple: true },
    /** Writes the rounds to bench/results/<name>.json. */
    out: { type: 'string' },
  },
});
const bins = values.bin ?? [GATEWAY_BIN];
const engines: Array<'sqlite' | 'postgres'> =
  values.engine === 'both' ? ['sqlite', 'postgres'] : values.engine === 'sqlite' ? ['sqlite'] : ['postgres'];
/** Every build on every engine asked for, all at once. */
const specs = bins.flatMap((bin) => engines.map((engine) => ({ bin, engine, label: `${bin} ${engine}` })));

function wrk(url: string, auth: string, seconds: number): Promise<{ requests: number; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'taskset',
      ['-c', '1', 'wrk', '-t1', `-c${values.connections}`, `-d${seconds}s`, '-s', join(ROOT, 'bench/wrk/payment.lua'), url],
      { env: { ...process.env, AUTH: auth } },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve({ requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0), line: /RESULT.*/.exec(out)?.[0] ?? out }));
  });
}

async function transactions(
  cluster: TestCluster | undefined,
  database: string | undefined,
): Promise<{ commits: number; rollbacks: number }> {
  if (!cluster || !database) return { commits: 0, rollbacks: 0 };
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    const row = (
      await admin.query<{ commits: string; rollbacks: string }>(
        'SELECT xact_commit AS commits, xact_rollback AS rollbacks FROM pg_stat_database WHERE datname = $1',
        [new URL(database).pathname.slice(1)],
      )
    ).rows[0];
    return { commits: Number(row?.commits ?? 0), rollbacks: Number(row?.rollbacks ?? 0) };
  } finally {
    await admin.end();
  }
}

/**
 * With --syscalls: the gateway's fsync and fdatasync calls over `seconds` (Linux perf, tracepoints),
 * which on SQLite are its commits (group commit: one per batch of units).
 */
function syncCalls(pid: number, seconds: number): Promise<number> {
  if (!values.syscalls) return Promise.resolve(0);
  return new Promise((resolve) => {
    const child = spawn('perf', [
      'stat',
      '-x',
      ',',
      '-e',
      'syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync',
      '-p',
      String(pid),
      '--',
      'sleep',
      String(seconds),
    ]);
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', () => resolve(0));
    child.on('exit', () => resolve(err.split('\n').reduce((sum, line) => sum + (Number(line.split(',')[0]) || 0), 0)));
  });
}

const machineBefore = machine();
const recorded: Array<Record<string, unknown>> = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const clusters: Array<TestCluster | undefined> = [];
const totals = specs.map(() => ({ gateway: [] as number[], cluster: [] as number[], ratio: [] as number[], engines: [] as number[] }));
try {
  for (const spec of specs) {
    if (spec.engine === 'sqlite') continue;
    const cluster = await startCluster({ durable: true });
    clusters[specs.indexOf(spec)] = cluster;
    pinCluster(cluster.dataDir, 0);
  }
  for (let round = 1; round <= Number(values.rounds); round++) {
    const stacks = await Promise.all(
      specs.map(async ({ bin, label }, index) => {
        const cluster = clusters[index];
        const dir = tempDir('tillgate-side-by-side-');
        const database = cluster ? await createDatabase(cluster.url, `pg_cpu_${round}_${Date.now().toString(36)}`) : undefined;
        const auth = basicAuth(merchantOn(dir, database));
        const server = await startGateway(dir, { cpu: 0, bin, args: database ? ['--database', database] : [] });
        return { bin: label, cluster, dir, database, auth, server };
      }),
    );
    try {
      await Promise.all(stacks.map((s) => wrk(s.server.url, s.auth, 3)));
      const before = await Promise.all(
        stacks.map(async (s) => ({
          tx: await transactions(s.cluster, s.database),
          gateway: processCpuMicros(s.server.pid),
          cluster: s.cluster ? clusterCpu(s.cluster.dataDir) : 0,
        })),
      );
      const seconds = Number(values.seconds);
      const syncs = stacks.map((s) => syncCalls(s.server.pid, seconds - 1));
      const runs = await Promise.all(stacks.map((s) => wrk(s.server.url, s.auth, seconds)));
      const synced = await Promise.all(syncs);
      const spent = stacks.map((s, i) => ({
        gateway: (processCpuMicros(s.server.pid) - (before[i]?.gateway ?? 0)) / (runs[i]?.requests ?? 1),
        cluster: s.cluster ? (clusterCpu(s.cluster.dataDir) - (before[i]?.cluster ?? 0)) / (runs[i]?.requests ?? 1) : 0,
      }));
      for (const [i, s] of stacks.entries()) {
        const run = runs[i] as { requests: number; line: string };
        const { gateway, cluster } = spent[i] as { gateway: number; cluster: number };
        const tx = await transactions(s.cluster, s.database);
        const per = (n: number) => (n / run.requests).toFixed(2);
        const first = (spent[0]?.gateway ?? 0) + (spent[0]?.cluster ?? 0);
        totals[i]?.gateway.push(gateway);
        totals[i]?.cluster.push(cluster);
        totals[i]?.ratio.push((gateway + cluster) / first);
        // On both engines: PostgreSQL's CPU per payment against the same build's SQLite, this round.
        const sqlite = specs[i]?.engine === 'postgres' && specs[i - 1]?.engine === 'sqlite' ? spent[i - 1] : undefined;
        if (sqlite) totals[i]?.engines.push((gateway + cluster) / (sqlite.gateway + sqlite.cluster));
        recorded.push({
          round,
          build: s.bin,
          requests: run.requests,
          wrk: run.line,
          gatewayUsPerPayment: Math.round(gateway),
          clusterUsPerPayment: Math.round(cluster),
          commitsPerPayment: Number(per(tx.commits - (before[i]?.tx.commits ?? 0))),
          rollbacksPerPayment: Number(per(tx.rollbacks - (before[i]?.tx.rollbacks ?? 0))),
          ...(sqlite ? { againstSqlite: Number(((gateway + cluster) / (sqlite.gateway + sqlite.cluster)).toFixed(3)) } : {}),
        });
        console.log(
          `round ${round} ${s.bin}: ${run.line} gateway ${gateway.toFixed(0)} + cluster ${cluster.toFixed(0)} = ${(gateway + cluster).toFixed(0)} us per payment (${((gateway + cluster) / first).toFixed(2)}x the first${sqlite ? `, ${((gateway + cluster) / (sqlite.gateway + sqlite.cluster)).toFixed(2)}x SQLite's` : ''});${values.syscalls ? ` ${((synced[i] ?? 0) / (run.requests * ((seconds - 1) / seconds))).toFixed(2)} fsyncs per payment;` : ''} commits ${per(tx.commits - (before[i]?.tx.commits ?? 0))}, rollbacks ${per(tx.rollbacks - (before[i]?.tx.rollbacks ?? 0))} per payment`,
        );
      }
    } finally {
      for (const s of stacks) {
        await s.server.stop();
        rmSync(s.dir, { recursive: true, force: true });
      }
    }
  }
  for (const [i, spec] of specs.entries()) {
    const t = totals[i] as { gateway: number[]; cluster: number[]; ratio: number[]; engines: number[] };
    console.log(
      `median ${spec.label}: gateway ${median(t.gateway).toFixed(0)} + cluster ${median(t.cluster).toFixed(0)} us per payment; ${median(t.ratio).toFixed(2)}x the first${t.engines.length > 0 ? `; ${median(t.engines).toFixed(2)}x SQLite's (rounds: ${t.engines.map((r) => r.toFixed(2)).join(', ')})` : ''}`,
    );
  }
  if (values.out) {
    const file = writeResult(values.out, {
      benchmark: 'side-by-side',
      values,
      machine: machineBefore,
      machineAfter: machine(),
      rounds: recorded,
    });
    console.log(`written ${file}`);
  }
} finally {
  for (const cluster of clusters) cluster?.stop();
}
