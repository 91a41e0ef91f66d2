/**
 * What one card-present payment sends to PostgreSQL, from PostgreSQL's own statement log:
 *
 *   node --import tsx bench/postgres-statements.ts
 *
 * Starts a durable cluster in a temp dir (tests/helpers/postgres.ts), one `gateway serve` on it,
 * warms it up with three payments, then turns `log_statement = 'all'` on for exactly one more
 * payment (POST /rest/payment, cardpos, Idempotency-Key) and prints the statements the cluster
 * logged for it, in order, with their count. The background workers' periodic claims that happen to
 * fall into that window are listed too and marked. Removes the cluster at the end.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, startCluster } from '../tests/helpers/postgres.js';
import { basicAuth, GATEWAY_BIN, paymentRequest, startGateway, tempDir, type Merchant } from './lib/procs.js';

// The background workers' claims and passes (Kysely writes names quoted and in lower case).
const BACKGROUND =
  /"?postback_outbox"? set "?claimed_by|"?emails"? set "?claimed_by|"?receipt_emails"? set "?claimed_by|"?receipt_print_jobs"? where "?status"? = 'queued'|scheduled_tasks|gateway_instances/i;

const key = randomBytes(32).toString('base64');
const cluster = await startCluster({ durable: true });
const dir = tempDir('tillgate-pg-statements-');
try {
  const database = await createDatabase(cluster.url, 'statements');
  const created = spawnSync(
    process.execPath,
    [GATEWAY_BIN, 'merchant', 'create', '--data-dir', dir, '--database', database, '--name', 'Statements', '--json'],
    {
      encoding: 'utf8',
      env: { ...process.env, GATEWAY_DATA_KEY: key },
    },
  );
  if (created.status !== 0) throw new Error(created.stderr);
  const merchant = JSON.parse(created.stdout) as Merchant;
  const server = await startGateway(dir, { args: ['--database', database], env: { GATEWAY_DATA_KEY: key } });
  const request = paymentRequest(basicAuth(merchant));
  const pay = async (n: string) => {
    const response = await fetch(`${server.url}${request.path}`, {
      method: 'POST',
      headers: { ...request.headers, 'idempotency-key': `statements-${n}` },
      body: (request.body ?? '').replace('{{n}}', n),
    });
    if (response.status !== 200) throw new Error(`payment ${n}: ${response.status} ${await response.text()}`);
  };
  for (const n of ['1', '2', '3']) await pay(n);
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const logFile = join(cluster.dataDir, '..', 'log');
  const before = readFileSync(logFile, 'utf8').length;
  await admin.query("ALTER SYSTEM SET log_statement = 'all'");
  await admin.query('SELECT pg_reload_conf()');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await pay('measured');
  await new Promise((resolve) => setTimeout(resolve, 300));
  await admin.query("ALTER SYSTEM SET log_statement = 'none'");
  await admin.query('SELECT pg_reload_conf()');
  await admin.end();
  await server.stop();
  const lines = readFileSync(logFile, 'utf8')
    .slice(before)
    .split('\n')
    .filter((line) => /LOG:\s+(statement|execute)/.test(line))
    .map((line) =>
      line
        .replace(/^.*?LOG:\s+/, '')
        .replace(/^execute \S+: /, '')
        .replace(/^statement: /, ''),
    )
    .filter((line) => !/ALTER SYSTEM|pg_reload_conf/.test(line));
  // A BEGIN ... COMMIT block belongs to the background when every statement in it does.
  const blocks: string[][] = [];
  for (const line of lines) {
    const open = blocks.at(-1);
    if (open && /^BEGIN/.test(open[0] ?? '') && !/^(COMMIT|ROLLBACK)/.test(open.at(-1) ?? '')) open.push(line);
    else blocks.push([line]);
  }
  let paymentStatements = 0;
  let transactions = 0;
  let background = 0;
  for (const block of blocks) {
    const inner = block.filter((line) => !/^(BEGIN|COMMIT|ROLLBACK)/.test(line));
    const isBackground = inner.length > 0 && inner.every((line) => BACKGROUND.test(line));
    if (isBackground) background += block.length;
    else {
      paymentStatements += block.length;
      if (/^BEGIN/.test(block[0] ?? '')) transactions += 1;
    }
    for (const line of block) console.log(`${isBackground ? '  (background) ' : ''}${line.slice(0, 150)}`);
  }
  console.log(
    `\n${paymentStatements} statements for the payment, in ${transactions} transaction(s) (the rest autocommit); ${background} of background workers in the same window`,
  );
} finally {
  cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
