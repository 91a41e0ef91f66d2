#!/usr/bin/env node
// Runs a command with one throwaway PostgreSQL cluster for the whole run (tests/helpers/postgres.ts
// startCluster: initdb in a temp dir, pg_ctl on a free loopback port, no system service), its URL
// exported as TEST_POSTGRES_URL, so every test file of the run creates its databases there instead
// of starting a cluster of its own. The cluster is stopped and its directory removed when the
// command ends, fails, or this script is interrupted (SIGINT, SIGTERM, SIGHUP).
//
//   node scripts/with-postgres.mjs [--or-skip] command [args...]
//
// When TEST_POSTGRES_URL is already set (a run that started its cluster already), the command runs
// on that one. Without PostgreSQL's binaries the command runs without a cluster (the tests that
// need one skip, saying so), or with --or-skip it does not run at all; in CI (CI set) a missing
// PostgreSQL is an error, never a silent pass.
import { spawn } from 'node:child_process';
import { tsImport } from 'tsx/esm/api';

const argv = process.argv.slice(2);
const orSkip = argv[0] === '--or-skip';
const command = orSkip ? argv.slice(1) : argv;
if (command.length === 0) {
  console.error('usage: node scripts/with-postgres.mjs [--or-skip] command [args...]');
  process.exit(2);
}
const inCi = Boolean(process.env.CI) && !['0', 'false'].includes(String(process.env.CI).toLowerCase());

/** @type {typeof import('../tests/helpers/postgres.ts')} */
const postgres = await tsImport('../tests/helpers/postgres.ts', import.meta.url);

/** @type {{ url: string; stop(): void } | undefined} */
let cluster;
const env = { ...process.env };
if (!env.TEST_POSTGRES_URL) {
  if (!postgres.postgresAvailable()) {
    const message = 'with-postgres: PostgreSQL binaries not found (apt-get install postgresql, or set POSTGRES_BIN)';
    if (inCi) {
      console.error(`${message}; CI is set, so this is an error: the PostgreSQL tests must run in CI.`);
      process.exit(1);
    }
    if (orSkip) {
      console.log(`${message}: skipped ${command.join(' ')}`);
      process.exit(0);
    }
    console.log(`${message}: running without a cluster (the PostgreSQL tests skip)`);
  } else {
    cluster = await postgres.startCluster();
    env.TEST_POSTGRES_URL = cluster.url;
    console.log(`with-postgres: cluster at ${cluster.url} for this run`);
  }
}

const stopCluster = () => {
  const running = cluster;
  cluster = undefined;
  if (!running) return;
  try {
    running.stop();
    console.log('with-postgres: cluster stopped and removed');
  } catch (error) {
    console.error(`with-postgres: could not stop the cluster: ${error instanceof Error ? error.message : String(error)}`);
  }
};
process.on('exit', stopCluster);

const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // Pass the signal on and wait for the command to end; the cluster goes when it has.
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (error) => {
  console.error(`with-postgres: could not run ${command[0]}: ${error.message}`);
  stopCluster();
  process.exit(127);
});
child.on('close', (code, signal) => {
  stopCluster();
  process.exit(code ?? (signal ? 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 1) : 1));
});
