// Authentication state shared by instances on one PostgreSQL database (issue 19: "lock-out counters,
// staff sessions, manager approvals" must not live in one process's memory). Two compositions
// (instance A and instance B, each with its own pool) on one database and one movable clock:
// failures on both add up to one lock-out, a lock made on one is answered on the other, a credential
// revoked on one answers 401 on the other within RECHECK_MS, a manager approval issued on one is
// used once on the other and never again, and a staff session lives in the database.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { RECHECK_MS } from '../../main/core/merchants/authenticator.js';
import { assertApiError, createTestMerchant, startTestGateway, TestClock, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { cardPayment, freshPan } from '../helpers/payments.js';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.js';

const skip = postgresAvailable() ? false : 'PostgreSQL 15 binaries are not installed (apt-get install postgresql)';
const COOKIE = 'tillgate_session';
const LOCK_MINUTES = 15;

const basic = (key: string, password: string) => `Basic ${Buffer.from(`${key}:${password}`).toString('base64')}`;
const withCookie = (token: string, headers: Record<string, string> = {}) => ({ cookie: `${COOKIE}=${token}`, ...headers });

function call(
  gw: TestGateway,
  method: InjectOptions['method'],
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return gw.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

const list = (gw: TestGateway, authorization: string, remoteAddress: string) =>
  call(gw, 'GET', '/rest/transactions', { authorization }, undefined, remoteAddress);

async function login(gw: TestGateway, body: Record<string, string>): Promise<string> {
  const response = await call(gw, 'POST', '/ui/session', {}, body);
  assert.equal(response.statusCode, 200, response.body);
  const cookie = response.cookies.find((c) => c.name === COOKIE);
  assert.ok(cookie?.value);
  return cookie.value;
}

describe('authentication state shared by two instances on PostgreSQL', { skip }, () => {
  let url: string;
  let a: TestGateway;
  let b: TestGateway;
  let clock: TestClock;
  let shop: TestMerchant;

  before(async () => {
    url = await createTestDatabase('auth');
    clock = new TestClock();
    // Every instance of one database shares the data key.
    const dataKey = randomBytes(32);
    const flags = { database: url, 'lockout-max-failures': '10', 'lockout-window-minutes': '10', 'lockout-minutes': String(LOCK_MINUTES) };
    a = await startTestGateway({ clock, dataKey, flags });
    b = await startTestGateway({ clock, dataKey, flags });
    shop = await createTestMerchant(a, 'Two Instances');
  });

  after(async () => {
    await a?.close();
    await b?.close();
  });

  test('failures against A and B add up to one lock-out, on both', async () => {
    const source = '10.1.0.1';
    for (let i = 0; i < 5; i += 1) assertApiError(await list(a, basic(shop.api_key, `a-wrong-${i}`), source), 401, 2001);
    for (let i = 0; i < 5; i += 1) assertApiError(await list(b, basic(shop.api_key, `b-wrong-${i}`), source), 401, 2001);
    for (const gw of [a, b]) {
      assertApiError(await list(gw, basic(shop.api_key, shop.api_password), source), 429, 4004);
      const answer = await list(gw, basic(shop.api_key, 'wrong-again'), source);
      assertApiError(answer, 429, 4004);
      assert.equal(Number(answer.headers['retry-after']), LOCK_MINUTES * 60);
    }
    // Unknown keys from one address are one bucket across the instances too.
    const guesser = '10.1.0.9';
    for (let i = 0; i < 10; i += 1) assertApiError(await list(i % 2 ? a : b, basic(`tg_test_guess${i}`, 'x'), guesser), 401, 2001);
    assertApiError(await list(a, basic('tg_test_guess99', 'x'), guesser), 429, 4004);
    assertApiError(await list(b, 'Basic !!!', guesser), 429, 4004);
  });

  test('40 guesses at once, half on each instance, are checked at most 10 times, and none fails with a 5xx', async () => {
    const source = '10.1.0.2';
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => list(i % 2 ? a : b, basic(shop.api_key, `burst-${i}`), source)));
    const codes = answers.map((r) => r.statusCode);
    assert.equal(codes.filter((c) => c === 401).length, 10, codes.join(','));
    assert.equal(codes.filter((c) => c === 429).length, 30, codes.join(','));
    const pool = new pg.Pool({ connectionString: url });
    try {
      const row = (
        await pool.query('SELECT count, locked_until FROM auth_failures WHERE bucket = $1', [
          `api ${source} ${await credentialId(shop.api_key)}`,
        ])
      ).rows[0];
      assert.equal(Number(row.count), 10);
      assert.ok(row.locked_until > clock.now().toISOString());
    } finally {
      await pool.end();
    }
  });

  async function credentialId(apiKey: string): Promise<string> {
    const pool = new pg.Pool({ connectionString: url });
    try {
      return (await pool.query('SELECT id FROM credentials WHERE api_key = $1', [apiKey])).rows[0].id as string;
    } finally {
      await pool.end();
    }
  }

  test('a lock made on A is answered on B: at once for a password B has not verified, within RECHECK_MS for the one it has cached', async () => {
    const source = '10.1.0.3';
    assert.equal((await list(b, basic(shop.api_key, shop.api_password), source)).statusCode, 200, 'B verified and cached the password');
    for (let i = 0; i < 10; i += 1) assertApiError(await list(a, basic(shop.api_key, `wrong-${i}`), source), 401, 2001);
    assertApiError(await list(b, basic(shop.api_key, 'a-guess-on-b'), source), 429, 4004);
    clock.advance(RECHECK_MS);
    const cached = await list(b, basic(shop.api_key, shop.api_password), source);
    assertApiError(cached, 429, 4004);
    assert.ok(Number(cached.headers['retry-after']) > 0);
    // The lock ends on both when its time is over.
    clock.advance(LOCK_MINUTES * 60_000);
    assert.equal((await list(b, basic(shop.api_key, shop.api_password), source)).statusCode, 200);
    assert.equal((await list(a, basic(shop.api_key, shop.api_password), source)).statusCode, 200);
  });

  test('a credential revoked on A answers 401 on A at once and on B within RECHECK_MS', async () => {
    const created = await a.composition.gateway.staff.create({ merchantId: shop.merchant_id, role: 'admin', login: 'revoker' });
    assert.ok(created.ok);
    const admin = await login(a, { login: 'revoker', password: created.value.password });
    const credential = await call(a, 'POST', '/ui/credentials', withCookie(admin));
    assert.equal(credential.statusCode, 201, credential.body);
    const {
      credential_id: id,
      api_key: key,
      api_password: password,
    } = credential.json<{ credential_id: string; api_key: string; api_password: string }>();
    const source = '10.1.0.4';
    for (const gw of [a, b, a, b])
      assert.equal((await list(gw, basic(key, password), source)).statusCode, 200, 'verified and cached on both');
    const revoked = await call(a, 'POST', `/ui/credentials/${id}/revoke`, withCookie(admin));
    assert.equal(revoked.statusCode, 200, revoked.body);
    assertApiError(await list(a, basic(key, password), source), 401, 2001);
    clock.advance(RECHECK_MS);
    assertApiError(await list(b, basic(key, password), source), 401, 2001);
    assertApiError(await list(b, basic(key, password), '10.1.0.5'), 401, 2001);
  });

  test('a manager approval issued via A is used once via B, and not again on either; the same token raced on both is used once', async () => {
    const staff = a.composition.gateway.staff;
    const cashier = await staff.create({ merchantId: shop.merchant_id, role: 'cashier', login: 'till', pin: '2580' });
    const manager = await staff.create({ merchantId: shop.merchant_id, role: 'back_office', login: 'office', pin: '4321' });
    assert.ok(cashier.ok && manager.ok);
    // The cashier's session, opened on A, works on B: sessions are in the database.
    const till = await login(a, { login: 'till', pin: '2580' });
    const pay = async (gw: TestGateway) => {
      const response = await call(gw, 'POST', '/rest/payment', withCookie(till), cardPayment(freshPan(), 20));
      assert.equal(response.statusCode, 200, response.body);
      return response.json<{ transaction_id: string }>().transaction_id;
    };
    const approve = async () => {
      const response = await call(a, 'POST', '/ui/approvals', withCookie(till), { action: 'refund', login: 'office', pin: '4321' });
      assert.equal(response.statusCode, 200, response.body);
      return response.json<{ approval_token: string }>().approval_token;
    };
    const refund = (gw: TestGateway, id: string, token: string, headers: Record<string, string> = {}) =>
      call(gw, 'POST', '/rest/refund', withCookie(till, { 'x-manager-approval': token, ...headers }), { transaction_id: id, amount: 1 });

    const id = await pay(b);
    const token = await approve();
    const used = await refund(b, id, token);
    assert.equal(used.statusCode, 200, used.body);
    assertApiError(await refund(b, id, token), 403, 2002, ['X-Manager-Approval']);
    assertApiError(await refund(a, id, token), 403, 2002, ['X-Manager-Approval']);

    // One token, two refunds at once on the two instances: one is approved.
    const raced = await approve();
    const [first, second] = [await pay(a), await pay(b)];
    const answers = await Promise.all([refund(a, first, raced), refund(b, second, raced)]);
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 403], answers.map((r) => r.body).join('\n'));

    // A retry with the same idempotency key may use its approval again, on the other instance too.
    const retried = await approve();
    const third = await pay(a);
    const once = await refund(a, third, retried, { 'idempotency-key': 'refund-across-1' });
    assert.equal(once.statusCode, 200, once.body);
    const again = await refund(b, third, retried, { 'idempotency-key': 'refund-across-1' });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assertApiError(await refund(b, third, retried, { 'idempotency-key': 'refund-across-2' }), 403, 2002, ['X-Manager-Approval']);

    // An approval expires after 2 minutes on every instance.
    const stale = await approve();
    clock.advance(2 * 60_000 + 1);
    assertApiError(await refund(b, await pay(b), stale), 403, 2002, ['X-Manager-Approval']);

    // Logging out on A ends the session on B.
    assert.equal((await call(a, 'DELETE', '/ui/session', withCookie(till))).statusCode, 204);
    assertApiError(await call(b, 'GET', '/ui/session', withCookie(till)), 401, 2001);
  });
});
