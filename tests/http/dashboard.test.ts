// GET /ui/dashboard through inject(): payments, declines, refunds, authorizations and an account
// check in EUR and USD over three weeks (a movable clock), read as today, the last 7 days and this
// month in Europe/Berlin, including a payment made before UTC midnight that belongs to Berlin's next
// day; the needs-attention counts; another shop's figures stay its own; roles (a cashier gets 403);
// a bad period is a 400 naming it. A second gateway in Asia/Kolkata (UTC+05:30) reads days whose
// midnight is not a whole UTC hour.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Dashboard } from '../../contract/api/dashboard.js';
import { assertApiError, createTestMerchant, startTestGateway, TestClock, type TestMerchant } from '../helpers/api.js';
import { cardPayment, freshPan, posPayment } from '../helpers/payments.js';
import { sqlOf } from '../helpers/sql.js';

const COOKIE = 'tillgate_session';
const DECLINED_PAN = '4000000000000002';

interface Account {
  token: string;
}

/** A gateway, a shop and its staff, with helpers to pay at a given instant. */
async function setUp(timeZone: string, startIso: string) {
  const clock = new TestClock(Date.parse(startIso));
  const gw = await startTestGateway({ clock, flags: { 'time-zone': timeZone, 'sim-delay-ms': '1000' } });
  const shop = await createTestMerchant(gw, 'Dashboard Bakery');
  const call = (
    method: InjectOptions['method'],
    url: string,
    auth: { token?: string; basic?: TestMerchant } = {},
    body?: unknown,
  ): Promise<LightMyRequestResponse> =>
    gw.app.inject({
      method,
      url,
      headers: { ...(auth.token ? { cookie: `${COOKIE}=${auth.token}` } : {}), ...(auth.basic ? { authorization: auth.basic.auth } : {}) },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
  const at = (iso: string) => {
    const ms = Date.parse(iso) - clock.now().getTime();
    assert.ok(ms >= 0, `the clock only moves forward (to ${iso})`);
    clock.advance(ms);
  };
  const staff = async (role: string, login: string): Promise<Account> => {
    const created = await gw.composition.gateway.staff.create({
      merchantId: shop.merchant_id,
      role,
      login,
      pin: '4711',
      displayName: login,
    });
    assert.ok(created.ok);
    const response = await call('POST', '/ui/session', {}, { login, pin: '4711' });
    assert.equal(response.statusCode, 200, response.body);
    const token = response.cookies.find((c) => c.name === COOKIE)?.value;
    assert.ok(token);
    return { token };
  };
  const pay = async (path: '/rest/payment' | '/rest/authorize', body: Record<string, unknown>, merchant: TestMerchant = shop) => {
    const response = await call('POST', path, { basic: merchant }, body);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ transaction_id: string; status: string; message: string | null }>();
  };
  const refund = async (transactionId: string, amount: number) => {
    const response = await call('POST', '/rest/refund', { basic: shop }, { transaction_id: transactionId, amount });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<{ status: string }>().status, 'success');
  };
  const dashboard = async (account: Account, period?: string) => {
    const response = await call('GET', `/ui/dashboard${period ? `?period=${period}` : ''}`, { token: account.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Dashboard>();
  };
  return { gw, clock, shop, call, at, staff, pay, refund, dashboard };
}

const money = (currency: string, count: number, minor: number, amount: number) => ({ currency, count, amount_minor: minor, amount });

describe('GET /ui/dashboard (Europe/Berlin)', () => {
  let env: Awaited<ReturnType<typeof setUp>>;
  let office: Account;
  let admin: Account;
  let cashier: Account;
  let soonAuthorization = '';

  before(async () => {
    env = await setUp('Europe/Berlin', '2026-11-10T09:00:00.000Z');
    const { at, pay, refund, shop, call, gw } = env;

    // 10 November: two approved payments (EUR, USD) and a decline.
    const a1 = await pay('/rest/payment', cardPayment(freshPan(), 10));
    assert.equal(a1.status, 'completed');
    at('2026-11-10T09:05:00.000Z');
    await pay('/rest/payment', cardPayment(freshPan(), 20, { currency: 'USD' }));
    at('2026-11-10T09:10:00.000Z');
    assert.equal((await pay('/rest/payment', cardPayment(DECLINED_PAN, 5))).status, 'declined');
    // 13 November 15:00 UTC: an authorization that is never captured; it expires on the 20th at 15:00 UTC.
    at('2026-11-13T15:00:00.000Z');
    const auth1 = await pay('/rest/authorize', cardPayment(freshPan(), 40));
    assert.equal(auth1.status, 'authorized');
    soonAuthorization = auth1.transaction_id;
    // 16 November: a payment refunded in part, and an authorization expiring on the 23rd.
    at('2026-11-16T11:00:00.000Z');
    const b1 = await pay('/rest/payment', cardPayment(freshPan(), 7.5));
    at('2026-11-16T11:30:00.000Z');
    await refund(b1.transaction_id, 2.5);
    at('2026-11-16T12:00:00.000Z');
    await pay('/rest/authorize', cardPayment(freshPan(), 30));
    // 19 November 23:30 UTC is 00:30 on the 20th in Berlin: today's first payment there.
    at('2026-11-19T23:30:00.000Z');
    await pay('/rest/payment', cardPayment(freshPan(), 1));
    // 20 November: a sale at the till, a declined USD payment, a PIN request (a step of a sale, not
    // a payment of its own), a refund of the 10th's payment (counts today), an account check.
    at('2026-11-20T10:00:00.000Z');
    assert.equal((await pay('/rest/payment', posPayment(12, { pan: freshPan() }))).status, 'completed');
    at('2026-11-20T10:05:00.000Z');
    await pay('/rest/payment', cardPayment(DECLINED_PAN, 3, { currency: 'USD' }));
    at('2026-11-20T10:10:00.000Z');
    assert.equal((await pay('/rest/payment', posPayment(60, { pan: freshPan() }))).message, 'request_pin');
    at('2026-11-20T10:15:00.000Z');
    await refund(a1.transaction_id, 4);
    at('2026-11-20T10:20:00.000Z');
    assert.equal((await pay('/rest/payment', cardPayment(freshPan(), 0))).status, 'completed');
    // Another shop's payment today is its own.
    const other = await createTestMerchant(gw, 'Other Shop');
    await pay('/rest/payment', cardPayment(freshPan(), 99), other);

    // Needs attention. Invoices: one expiring within 24 h, one in 3 days, one expiring soon but paid.
    at('2026-11-20T11:00:00.000Z');
    const invoice = async (expiresIn: number, unit: string) => {
      const response = await call(
        'POST',
        '/rest/invoices',
        { basic: shop },
        { url_name: shop.channel.url_name, invoice: { amount: 25, expires_in: expiresIn, expires_in_unit: unit } },
      );
      assert.equal(response.statusCode, 201, response.body);
      return response.json<{ invoice: { id: number; debt_claim_number: string } }>().invoice;
    };
    const soon = await invoice(10, 'hours');
    const later = await invoice(3, 'days');
    const paid = await invoice(5, 'hours');
    assert.equal(
      (await call('PUT', `/rest/invoices/${paid.debt_claim_number}/status_change`, { basic: shop }, { status: 'paid' })).statusCode,
      200,
    );
    // E-mails: the latest of `later` failed; `soon` failed once, then a reminder went out.
    const sql = sqlOf(gw);
    const email = (...params: unknown[]) =>
      sql.run(
        `INSERT INTO emails (id, merchant_id, invoice_id, email_type, locale, recipient, subject, body_text, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, 'en', 'customer@example.com', 'Invoice', 'Text', ?, 4, ?, ?)`,
        ...params,
      );
    await email('e1', shop.merchant_id, soon.id, 'initial', 'failed', '2026-11-20T11:01:00.000Z', '2026-11-20T11:01:00.000Z');
    await email('e2', shop.merchant_id, soon.id, 'reminder', 'sent', '2026-11-20T11:02:00.000Z', '2026-11-20T11:02:00.000Z');
    await email('e3', shop.merchant_id, later.id, 'initial', 'failed', '2026-11-20T11:03:00.000Z', '2026-11-20T11:03:00.000Z');
    // Postbacks: being retried, given up, delivered, not tried yet; and another shop's failure.
    const outbox = (...params: unknown[]) =>
      sql.run(
        `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
       VALUES (?, ?, 'transaction', ?, 1, 'https://shop.example/postbacks', '{}', ?, ?, '2026-11-20T11:00:00.000Z', '2026-11-20T11:00:00.000Z')`,
        ...params,
      );
    await outbox('p1', shop.merchant_id, 'tx-1', 'pending', 3);
    await outbox('p2', shop.merchant_id, 'tx-2', 'failed', 32);
    await outbox('p3', shop.merchant_id, 'tx-3', 'delivered', 1);
    await outbox('p4', shop.merchant_id, 'tx-4', 'pending', 0);
    await outbox('p5', other.merchant_id, 'tx-5', 'failed', 32);
    // Network tokens: one suspended by the (simulated) network, one active.
    const token = async () => {
      const response = await call(
        'POST',
        '/v2/network_tokens',
        { basic: shop },
        { card_number: freshPan(), expiry_month: 12, expiry_year: 2031 },
      );
      assert.equal(response.statusCode, 201, response.body);
      return response.json<{ data: { id: string } }>().data.id;
    };
    const suspended = await token();
    await token();
    at('2026-11-20T11:30:00.000Z');
    await gw.composition.gateway.scheduler.runDue();
    assert.equal((await call('POST', `/v2/network_tokens/${suspended}/simulate`, { basic: shop }, { action: 'suspend' })).statusCode, 200);

    at('2026-11-20T12:00:00.000Z');
    // Staff log in now (a session ends after 30 minutes without use).
    office = await env.staff('back_office', 'office');
    admin = await env.staff('admin', 'boss');
    cashier = await env.staff('cashier', 'anna');
  });

  after(async () => env?.gw.close());

  test('today: the payments since Berlin midnight, per hour, with the refunds made today', async () => {
    const view = await env.dashboard(office, 'today');
    assert.equal(view.period, 'today');
    assert.equal(view.time_zone, 'Europe/Berlin');
    assert.equal(view.bucket, 'hour');
    assert.equal(view.from, '2026-11-19T23:00:00.000Z', 'Berlin midnight (UTC+1)');
    assert.equal(view.to, '2026-11-20T13:00:00.000Z', 'the end of the current hour');
    assert.equal(view.generated_at, '2026-11-20T12:00:00.000Z');
    assert.deepEqual(view.totals, { payments: 3, approved: 2, declined: 1, other: 0, approval_rate: 2 / 3 });
    assert.deepEqual(view.volume, [money('EUR', 2, 1300, 13)]);
    assert.deepEqual(view.refunds, [money('EUR', 1, 400, 4)]);
    assert.deepEqual(
      view.payment_types.map((t) => [t.payment_type, t.payments, t.approved, t.declined, t.volume]),
      [
        ['cardecom', 2, 1, 1, [money('EUR', 1, 100, 1)]],
        ['cardpos', 1, 1, 0, [money('EUR', 1, 1200, 12)]],
      ],
    );
    assert.equal(view.series.length, 14, '00:00 to 13:00 in Berlin');
    assert.deepEqual(view.series.map((b) => b.local_start).slice(0, 2), ['2026-11-20T00:00', '2026-11-20T01:00']);
    assert.equal(view.series.at(-1)?.local_start, '2026-11-20T13:00');
    const first = view.series[0];
    assert.deepEqual(
      [first?.start, first?.end, first?.payments, first?.volume],
      ['2026-11-19T23:00:00.000Z', '2026-11-20T00:00:00.000Z', 1, [money('EUR', 1, 100, 1)]],
    );
    const eleven = view.series.find((b) => b.local_start === '2026-11-20T11:00');
    assert.deepEqual([eleven?.payments, eleven?.approved, eleven?.declined, eleven?.refunds], [2, 1, 1, [money('EUR', 1, 400, 4)]]);
    assert.equal(
      view.series.reduce((sum, b) => sum + b.payments, 0),
      3,
    );
  });

  test('the last 7 days: 14 to 20 November, per day', async () => {
    const view = await env.dashboard(admin, '7d');
    assert.equal(view.bucket, 'day');
    assert.equal(view.from, '2026-11-13T23:00:00.000Z');
    assert.equal(view.to, '2026-11-20T23:00:00.000Z');
    assert.deepEqual(view.totals, { payments: 5, approved: 4, declined: 1, other: 0, approval_rate: 0.8 });
    assert.deepEqual(view.volume, [money('EUR', 3, 2050, 20.5)]);
    assert.deepEqual(view.refunds, [money('EUR', 2, 650, 6.5)]);
    assert.deepEqual(
      view.series.map((b) => [b.local_start, b.payments]),
      [
        ['2026-11-14', 0],
        ['2026-11-15', 0],
        ['2026-11-16', 2],
        ['2026-11-17', 0],
        ['2026-11-18', 0],
        ['2026-11-19', 0],
        ['2026-11-20', 3],
      ],
    );
    const sixteenth = view.series[2];
    assert.deepEqual(
      [sixteenth?.approved, sixteenth?.volume, sixteenth?.refunds],
      [2, [money('EUR', 1, 750, 7.5)], [money('EUR', 1, 250, 2.5)]],
    );
  });

  test('this month: everything since 1 November, in both currencies', async () => {
    const view = await env.dashboard(office, 'month');
    assert.equal(view.from, '2026-10-31T23:00:00.000Z');
    assert.equal(view.series.length, 20);
    assert.equal(view.series[0]?.local_start, '2026-11-01');
    assert.deepEqual(view.totals, { payments: 9, approved: 7, declined: 2, other: 0, approval_rate: 7 / 9 });
    assert.deepEqual(view.volume, [money('EUR', 4, 3050, 30.5), money('USD', 1, 2000, 20)]);
    assert.deepEqual(view.refunds, [money('EUR', 2, 650, 6.5)]);
    assert.deepEqual(
      view.payment_types.map((t) => [t.payment_type, t.payments, t.approved, t.declined]),
      [
        ['cardecom', 8, 6, 2],
        ['cardpos', 1, 1, 0],
      ],
    );
    const tenth = view.series.find((b) => b.local_start === '2026-11-10');
    assert.deepEqual(
      [tenth?.payments, tenth?.approved, tenth?.declined, tenth?.volume],
      [3, 2, 1, [money('EUR', 1, 1000, 10), money('USD', 1, 2000, 20)]],
    );
    // Every figure of the series adds up to the period's.
    assert.equal(
      view.series.reduce((sum, b) => sum + b.approved, 0),
      view.totals.approved,
    );
    assert.equal(
      view.series.reduce((sum, b) => sum + (b.volume.find((v) => v.currency === 'EUR')?.amount_minor ?? 0), 0),
      3050,
    );
  });

  test('needs attention: postbacks, invoices expiring, failed e-mails, suspended tokens, authorizations expiring', async () => {
    const { attention } = await env.dashboard(office);
    assert.equal(attention.postbacks_retrying.count, 1);
    assert.equal(attention.postbacks_failed.count, 1);
    assert.equal(attention.invoices_expiring.count, 1);
    assert.deepEqual(
      attention.invoices_expiring.items.map((i) => [i.expires_at, i.amount, i.currency]),
      [['2026-11-20T21:00:00.000Z', 25, 'EUR']],
    );
    assert.equal(attention.invoice_emails_failed.count, 1, 'a reminder that went out settles the earlier failure');
    assert.equal(attention.invoice_emails_failed.items[0]?.failed_at, '2026-11-20T11:03:00.000Z');
    assert.equal(attention.tokens_suspended.count, 1);
    assert.equal(attention.authorizations_expiring.count, 1);
    assert.deepEqual(attention.authorizations_expiring.items, [
      {
        transaction_id: soonAuthorization,
        order_id: attention.authorizations_expiring.items[0]?.order_id ?? null,
        expires_at: '2026-11-20T15:00:00.000Z',
        currency: 'EUR',
        amount: 40,
      },
    ]);
  });

  test('the period defaults to today', async () => {
    const view = await env.dashboard(office);
    assert.equal(view.period, 'today');
  });

  test('back office and admin only: a cashier gets 403, no session 401, API credentials 401', async () => {
    assertApiError(await env.call('GET', '/ui/dashboard', { token: cashier.token }), 403, 2002);
    assertApiError(await env.call('GET', '/ui/dashboard'), 401, 2001);
    assertApiError(await env.call('GET', '/ui/dashboard', { basic: env.shop }), 401, 2001);
  });

  test('a bad period, or a field it does not know, is a 400 naming each', async () => {
    const bad = assertApiError(await env.call('GET', '/ui/dashboard?period=year', { token: office.token }), 400, 1001, ['period']);
    assert.equal(bad.errors.length, 1);
    assertApiError(await env.call('GET', '/ui/dashboard?period=week&currency=EUR', { token: office.token }), 400, 1001, [
      'period',
      'currency',
    ]);
  });
});

describe('GET /ui/dashboard (Asia/Kolkata, UTC+05:30)', () => {
  test('a day starts at 18:30 UTC: payments on either side of it fall on their own days', async () => {
    const env = await setUp('Asia/Kolkata', '2026-03-10T18:00:00.000Z');
    try {
      await env.pay('/rest/payment', cardPayment(freshPan(), 3)); // 23:30 on 10 March in Kolkata
      env.at('2026-03-10T18:45:00.000Z');
      await env.pay('/rest/payment', cardPayment(freshPan(), 4)); // 00:15 on 11 March
      env.at('2026-03-11T05:00:00.000Z');
      await env.pay('/rest/payment', cardPayment(freshPan(), 5));
      const office = await env.staff('back_office', 'office');
      const today = await env.dashboard(office, 'today');
      assert.equal(today.from, '2026-03-10T18:30:00.000Z');
      assert.deepEqual(today.volume, [money('EUR', 2, 900, 9)]);
      assert.equal(today.series[0]?.local_start, '2026-03-11T00:00');
      assert.deepEqual([today.series[0]?.start, today.series[0]?.payments], ['2026-03-10T18:30:00.000Z', 1]);
      const week = await env.dashboard(office, '7d');
      assert.deepEqual(
        week.series.slice(-2).map((b) => [b.local_start, b.start, b.payments]),
        [
          ['2026-03-10', '2026-03-09T18:30:00.000Z', 1],
          ['2026-03-11', '2026-03-10T18:30:00.000Z', 2],
        ],
      );
    } finally {
      await env.gw.close();
    }
  });
});
