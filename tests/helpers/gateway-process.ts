/** Runs the real `gateway` command as a child process, as an operator or a POS would. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { knownTestDatabase, testDatabaseFor } from './postgres.js';
import { onPostgres } from './sql.js';
import { makeTempDir } from './temp.js';

export const GATEWAY_BIN = fileURLToPath(new URL('../../bin/gateway.js', import.meta.url));

export function tempDataDir(prefix = 'gateway-test-'): string {
  return makeTempDir(prefix);
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * In the PostgreSQL pass (TEST_ENGINE=postgres) a gateway process on a data directory runs on that
 * directory's database (tests/helpers/postgres.ts testDatabaseFor), as one in the test process
 * does; the data key stays in the directory. A test that names its own `--database` or
 * GATEWAY_DATABASE_URL keeps it. A command on a directory no gateway of this process started on
 * yet has no database to go to and stays on SQLite (such tests are `dataDirectoryOnly`).
 */
function namesDatabase(args: string[], env: NodeJS.ProcessEnv): boolean {
  return args.includes('--database') || env.GATEWAY_DATABASE_URL !== undefined || process.env.GATEWAY_DATABASE_URL !== undefined;
}

function dataDirOf(args: string[]): string | undefined {
  const at = args.indexOf('--data-dir');
  return at >= 0 ? args[at + 1] : undefined;
}

export function runGateway(args: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const dataDir = dataDirOf(args);
  const database = onPostgres() && dataDir !== undefined && !namesDatabase(args, env) ? knownTestDatabase(dataDir) : undefined;
  const result = spawnSync(process.execPath, [GATEWAY_BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...(database ? { GATEWAY_DATABASE_URL: database } : {}), ...env },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `runGateway` without blocking this process: for commands that talk to something this process
 * serves (a till joining through the test's own TCP proxy).
 */
export function runGatewayAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [GATEWAY_BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (status) => resolve({ status, stdout, stderr })));
}

export interface MerchantCredentials {
  merchant_id: string;
  api_key: string;
  api_password: string;
  webhook_key: string;
  channel: { url_name: string };
}

export function createMerchant(dataDir: string, name = 'Test Shop'): MerchantCredentials {
  const result = runGateway(['merchant', 'create', '--data-dir', dataDir, '--name', name, '--json']);
  if (result.status !== 0) throw new Error(`merchant create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as MerchantCredentials;
}

export function basicAuth(credentials: Pick<MerchantCredentials, 'api_key' | 'api_password'>): string {
  return `Basic ${Buffer.from(`${credentials.api_key}:${credentials.api_password}`).toString('base64')}`;
}

export interface GatewayProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  stderr: () => string;
  /** What it printed on stdout so far. */
  stdout: () => string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL (kill -9) and wait for exit. */
  kill9(): Promise<void>;
}

/** `sqlite`: the data directory's own SQLite in the PostgreSQL pass too (a till's journal is its own). */
export async function startGateway(
  options: { dataDir?: string; args?: string[]; env?: NodeJS.ProcessEnv; sqlite?: boolean } = {},
): Promise<GatewayProcess> {
  const dataDir = options.dataDir ?? tempDataDir();
  const args = options.args ?? [];
  const database = onPostgres() && !options.sqlite && !namesDatabase(args, options.env ?? {}) ? await testDatabaseFor(dataDir) : undefined;
  const child = spawn(
    process.execPath,
    [GATEWAY_BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--sim-delay-ms', '50', '--postback-retry-scale', '0.001', ...args],
    {
      env: { ...process.env, GATEWAY_LOG_LEVEL: 'warn', ...(database ? { GATEWAY_DATABASE_URL: database } : {}), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    // A gateway that never listens is killed, not left running: it would keep the test run from ending.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start in 60 s: ${stderr}`));
    }, 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (https?:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${String(code)} before listening: ${stderr}`));
    });
  });
  return {
    url,
    dataDir,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    async kill9() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
