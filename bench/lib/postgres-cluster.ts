/**
 * A PostgreSQL cluster as the payment benchmarks use it: its CPU as a whole, pinned to a core like
 * the gateway, and a merchant created on one of its databases.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_BIN, processCpuMicros, type Merchant } from './procs.js';

const postmasterOf = (dataDir: string): number => Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

/** The postmaster's live children. */
function childrenOf(postmaster: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1]?.split(' ')[1]) === postmaster) children.push(Number(entry));
    } catch {
      // gone
    }
  }
  return children;
}

/**
 * The whole PostgreSQL cluster's CPU in microseconds: the postmaster with its reaped children
 * (backends that exited meanwhile), and every live child (backends, WAL writer, checkpointer, ...).
 */
export function clusterCpu(dataDir: string): number {
  const postmaster = postmasterOf(dataDir);
  return childrenOf(postmaster).reduce((sum, pid) => sum + processCpuMicros(pid), processCpuMicros(postmaster, true));
}

/**
 * Pins the cluster to `cpu` (the postmaster and its live children; backends it forks later inherit
 * the postmaster's affinity), so that it shares one core with the gateway. False without taskset.
 */
export function pinCluster(dataDir: string, cpu: number): boolean {
  const postmaster = postmasterOf(dataDir);
  const pids = [postmaster, ...childrenOf(postmaster)];
  return pids.every((pid) => spawnSync('taskset', ['-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' }).status === 0);
}

/**
 * A merchant created by the real CLI on `dataDir`, or on `database` when given; by the build `bin`
 * (the schema is that build's: a newer build's would be refused by an older one).
 */
export function merchantOn(
  dataDir: string,
  database: string | undefined,
  env: NodeJS.ProcessEnv = {},
  name = 'Bench Shop',
  bin = GATEWAY_BIN,
): Merchant {
  const result = spawnSync(
    process.execPath,
    [bin, 'merchant', 'create', '--data-dir', dataDir, ...(database ? ['--database', database] : []), '--name', name, '--json'],
    { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } },
  );
  if (result.status !== 0) throw new Error(`merchant create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Merchant;
}
