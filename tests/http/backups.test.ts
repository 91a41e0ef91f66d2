// Backups (issue "Reliability and security", 7): scheduled online backups while the gateway serves,
// kept up to a count; `gateway restore --from FILE` checks a file first (a database at all,
// integrity, schema, data key), refuses while a gateway runs, keeps the current database, and brings
// every payment of the backup back. Real `gateway` processes on temp directories.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { basicAuth, createMerchant, runGateway, startGateway, tempDataDir, type MerchantCredentials } from '../helpers/gateway-process.js';
import { cardPayment } from '../helpers/payments.js';
import { sqliteOnly } from '../helpers/sql.js';

/** PostgreSQL is backed up by its own tools (docs/scaling.md). */
const BACKUPS = sqliteOnly("the gateway's own backups of its SQLite database");

async function pay(url: string, merchant: MerchantCredentials, amount: number): Promise<string> {
  const response = await fetch(`${url}/rest/payment`, {
    method: 'POST',
    headers: { authorization: basicAuth(merchant), 'content-type': 'application/json' },
    body: JSON.stringify(cardPayment('4111111111111111', amount)),
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { transaction_id: string }).transaction_id;
}

async function transactionIds(url: string, merchant: MerchantCredentials): Promise<string[]> {
  const response = await fetch(`${url}/rest/transactions?limit=500`, { headers: { authorization: basicAuth(merchant) } });
  return ((await response.json()) as { transaction_id: string }[]).map((t) => t.transaction_id).sort();
}

test('scheduled backups run while the gateway serves and keep the newest ones', BACKUPS, async () => {
  const dataDir = tempDataDir();
  const merchant = createMerchant(dataDir, 'Backed Up');
  // About every 0.4 s, keep 2.
  const gateway = await startGateway({
    dataDir,
    args: ['--backup-interval-hours', String(0.4 / 3600), '--backup-keep', '2'],
    env: { GATEWAY_LOG_LEVEL: 'info' },
  });
  try {
    const written = () => (gateway.stderr().match(/scheduled backup written/g) ?? []).length;
    const paid = [await pay(gateway.url, merchant, 5), await pay(gateway.url, merchant, 6)];
    // On a busy machine backups may already have been written while paying: wait for two more, so
    // the newest one began after both payments were acknowledged, and for three in all, so the
    // oldest was deleted.
    const target = Math.max(3, written() + 2);
    const backups = join(dataDir, 'backups');
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && written() < target) await new Promise((r) => setTimeout(r, 100));
    assert.ok(written() >= target, `${target} backups were written`);
    const files = readdirSync(backups).filter((name) => name.endsWith('.sqlite'));
    assert.equal(files.length, 2, `kept: ${files.join(', ')}`);
    const newest = new Database(join(backups, files.sort().at(-1) ?? ''), { readonly: true });
    const ids = newest.prepare('SELECT id FROM transactions').pluck().all() as string[];
    newest.close();
    for (const id of paid) assert.ok(ids.includes(id), 'the backup holds the payments');
  } finally {
    await gateway.stop();
  }
});

test(
  'restore checks the file first, refuses while a gateway runs, keeps the current database and brings back every payment',
  BACKUPS,
  async () => {
    const dataDir = tempDataDir();
    const merchant = createMerchant(dataDir, 'Restored');
    const gateway = await startGateway({ dataDir, args: ['--backup-interval-hours', '0'] });
    const before: string[] = [];
    const backupFile = join(tempDataDir(), 'before.sqlite');
    try {
      for (let i = 1; i <= 25; i += 1) before.push(await pay(gateway.url, merchant, i));
      assert.equal(runGateway(['backup', '--data-dir', dataDir, '--to', backupFile]).status, 0);
      await pay(gateway.url, merchant, 99);
      const running = runGateway(['restore', '--data-dir', dataDir, '--from', backupFile]);
      assert.equal(running.status, 1);
      assert.match(running.stderr, /Another gateway is already running/);
    } finally {
      await gateway.stop();
    }

    // Files that are no backup of this gateway are refused before anything changes.
    const missing = runGateway(['restore', '--data-dir', dataDir, '--from', join(dataDir, 'nothing.sqlite')]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /does not exist/);
    const junk = join(tempDataDir(), 'junk.sqlite');
    writeFileSync(junk, 'not a database at all');
    const notDb = runGateway(['restore', '--data-dir', dataDir, '--from', junk]);
    assert.equal(notDb.status, 1);
    assert.match(notDb.stderr, /is not a database/);
    // A backup of another shop's gateway, made with another data key.
    const otherDir = tempDataDir();
    createMerchant(otherDir, 'Elsewhere');
    const otherBackup = join(tempDataDir(), 'other.sqlite');
    assert.equal(runGateway(['backup', '--data-dir', otherDir, '--to', otherBackup]).status, 0);
    const wrongKey = runGateway(['restore', '--data-dir', dataDir, '--from', otherBackup]);
    assert.equal(wrongKey.status, 1);
    assert.match(wrongKey.stderr, /data key/);

    const check = runGateway(['restore', '--data-dir', dataDir, '--from', backupFile, '--check', '--json']);
    assert.equal(check.status, 0, check.stderr);
    assert.deepEqual(JSON.parse(check.stdout), {
      ok: true,
      file: backupFile,
      schema_version: JSON.parse(check.stdout).schema_version,
      merchants: 1,
      transactions: 25,
    });

    const restored = runGateway(['restore', '--data-dir', dataDir, '--from', backupFile, '--json']);
    assert.equal(restored.status, 0, restored.stderr);
    const report = JSON.parse(restored.stdout) as { previous: string };
    assert.ok(existsSync(report.previous), 'the replaced database is kept');

    const again = await startGateway({ dataDir, args: ['--backup-interval-hours', '0'] });
    try {
      assert.deepEqual(await transactionIds(again.url, merchant), [...before].sort(), 'every payment of the backup, and only those');
    } finally {
      await again.stop();
    }
  },
);
