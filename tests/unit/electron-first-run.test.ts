/**
 * The desktop app's first start, with a fake Electron: with no merchant in the database the shell
 * creates "My Shop" with an `admin` and a `till` cashier (PIN 2580), like the headless host, and
 * shows the one-time credentials in a dialog; they work; later starts and data folders that already
 * hold a merchant show nothing and create nothing; the credentials never reach the log.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, test } from 'node:test';
import { compose } from '../../main/compose.js';
import type { MessageBoxOptions } from '../../main/electron/ports.js';
import { runShell, type ShellHandle, type ShellOptions, type StartedShell } from '../../main/electron/shell.js';
import { createLogger } from '../../main/infra/logger.js';
import { resolveSettings } from '../../main/settings.js';
import { basicAuth, createMerchant, runGateway, startGateway } from '../helpers/gateway-process.js';
import { createFakeElectron, type FakeElectron } from '../helpers/fake-electron.js';
import { makeTempDir } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TIMEOUT = { timeout: 30_000 };

const running: ShellHandle[] = [];
afterEach(async () => {
  for (const handle of running.splice(0)) await handle.stop();
});

async function startShell(
  dataDir: string,
  extra: Partial<ShellOptions> = {},
  answers: number[] = [],
): Promise<{ electron: FakeElectron; started: StartedShell }> {
  const electron = createFakeElectron(makeTempDir('tillgate-appdata-'));
  electron.messageBoxAnswers.push(...answers);
  const handle = runShell(electron.ports, {
    appRoot: ROOT,
    preloadPath: join(ROOT, 'dist', 'electron', 'preload.cjs'),
    resourcesPath: join(ROOT, 'dist'),
    electronVersion: undefined,
    platform: 'linux',
    env: { GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'silent', GATEWAY_DATA_DIR: dataDir },
    logger: createLogger({ level: 'silent' }),
    ...extra,
  });
  running.push(handle);
  electron.app.becomeReady();
  const started = await handle.started;
  assert.ok(started, `shell started (error boxes: ${JSON.stringify(electron.errorBoxes)})`);
  await new Promise((resolve) => setImmediate(resolve));
  return { electron, started };
}

/** `Label: value` from the dialog's text. */
function field(box: MessageBoxOptions, label: string): string {
  const match = new RegExp(`^${label}: (.+)$`, 'm').exec(box.detail ?? '');
  assert.ok(match?.[1], `the dialog shows ${label}`);
  return match[1].trim();
}

async function login(
  restUrl: string,
  body: Record<string, string>,
): Promise<{ status: number; role?: string; merchant?: string; name?: string }> {
  const response = await fetch(`${restUrl}/ui/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) return { status: response.status };
  const session = (await response.json()) as { staff: { role: string; display_name: string }; merchant: { name: string } };
  return { status: 200, role: session.staff.role, merchant: session.merchant.name, name: session.staff.display_name };
}

describe('first start of the desktop app', () => {
  test('creates "My Shop", an admin and the till cashier, and shows their credentials once, in a dialog', TIMEOUT, async () => {
    const dataDir = makeTempDir('tillgate-data-');
    const { electron, started } = await startShell(dataDir);
    assert.equal(electron.messageBoxes.length, 2);
    const [choice, box] = electron.messageBoxes;
    assert.ok(choice && box);
    // First the question, answered "this computer is the shop's gateway".
    assert.match(choice.message, /How does this computer take part in the shop/);
    assert.deepEqual(choice.buttons, ["This computer is the shop's gateway", "Join a shop's gateway"]);
    assert.match(box.message, /"My Shop"/);
    assert.match(box.message, /shown this once/);
    assert.deepEqual(box.buttons?.length, 1);
    assert.deepEqual(await started.composition.gateway.merchants.list().then((list) => list.map((m) => m.name)), ['My Shop']);

    // The till: login "till" with PIN 2580 or the shown password; the admin with the shown password.
    const till = field(box, 'Till login \\(cashier\\)');
    const [tillLogin, tillPassword, pin] = /^(\S+) \/ (\S+)\s+or PIN (\d+)$/.exec(till)?.slice(1) ?? [];
    assert.deepEqual([tillLogin, pin], ['till', '2580']);
    assert.ok(tillPassword);
    // The cashier is a person ("Cashier"), never named like a till ("Till 1" beside "Till TILL-1").
    assert.deepEqual(await login(started.restUrl, { login: 'till', pin: '2580' }), {
      status: 200,
      role: 'cashier',
      merchant: 'My Shop',
      name: 'Cashier',
    });
    assert.deepEqual(await login(started.restUrl, { login: 'till', password: tillPassword }), {
      status: 200,
      role: 'cashier',
      merchant: 'My Shop',
      name: 'Cashier',
    });
    const [adminLogin, adminPassword] = /^(\S+) \/ (\S+)$/.exec(field(box, 'Admin login'))?.slice(1) ?? [];
    assert.equal(adminLogin, 'admin');
    assert.ok(adminPassword);
    assert.deepEqual(await login(started.restUrl, { login: 'admin', password: adminPassword }), {
      status: 200,
      role: 'admin',
      merchant: 'My Shop',
      name: 'Administrator',
    });
    assert.equal((await login(started.restUrl, { login: 'admin', password: `${adminPassword}x` })).status, 401);

    // POS software: the API key and password work over HTTP Basic.
    const authorization = basicAuth({ api_key: field(box, 'API key'), api_password: field(box, 'API password') });
    assert.equal((await fetch(`${started.restUrl}/rest/transactions`, { headers: { authorization } })).status, 200);
    assert.match(field(box, 'Webhook key'), /^whsec_/);
  });

  test('a later start on the same data shows nothing and creates nothing', TIMEOUT, async () => {
    const dataDir = makeTempDir('tillgate-data-');
    const first = await startShell(dataDir);
    assert.equal(first.electron.messageBoxes.length, 2);
    await running.splice(0)[0]?.stop();
    const second = await startShell(dataDir);
    assert.equal(second.electron.messageBoxes.length, 0);
    assert.equal((await second.started.composition.gateway.merchants.list()).length, 1);
    assert.equal(
      (
        await second.started.composition.gateway.staff.list(
          (await second.started.composition.gateway.merchants.list())[0]?.merchant_id ?? '',
        )
      ).length,
      2,
    );
  });

  test('a data folder that already holds a merchant (a headless gateway ran there) gets no first-run accounts', TIMEOUT, async () => {
    const dataDir = makeTempDir('tillgate-data-');
    // The desktop app keeps its data key in the keychain; the headless run here uses one from the environment.
    const key = Buffer.alloc(32, 3).toString('base64');
    const composition = compose({
      settings: resolveSettings(dataDir, {}, {}),
      logger: createLogger({ level: 'silent' }),
      dataKey: Buffer.from(key, 'base64'),
      background: false,
    });
    assert.ok((await composition.gateway.merchants.create({ name: 'Existing Shop' })).ok);
    await composition.close();
    const { electron, started } = await startShell(dataDir, {
      env: { GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'silent', GATEWAY_DATA_DIR: dataDir, GATEWAY_DATA_KEY: key },
    });
    assert.equal(electron.messageBoxes.length, 0);
    assert.deepEqual(
      (await started.composition.gateway.merchants.list()).map((m) => m.name),
      ['Existing Shop'],
    );
    assert.equal((await login(started.restUrl, { login: 'till', pin: '2580' })).status, 401);
  });

  test('the one-time credentials are never logged', TIMEOUT, async () => {
    const dataDir = makeTempDir('tillgate-data-');
    let log = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        log += chunk.toString();
        callback();
      },
    });
    const { electron } = await startShell(dataDir, {
      env: { GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'debug', GATEWAY_DATA_DIR: dataDir },
      logger: createLogger({ level: 'debug', destination }),
    });
    const [, box] = electron.messageBoxes;
    assert.ok(box);
    assert.match(log, /first run/, 'the first run itself is logged');
    for (const label of ['API password', 'Webhook key']) assert.ok(!log.includes(field(box, label)), `${label} logged`);
    const passwords = [...(box.detail ?? '').matchAll(/ \/ (\S+)/g)].map((m) => m[1] ?? '');
    assert.equal(passwords.length, 2);
    for (const password of passwords) assert.ok(!log.includes(password), 'a staff password was logged');
  });

  test(
    '"Join a shop\'s gateway" creates no shop; the window\'s join (POST /ui/setup/join, this computer only, while it has no shop) makes it a till whose staff log in',
    TIMEOUT,
    async () => {
      const centre = await startGateway();
      try {
        const merchant = createMerchant(centre.dataDir, 'Corner Bakery');
        const cashier = runGateway([
          'staff',
          'create',
          '--data-dir',
          centre.dataDir,
          '--merchant',
          merchant.merchant_id,
          '--role',
          'cashier',
          '--login',
          'kim',
          '--name',
          'Kim Lee',
          '--pin',
          '5731',
          '--json',
        ]);
        assert.equal(cashier.status, 0, cashier.stderr);
        const invite = runGateway([
          'till',
          'invite',
          '--data-dir',
          centre.dataDir,
          '--merchant',
          merchant.merchant_id,
          '--till-id',
          'TILL-3',
          '--json',
        ]);
        assert.equal(invite.status, 0, invite.stderr);
        const { code } = JSON.parse(invite.stdout) as { code: string };

        const dataDir = makeTempDir('tillgate-data-');
        const { electron, started } = await startShell(dataDir, {}, [1]);
        assert.equal(electron.messageBoxes.length, 1, 'no credentials: no shop was made here');
        assert.equal((await started.composition.gateway.merchants.list()).length, 0);
        const setup = async () =>
          (await (await fetch(`${started.restUrl}/ui/setup`)).json()) as { has_shop: boolean; joined: boolean; till_id: string | null };
        assert.deepEqual(await setup(), { has_shop: false, joined: false, centre_url: null, till_id: null, can_join: true });
        const join = (body: unknown) =>
          fetch(`${started.restUrl}/ui/setup/join`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        const wrong = await join({ centre: centre.url, code: 'AAAA-BBBB-CCCC-DDDD-EEEE' });
        assert.equal(wrong.status, 404, await wrong.clone().text());
        const joined = await join({ centre: centre.url, code });
        assert.equal(joined.status, 200, await joined.clone().text());
        const summary = (await joined.json()) as { till_id: string; merchant_name: string; centre_url: string };
        assert.deepEqual([summary.till_id, summary.merchant_name, summary.centre_url], ['TILL-3', 'Corner Bakery', centre.url]);
        assert.deepEqual(await setup(), { has_shop: true, joined: true, centre_url: centre.url, till_id: 'TILL-3', can_join: false });
        // The centre's staff log in here (the replica), and a second join is refused.
        assert.deepEqual(await login(started.restUrl, { login: 'kim', pin: '5731' }), {
          status: 200,
          role: 'cashier',
          merchant: 'Corner Bakery',
          name: 'Kim Lee',
        });
        assert.equal((await join({ centre: centre.url, code })).status, 400);
      } finally {
        await centre.stop();
      }
    },
  );
});
