// Today's sales (GET /ui/reports/sales, issue 34 item 2): a till's open day as a list, from the same
// entries as its X report, so its totals are the X report's to the cent; a cashier sees their own
// till's sales only (never another till's, which they could otherwise refund), with each sale's whole
// order id, till and cashier; a manager may look at another till, other terminals or the whole shop,
// whose totals are the shop's day's. A sale a screen makes is its till's whatever terminal id it sends.
// Through inject() on both engines.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { DayReport, DaySales, ShopDay } from '../../contract/api/reports.js';
import { OTHER_TERMINALS_BOOK } from '../../contract/constants.js';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { freshPan, newMerchant, posPayment, startHarness, type Harness } from '../helpers/payments.js';

const COOKIE = 'tillgate_session';

describe("Today's sales: a till's open day as a list, agreeing with its X report", () => {
  let h: Harness;
  let shop: TestMerchant;
  const cookies: Record<string, string> = {};

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    h.app.inject({
      method,
      url,
      headers: { cookie: cookies[who] ?? '', ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const sell = async (who: string | 'api', amount: number, terminal: string | null, pan = freshPan()) => {
    const body = posPayment(amount, { pan, entry: 'chip' });
    const pos = body.pos_data as { terminal?: { id?: string } };
    if (terminal === null) delete pos.terminal;
    else pos.terminal = { ...pos.terminal, id: terminal };
    const headers = who === 'api' ? { authorization: shop.auth } : { cookie: cookies[who] ?? '' };
    const response = await h.app.inject({
      method: 'POST',
      url: '/rest/payment',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      payload: body,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ transaction_id: string; order_id: string; status: string }>();
  };
  const sales = async (who: string, query = '') => {
    const response = await call(who, 'GET', `/ui/reports/sales${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<DaySales>();
  };

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Two Till Deli');
    for (const [login, role, name] of [
      ['anna', 'cashier', 'Anna'],
      ['ben', 'cashier', 'Ben'],
      ['boss', 'back_office', 'Olga'],
    ] as const) {
      assert.ok((await h.gateway.staff.create({ merchantId: shop.merchant_id, role, login, pin: '2468', displayName: name })).ok);
      const session = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login, pin: '2468' } });
      assert.equal(session.statusCode, 200, session.body);
      cookies[login] = `${COOKIE}=${session.cookies.find((c) => c.name === COOKIE)?.value ?? ''}`;
    }
    assert.ok((await h.gateway.tills.create(shop.merchant_id, { till_id: 'TILL-2' }, { staffId: null })).ok);
    for (const [who, till] of [
      ['anna', 'TILL-1'],
      ['ben', 'TILL-2'],
    ] as const) {
      const taken = await call(who, 'PUT', '/ui/session/till', { till_id: till, screen_id: `screen-${who}` });
      assert.equal(taken.statusCode, 200, taken.body);
    }
  });

  after(async () => {
    await h.close();
  });

  test("each cashier sees their own till's day (a screen's sale is its till's whatever terminal id it sends), with totals equal to its X report; never another till's", async () => {
    const a1 = await sell('anna', 12.5, 'TILL-1');
    await sell('anna', 20.51, 'TILL-1'); // declined 51
    const a2 = await sell('anna', 7, 'TILL-2'); // Anna's screen holds Till 1: her sale is Till 1's
    const b1 = await sell('ben', 30, 'TILL-2');
    await sell('api', 4, 'T-0001');
    await sell('api', 9, 'TILL-2');
    const refund = await call(
      'boss',
      'POST',
      '/rest/refund',
      { transaction_id: a1.transaction_id, amount: 2.5, merchant_reference: 'Returned goods' },
      { 'idempotency-key': randomUUID() },
    );
    assert.equal(refund.statusCode, 200, refund.body);

    const anna = await sales('anna');
    assert.deepEqual([anna.scope, anna.till_id, anna.sequence], ['till', 'TILL-1', 1]);
    assert.deepEqual(
      new Set(anna.sales.map((s) => s.transaction_id)).has(a2.transaction_id),
      true,
      "the sale Anna's screen made names TILL-2 but is Till 1's",
    );
    assert.ok(!anna.sales.some((s) => s.transaction_id === b1.transaction_id), "Ben's sale is not in Till 1's list");
    assert.deepEqual(
      anna.sales.map((s) => [s.till_id, s.cashier?.name, s.counted]).sort(),
      [
        ['TILL-1', 'Anna', 'approved'],
        ['TILL-1', 'Anna', 'approved'],
        ['TILL-1', 'Anna', 'declined'],
      ].sort(),
    );
    const sold = anna.sales.find((s) => s.transaction_id === a1.transaction_id);
    assert.deepEqual(
      [sold?.order_id, sold?.refunded, sold?.refundable, sold?.refunds.length],
      [a1.order_id, 2.5, 10, 1],
      'the whole order id, what was refunded and what is left',
    );
    const x = (await call('anna', 'GET', '/ui/reports/x')).json<DayReport>();
    assert.deepEqual(anna.totals, x.totals, "Today's sales totals are the X report's");
    // The list adds up to its totals.
    const taken = anna.sales.filter((s) => s.counted === 'approved').reduce((sum, s) => sum + Math.round(s.amount * 100), 0);
    assert.equal(taken, Math.round((anna.totals[0]?.approved.amount ?? 0) * 100));

    const ben = await sales('ben');
    assert.deepEqual(ben.sales.map((s) => s.amount).sort(), [30, 9].sort(), "Till 2: Ben's sale and POS software's naming TILL-2");
    assert.deepEqual(ben.totals, (await call('ben', 'GET', '/ui/reports/x')).json<DayReport>().totals);

    // A cashier may not look at another till or the whole shop.
    assertApiError(await call('anna', 'GET', '/ui/reports/sales?terminal_id=TILL-2'), 403, 2002, ['terminal_id']);
    assertApiError(await call('anna', 'GET', '/ui/reports/sales?scope=shop'), 403, 2002, ['scope']);
  });

  test("a manager looks at another till, other terminals or the whole shop, labelled; the whole shop adds up to the shop's day", async () => {
    const two = await sales('boss', '?terminal_id=TILL-2');
    assert.deepEqual([two.till_id, two.name], ['TILL-2', 'Till 2']);
    const other = await sales('boss', `?terminal_id=${encodeURIComponent(OTHER_TERMINALS_BOOK)}`);
    assert.deepEqual(
      [other.name, other.sales.map((s) => [s.amount, s.till_id, s.terminal_id])],
      ['Other terminals', [[4, null, 'T-0001']]],
    );
    assert.equal((await sales('boss')).scope, 'shop', "a manager's screen that holds no till sees the whole shop");
    const whole = await sales('boss', '?scope=shop');
    assert.deepEqual([whole.scope, whole.till_id, whole.name], ['shop', null, 'Two Till Deli']);
    assert.equal(whole.sales.length, 6);
    const day = (await call('boss', 'GET', '/ui/reports/shop')).json<ShopDay>();
    assert.deepEqual(whole.totals, day.totals, "the whole shop's list has the shop's day's totals");
  });

  test('the back office names the till and the cashier of a sale: on the list and the detail, by filter and search, and in the CSV', async () => {
    const anna = (await call('boss', 'GET', '/rest/transactions?till_id=TILL-1&limit=500')).json<
      Array<{ till_id?: string; staff_id?: string; taken_at?: string; created_at: string }>
    >();
    assert.ok(anna.length >= 3 && anna.every((t) => t.till_id === 'TILL-1'), JSON.stringify(anna));
    assert.ok(
      anna.every((t) => t.taken_at === t.created_at),
      'a sale taken online was taken when it was made',
    );
    const annaId = anna[0]?.staff_id;
    assert.ok(annaId);
    const byStaff = (await call('boss', 'GET', `/rest/transactions?staff_id=${annaId}&limit=500`)).json<
      Array<{ staff_id?: string; till_id?: string }>
    >();
    assert.deepEqual([...new Set(byStaff.map((t) => t.staff_id))], [annaId]);
    const other = (await call('boss', 'GET', `/rest/transactions?till_id=${encodeURIComponent(OTHER_TERMINALS_BOOK)}`)).json<
      Array<{ till_id?: string; terminal_id?: string }>
    >();
    assert.deepEqual(
      other.map((t) => [t.till_id, t.terminal_id]),
      [[undefined, 'T-0001']],
    );
    const searched = (await call('boss', 'GET', '/rest/transactions?search=TILL-2')).json<Array<{ till_id?: string }>>();
    assert.ok(searched.length === 2 && searched.every((t) => t.till_id === 'TILL-2'), 'searching a till id finds its sales');
    assertApiError(await call('boss', 'GET', '/rest/transactions?till_id=no%20such'), 400, 1001, ['till_id']);

    const id = (anna[0] as unknown as { transaction_id: string }).transaction_id;
    const detail = (await call('boss', 'GET', `/ui/transactions/${id}`)).json<{
      till: { till_id: string; name: string } | null;
      cashier: { name: string } | null;
      stored: unknown;
    }>();
    assert.deepEqual([detail.till, detail.cashier?.name, detail.stored], [{ till_id: 'TILL-1', name: 'Till 1' }, 'Anna', null]);

    const csv = await call('boss', 'GET', '/rest/transactions/export?till_id=TILL-2');
    assert.equal(csv.statusCode, 200, csv.body);
    const [header, ...lines] = csv.body.trim().split('\r\n');
    const columns = (header ?? '').split(',');
    for (const column of ['till_id', 'cashier', 'taken_at', 'forwarded_at'])
      assert.ok(columns.includes(column), `${column} in ${header ?? ''}`);
    const rows = lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i], value])));
    assert.deepEqual(
      rows.map((r) => [r.till_id, r.cashier]).sort(),
      [
        ['TILL-2', ''],
        ['TILL-2', 'Ben'],
      ],
      'POS software took one (no cashier), Ben the other',
    );
  });

  test("after a close the list starts again; a refund of an earlier day's sale is listed apart and counted", async () => {
    const before = await sales('anna');
    const sale = before.sales.find((s) => s.counted === 'approved' && s.refundable > 0);
    assert.ok(sale);
    assert.equal(
      (await call('boss', 'POST', '/ui/reports/z?terminal_id=TILL-1', undefined, { 'idempotency-key': randomUUID() })).statusCode,
      201,
    );
    const after = await sales('anna');
    assert.deepEqual([after.sequence, after.sales, after.totals], [2, [], []]);
    const refund = await call(
      'boss',
      'POST',
      '/rest/refund',
      { transaction_id: sale.transaction_id, amount: 1, merchant_reference: 'Returned goods' },
      { 'idempotency-key': randomUUID() },
    );
    assert.equal(refund.statusCode, 200, refund.body);
    const next = await sales('anna');
    assert.deepEqual(
      next.earlier_refunds.map((r) => [r.transaction_id, r.amount]),
      [[sale.transaction_id, 1]],
    );
    assert.deepEqual(
      next.totals.map((t) => [t.refunded.count, t.refunded.amount, t.net]),
      [[1, 1, -1]],
    );
    assert.deepEqual(next.totals, (await call('anna', 'GET', '/ui/reports/x')).json<DayReport>().totals);
  });
});
