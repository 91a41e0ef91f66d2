/**
 * The desktop API bridge (main/electron/api-bridge.ts) against a real buildServer(compose()) on
 * SQLite: the renderer logs in, pays and logs out through `gateway:api`, and never sees the session
 * token or Set-Cookie; what it may send is narrowed to four headers and the /rest/, /ui/ and /health
 * paths. Also the IPC wiring (sender check, preload facade) and the shell: window close forgets.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before, describe, test } from 'node:test';
import { ApiBridge, apiPathProblem, type BridgeInjectRequest, type BridgeInjectResponse } from '../../main/electron/api-bridge.js';
import type { ApiReply } from '../../main/electron/channels.js';
import { gatewayIpcHandlers, registerValidatedIpc } from '../../main/electron/ipc.js';
import { APP_ENTRY_URL, mainWindowOptions } from '../../main/electron/security.js';
import { runShell, type ShellHandle } from '../../main/electron/shell.js';
import { createLogger } from '../../main/infra/logger.js';
import { createBridge } from '../../preload/bridge.js';
import { createTestMerchant, startTestGateway, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { createFakeElectron, FakeIpcMain, FakeWindow, fakeEvent } from '../helpers/fake-electron.js';
import { cardPayment, freshPan } from '../helpers/payments.js';
import { exportInParts, type ExportProgress } from '../../renderer/src/transactions/export-parts.js';
import { makeTempDir } from '../helpers/temp.js';

const MINUTE = 60 * 1000;
const WINDOW = 1;
const OTHER_WINDOW = 2;

interface Recorded {
  request: BridgeInjectRequest;
  response: BridgeInjectResponse;
}

/** The bridge on the test gateway's inject, recording what went in and came out. */
function bridgeOn(gw: TestGateway) {
  const calls: Recorded[] = [];
  const bridge = new ApiBridge(async (request) => {
    const response = await gw.app.inject(request);
    calls.push({ request, response });
    return response;
  });
  return { bridge, calls };
}

/** Every session token the server ever handed out through these calls. */
function tokensIn(calls: Recorded[]): string[] {
  return calls.flatMap((c) => {
    const raw = c.response.headers['set-cookie'];
    return (Array.isArray(raw) ? raw : [raw]).flatMap((cookie) => {
      const match = typeof cookie === 'string' ? /^tillgate_session=([^;]+)/.exec(cookie) : null;
      return match?.[1] ? [match[1]] : [];
    });
  });
}

function assertNoSecrets(reply: ApiReply, tokens: string[]): void {
  const visible = JSON.stringify(reply);
  for (const token of tokens) assert.ok(!visible.includes(token), 'the renderer-visible reply holds a session token');
  assert.doesNotMatch(visible, /set-cookie|tillgate_session/i);
  for (const name of Object.keys(reply.headers ?? {})) assert.notEqual(name.toLowerCase(), 'set-cookie');
}

function errorCodeOf(reply: ApiReply): number | undefined {
  return (reply.body as { error_code?: number } | undefined)?.error_code;
}

describe('API bridge on the real gateway', () => {
  let gw: TestGateway;
  let shop: TestMerchant;

  before(async () => {
    gw = await startTestGateway({ flags: { 'lockout-max-failures': '1000' } });
    shop = await createTestMerchant(gw, 'Bridge Shop');
    const staff = gw.composition.gateway.staff;
    assert.ok((await staff.create({ merchantId: shop.merchant_id, role: 'cashier', login: 'till', pin: '2580' })).ok);
    assert.ok((await staff.create({ merchantId: shop.merchant_id, role: 'back_office', login: 'office', pin: '4321' })).ok);
  });

  after(async () => {
    await gw.close();
  });

  const login = (bridge: ApiBridge, sender = WINDOW, pin = '2580', name = 'till') =>
    bridge.forward(sender, { method: 'POST', path: '/ui/session', body: { login: name, pin } });

  test('login with the PIN, pay, read: the token stays in the main process, Set-Cookie never reaches the page', async () => {
    const { bridge, calls } = bridgeOn(gw);
    const loggedIn = await login(bridge);
    assert.equal(loggedIn.status, 200);
    assert.equal((loggedIn.body as { staff: { login: string; role: string } }).staff.login, 'till');
    assert.equal(loggedIn.headers?.['content-type']?.startsWith('application/json'), true);
    const [token] = tokensIn(calls);
    assert.ok(token, 'the server did set the session cookie');
    assert.equal(bridge.hasSession(WINDOW), true);
    assertNoSecrets(loggedIn, [token]);

    const paid = await bridge.forward(WINDOW, {
      method: 'POST',
      path: '/rest/payment',
      body: cardPayment(freshPan(), 7.5),
      headers: { 'Idempotency-Key': 'bridge-pay-1' },
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const payment = paid.body as { transaction_id: string; status: string };
    assert.equal(payment.status, 'completed');
    assertNoSecrets(paid, [token]);
    const sent = calls.at(-1)?.request;
    assert.equal(sent?.headers.authorization, `Bearer ${token}`, 'the bridge adds the session');
    assert.equal(sent?.headers['idempotency-key'], 'bridge-pay-1');
    assert.equal(sent?.headers['content-type'], 'application/json');

    const replay = await bridge.forward(WINDOW, {
      method: 'POST',
      path: '/rest/payment',
      body: cardPayment(freshPan(), 7.5),
      headers: { 'idempotency-key': 'bridge-pay-1' },
    });
    assert.equal(replay.status, 422, 'same key, other body: the idempotency check ran for this session');

    const list = await bridge.forward(WINDOW, { method: 'GET', path: '/rest/transactions?limit=5' });
    assert.equal(list.status, 200);
    assert.ok((list.body as Array<{ transaction_id: string }>).some((t) => t.transaction_id === payment.transaction_id));
    const session = await bridge.forward(WINDOW, { method: 'GET', path: '/ui/session' });
    assert.equal(session.status, 200);
    assertNoSecrets(session, [token]);
    assert.deepEqual(await bridge.forward(WINDOW, { method: 'GET', path: '/health' }), {
      status: 200,
      body: { status: 'ok', version: (await gw.app.inject('/health')).json<{ version: string }>().version },
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': calls.at(-1)?.response.headers['x-request-id'] as string,
      },
    });
    assert.equal(calls.at(-1)?.request.headers.authorization, undefined, '/health gets no session');
  });

  test('Authorization, Cookie and other headers from the page are dropped; the four API headers pass', async () => {
    const { bridge, calls } = bridgeOn(gw);
    const loggedIn = await login(bridge);
    assert.equal(loggedIn.status, 200);
    const [token] = tokensIn(calls);
    assert.ok(token);

    // A window without a session cannot borrow one: not by a cookie, not by Basic, not by Bearer.
    for (const headers of [
      { Cookie: `tillgate_session=${token}` },
      { cookie: `tillgate_session=${token}` },
      { Authorization: shop.auth },
      { authorization: `Bearer ${token}` },
    ]) {
      const reply = await bridge.forward(OTHER_WINDOW, { method: 'GET', path: '/rest/transactions', headers });
      assert.equal(reply.status, 401, JSON.stringify(headers));
      const sent = calls.at(-1)?.request.headers ?? {};
      assert.equal(sent.authorization, undefined);
      assert.equal(sent.cookie, undefined);
    }

    const reply = await bridge.forward(WINDOW, {
      method: 'POST',
      path: '/rest/payment',
      body: cardPayment(freshPan(), 3),
      headers: {
        Authorization: shop.auth,
        Cookie: 'tillgate_session=forged',
        Origin: 'https://evil.example',
        Host: 'evil.example',
        'X-Forwarded-For': '203.0.113.9',
        'X-Idempotency-Key': 'bridge-pay-2',
        'Content-Type': 'application/json',
        'X-Evil': 'x\r\nSet-Cookie: a=b',
        'X-Manager-Approval': 'line\r\nbreak',
      },
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const sent = calls.at(-1)?.request.headers ?? {};
    assert.deepEqual(Object.keys(sent).sort(), ['authorization', 'content-type', 'x-idempotency-key']);
    assert.equal(sent.authorization, `Bearer ${token}`, "the page's Authorization never replaces the session");
    assert.equal(sent['x-idempotency-key'], 'bridge-pay-2');
  });

  test('a cashier refund through the bridge: X-Manager-Approval passes; a wrong manager PIN keeps the session', async () => {
    const { bridge, calls } = bridgeOn(gw);
    assert.equal((await login(bridge)).status, 200);
    const paid = await bridge.forward(WINDOW, { method: 'POST', path: '/rest/payment', body: cardPayment(freshPan(), 10) });
    const id = (paid.body as { transaction_id: string }).transaction_id;

    const wrongPin = await bridge.forward(WINDOW, {
      method: 'POST',
      path: '/ui/approvals',
      body: { action: 'refund', login: 'office', pin: '0000' },
    });
    assert.equal(wrongPin.status, 403);
    assert.equal(bridge.hasSession(WINDOW), true, 'a wrong manager PIN does not log the cashier out');

    const refused = await bridge.forward(WINDOW, { method: 'POST', path: '/rest/refund', body: { transaction_id: id } });
    assert.equal(refused.status, 403);
    const approval = await bridge.forward(WINDOW, {
      method: 'POST',
      path: '/ui/approvals',
      body: { action: 'refund', login: 'office', pin: '4321' },
    });
    assert.equal(approval.status, 200);
    const approvalToken = (approval.body as { approval_token: string }).approval_token;
    const refund = await bridge.forward(WINDOW, {
      method: 'POST',
      path: '/rest/refund',
      body: { transaction_id: id },
      headers: { 'X-Manager-Approval': approvalToken },
    });
    assert.equal(refund.status, 200, JSON.stringify(refund.body));
    assert.equal(calls.at(-1)?.request.headers['x-manager-approval'], approvalToken);
  });

  test('the back office exports in parts through the bridge: the part headers reach the page and the parts make the whole file', async () => {
    const { bridge, calls } = bridgeOn(gw);
    assert.equal((await login(bridge, WINDOW, '4321', 'office')).status, 200);
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      // One carries a quoted line break and quotes: still one row of the file.
      const extra = i === 3 ? { additional_transaction_data: 'gift wrap\nnote: "happy birthday"' } : {};
      const paid = await gw.app.inject({
        method: 'POST',
        url: '/rest/payment',
        headers: { authorization: shop.auth },
        payload: cardPayment(freshPan(), 4.56, { order_id: `parts-${i}`, ...extra }),
      });
      assert.equal(paid.statusCode, 200, paid.body);
      made.push(paid.json<{ transaction_id: string }>().transaction_id);
    }
    // What the desktop window's transport does with a GET: through the bridge, the headers it returns.
    const get = async (path: string) => {
      const reply = await bridge.forward(WINDOW, { method: 'GET', path });
      return { status: reply.status, headers: { get: (name: string) => reply.headers?.[name.toLowerCase()] ?? null }, body: reply.body };
    };
    const query = new URLSearchParams({
      amount: '4.56',
      columns: 'transaction_id,order_id,additional_transaction_data',
      time_zone: 'Europe/Berlin',
    });
    const progress: ExportProgress[] = [];
    const refused = (answer: { status: number; body: unknown }) => new Error(`HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
    const result = await exportInParts(get, query, (p) => progress.push(p), new AbortController().signal, refused, 5);

    const parts = calls.filter((c) => c.request.url.startsWith('/rest/transactions/export?'));
    assert.deepEqual(
      parts.map((c) => [c.response.statusCode, c.response.headers['x-total-count']]),
      [
        [200, '12'],
        [200, '7'],
        [200, '2'],
      ],
      'three parts of at most five rows, each counting the rows from its start',
    );
    assert.deepEqual(
      progress.map((p) => [p.rows, p.total]),
      [
        [5, 12],
        [10, 12],
        [12, 12],
      ],
      'rows of the total as each part arrives',
    );
    assert.equal(result.rows, 12);
    const whole = await gw.app.inject({
      method: 'GET',
      url: `/rest/transactions/export?${query.toString()}`,
      headers: { authorization: shop.auth },
    });
    assert.equal(whole.statusCode, 200);
    const text = await result.blob.text();
    assert.equal(text, whole.body, 'the parts joined are the file of one streamed export');
    assert.equal(result.bytes, Buffer.byteLength(whole.body));
    assert.ok(made.every((id) => text.includes(id)));
    assert.ok(text.includes('"gift wrap\nnote: ""happy birthday"""'), 'the line break stays inside its quoted field');
  });

  test('paths outside /rest/, /ui/ and /health, and malformed requests, are refused with 400 before the gateway sees them', async () => {
    const { bridge, calls } = bridgeOn(gw);
    assert.equal((await login(bridge)).status, 200);
    const before = calls.length;
    for (const path of [
      '/docs',
      '/docs/json',
      '/openapi.json',
      '/app/',
      '/',
      '/rest',
      '/rest/',
      '/ui',
      '/healthz',
      '/health/x',
      '/rest/../docs',
      '/ui/../openapi.json',
      '/rest/%2e%2e/openapi.json',
      '/rest/.%2E/docs',
      '/rest/./transactions',
      '/rest/transactions%2F..%2F..%2Fdocs',
      '//evil.example/rest/transactions',
      '/rest//transactions',
      'http://evil.example/rest/transactions',
      'rest/transactions',
      '/rest/transactions\\..\\..\\docs',
      '/rest/transactions#x',
      '/rest/trans actions',
      '/rest/transactions\n',
      '/rest/%E0%A4%A',
      '',
      `/rest/${'a'.repeat(3000)}`,
    ]) {
      const reply = await bridge.forward(WINDOW, { method: 'GET', path });
      assert.equal(reply.status, 400, path);
      assert.equal(errorCodeOf(reply), 1001, path);
      assert.deepEqual(
        (reply.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field),
        ['path'],
        path,
      );
      assert.equal(apiPathProblem(path) !== undefined, true, path);
    }
    for (const payload of [
      undefined,
      null,
      'GET /rest/transactions',
      ['GET', '/rest/transactions'],
      { path: '/rest/transactions' },
      { method: 'get', path: '/rest/transactions' },
      { method: 'HEAD', path: '/rest/transactions' },
      { method: 'OPTIONS', path: '/rest/transactions' },
      { method: 'GET', path: 42 },
      { method: 'GET' },
    ]) {
      const reply = await bridge.forward(WINDOW, payload);
      assert.equal(reply.status, 400, JSON.stringify(payload));
      assert.equal(errorCodeOf(reply), 1001);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal((await bridge.forward(WINDOW, { method: 'POST', path: '/rest/payment', body: cyclic })).status, 400);
    assert.equal(calls.length, before, 'nothing was injected');
    for (const path of [
      '/rest/transactions',
      '/rest/transactions?from=2026-01-01&limit=5',
      '/ui/session',
      '/health',
      '/rest/transactions/abc%20def',
    ]) {
      assert.equal(apiPathProblem(path), undefined, path);
    }
  });

  test('logout revokes the session on the server and forgets it here', async () => {
    const { bridge, calls } = bridgeOn(gw);
    assert.equal((await login(bridge)).status, 200);
    const [token] = tokensIn(calls);
    assert.ok(token);
    const logout = await bridge.forward(WINDOW, { method: 'DELETE', path: '/ui/session' });
    assert.equal(logout.status, 204);
    assertNoSecrets(logout, [token]);
    assert.equal(calls.at(-1)?.request.headers.authorization, `Bearer ${token}`, 'the server was told which session ends');
    assert.equal(bridge.hasSession(WINDOW), false);
    assert.equal((await bridge.forward(WINDOW, { method: 'GET', path: '/ui/session' })).status, 401);
    assert.equal(calls.at(-1)?.request.headers.authorization, undefined, 'no token is sent after logout');
    const direct = await gw.app.inject({ method: 'GET', url: '/ui/session', headers: { authorization: `Bearer ${token}` } });
    assert.equal(direct.statusCode, 401, 'the session is revoked, not only forgotten');
  });

  test('a 401 (the session ended) forgets the token; a failed login forgets it too', async () => {
    const { bridge } = bridgeOn(gw);
    assert.equal((await login(bridge)).status, 200);
    gw.clock.advance(31 * MINUTE);
    const expired = await bridge.forward(WINDOW, { method: 'GET', path: '/rest/transactions' });
    assert.equal(expired.status, 401);
    assert.equal(bridge.hasSession(WINDOW), false);

    assert.equal((await login(bridge)).status, 200);
    const failed = await login(bridge, WINDOW, '0000');
    assert.equal(failed.status, 401);
    assert.equal(bridge.hasSession(WINDOW), false);
  });

  test('each window has its own session; a new login at the till ends the previous one', async () => {
    const { bridge, calls } = bridgeOn(gw);
    assert.equal((await login(bridge, WINDOW)).status, 200);
    assert.equal((await bridge.forward(OTHER_WINDOW, { method: 'GET', path: '/ui/session' })).status, 401, 'a session is per window');
    assert.equal((await login(bridge, OTHER_WINDOW, '4321', 'office')).status, 200);
    const who = async (sender: number) =>
      ((await bridge.forward(sender, { method: 'GET', path: '/ui/session' })).body as { staff: { login: string } }).staff.login;
    assert.deepEqual([await who(WINDOW), await who(OTHER_WINDOW)], ['till', 'office']);

    bridge.forget(OTHER_WINDOW);
    assert.equal((await bridge.forward(OTHER_WINDOW, { method: 'GET', path: '/ui/session' })).status, 401);
    assert.equal(await who(WINDOW), 'till');

    const [first] = tokensIn(calls);
    assert.ok(first);
    assert.equal((await login(bridge, WINDOW, '4321', 'office')).status, 200);
    assert.equal(await who(WINDOW), 'office');
    const old = await gw.app.inject({ method: 'GET', url: '/ui/session', headers: { authorization: `Bearer ${first}` } });
    assert.equal(old.statusCode, 401, 'the replaced session was revoked');
  });
});

describe('gateway:api over validated IPC and the preload facade', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway();
    const shop = await createTestMerchant(gw, 'IPC Shop');
    assert.ok(
      (await gw.composition.gateway.staff.create({ merchantId: shop.merchant_id, role: 'cashier', login: 'ipc-till', pin: '2580' })).ok,
    );
  });

  after(async () => {
    await gw.close();
  });

  test("the session belongs to the sender's web contents; strangers are rejected before the bridge runs", async () => {
    const ipcMain = new FakeIpcMain();
    const window = new FakeWindow(mainWindowOptions('/p.cjs'));
    window.webContents.mainFrame.url = APP_ENTRY_URL;
    const { bridge, calls } = bridgeOn(gw);
    const remove = registerValidatedIpc(ipcMain, gatewayIpcHandlers({ restUrl: 'http://127.0.0.1:1', dataDir: '/d' }, bridge), {
      trustedWindow: () => window,
      logger: { warn: () => undefined },
    });
    // The preload facade over this IPC, as the page would call it.
    const page = createBridge({ invoke: (channel, ...args) => ipcMain.invoke(channel, window.webContents.invokeEvent(), ...args) });
    const loggedIn = await page.api({ method: 'POST', path: '/ui/session', body: { login: 'ipc-till', pin: '2580' } });
    assert.equal(loggedIn.status, 200);
    assert.equal(bridge.hasSession(window.webContents.id), true);
    assertNoSecrets(loggedIn, tokensIn(calls));
    assert.equal((await page.api({ method: 'GET', path: '/ui/session' })).status, 200);
    await assert.rejects((page.api as (request: unknown) => Promise<unknown>)(null), /must be an object/);

    const injected = calls.length;
    window.webContents.mainFrame.url = 'https://evil.example/';
    await assert.rejects(
      ipcMain.invoke('gateway:api', window.webContents.invokeEvent(), { method: 'GET', path: '/ui/session' }),
      /sender rejected/,
    );
    window.webContents.mainFrame.url = APP_ENTRY_URL;
    await assert.rejects(
      ipcMain.invoke('gateway:api', window.webContents.invokeEvent(), { method: 'GET', path: '/ui/session' }, 'extra'),
      /at most one payload/,
    );
    assert.equal(calls.length, injected, 'rejected messages never reach the gateway');
    remove();
  });

  test('without a bridge the channel refuses', async () => {
    const ipcMain = new FakeIpcMain();
    const window = new FakeWindow(mainWindowOptions('/p.cjs'));
    window.webContents.mainFrame.url = APP_ENTRY_URL;
    registerValidatedIpc(ipcMain, gatewayIpcHandlers({ restUrl: '', dataDir: '' }), {
      trustedWindow: () => window,
      logger: { warn: () => undefined },
    });
    await assert.rejects(
      ipcMain.invoke('gateway:api', window.webContents.invokeEvent(), { method: 'GET', path: '/health' }),
      /not running/,
    );
  });
});

describe('gateway:api in the running shell', () => {
  const ROOT = fileURLToPath(new URL('../../', import.meta.url));
  const running: ShellHandle[] = [];
  afterEach(async () => {
    for (const handle of running.splice(0)) await handle.stop();
  });

  test(
    'the first-run till logs in with PIN 2580 through the window; closing the window forgets the session',
    { timeout: 30_000 },
    async () => {
      const electron = createFakeElectron(makeTempDir('tillgate-appdata-'));
      const handle = runShell(electron.ports, {
        appRoot: ROOT,
        preloadPath: join(ROOT, 'dist', 'electron', 'preload.cjs'),
        resourcesPath: join(ROOT, 'dist'),
        electronVersion: undefined,
        platform: 'darwin', // closing the last window does not quit
        env: { GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'silent' },
        logger: createLogger({ level: 'silent' }),
      });
      running.push(handle);
      electron.app.becomeReady();
      const started = await handle.started;
      assert.ok(started);
      const [window] = electron.windows;
      assert.ok(window);
      const api = (payload: unknown, target = window) =>
        electron.ipcMain.invoke('gateway:api', target.webContents.invokeEvent(), payload) as Promise<ApiReply>;

      const loggedIn = await api({ method: 'POST', path: '/ui/session', body: { login: 'till', pin: '2580' } });
      assert.equal(loggedIn.status, 200, JSON.stringify(loggedIn.body));
      assert.doesNotMatch(JSON.stringify(loggedIn), /tillgate_session|set-cookie/i);
      const paid = await api({ method: 'POST', path: '/rest/payment', body: cardPayment(freshPan(), 4.2) });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      // The same gateway the REST listener serves: POS software sees the till's payment.
      const session = (await api({ method: 'GET', path: '/ui/session' })).body as { merchant: { merchant_id: string } };
      assert.ok(session.merchant.merchant_id);

      assert.equal(started.apiBridge.hasSession(window.webContents.id), true);
      window.close();
      assert.equal(started.apiBridge.hasSession(window.webContents.id), false, 'forgotten when the window closed');
      electron.app.emit('activate', fakeEvent());
      const reopened = electron.windows[1];
      assert.ok(reopened, 'a new window');
      assert.equal((await api({ method: 'GET', path: '/ui/session' }, reopened)).status, 401, 'the closed window took its session along');
      await assert.rejects(api({ method: 'GET', path: '/ui/session' }, window), /sender rejected/);
    },
  );
});
