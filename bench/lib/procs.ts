/**
 * Shared pieces of the benchmarks: the machine description, the gateway and the naive reference
 * server as child processes (optionally pinned to a CPU with taskset), the load generator in its
 * own process, RSS from /proc, and result files under bench/results/.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadConfig, LoadResult } from './loadgen.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** BENCH_GATEWAY_BIN runs another checkout's gateway (A/B comparisons of a change). */
export const GATEWAY_BIN = process.env.BENCH_GATEWAY_BIN ?? join(ROOT, 'bin/gateway.js');
export const RESULTS_DIR = join(ROOT, 'bench/results');
const TSX = ['--import', 'tsx'];

const hasTaskset = (() => {
  try {
    return spawnSync('taskset', ['--version']).status === 0;
  } catch {
    return false;
  }
})();

/** The command line, pinned to `cpu` when taskset is there and the machine has more than one core. */
function pinned(cpu: number | undefined, args: string[]): [string, string[]] {
  if (cpu !== undefined && hasTaskset && cpus().length > 1) return ['taskset', ['-c', String(cpu), process.execPath, ...args]];
  return [process.execPath, args];
}

export function otherTestRuns(): number {
  try {
    const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    return out.split('\n').filter((line) => /node.*--test/.test(line)).length;
  } catch {
    return -1;
  }
}

export function machine(): Record<string, unknown> {
  const free = (() => {
    try {
      return execFileSync('free', ['-h'], { encoding: 'utf8' }).trim();
    } catch {
      return `${Math.round(freemem() / 2 ** 20)} MiB free of ${Math.round(totalmem() / 2 ** 20)} MiB`;
    }
  })();
  return {
    date: new Date().toISOString(),
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    free,
    node: process.version,
    loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
    otherNodeTestRuns: otherTestRuns(),
    pinning: hasTaskset && cpus().length > 1 ? 'server on CPU 0, load generator on CPU 1 (taskset)' : 'none',
  };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The garbage collector's work so far, from V8's `--trace-gc-nvp` lines on the server's stdout:
 * bytes allocated (the sum of each collection's `allocated=`, what was allocated since the one
 * before), bytes promoted to the old generation, and how many young (scavenge) and full
 * (mark-compact) collections ran.
 */
export interface GcTotals {
  allocatedBytes: number;
  promotedBytes: number;
  scavenges: number;
  markCompacts: number;
}

export interface Server {
  url: string;
  host: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Milliseconds from spawn to the "listening on" line. */
  listeningAfterMs: number;
  /** The totals so far when started with `gcTrace` (startGateway), else undefined. */
  gc(): GcTotals | undefined;
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

/** Adds one `--trace-gc-nvp` line to `totals` (other lines are left alone). */
export function addGcLine(totals: GcTotals, line: string): void {
  const kind = / gc=(\w+)/.exec(line)?.[1];
  if (!kind) return;
  totals.allocatedBytes += Number(/ allocated=(\d+)/.exec(line)?.[1] ?? 0);
  totals.promotedBytes += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
  if (kind === 's' || kind === 'mmc') totals.scavenges += 1;
  else if (kind === 'mc') totals.markCompacts += 1;
}

async function spawnServer(command: [string, string[]], env: NodeJS.ProcessEnv, logFile: string, gcTrace = false): Promise<Server> {
  const started = performance.now();
  const log = openSync(logFile, 'a');
  const child = spawn(command[0], command[1], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', log] });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stdout = '';
  const gc: GcTotals | undefined = gcTrace ? { allocatedBytes: 0, promotedBytes: 0, scavenges: 0, markCompacts: 0 } : undefined;
  if (gc) {
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) addGcLine(gc, line);
    });
  }
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s (log: ${logFile})`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (log: ${logFile})`));
    });
  });
  const listeningAfterMs = performance.now() - started;
  child.stdout?.resume();
  const parsed = new URL(url);
  return {
    url,
    host: parsed.hostname,
    port: Number(parsed.port),
    pid: child.pid as number,
    child,
    listeningAfterMs,
    gc: () => (gc ? { ...gc } : undefined),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * `gateway serve` as an operator runs it (default settings unless `args` say otherwise).
 * BENCH_GATEWAY_NODE_ARGS adds node flags, e.g. "--cpu-prof --cpu-prof-dir /tmp/prof".
 */
export function startGateway(
  dataDir: string,
  options: { args?: string[]; nodeArgs?: string[]; cpu?: number; env?: NodeJS.ProcessEnv; gcTrace?: boolean; bin?: string } = {},
): Promise<Server> {
  return spawnServer(
    pinned(options.cpu, [
      ...(options.gcTrace ? ['--trace-gc-nvp'] : []),
      ...(options.nodeArgs ?? []),
      ...(process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean),
      options.bin ?? GATEWAY_BIN,
      'serve',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      ...(options.args ?? []),
    ]),
    options.env ?? {},
    join(dataDir, 'gateway.log'),
    options.gcTrace,
  );
}

export function startNaive(
  dataDir: string,
  options: { cpu?: number; synchronous?: 'FULL' | 'OFF'; nodeArgs?: string[]; database?: string } = {},
): Promise<Server> {
  return spawnServer(
    pinned(options.cpu, [
      ...(options.nodeArgs ?? []),
      ...TSX,
      join(ROOT, 'bench/naive-server.ts'),
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--synchronous',
      options.synchronous ?? 'FULL',
      ...(options.database ? ['--database', options.database] : []),
    ]),
    {},
    join(dataDir, 'naive.log'),
  );
}

export interface Merchant {
  merchant_id: string;
  api_key: string;
  api_password: string;
  webhook_key: string;
}

export function createMerchant(dataDir: string, name = 'Bench Shop', currency?: string): Merchant {
  const result = spawnSync(
    process.execPath,
    [GATEWAY_BIN, 'merchant', 'create', '--data-dir', dataDir, '--name', name, ...(currency ? ['--currency', currency] : []), '--json'],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (result.status !== 0) throw new Error(`merchant create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Merchant;
}

export function basicAuth(m: Pick<Merchant, 'api_key' | 'api_password'>): string {
  return `Basic ${Buffer.from(`${m.api_key}:${m.api_password}`).toString('base64')}`;
}

/** Runs the load generator in its own process (pinned to `cpu` when given). */
export async function runLoad(config: LoadConfig, cpu?: number): Promise<LoadResult> {
  const [command, args] = pinned(cpu, [...TSX, join(ROOT, 'bench/lib/loadgen-child.ts'), JSON.stringify(config)]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const limit = config.durationMs + (config.graceMs ?? 10_000) + 30_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), limit);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`load generator exited with ${String(code)}`);
  return JSON.parse(out) as LoadResult;
}

/**
 * CPU time of a process in microseconds (Linux /proc: utime + stime, with `children` also the
 * cutime + cstime of its reaped children; clock ticks of 10 ms). 0 once the process has gone (its
 * time is then in its parent's cutime/cstime).
 */
export function processCpuMicros(pid: number, children = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return ticks * 10_000;
  } catch {
    return 0;
  }
}

/** Resident set size of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match?.[1] ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

export function writeResult(name: string, data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

export function readResult(name: string): unknown {
  const file = join(RESULTS_DIR, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined;
}

/** A Luhn-valid card number from its leading digits. */
export function luhnComplete(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i += 1) {
    let digit = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${partial}${(10 - (sum % 10)) % 10}`;
}

/** The cardpos payment of the benchmarks: contactless, under the CVM limit, approved by the simulator. */
export function paymentRequest(
  auth: string,
  options: { postbackUrl?: string; idempotency?: boolean; terminalId?: string } = {},
): LoadConfig['requests'][number] {
  const expiryYear = new Date().getUTCFullYear() + 3;
  const body = {
    payment_type: 'cardpos',
    order_id: 'bench-{{n}}',
    amount: 12.34,
    currency: 'EUR',
    ...(options.postbackUrl ? { postback_url: options.postbackUrl } : {}),
    pos_data: {
      type: { terminal_entry_mode: 'contactless' },
      card: { number: luhnComplete('491234560000012'), expiry_month: 12, expiry_year: expiryYear },
      terminal: { id: options.terminalId ?? 'T-0001', type: 'softpos', attended: true, capabilities: ['contactlessChip', 'onlinePin'] },
    },
  };
  return {
    method: 'POST',
    path: '/rest/payment',
    headers: {
      authorization: auth,
      'content-type': 'application/json',
      ...(options.idempotency === false ? {} : { 'idempotency-key': 'key-{{n}}' }),
    },
    body: JSON.stringify(body),
  };
}

/** The middle value (the upper one of an even count); 0 for none. */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Debian's wrk on CPU 1 posting payments (bench/wrk/payment.lua, a fresh Idempotency-Key each) with
 * `auth` for `seconds` over `connections`: the requests answered and wrk's RESULT line.
 */
export function wrkPayments(url: string, auth: string, seconds: number, connections: number): Promise<{ requests: number; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'taskset',
      ['-c', '1', 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-s', join(ROOT, 'bench/wrk/payment.lua'), url],
      { env: { ...process.env, AUTH: auth } },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
      // Without wrk (Debian's `wrk` package), taskset fails and nothing was measured: say so instead of dividing by zero.
      if (code !== 0 || requests === 0)
        reject(new Error(`wrk measured nothing (exit ${String(code)}): ${(err || out).trim().slice(0, 300)}`));
      else resolve({ requests, line: /RESULT.*/.exec(out)?.[0] ?? out });
    });
  });
}
