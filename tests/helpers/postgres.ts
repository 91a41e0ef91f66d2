/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: Debian's PostgreSQL 15 binaries, `initdb`
 * in a temporary directory, `pg_ctl` on a free loopback port, trust authentication on 127.0.0.1
 * only. No system service is used. As root (CI), the cluster runs as the unprivileged `postgres`
 * user, because `initdb` refuses root.
 *
 * One cluster per run: `scripts/with-postgres.mjs` starts one for a whole `npm test` and exports
 * its URL as TEST_POSTGRES_URL; a test file run on its own starts a cluster of its own, removed
 * when its process exits. Each test gets a fresh database of its own in that cluster.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface TestCluster {
  /** postgres://...@127.0.0.1:port/postgres */
  url: string;
  /** The cluster's data directory (its postmaster.pid names the server process). */
  dataDir: string;
  stop(): void;
}

export function postgresAvailable(): boolean {
  return existsSync(join(BIN, 'initdb')) && existsSync(join(BIN, 'pg_ctl'));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Runs a PostgreSQL binary, as `postgres` when we are root. */
function runAs(binary: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(BIN, binary), ...args]] : [join(BIN, binary), args];
  const result = spawnSync(command, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${binary} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/**
 * Starts a new cluster; `stop()` shuts it down and removes its directory. `durable`: fsync and
 * synchronous commit on, as in production (benchmarks); otherwise off (tests throw it away).
 */
export async function startCluster(options: { durable?: boolean } = {}): Promise<TestCluster> {
  const root = mkdtempSync(join(tmpdir(), 'tillgate-pg-'));
  const data = join(root, 'data');
  if (process.getuid?.() === 0) {
    chmodSync(root, 0o755);
    execFileSync('chown', ['postgres:postgres', root]);
  }
  runAs('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-instructions']);
  const port = await freePort();
  // Tests need no crash safety of the cluster itself (each run throws it away): fsync off makes
  // them fast. Benchmarks start theirs durable (bench/postgres-scaling.ts).
  const durability = options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
  const serverOptions = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-k ${root}`, ...durability, '-c max_connections=200'].join(' ');
  runAs('pg_ctl', ['-D', data, '-o', serverOptions, '-l', join(root, 'log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      runAs('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dataDir: data, stop };
}

let own: Promise<TestCluster> | undefined;

/** The run's cluster (TEST_POSTGRES_URL), else one for this process, stopped when it exits. */
export function testCluster(): Promise<string> {
  const shared = process.env.TEST_POSTGRES_URL;
  if (shared) return Promise.resolve(shared);
  own ??= startCluster().then((cluster) => {
    process.once('exit', () => cluster.stop());
    return cluster;
  });
  return own.then((cluster) => cluster.url);
}

let counter = 0;

/** A new, empty database `name` in the cluster at `clusterUrl`; its URL. */
export async function createDatabase(clusterUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const target = new URL(clusterUrl);
  target.pathname = `/${name}`;
  return target.toString();
}

/** A new, empty database in the test cluster; its URL. Dropped with the cluster. */
export async function createTestDatabase(prefix = 't'): Promise<string> {
  return createDatabase(await testCluster(), `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`);
}

/** The PostgreSQL database of each data directory of this test process. */
const dataDirDatabases = new Map<string, Promise<string>>();
const dataDirUrls = new Map<string, string>();

/**
 * The PostgreSQL pass's database for a gateway on `dataDir`: a fresh one the first time, the same one
 * when a gateway starts again on that directory (a restart) or a `gateway` command names it.
 */
export function testDatabaseFor(dataDir: string): Promise<string> {
  let url = dataDirDatabases.get(dataDir);
  if (!url) {
    url = createTestDatabase().then((created) => {
      dataDirUrls.set(dataDir, created);
      return created;
    });
    dataDirDatabases.set(dataDir, url);
  }
  return url;
}

/** The database testDatabaseFor(dataDir) gave, if it gave one. */
export function knownTestDatabase(dataDir: string): string | undefined {
  return dataDirUrls.get(dataDir);
}
