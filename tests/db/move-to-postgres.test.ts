// Moving a shop's history from SQLite to PostgreSQL (issue 19): a gateway on SQLite takes varied
// business through its API (payments captured and refunded in two currencies, POS payments on the
// till ledger, invoices with e-mails, network tokens, postbacks, staff and audited changes), the
// real CLI exports it and imports it into PostgreSQL (and moves it directly), the counts and sums
// printed are equal, and a gateway on PostgreSQL then answers the same transactions and takes new
// business (identity columns continue after the imported rows). Damaged files, another schema
// version and a non-empty target are refused with nothing written.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import pg from 'pg';
import { seed } from '../../bench/seed.js';
import { SCHEMA_VERSION } from '../../db/move.js';
import { compose, type Composition } from '../../main/compose.js';
import { buildServer } from '../../main/http/server.js';
import { createLogger } from '../../main/infra/logger.js';
import { resolveSettings } from '../../main/settings.js';
import {
  createTestMerchant,
  loginStaff,
  startTestGateway,
  tempDir,
  TestClock,
  type TestGateway,
  type TestMerchant,
} from '../helpers/api.js';
import { GATEWAY_BIN, runGateway, startGateway } from '../helpers/gateway-process.js';
import { cardPayment, EXPIRY_YEAR, freshPan, orderId, posPayment } from '../helpers/payments.js';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.js';

const skip = postgresAvailable() ? false : 'PostgreSQL 15 binaries are not installed (apt-get install postgresql)';

type Json = Record<string, unknown>;

async function count(url: string, table: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return Number((await pool.query(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0].n);
  } finally {
    await pool.end();
  }
}

/** The check lines the CLI printed: name -> [source, target]. */
function printedChecks(stdout: string): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  for (const line of stdout.split('\n')) {
    const match = /^(.+?)\s{2,}(-?\d+|-)\s+(-?\d+|-)(\s+DIFFERS)?$/.exec(line);
    if (match) lines.set((match[1] as string).trim(), [match[2] as string, match[3] as string]);
  }
  return lines;
}

describe('export, import and move-to-postgres', { skip }, () => {
  const dataKey = randomBytes(32);
  const env = { GATEWAY_DATA_KEY: dataKey.toString('base64') };
  let dir: string;
  let file: string;
  let merchant: TestMerchant;
  let eurShop: TestMerchant;
  const transactions = new Map<string, Json>();
  let list: unknown;
  const invoiceIds: number[] = [];
  const owner = new Map<string, TestMerchant>();

  before(async () => {
    dir = tempDir('tillgate-move-');
    file = join(tempDir('tillgate-move-file-'), 'export.jsonl');
    // SQLite explicitly (compose, not composeForTest): the source of the move is the data directory.
    const settings = resolveSettings(dir, { 'sim-delay-ms': '0' }, {});
    // Postbacks are answered by a stub receiver: every third one fails, so some stay pending.
    let sent = 0;
    const postbackSender = {
      send: async () => {
        const status = ++sent % 3 === 0 ? 500 : 200;
        return { kind: 'response' as const, status, delivered: status === 200 };
      },
    };
    const composition: Composition = compose({
      settings,
      clock: new TestClock(),
      dataKey,
      background: false,
      postbackSender,
      logger: createLogger({ level: 'silent' }),
    });
    const app = await buildServer(composition.gateway);
    const gw = { dir, clock: new TestClock(), dataKey, composition, app, close: async () => undefined } as TestGateway;
    try {
      merchant = await createTestMerchant(gw, 'Moving Shop');
      eurShop = await createTestMerchant(gw, 'Second Shop');
      const call = async (who: TestMerchant, method: 'GET' | 'POST', url: string, body?: unknown): Promise<Json> => {
        const response = await app.inject({
          method,
          url,
          headers: { authorization: who.auth, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
        assert.ok(response.statusCode === 200 || response.statusCode === 201, `${method} ${url}: ${response.statusCode} ${response.body}`);
        return response.json() as Json;
      };
      const pay = async (who: TestMerchant, path: string, body: Json) => (await call(who, 'POST', path, body)).transaction_id as string;
      // Payments: captured in full, captured in part and refunded, authorized only, in EUR and USD.
      const ids: string[] = [];
      for (let i = 0; i < 6; i++)
        ids.push(
          await pay(merchant, '/rest/payment', { ...cardPayment(freshPan(), 10 + i), postback_url: 'https://shop.example/postbacks' }),
        );
      ids.push(await pay(merchant, '/rest/payment', cardPayment(freshPan(), 7.5, { currency: 'USD' })));
      const auth = await pay(merchant, '/rest/authorize', cardPayment(freshPan(), 40));
      await call(merchant, 'POST', '/rest/capture', { transaction_id: auth, amount: 25 });
      await call(merchant, 'POST', '/rest/refund', { transaction_id: auth, amount: 5 });
      await call(merchant, 'POST', '/rest/refund', { transaction_id: ids[0], amount: 3 });
      ids.push(auth, await pay(merchant, '/rest/authorize', cardPayment(freshPan(), 12)));
      // The till: POS payments on a terminal go to the till ledger.
      for (let i = 0; i < 3; i++) ids.push(await pay(merchant, '/rest/payment', posPayment(4 + i, { pan: freshPan() })));
      const other = await pay(eurShop, '/rest/payment', cardPayment(freshPan(), 99));
      // Invoices with e-mails, a network token, staff with an audited change.
      for (let i = 0; i < 3; i++) {
        const created = await call(merchant, 'POST', '/rest/invoices', {
          url_name: merchant.channel.url_name,
          invoice: { amount: 20 + i, email: `buyer${i}@example.com`, send_initial_email: true },
        });
        invoiceIds.push(Number((created.invoice as Json | undefined)?.id ?? created.id));
      }
      await call(merchant, 'POST', '/v2/network_tokens', {
        card_number: freshPan(),
        expiry_month: 12,
        expiry_year: EXPIRY_YEAR,
        postback_url: 'https://shop.example/tokens',
      });
      const admin = await loginStaff(gw, merchant, 'admin', 'move-admin');
      const profile = await app.inject({
        method: 'PUT',
        url: '/ui/profile',
        cookies: { tillgate_session: admin.session },
        payload: { name: 'Moving Shop GmbH', currency: 'EUR', language: 'de' },
      });
      assert.equal(profile.statusCode, 200, profile.body);
      for (const id of ids) transactions.set(id, await call(merchant, 'GET', `/rest/transactions/${id}`));
      transactions.set(other, await call(eurShop, 'GET', `/rest/transactions/${other}`));
      owner.set(other, eurShop);
      await composition.gateway.postbackDelivery.drain();
      for (const id of ids) transactions.set(id, await call(merchant, 'GET', `/rest/transactions/${id}`));
      list = await call(merchant, 'GET', '/rest/transactions');
      const db = composition.store.db;
      for (const table of [
        'till_ledger',
        'postback_outbox',
        'postback_attempts',
        'emails',
        'network_tokens',
        'staff',
        'audit_log',
        'refunds',
        'key_check',
      ]) {
        assert.ok((db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n > 0, `the source has ${table} rows`);
      }
    } finally {
      await app.close();
      await composition.close();
    }
  });

  test('export refuses while a gateway runs on the data directory, and says so', async () => {
    const running = await startGateway({ dataDir: dir, env });
    try {
      const result = runGateway(['export', '--data-dir', dir, '--to', join(tempDir(), 'x.jsonl')], env);
      assert.equal(result.status, 1, result.stderr);
      assert.match(result.stderr, /export needs the gateway stopped: Another gateway is already running on the data directory/);
    } finally {
      await running.stop();
    }
  });

  let target: string;
  test('export writes the file; import into an empty PostgreSQL database prints equal counts and sums', async () => {
    const exported = runGateway(['export', '--data-dir', dir, '--to', file], env);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stdout, /exported \d+ rows of \d+ tables to /);
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] as string) as Json;
    assert.equal(header.format, 'tillgate-export');
    assert.equal(header.schema_version, SCHEMA_VERSION);
    const tables = (header.tables as Array<{ name: string }>).map((t) => t.name);
    for (const table of [
      'merchants',
      'transactions',
      'transaction_events',
      'refunds',
      'postback_outbox',
      'postback_attempts',
      'till_ledger',
      'audit_log',
      'emails',
      'invoices',
      'network_tokens',
      'staff',
      'key_check',
    ]) {
      assert.ok(tables.includes(table), `the export has ${table}`);
    }
    assert.ok(
      tables.indexOf('merchants') < tables.indexOf('transactions') && tables.indexOf('transactions') < tables.indexOf('refunds'),
      'dependency order',
    );

    target = await createTestDatabase('import');
    const imported = runGateway(['import', '--from', file, '--database', target], env);
    assert.equal(imported.status, 0, imported.stderr);
    const checks = printedChecks(imported.stdout);
    for (const name of [
      'rows transactions',
      'rows till_ledger',
      'rows audit_log',
      'transactions EUR captured',
      'transactions USD captured',
      'transactions EUR refunded',
      'till ledger EUR capture amount',
    ]) {
      const [source, targetValue] = checks.get(name) ?? [];
      assert.ok(source !== undefined && source === targetValue, `${name}: ${String(source)} vs ${String(targetValue)}\n${imported.stdout}`);
    }
    assert.ok(Number(checks.get('rows transactions')?.[0]) >= transactions.size);
    assert.match(imported.stdout, /all \d+ counts and sums are equal/);
    assert.doesNotMatch(imported.stdout, /DIFFERS/);
    assert.equal(await count(target, 'transactions'), transactions.size);
  });

  test('a gateway on PostgreSQL answers the same transactions and list, and takes new business after them', async () => {
    const gw = await startTestGateway({ flags: { database: target }, dataKey });
    try {
      const get = (who: TestMerchant, url: string) => gw.app.inject({ method: 'GET', url, headers: { authorization: who.auth } });
      for (const [id, before] of transactions) {
        const response = await get(owner.get(id) ?? merchant, `/rest/transactions/${id}`);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), before);
      }
      assert.deepEqual((await get(merchant, '/rest/transactions')).json(), list);
      const post = (url: string, body: unknown) =>
        gw.app.inject({
          method: 'POST',
          url,
          headers: { authorization: merchant.auth, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      // New rows in the tables with identity columns: invoices, the till ledger (its trigger), tokens.
      const invoice = await post('/rest/invoices', {
        url_name: merchant.channel.url_name,
        invoice: { amount: 30, email: 'new@example.com' },
      });
      assert.equal(invoice.statusCode, 201, invoice.body);
      const pos = await post('/rest/payment', posPayment(8, { pan: freshPan(), order: orderId('after-move') }));
      assert.equal(pos.statusCode, 200, pos.body);
      assert.equal(pos.json().error_code, 0, pos.body);
      const card = await post('/rest/payment', cardPayment(freshPan(), 11));
      assert.equal(card.statusCode, 200, card.body);
      const pool = new pg.Pool({ connectionString: target, max: 1 });
      try {
        const ids = (await pool.query<{ id: number }>('SELECT id FROM invoices ORDER BY id')).rows.map((r) => Number(r.id));
        assert.equal(ids.length, invoiceIds.length + 1);
        assert.ok(
          (ids.at(-1) ?? 0) > Math.max(...invoiceIds.filter(Number.isFinite), 0),
          `the new invoice continues the numbering: ${ids.join(', ')}`,
        );
        const ledger = (await pool.query<{ seq: number }>('SELECT seq FROM till_ledger ORDER BY seq')).rows.map((r) => Number(r.seq));
        assert.deepEqual(
          ledger,
          ledger.map((_s, i) => i + 1),
          'the till ledger goes on without a gap or a clash',
        );
      } finally {
        await pool.end();
      }
    } finally {
      await gw.close();
    }
  });

  test('a non-empty target is refused, and left as it was; --delete-existing-data replaces it', async () => {
    const before = await count(target, 'transactions');
    const again = runGateway(['import', '--from', file, '--database', target], env);
    assert.equal(again.status, 1, again.stdout);
    assert.match(again.stderr, /the target database is not empty .*--delete-existing-data/);
    assert.equal(await count(target, 'transactions'), before);
    const replaced = runGateway(['import', '--from', file, '--database', target, '--delete-existing-data'], env);
    assert.equal(replaced.status, 0, replaced.stderr);
    assert.equal(await count(target, 'transactions'), transactions.size);
  });

  test('a changed file is refused (checksum), and nothing is written', async () => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const index = lines.findIndex((line) => line.startsWith('{"t":"transactions"'));
    const tampered = join(tempDir(), 'tampered.jsonl');
    writeFileSync(tampered, lines.map((line, i) => (i === index ? line.replace(/"EUR"/, '"USD"') : line)).join('\n'));
    assert.notEqual(readFileSync(tampered, 'utf8'), readFileSync(file, 'utf8'));
    const empty = await createTestDatabase('tampered');
    const result = runGateway(['import', '--from', tampered, '--database', empty], env);
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stderr, /does not match its checksum/);
    assert.equal(await count(empty, 'transactions'), 0);
    assert.equal(await count(empty, 'merchants'), 0);
    // Cut short: refused too.
    const cut = join(tempDir(), 'cut.jsonl');
    writeFileSync(cut, `${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`);
    const short = runGateway(['import', '--from', cut, '--database', empty], env);
    assert.equal(short.status, 1);
    assert.match(short.stderr, /ends before its end line/);
    assert.equal(await count(empty, 'merchants'), 0);
  });

  test('a file of another schema version is refused before anything is written', async () => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const header = JSON.parse(lines[0] as string) as Json;
    const older = join(tempDir(), 'older.jsonl');
    writeFileSync(older, [JSON.stringify({ ...header, schema_version: SCHEMA_VERSION - 1 }), ...lines.slice(1)].join('\n'));
    const empty = await createTestDatabase('older');
    const result = runGateway(['import', '--from', older, '--database', empty], env);
    assert.equal(result.status, 1);
    assert.match(result.stderr, new RegExp(`the export has schema version ${SCHEMA_VERSION - 1}, this gateway's is ${SCHEMA_VERSION}`));
  });

  test('an export of PostgreSQL (beside a running instance) imports into another PostgreSQL database with the same checks', async () => {
    const running = await startGateway({ args: ['--database', target], env });
    try {
      const fromPostgres = join(tempDir(), 'from-postgres.jsonl');
      const exported = runGateway(['export', '--database', target, '--to', fromPostgres], env);
      assert.equal(exported.status, 0, exported.stderr);
      assert.equal((JSON.parse(readFileSync(fromPostgres, 'utf8').split('\n')[0] as string) as Json).source, 'postgres');
      const second = await createTestDatabase('second');
      const imported = runGateway(['import', '--from', fromPostgres, '--database', second], env);
      assert.equal(imported.status, 0, imported.stderr);
      assert.equal(await count(second, 'transactions'), await count(target, 'transactions'));
      assert.equal(await count(second, 'till_ledger'), await count(target, 'till_ledger'));
    } finally {
      await running.stop();
    }
  });

  test('move-to-postgres does both without a file, with the same checks', async () => {
    const moved = await createTestDatabase('moved');
    const result = runGateway(['move-to-postgres', '--data-dir', dir, '--database', moved], env);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /move-to-postgres: \d+ rows imported; all \d+ counts and sums are equal/);
    assert.equal(await count(moved, 'transactions'), transactions.size);
    assert.equal(await count(moved, 'key_check'), 1);
  });
});

// Streamed, not loaded: 80,000 seeded transactions (the whole table takes some 75 MiB of JavaScript
// heap at once, beside the program's own) go through export and import with the heap capped at
// 64 MiB, which only batches fit in. (Without their events: the run's time stays modest on a small
// machine.)
describe('export and import with bounded memory', { skip }, () => {
  test('80,000 transactions move with a 64 MiB heap, checks equal', async () => {
    const dataDir = tempDir('tillgate-move-seed-');
    seed(dataDir, { count: 80_000, years: 1, events: false });
    // Not runGateway: its 60-second limit is too short for this many rows on a loaded machine.
    const capped = (args: string[]) => {
      const result = spawnSync(process.execPath, [GATEWAY_BIN, ...args], {
        encoding: 'utf8',
        timeout: 300_000,
        env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=64' },
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const file = join(tempDir('tillgate-move-big-'), 'big.jsonl');
    const exported = capped(['export', '--data-dir', dataDir, '--to', file]);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stdout, /rows transactions\s+80000/);
    const url = await createTestDatabase('big');
    const imported = capped(['import', '--from', file, '--database', url]);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /all \d+ counts and sums are equal/);
    assert.equal(await count(url, 'transactions'), 80_000);
  });
});
