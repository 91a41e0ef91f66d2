/**
 * A V8 CPU profile of `gateway serve` under payment load (POST /rest/payment, wrk), on SQLite or on
 * PostgreSQL, or of the naive reference stack (bench/naive-server.ts: Fastify and one INSERT): the
 * server alone on CPU 0; the load generator and the cluster on CPU 1, so that the server is never
 * descheduled for them inside a system call (pinned together, a profile charges the backend's turn
 * to the gateway's writev):
 *
 *   node --import tsx bench/profile-payments.ts [--stack sqlite|postgres|naive] [--seconds 10] [--connections 50] [--dir /tmp/prof]
 *   node --import tsx bench/profile-summary.ts /tmp/prof/CPU.*.cpuprofile --requests N
 *
 * Prints the server's CPU per payment from /proc over the measured seconds, the payments answered
 * while profiling (N above) and the profile's path.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { basicAuth, processCpuMicros, startGateway, startNaive, tempDir, wrkPayments } from './lib/procs.js';
import { merchantOn, pinCluster } from './lib/postgres-cluster.js';
import { createDatabase, startCluster } from '../tests/helpers/postgres.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    dir: { type: 'string', default: '/tmp/prof' },
    stack: { type: 'string', default: 'postgres' },
  },
});

mkdirSync(values.dir, { recursive: true });
if (!['sqlite', 'postgres', 'naive'].includes(values.stack)) throw new Error('--stack is sqlite, postgres or naive');
const cluster = values.stack === 'postgres' ? await startCluster({ durable: true }) : undefined;
if (cluster) pinCluster(cluster.dataDir, 1);
const dir = tempDir('tillgate-profile-payments-');
try {
  const database = cluster ? await createDatabase(cluster.url, 'profile') : undefined;
  const known = new Set(readdirSync(values.dir));
  const nodeArgs = ['--cpu-prof', '--cpu-prof-dir', values.dir];
  const auth = values.stack === 'naive' ? 'Basic none' : basicAuth(merchantOn(dir, database));
  const server =
    values.stack === 'naive'
      ? await startNaive(dir, { cpu: 0, nodeArgs })
      : await startGateway(dir, { cpu: 0, args: database ? ['--database', database] : [], nodeArgs });
  const warm = (await wrkPayments(server.url, auth, 3, Number(values.connections))).requests;
  const cpuBefore = processCpuMicros(server.pid);
  const measured = (await wrkPayments(server.url, auth, Number(values.seconds), Number(values.connections))).requests;
  // The server's CPU from /proc (user + system) while measured: what the profile's shares are of.
  // The profile samples time on the thread, so it also counts time blocked in a system call (fsync).
  console.log(`CPU per payment while measured (/proc): ${((processCpuMicros(server.pid) - cpuBefore) / measured).toFixed(0)} us`);
  await server.stop();
  const profile = readdirSync(values.dir).find((name) => !known.has(name) && name.endsWith('.cpuprofile'));
  console.log(`payments: ${warm} warm-up + ${measured} measured; profile ${join(values.dir, profile ?? '(none written)')}`);
  console.log(`node --import tsx bench/profile-summary.ts ${join(values.dir, profile ?? '')} --requests ${warm + measured}`);
} finally {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
