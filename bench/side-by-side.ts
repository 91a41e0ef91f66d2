/**
 * CPU per payment of builds side by side, on PostgreSQL (the gateway's and its cluster's apart) or
 * SQLite: an A/B comparison that holds on a shared machine.
 *
 *   node --import tsx bench/side-by-side.ts [--engine postgres|sqlite|both] [--seconds 8] [--connections 50] [--rounds 3]
 *                                          [--bin A/bin/gateway.js --bin B/bin/gateway.js | --bin naive] [--alone] [--syscalls] [--out NAME]
 *
 * With `--engine both` each build runs on SQLite and on PostgreSQL, and PostgreSQL's CPU per payment
 * is also given against the same build's SQLite in the same round (issue 38's measure). Each build
 * (default: this checkout's bin/gateway.js) gets a fresh data dir and, on PostgreSQL, a durable
 * cluster of its own (tests/helpers/postgres.ts) with a fresh database: every gateway and every
 * cluster pinned to CPU 0, one Debian wrk per build (bench/wrk/payment.lua) on CPU 1. On this machine
 * the speed of a core changes by up to 3x within minutes (other guests); loaded at the same time,
 * the builds meet the same slowdowns, so the ratio between two builds on one engine holds where
 * their absolute figures do not. After a 3 s warm-up, the gateway's and every cluster process's
 * utime+stime are read from /proc before and after the run, and pg_stat_database's commits and
 * rollbacks (a rollback is mostly a unit run again after a serialization failure). One line per
 * build and round, then the medians and each build's median ratio to the first build's.
 *
 * `--alone`: each stack is loaded on its own in turn (warm-up and run) while the others idle, in
 * every round. Loaded at once, the stacks also share CPU 0's caches and time slices: a SQLite
 * gateway sharing its core with a PostgreSQL stack spent ~1.75x the CPU per payment it spends alone
 * (docs/benchmarks.md), while the PostgreSQL stack, which switches between gateway and backends
 * anyway, changed little. So PostgreSQL against SQLite is measured with --alone (each stack on its
 * core by itself, as issue 38 asks); at once is for two builds on one engine.
 *
 * `--bin naive`: the naive reference (bench/naive-server.ts: Fastify and one INSERT per request, on
 * PostgreSQL with pg as the gateway uses it) in place of a build, loaded and measured the same way.
 * Its PostgreSQL against its SQLite is the engines' own ratio for one durable row per request: the
 * floor under the gateway's.
 *
 * `--syscalls`: each gateway's user and system CPU per payment and its system calls per payment by
 * kind (Linux perf).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  basicAuth,
  GATEWAY_BIN,
  machine,
  median,
  processCpuMicros,
  startGateway,
  startNaive,
  tempDir,
  wrkPayments,
  writeResult,
} from './lib/procs.js';
import { clusterCpu, merchantOn, pinCluster } from './lib/postgres-cluster.js';
import { createDatabase, startCluster, type TestCluster } from '../tests/helpers/postgres.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    engine: { type: 'string', default: 'postgres' },
    syscalls: { type: 'boolean', default: false },
    /** Each stack loaded alone in turn (the others idle) instead of all at once. */
    alone: { type: 'boolean', default: false },
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

/** The system calls --syscalls counts, each on its own. */
const SYSCALLS = ['fsync', 'fdatasync', 'write', 'writev', 'read', 'epoll_wait', 'futex'];

/**
 * With --syscalls: the gateway's system calls of each kind over `seconds` (Linux perf, tracepoints).
 * On SQLite the fsyncs and fdatasyncs are its commits (group commit: one per batch of units); the
 * writes, reads and epoll waits are the sockets' traffic and the event loop's wake-ups.
 */
function syscallCounts(pid: number, seconds: number): Promise<Record<string, number>> {
  if (!values.syscalls) return Promise.resolve({});
  return new Promise((resolve) => {
    const child = spawn('perf', [
      'stat',
      '-x',
      ',',
      '-e',
      SYSCALLS.map((name) => `syscalls:sys_enter_${name}`).join(','),
      '-p',
      String(pid),
      '--',
      'sleep',
      String(seconds),
    ]);
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', () => resolve({}));
    child.on('exit', () => {
      const counts: Record<string, number> = {};
      for (const line of err.split('\n')) {
        const [count, , event] = line.split(',');
        const name = /sys_enter_(\w+)/.exec(event ?? '')?.[1];
        if (name) counts[name] = Number(count) || 0;
      }
      resolve(counts);
    });
  });
}

/** A process's user and system CPU in microseconds (/proc/PID/stat). */
function userSystem(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return { user: Number(fields[11]) * 10_000, system: Number(fields[12]) * 10_000 };
}

interface Stack {
  bin: string;
  cluster: TestCluster | undefined;
  database: string | undefined;
  auth: string;
  server: { url: string; pid: number };
}

/** Warms the stacks up and measures them under load at the same time: CPU, commits, system calls. */
async function measureAtOnce(stacks: Stack[], seconds: number) {
  await Promise.all(stacks.map((s) => wrkPayments(s.server.url, s.auth, 3, Number(values.connections))));
  const before = await Promise.all(
    stacks.map(async (s) => ({
      tx: await transactions(s.cluster, s.database),
      gateway: processCpuMicros(s.server.pid),
      cluster: s.cluster ? clusterCpu(s.cluster.dataDir) : 0,
    })),
  );
  const split = stacks.map((s) => userSystem(s.server.pid));
  const syscalls = stacks.map((s) => syscallCounts(s.server.pid, seconds - 1));
  const runs = await Promise.all(stacks.map((s) => wrkPayments(s.server.url, s.auth, seconds, Number(values.connections))));
  const counted = await Promise.all(syscalls);
  const splitAfter = stacks.map((s) => userSystem(s.server.pid));
  return stacks.map((s, i) => {
    const run = runs[i] as { requests: number; line: string };
    return {
      before: before[i] as (typeof before)[number],
      run,
      counted: counted[i] ?? {},
      split: split[i] as { user: number; system: number },
      splitAfter: splitAfter[i] as { user: number; system: number },
      spent: {
        gateway: (processCpuMicros(s.server.pid) - (before[i]?.gateway ?? 0)) / (run.requests || 1),
        cluster: s.cluster ? (clusterCpu(s.cluster.dataDir) - (before[i]?.cluster ?? 0)) / (run.requests || 1) : 0,
      },
    };
  });
}

const machineBefore = machine();
const recorded: Array<Record<string, unknown>> = [];
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
        // The naive reference takes any credentials and needs no merchant.
        const naive = bin === 'naive';
        const auth = naive ? 'Basic none' : basicAuth(merchantOn(dir, database, {}, undefined, bin));
        const server = naive
          ? await startNaive(dir, { cpu: 0, ...(database ? { database } : {}) })
          : await startGateway(dir, { cpu: 0, bin, args: database ? ['--database', database] : [] });
        return { bin: label, cluster, dir, database, auth, server };
      }),
    );
    try {
      const seconds = Number(values.seconds);
      // All stacks loaded at once, or (--alone) one after another while the others idle.
      const measured = values.alone ? [] : await measureAtOnce(stacks, seconds);
      if (values.alone) for (const stack of stacks) measured.push(...(await measureAtOnce([stack], seconds)));
      const spent = measured.map((m) => m.spent);
      for (const [i, s] of stacks.entries()) {
        const { before, run, counted, split, splitAfter } = measured[i] as (typeof measured)[number];
        const { gateway, cluster } = spent[i] as { gateway: number; cluster: number };
        const tx = await transactions(s.cluster, s.database);
        const per = (n: number) => (n / run.requests).toFixed(2);
        // The calls were counted over one second less than the run.
        const calls = Object.entries(counted).map(
          ([name, n]) => [name, Number((n / (run.requests * ((seconds - 1) / seconds))).toFixed(2))] as const,
        );
        const user = (splitAfter.user - split.user) / run.requests;
        const system = (splitAfter.system - split.system) / run.requests;
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
          commitsPerPayment: Number(per(tx.commits - before.tx.commits)),
          rollbacksPerPayment: Number(per(tx.rollbacks - before.tx.rollbacks)),
          ...(values.syscalls
            ? { gatewayUserUs: Math.round(user), gatewaySystemUs: Math.round(system), syscallsPerPayment: Object.fromEntries(calls) }
            : {}),
          ...(sqlite ? { againstSqlite: Number(((gateway + cluster) / (sqlite.gateway + sqlite.cluster)).toFixed(3)) } : {}),
        });
        console.log(
          `round ${round} ${s.bin}: ${run.line} gateway ${gateway.toFixed(0)} + cluster ${cluster.toFixed(0)} = ${(gateway + cluster).toFixed(0)} us per payment (${((gateway + cluster) / first).toFixed(2)}x the first${sqlite ? `, ${((gateway + cluster) / (sqlite.gateway + sqlite.cluster)).toFixed(2)}x SQLite's` : ''});${values.syscalls ? ` gateway user ${user.toFixed(0)} + system ${system.toFixed(0)} us; per payment ${calls.map(([name, n]) => `${name} ${n}`).join(', ')};` : ''} commits ${per(tx.commits - before.tx.commits)}, rollbacks ${per(tx.rollbacks - before.tx.rollbacks)} per payment`,
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
