import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { migrations } from '../../db/migrations/index.js';
import {
  basicAuth,
  runGateway,
  startGateway,
  tempDataDir,
  type GatewayProcess,
  type MerchantCredentials,
} from '../helpers/gateway-process.js';
import { engineIndependent, sqliteOnly } from '../helpers/sql.js';

const START_BIN = fileURLToPath(new URL('../../bin/start.js', import.meta.url));

async function listTransactions(url: string, authorization: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/rest/transactions`, { headers: { authorization } });
  return { status: response.status, body: await response.json() };
}

// `serve` and `merchant create` beside it run on both engines (in the PostgreSQL pass on the data
// directory's database); what is about the data directory's SQLite file runs in the SQLite pass.
describe('gateway CLI', () => {
  describe('serve with a merchant created while it runs', () => {
    let server: GatewayProcess;
    let created: MerchantCredentials;
    let stdout: string;

    before(async () => {
      server = await startGateway();
    });

    after(async () => {
      await server.kill9(); // no-op when the test below already stopped it
    });

    test('serve prints "listening on http://127.0.0.1:PORT" and answers', async () => {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d{2,5}$/);
      const health = await fetch(`${server.url}/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok', version: '3.21.5' });
      const anonymous = await fetch(`${server.url}/rest/transactions`);
      assert.equal(anonymous.status, 401);
      assert.match(String(anonymous.headers.get('www-authenticate')), /^Basic realm="gateway"/);
    });

    test("serve says that customers' links open on this computer only, and names the setting; not once a public URL is set", async () => {
      assert.match(
        server.stdout(),
        new RegExp(
          `Note: pay links and QR codes start with ${server.url.replaceAll('.', '\\.')}, which a customer's phone cannot open\\. Set GATEWAY_PUBLIC_URL`,
        ),
      );
      const published = await startGateway({ args: ['--public-url', 'https://pay.corner-shop.example'] });
      try {
        assert.doesNotMatch(published.stdout(), /Note: pay links/);
      } finally {
        await published.stop();
      }
    });

    test('merchant create --json works while the server runs and prints exactly the credentials', () => {
      const result = runGateway(['merchant', 'create', '--data-dir', server.dataDir, '--name', 'CLI Shop', '--json']);
      assert.equal(result.status, 0, result.stderr);
      stdout = result.stdout;
      assert.equal(stdout.trim().split('\n').length, 1, 'one line of JSON');
      created = JSON.parse(stdout) as MerchantCredentials;
      assert.deepEqual(Object.keys(created).sort(), ['api_key', 'api_password', 'channel', 'merchant_id', 'webhook_key']);
      assert.deepEqual(Object.keys(created.channel), ['url_name']);
      assert.equal(created.channel.url_name, 'cli-shop');
      assert.match(created.merchant_id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a UUIDv7');
      assert.match(created.api_key, /^tg_test_[A-Za-z0-9_-]+$/);
      assert.ok(created.api_password.length >= 24);
      assert.match(created.webhook_key, /^whsec_[A-Za-z0-9+/]+=*$/);
      const secret = Buffer.from(created.webhook_key.slice('whsec_'.length), 'base64');
      assert.equal(secret.length, 32);
      assert.equal(secret.toString('base64'), created.webhook_key.slice('whsec_'.length));
    });

    test('the new credentials work at once against the running server', async () => {
      assert.ok(created, 'needs the merchant of the previous test');
      assert.deepEqual(await listTransactions(server.url, basicAuth(created)), { status: 200, body: [] });
      const wrong = await listTransactions(server.url, basicAuth({ api_key: created.api_key, api_password: 'wrong' }));
      assert.equal(wrong.status, 401);
    });

    test('SIGTERM stops the server with exit code 0', async () => {
      assert.equal(await server.stop(), 0);
      assert.doesNotMatch(server.stderr(), /"level":(50|60)/, 'no error logged on shutdown');
      await assert.rejects(fetch(`${server.url}/health`), 'nothing listens any more');
    });

    test(
      'backup --to FILE writes a SQLite file that opens and holds the merchant',
      sqliteOnly('gateway backup copies the SQLite database file'),
      () => {
        const target = join(tempDataDir('tillgate-backup-'), 'backup.sqlite');
        const result = runGateway(['backup', '--data-dir', server.dataDir, '--to', target]);
        assert.equal(result.status, 0, result.stderr);
        assert.match(result.stdout, /backup written to/);
        const db = new Database(target, { readonly: true, fileMustExist: true });
        try {
          assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
          assert.equal(db.pragma('user_version', { simple: true }), migrations.at(-1)?.version ?? 0);
          const row = db.prepare('SELECT name FROM merchants WHERE id = ?').get(created.merchant_id) as { name: string } | undefined;
          assert.equal(row?.name, 'CLI Shop');
          const credential = db.prepare('SELECT password_hash FROM credentials WHERE merchant_id = ?').get(created.merchant_id) as {
            password_hash: string;
          };
          assert.ok(!credential.password_hash.includes(created.api_password), 'only the hash is stored');
        } finally {
          db.close();
        }
        // An existing file is never overwritten.
        const again = runGateway(['backup', '--data-dir', server.dataDir, '--to', target]);
        assert.equal(again.status, 2);
        assert.match(again.stderr, /exists already/);
      },
    );
  });

  test(
    'a second gateway on the same data directory is refused with a clear message; a killed one leaves no stale lock',
    sqliteOnly('the data-directory lock of the SQLite database (instances on PostgreSQL share a database on purpose)'),
    async () => {
      const first = await startGateway();
      try {
        const second = runGateway(['serve', '--data-dir', first.dataDir, '--port', '0']);
        assert.equal(second.status, 1);
        assert.match(
          second.stderr,
          new RegExp(
            `Another gateway is already running on the data directory ${first.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(process \\d+\\)`,
          ),
        );
        // Short administrative commands still work beside it.
        assert.equal(runGateway(['merchant', 'create', '--data-dir', first.dataDir, '--name', 'Beside', '--json']).status, 0);
      } finally {
        await first.kill9();
      }
      // The operating system dropped the lock with the process: the next start works.
      const again = await startGateway({ dataDir: first.dataDir });
      await again.stop();
    },
  );

  test(
    'migrate applies the schema once, then reports it is up to date',
    sqliteOnly('gateway migrate of a fresh data directory; tests/db/postgres.test.ts migrates PostgreSQL'),
    () => {
      const dataDir = tempDataDir();
      const first = runGateway(['migrate', '--data-dir', dataDir]);
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, new RegExp(`migrated from version 0 to ${migrations.at(-1)?.version ?? 0}`));
      const second = runGateway(['migrate', '--data-dir', dataDir]);
      assert.equal(second.status, 0, second.stderr);
      assert.equal(second.stdout.trim(), `schema is up to date (version ${migrations.at(-1)?.version ?? 0})`);
    },
  );

  test('docs/operations.md documents every command of gateway --help', engineIndependent('the help text'), () => {
    const result = runGateway(['--help']);
    assert.equal(result.status, 0, result.stderr);
    const section = result.stdout.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
    // "  staff create       create a staff account ..." -> "staff create"; "  backup --to FILE ..." -> "backup".
    const commands = [...section.matchAll(/^ {2}([a-z]+(?: [a-z]+)?)(?= {2,}| --)/gm)].map((m) => m[1] ?? '');
    assert.ok(commands.includes('staff create') && commands.includes('serve') && commands.length >= 6, `commands: ${commands.join(', ')}`);
    const operations = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    for (const command of commands) assert.ok(operations.includes(`gateway ${command}`), `docs/operations.md shows \`gateway ${command}\``);
    // A headless user finds how to get a UI login.
    assert.match(operations, /gateway staff create [^\n]*--merchant[^\n]*--role/);
  });

  test('an unknown command exits 2 with a message on stderr', engineIndependent('the command line'), () => {
    const result = runGateway(['frobnicate', '--data-dir', tempDataDir()]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unknown command "frobnicate"/);
    assert.equal(result.stdout, '');
  });

  test('a bad option value exits 2 naming the option', engineIndependent('the command line'), () => {
    const badPort = runGateway(['serve', '--data-dir', tempDataDir(), '--port', 'eighty']);
    assert.equal(badPort.status, 2);
    assert.match(badPort.stderr, /--port must be a whole number/);
  });

  test(
    'a port in use: gateway serve and npm start say which port and how to choose another, without a stack',
    engineIndependent('the command line'),
    async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const { port } = taken.address() as AddressInfo;
      try {
        const serve = runGateway(['serve', '--data-dir', tempDataDir(), '--port', String(port)]);
        const start = spawnSync(process.execPath, [START_BIN], {
          encoding: 'utf8',
          env: { ...process.env, GATEWAY_DATA_DIR: tempDataDir(), GATEWAY_PORT: String(port), CI: '1' },
          timeout: 60_000,
        });
        for (const [name, result] of [
          ['gateway serve', serve],
          ['npm start', start],
        ] as const) {
          assert.equal(result.status, 1, `${name}: ${result.stderr}`);
          assert.match(result.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`), name);
          assert.match(result.stderr, new RegExp(`GATEWAY_PORT=${port + 1} npm start, or gateway serve --port ${port + 1}`), name);
          assert.doesNotMatch(result.stderr, /^\s+at |EADDRINUSE/m, `${name} prints no stack: ${result.stderr}`);
        }
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
  );

  test('a bad settings.json stops serve with a message naming the file', engineIndependent('settings.json'), () => {
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ prot: 1 }));
    const result = runGateway(['serve', '--data-dir', dataDir, '--port', '0']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /settings\.json: unknown setting "prot"/);
    assert.equal(existsSync(join(dataDir, 'gateway.sqlite')), false, 'nothing was created');
  });
});
