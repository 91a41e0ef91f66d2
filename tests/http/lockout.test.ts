// The lock-out after repeated authentication failures (issue "Reliability and security", items
// 1-5): parallel guesses cannot get round it, nothing shortens it, one misconfigured POS program
// does not lock out another on the same address, an unknown key costs as much as a wrong password,
// and a 404 never echoes a card-number-shaped id. Through inject() with a movable clock.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { assertApiError, createTestMerchant, startTestGateway, TestClock, type TestGateway, type TestMerchant } from '../helpers/api.js';

const MINUTE = 60_000;

function basic(key: string, password: string): string {
  return `Basic ${Buffer.from(`${key}:${password}`).toString('base64')}`;
}

describe('lock-out', () => {
  let gw: TestGateway;
  let shopA: TestMerchant;
  let shopB: TestMerchant;
  let clock: TestClock;

  before(async () => {
    clock = new TestClock();
    gw = await startTestGateway({
      clock,
      flags: { 'lockout-max-failures': '10', 'lockout-window-minutes': '10', 'lockout-minutes': '15' },
    });
    shopA = await createTestMerchant(gw, 'POS A');
    shopB = await createTestMerchant(gw, 'POS B');
  });

  after(async () => {
    await gw.close();
  });

  const list = (authorization: string, remoteAddress: string): Promise<LightMyRequestResponse> =>
    gw.app.inject({ method: 'GET', url: '/rest/transactions', headers: { authorization }, remoteAddress });

  test('40 wrong passwords at once are evaluated at most 10 times, and the right password inside the burst is refused too', async () => {
    const source = '10.10.0.1';
    const burst = Array.from({ length: 40 }, (_, i) => list(basic(shopA.api_key, `wrong-${i}`), source));
    burst.push(list(basic(shopA.api_key, shopA.api_password), source));
    const answers = await Promise.all(burst);
    const codes = answers.map((a) => a.statusCode);
    assert.equal(codes.filter((c) => c === 401).length, 10, `at most the limit is evaluated: ${codes.join(',')}`);
    assert.equal(codes.filter((c) => c === 429).length, 31);
    assert.equal(codes.at(-1), 429, 'the right password inside the burst gets no 200');
    for (const answer of answers.filter((a) => a.statusCode === 429)) assertApiError(answer, 429, 4004);
    assert.equal((await list(basic(shopA.api_key, shopA.api_password), source)).statusCode, 429, 'still locked');
  });

  test('a locked bucket answers 429 to anything, a malformed header does not lift it, and the lock lasts its whole 15 minutes', async () => {
    const source = '10.10.0.2';
    for (let i = 0; i < 10; i += 1) assertApiError(await list(basic('tg_test_nobody', `x${i}`), source), 401, 2001);
    // Locked: unknown keys and malformed headers from this source.
    for (const authorization of [basic('tg_test_nobody', 'again'), 'Basic !!!', 'Bearer nonsense-token', 'Basic']) {
      const answer = await list(authorization, source);
      assert.equal(answer.statusCode, 429, authorization);
      assert.ok(Number(answer.headers['retry-after']) > 0);
    }
    // After 11 minutes the failure window is over, but the 15-minute lock is not.
    clock.advance(11 * MINUTE);
    assert.equal((await list('Basic !!!', source)).statusCode, 429, 'a malformed header is refused, not counted as a fresh start');
    assert.equal((await list(basic('tg_test_nobody', 'x'), source)).statusCode, 429);
    clock.advance(4 * MINUTE + 1000);
    assertApiError(await list(basic('tg_test_nobody', 'x'), source), 401, 2001);
  });

  test('one misconfigured POS program does not lock out another calling from the same address', async () => {
    const source = '127.0.0.1';
    for (let i = 0; i < 10; i += 1) assertApiError(await list(basic(shopA.api_key, 'stale-password'), source), 401, 2001);
    assertApiError(await list(basic(shopA.api_key, shopA.api_password), source), 429, 4004);
    const other = await list(basic(shopB.api_key, shopB.api_password), source);
    assert.equal(other.statusCode, 200, 'POS B keeps working');
    // Guessing unknown keys from that address is bounded on its own, and does not touch POS B either.
    for (let i = 0; i < 10; i += 1) await list(basic(`tg_test_guess${i}`, 'x'), source);
    assertApiError(await list(basic('tg_test_guess99', 'x'), source), 429, 4004);
    assert.equal((await list(basic(shopB.api_key, shopB.api_password), source)).statusCode, 200);
    clock.advance(16 * MINUTE);
  });

  test("partner credentials (merchant management) go through the same lock-out: a burst is bounded, and a locked partner key does not lock its merchant's POS", async () => {
    const created = await gw.composition.gateway.partners.create({ name: 'POS vendor' });
    assert.ok(created.ok);
    const partner = created.value;
    const merchant = await gw.composition.gateway.merchants.create({ name: 'Vendor shop', partnerId: partner.partner_id });
    assert.ok(merchant.ok);
    const methods = (authorization: string, remoteAddress: string) =>
      gw.app.inject({
        method: 'GET',
        url: `/v2/merchants/${merchant.value.merchant_id}/payment-methods`,
        headers: { authorization },
        remoteAddress,
      });
    const source = '10.30.0.1';
    const burst = Array.from({ length: 25 }, (_, i) => methods(basic(partner.api_key, `wrong-${i}`), source));
    burst.push(methods(basic(partner.api_key, partner.api_password), source));
    const codes = (await Promise.all(burst)).map((a) => a.statusCode);
    assert.equal(codes.filter((c) => c === 401).length, 10, `at most the limit is evaluated: ${codes.join(',')}`);
    assert.equal(codes.at(-1), 429, 'the right password inside the burst gets no 200');
    assertApiError(await methods(basic(partner.api_key, partner.api_password), source), 429, 4004);
    assertApiError(
      await gw.app.inject({
        method: 'GET',
        url: '/v2/payment-methods',
        headers: { authorization: basic(partner.api_key, partner.api_password) },
        remoteAddress: source,
      }),
      429,
      4004,
    );
    // The merchant's own key from the same address is another bucket; the partner key from elsewhere too.
    const pos = await gw.app.inject({
      method: 'GET',
      url: '/v2/payment-methods',
      headers: { authorization: basic(merchant.value.api_key, merchant.value.api_password) },
      remoteAddress: source,
    });
    assert.equal(pos.statusCode, 200, pos.body);
    assert.equal((await methods(basic(partner.api_key, partner.api_password), '10.30.0.2')).statusCode, 200);
    // Unknown partner-shaped keys count in the source's unknown bucket.
    const guesser = '10.30.0.3';
    for (let i = 0; i < 10; i += 1) assertApiError(await methods(basic(`tg_test_pt_guess${i}`, 'x'), guesser), 401, 2001);
    assertApiError(await methods(basic('tg_test_pt_guess99', 'x'), guesser), 429, 4004);
    clock.advance(16 * MINUTE);
  });

  test('a lock-out outlives a restart of the gateway (it is kept in the database, not in the process)', async () => {
    const source = '10.40.0.1';
    for (let i = 0; i < 10; i += 1) assertApiError(await list(basic(shopB.api_key, `restart-${i}`), source), 401, 2001);
    const staff = await gw.composition.gateway.staff.create({
      merchantId: shopB.merchant_id,
      role: 'cashier',
      login: 'restart-till',
      pin: '2580',
    });
    assert.ok(staff.ok);
    const staffLogin = (app: TestGateway['app'], pin: string) =>
      app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'restart-till', pin }, remoteAddress: source });
    for (let i = 0; i < 10; i += 1) assertApiError(await staffLogin(gw.app, '0000'), 401, 2001);
    const databaseUrl = gw.composition.settings.databaseUrl;
    const flags = {
      'lockout-max-failures': '10',
      'lockout-window-minutes': '10',
      'lockout-minutes': '15',
      ...(databaseUrl ? { database: databaseUrl } : {}),
    };
    await gw.close();
    gw = await startTestGateway({ dir: gw.dir, dataKey: gw.dataKey, clock, flags });
    const locked = await list(basic(shopB.api_key, shopB.api_password), source);
    assertApiError(locked, 429, 4004);
    assert.equal(Number(locked.headers['retry-after']), 15 * 60);
    assertApiError(await staffLogin(gw.app, '2580'), 429, 4004);
    // Other sources and other logins were never locked.
    assert.equal((await list(basic(shopB.api_key, shopB.api_password), '10.40.0.2')).statusCode, 200);
    clock.advance(16 * MINUTE);
    assert.equal((await list(basic(shopB.api_key, shopB.api_password), source)).statusCode, 200);
    assert.equal((await staffLogin(gw.app, '2580')).statusCode, 200);
  });

  test('a wrong API key costs the same scrypt work as a wrong password for a real key', async () => {
    // Medians of a few tries each: a lookup alone takes ~2 ms, scrypt ~50 ms.
    const time = async (authorization: string, i: number) => {
      const started = process.hrtime.bigint();
      await list(authorization, `10.20.0.${i}`);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const unknownKey: number[] = [];
    const wrongPassword: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      unknownKey.push(await time(basic(`tg_test_missing${i}`, 'password'), i));
      wrongPassword.push(await time(basic(shopB.api_key, `wrong${i}`), i + 100));
    }
    assert.ok(
      median(unknownKey) > 0.5 * median(wrongPassword),
      `unknown key ${median(unknownKey)} ms vs wrong password ${median(wrongPassword)} ms`,
    );
  });

  test('a 404 never echoes a card-number-shaped id', async () => {
    for (const url of [
      '/rest/transactions/4993855515500716',
      '/rest/transactions/4993855515500716/log',
      '/rest/checkouts/4111111111111111',
    ]) {
      const answer = await gw.app.inject({ method: 'GET', url, headers: { authorization: basic(shopB.api_key, shopB.api_password) } });
      assert.equal(answer.statusCode, 404, url);
      assert.ok(!/\d{13,19}/.test(answer.body), `${url}: ${answer.body}`);
    }
    const capture = await gw.app.inject({
      method: 'POST',
      url: '/rest/capture',
      headers: { authorization: basic(shopB.api_key, shopB.api_password), 'content-type': 'application/json' },
      payload: { transaction_id: '5555555555554444' },
    });
    assert.equal(capture.statusCode, 404);
    assert.ok(!capture.body.includes('5555555555554444'), capture.body);
  });
});
