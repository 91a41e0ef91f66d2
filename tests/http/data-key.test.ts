// One data key per database (issue 19): a gateway whose data key cannot open the database's
// sealed data refuses to start, with a message that names the key source and says what to do, a
// non-zero exit and nothing written; with the right key it starts. On SQLite (the data directory)
// and on PostgreSQL, through the real CLI: serve, migrate and an account command.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { DATABASE_FILE } from '../../db/open.js';
import { createMerchant, runGateway, startGateway, tempDataDir } from '../helpers/gateway-process.js';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.js';

const key = () => randomBytes(32).toString('base64');
const REFUSAL =
  /The data key from GATEWAY_DATA_KEY does not open this database's sealed data .*Every gateway instance on a database must use the same data key.*The gateway did not start and changed nothing/;

/** Every row of every table, as text: equal before and after means nothing was written. */
function sqliteContents(dataDir: string): string {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
    return JSON.stringify([
      db.pragma('user_version', { simple: true }),
      ...tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}"`).all()]),
    ]);
  } finally {
    db.close();
  }
}

async function postgresContents(url: string): Promise<string> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const tables = (
      await pool.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name',
      )
    ).rows.map((r) => r.table_name);
    const parts: unknown[] = [];
    for (const t of tables) parts.push(t, (await pool.query(`SELECT * FROM "${t}" ORDER BY 1`)).rows);
    return JSON.stringify(parts);
  } finally {
    await pool.end();
  }
}

describe('data key check on SQLite', () => {
  test('a data directory started with another key: serve, migrate and merchant create refuse, exit 1, write nothing; its own key starts', async () => {
    const dataDir = tempDataDir();
    createMerchant(dataDir, 'Key Shop'); // first start: data.key made, canary written
    const before = sqliteContents(dataDir);
    assert.match(before, /key_check/);
    const wrong = { GATEWAY_DATA_KEY: key() };
    for (const args of [
      ['serve', '--data-dir', dataDir, '--port', '0'],
      ['migrate', '--data-dir', dataDir],
      ['merchant', 'create', '--data-dir', dataDir, '--name', 'Other'],
    ]) {
      const result = runGateway(args, wrong);
      assert.equal(result.status, 1, `${args[0]}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, REFUSAL, args.join(' '));
      assert.doesNotMatch(result.stdout, /listening on/);
    }
    assert.equal(sqliteContents(dataDir), before, 'nothing written');
    const right = await startGateway({ dataDir });
    try {
      assert.equal((await fetch(`${right.url}/health`)).status, 200);
    } finally {
      assert.equal(await right.stop(), 0);
    }
  });

  test("a database from before the check (no canary): a merchant's sealed webhook key decides; the right key writes the canary", async () => {
    const dataDir = tempDataDir();
    createMerchant(dataDir, 'Old Shop');
    const db = new Database(join(dataDir, DATABASE_FILE));
    db.prepare('DELETE FROM key_check').run();
    db.close();
    const before = sqliteContents(dataDir);
    const refused = runGateway(['migrate', '--data-dir', dataDir], { GATEWAY_DATA_KEY: key() });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /does not open this database's sealed data \(its merchants' webhook keys\)/);
    assert.equal(sqliteContents(dataDir), before, 'nothing written');
    const migrated = runGateway(['migrate', '--data-dir', dataDir]);
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.notEqual(sqliteContents(dataDir), before, 'the canary is written');
  });
});

const skip = postgresAvailable() ? false : 'PostgreSQL 15 binaries are not installed (apt-get install postgresql)';

describe('data key check on PostgreSQL', { skip }, () => {
  test('an instance with another key refuses to start and writes nothing; instances with the shared key start', async () => {
    const url = await createTestDatabase('datakey');
    const shared = { GATEWAY_DATA_KEY: key() };
    const migrated = runGateway(['migrate', '--data-dir', tempDataDir(), '--database', url], shared);
    assert.equal(migrated.status, 0, migrated.stderr);
    const created = runGateway(['merchant', 'create', '--data-dir', tempDataDir(), '--database', url, '--name', 'Chain', '--json'], shared);
    assert.equal(created.status, 0, created.stderr);
    const before = await postgresContents(url);
    const wrong = { GATEWAY_DATA_KEY: key() };
    for (const args of [['serve', '--port', '0'], ['migrate'], ['merchant', 'create', '--name', 'Other']]) {
      const result = runGateway([...args, '--data-dir', tempDataDir(), '--database', url], wrong);
      assert.equal(result.status, 1, `${args[0]}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, REFUSAL, args.join(' '));
    }
    assert.equal(await postgresContents(url), before, 'nothing written');
    const instances = [
      await startGateway({ args: ['--database', url], env: shared }),
      await startGateway({ args: ['--database', url], env: shared }),
    ];
    try {
      for (const instance of instances) assert.equal((await fetch(`${instance.url}/health`)).status, 200);
    } finally {
      for (const instance of instances) await instance.stop();
    }
  });
});
