// Several tills in one shop (issue 26, part 0): each till its own till. A shop starts with TILL-1;
// an admin adds and renames tills and retires one whose day is closed; a screen takes a till for
// its staff session, and another screen does not take it silently (409, 4005, naming who has it)
// unless asked to take it over, after which the first screen is told so. Each till has its own
// card-attempt slot and its own day: two cashiers at two tills never block or see each other's
// sale. Through inject() on both engines.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { TILL_HOLD_STALE_SECONDS, TILL_RETIRE_REFUSED } from '../../contract/constants.js';
import { assertApiError } from '../helpers/api.js';
import { newMerchant, orderId, posPayment, startHarness, type Harness } from '../helpers/payments.js';
import { countOf } from '../helpers/sql.js';
import type { TestMerchant } from '../helpers/api.js';

const COOKIE = 'tillgate_session';

interface Till {
  till_id: string;
  name: string;
  shop_id: string | null;
  retired_at: string | null;
  holder: { staff_name: string | null; this_screen: boolean } | null;
}

describe('several tills in one shop', () => {
  let h: Harness;
  let shop: TestMerchant;
  const cookies: Record<string, string> = {};
  const screens = { anna: `screen-a-${randomUUID()}`, ben: `screen-b-${randomUUID()}`, boss: `screen-c-${randomUUID()}` };

  const call = (who: keyof typeof cookies | string, method: 'GET' | 'POST' | 'PUT' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: { cookie: cookies[who] ?? '' },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const take = (who: keyof typeof screens, tillId: string, takeOver = false) =>
    call(who, 'PUT', '/ui/session/till', { till_id: tillId, screen_id: screens[who], ...(takeOver ? { take_over: true } : {}) });
  const begin = (who: string, amount: number) =>
    call(who, 'PUT', '/ui/till/attempt', { order_id: orderId('till'), idempotency_key: randomUUID(), amount, currency: 'EUR' });
  /** A card-present sale from a staff session at a till (its terminal id on the payment). */
  const sell = async (who: string, tillId: string, amount: number) => {
    const body = posPayment(amount, { pan: '4111111111111111' });
    (body.pos_data as { terminal: { id: string } }).terminal.id = tillId;
    const response = await h.app.inject({
      method: 'POST',
      url: '/rest/payment',
      headers: { cookie: cookies[who] ?? '', 'idempotency-key': randomUUID() },
      payload: body,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ transaction_id: string; status: string }>();
  };

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Two Till Bakery');
    for (const [login, role, name] of [
      ['anna', 'cashier', 'Anna'],
      ['ben', 'cashier', 'Ben'],
      ['boss', 'admin', 'Olga'],
    ] as const) {
      assert.ok((await h.gateway.staff.create({ merchantId: shop.merchant_id, role, login, pin: '2468', displayName: name })).ok);
      const login_ = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login, pin: '2468' } });
      assert.equal(login_.statusCode, 200, login_.body);
      cookies[login] = `${COOKIE}=${login_.cookies.find((c) => c.name === COOKIE)?.value ?? ''}`;
    }
  });

  after(async () => {
    await h.close();
  });

  test('a new shop has TILL-1; with one till a screen that chose none sells on it, as before', async () => {
    const list = (await call('anna', 'GET', '/ui/tills')).json<{ tills: Till[]; this_screen: string | null }>();
    assert.deepEqual(
      list.tills.map((t) => [t.till_id, t.name, t.retired_at, t.holder]),
      [['TILL-1', 'Till 1', null, null]],
    );
    assert.equal(list.this_screen, null);
    const terminal = await call('anna', 'GET', '/ui/terminal');
    assert.equal(terminal.json<{ terminal_id: string }>().terminal_id, 'TILL-1');
    assert.equal((await call('anna', 'GET', '/ui/till/attempt')).statusCode, 200);
  });

  test('an admin adds tills (named from the id unless named, optionally in a shop), audited; a cashier may not; bad and taken ids are 400s naming till_id', async () => {
    assertApiError(await call('anna', 'POST', '/ui/tills', { till_id: 'TILL-2' }), 403, 2002);
    const made = await call('boss', 'POST', '/ui/tills', { till_id: 'TILL-2' });
    assert.equal(made.statusCode, 201, made.body);
    assert.deepEqual([made.json<Till>().till_id, made.json<Till>().name, made.json<Till>().shop_id], ['TILL-2', 'Till 2', null]);
    const store = await h.gateway.partners.createShop(shop.merchant_id, 'Station Road');
    assert.ok(store.ok);
    const named = await call('boss', 'POST', '/ui/tills', { till_id: 'front-1', name: 'Front counter', shop_id: store.value.shop_id });
    assert.equal(named.statusCode, 201, named.body);
    assert.deepEqual([named.json<Till>().name, named.json<Till>().shop_id], ['Front counter', store.value.shop_id]);
    assertApiError(await call('boss', 'POST', '/ui/tills', { till_id: 'TILL-2' }), 400, 1001, ['till_id']);
    assertApiError(await call('boss', 'POST', '/ui/tills', { till_id: 'till 3', name: '' }), 400, 1001, ['till_id', 'name']);
    assertApiError(await call('boss', 'POST', '/ui/tills', { till_id: 'TILL-4', shop_id: randomUUID() }), 404, 3001, ['shop_id']);
    assert.equal(
      await countOf(h, "SELECT COUNT(*) AS n FROM audit_log WHERE merchant_id = ? AND action = 'till_create'", shop.merchant_id),
      2,
    );
    const renamed = await call('boss', 'PUT', '/ui/tills/front-1', { name: 'Front desk' });
    assert.equal(renamed.json<Till>().name, 'Front desk');
    assertApiError(await call('boss', 'PUT', '/ui/tills/nope', { name: 'x' }), 404, 3001, ['till_id']);
  });

  test('with several tills a screen chooses: till routes without a choice are a 400 naming till_id', async () => {
    assertApiError(await call('anna', 'GET', '/ui/terminal'), 400, 1001, ['till_id']);
    assertApiError(await begin('anna', 5), 400, 1001, ['till_id']);
  });

  test('two screens, two tills: each has its own attempt slot; a sale on one never blocks or shows on the other', async () => {
    assert.equal((await take('anna', 'TILL-1')).statusCode, 200);
    assert.equal((await take('ben', 'TILL-2')).statusCode, 200);
    assert.equal((await call('anna', 'GET', '/ui/terminal')).json<{ terminal_id: string }>().terminal_id, 'TILL-1');
    assert.equal((await call('ben', 'GET', '/ui/terminal')).json<{ terminal_id: string }>().terminal_id, 'TILL-2');
    // Both record an attempt at the same moment: neither is refused, neither sees the other's.
    const [a, b] = await Promise.all([begin('anna', 8.88), begin('ben', 20)]);
    assert.equal(a.statusCode, 201, a.body);
    assert.equal(b.statusCode, 201, b.body);
    const annaOpen = (await call('anna', 'GET', '/ui/till/attempt')).json<{ attempt: { amount: number } }>().attempt;
    const benOpen = (await call('ben', 'GET', '/ui/till/attempt')).json<{ attempt: { amount: number } }>().attempt;
    assert.deepEqual([annaOpen.amount, benOpen.amount], [8.88, 20]);
    // Each resolves its own (nothing was sent): not charged, and the other's stays open.
    assert.equal((await call('anna', 'POST', '/ui/till/attempt/resolve')).json<{ state: string }>().state, 'not_charged');
    assert.equal((await call('ben', 'GET', '/ui/till/attempt')).json<{ attempt: unknown }>().attempt !== null, true);
    assert.equal((await call('ben', 'POST', '/ui/till/attempt/resolve')).json<{ state: string }>().state, 'not_charged');
    // The list says who has each till open; this screen's is marked.
    const list = (await call('anna', 'GET', '/ui/tills')).json<{ tills: Till[]; this_screen: string }>();
    assert.equal(list.this_screen, 'TILL-1');
    assert.deepEqual(
      list.tills.map((t) => [t.till_id, t.holder?.staff_name ?? null, t.holder?.this_screen ?? null]),
      [
        ['TILL-1', 'Anna', true],
        ['TILL-2', 'Ben', false],
        ['front-1', null, null],
      ],
    );
  });

  test('each till has its own day: sales at TILL-1 and TILL-2 land in their own X reports, and closing one leaves the other open', async () => {
    await sell('anna', 'TILL-1', 12.5);
    await sell('ben', 'TILL-2', 30);
    await sell('ben', 'TILL-2', 4);
    const x = async (who: string) =>
      (await call(who, 'GET', '/ui/reports/x')).json<{
        terminal_id: string;
        totals: Array<{ approved: { count: number; amount: number } }>;
      }>();
    const annaX = await x('anna');
    const benX = await x('ben');
    assert.deepEqual([annaX.terminal_id, annaX.totals[0]?.approved], ['TILL-1', { count: 1, amount: 12.5 }]);
    assert.deepEqual([benX.terminal_id, benX.totals[0]?.approved], ['TILL-2', { count: 2, amount: 34 }]);
    // The shop's day sums the tills' open days; each till also shows its own.
    type ShopDay = {
      tills: Array<{ till_id: string; totals: Array<{ approved: { amount: number } }> }>;
      totals: Array<{ currency: string; approved: { count: number; amount: number }; net: number }>;
      by_cashier: Array<{ name: string }>;
    };
    const shopDay = async () => (await call('boss', 'GET', '/ui/reports/shop')).json<ShopDay>();
    const whole = await shopDay();
    assert.deepEqual(
      whole.tills.map((t) => [t.till_id, t.totals[0]?.approved.amount ?? 0]),
      [
        ['TILL-1', 12.5],
        ['TILL-2', 34],
        ['front-1', 0],
      ],
    );
    assert.deepEqual(
      whole.totals.map((t) => [t.currency, t.approved, t.net]),
      [['EUR', { count: 3, amount: 46.5 }, 46.5]],
    );
    assert.deepEqual(
      whole.by_cashier.map((c) => c.name),
      ['Anna', 'Ben'],
    );
    // The manager closes TILL-2's day (named), TILL-1's stays open.
    assert.equal((await call('boss', 'POST', '/ui/reports/z?terminal_id=TILL-2')).statusCode, 201);
    assert.deepEqual(
      (await shopDay()).totals.map((t) => t.approved),
      [{ count: 1, amount: 12.5 }],
      "the shop's day now holds TILL-1's open day only",
    );
    assert.equal((await x('ben')).totals.length, 0, "TILL-2's new day is empty");
    assert.deepEqual((await x('anna')).totals[0]?.approved, { count: 1, amount: 12.5 });
  });

  test('another screen does not take an open till silently: 409 (4005) naming who; take over takes it, and the first screen is told at its next call', async () => {
    const refused = assertApiError(await take('ben', 'TILL-1'), 409, 4005, ['till_id']);
    assert.match(refused.message, /Till TILL-1 is open on another screen \(Anna\)/);
    const taken = await take('ben', 'TILL-1', true);
    assert.equal(taken.statusCode, 200, taken.body);
    assert.equal(taken.json<Till>().holder?.staff_name, 'Ben');
    // A screen holds one till: Ben's TILL-2 is free now.
    const tills = (await call('boss', 'GET', '/ui/tills')).json<{ tills: Till[] }>().tills;
    assert.equal(tills.find((t) => t.till_id === 'TILL-2')?.holder, null);
    // Anna's screen, at its next heartbeat and at its next sale: the till is someone else's now.
    assertApiError(await take('anna', 'TILL-1'), 409, 4005, ['till_id']);
    assertApiError(await begin('anna', 3), 400, 1001, ['till_id']);
  });

  test("a till whose screen went quiet is free again after the hold's time; logging out frees it at once", async () => {
    h.clock.advance((TILL_HOLD_STALE_SECONDS + 1) * 1000);
    assert.equal((await take('anna', 'TILL-1')).statusCode, 200, 'Ben was not seen for a minute');
    assert.equal((await take('ben', 'TILL-2')).statusCode, 200);
    assert.equal((await call('ben', 'DELETE', '/ui/session')).statusCode, 204);
    const tills = (await call('anna', 'GET', '/ui/tills')).json<{ tills: Till[] }>().tills;
    assert.equal(tills.find((t) => t.till_id === 'TILL-2')?.holder, null, 'logout let go of TILL-2');
  });

  test('two screens taking one free till at the same moment: exactly one gets it', async () => {
    const login = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'ben', pin: '2468' } });
    cookies.ben = `${COOKIE}=${login.cookies.find((c) => c.name === COOKIE)?.value ?? ''}`;
    const [one, two] = await Promise.all([take('ben', 'TILL-2'), take('boss', 'TILL-2')]);
    assert.deepEqual([one.statusCode, two.statusCode].sort(), [200, 409]);
  });

  test('retiring: refused with an unclosed day and for the last till; a retired till is listed only when asked and takes no screen', async () => {
    const unclosed = assertApiError(await call('boss', 'PUT', '/ui/tills/TILL-1', { retired: true }), 400, 1002, ['retired']);
    // Settings -> Tills says what to do from this reason: it is the contract's, word for word.
    assert.deepEqual(unclosed.errors, [{ field: 'retired', message: TILL_RETIRE_REFUSED.dayNotClosed }]);
    const retired = await call('boss', 'PUT', '/ui/tills/front-1', { retired: true });
    assert.equal(retired.statusCode, 200, retired.body);
    assert.ok(retired.json<Till>().retired_at);
    assert.deepEqual(
      (await call('boss', 'GET', '/ui/tills')).json<{ tills: Till[] }>().tills.map((t) => t.till_id),
      ['TILL-1', 'TILL-2'],
    );
    assert.deepEqual(
      (await call('boss', 'GET', '/ui/tills?retired=true')).json<{ tills: Till[] }>().tills.map((t) => t.till_id),
      ['TILL-1', 'TILL-2', 'front-1'],
    );
    assertApiError(await take('boss', 'front-1'), 400, 1002, ['till_id']);
    assert.equal(
      await countOf(
        h,
        "SELECT COUNT(*) AS n FROM audit_log WHERE merchant_id = ? AND action IN ('till_retire', 'till_rename')",
        shop.merchant_id,
      ),
      2,
    );
  });
});
