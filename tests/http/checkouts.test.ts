// Checkout sessions over the API (docs/api.md "Hosted checkout"): validation, reading, the session
// following its transaction, retries after a failed payment, cancel, expiry, postbacks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertApiError, createTestMerchant, startTestGateway, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { countOf, sqlOf } from '../helpers/sql.js';

const HOUR = 60 * 60 * 1000;

const base = {
  merchant_name: 'Corner Shop',
  order_id: 'order-1',
  currency: 'EUR',
  amount: 10,
  amount_taxes: 1.9,
  amount_shipping: 2,
  total_amount: 13.9,
  success_url: 'https://shop.example/ok',
  error_url: 'https://shop.example/err',
  postback_url: 'https://shop.example/postbacks',
};

describe('checkout sessions', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let other: TestMerchant;

  before(async () => {
    gw = await startTestGateway({ flags: { 'sim-delay-ms': '10' } });
    shop = await createTestMerchant(gw, 'Corner Shop');
    other = await createTestMerchant(gw, 'Other Shop');
  });

  after(async () => {
    await gw.close();
  });

  const create = (body: Record<string, unknown>, merchant = shop) =>
    gw.app.inject({ method: 'POST', url: '/rest/checkouts', headers: { authorization: merchant.auth }, payload: body });
  const read = async (id: string, merchant = shop) =>
    gw.app.inject({ method: 'GET', url: `/rest/checkouts/${id}`, headers: { authorization: merchant.auth } });
  const status = async (id: string) => (await read(id)).json<{ status: string; transaction_id: string | null }>();
  const open = async (extra: Record<string, unknown> = {}) => {
    const response = await create({ ...base, ...extra });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ checkout_id: string; action_data: { url: string } }>().checkout_id;
  };
  const checkoutPostbacks = async (id: string) =>
    (
      await sqlOf(gw).all<{ sequence: number; payload: string }>(
        "SELECT sequence, payload FROM postback_outbox WHERE subject_type = 'checkout' AND subject_id = ? ORDER BY sequence",
        id,
      )
    ).map((row): Record<string, unknown> & { sequence: number } => ({
      ...(JSON.parse(row.payload) as Record<string, unknown>),
      sequence: row.sequence,
    }));

  test('create answers the redirect to the hosted page; read shows the session', async () => {
    const response = await create(base);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['action_data', 'checkout_id', 'client_action', 'error_code', 'status']);
    assert.deepEqual([body.error_code, body.status, body.client_action], [0, 'open', 'redirect']);
    assert.match(body.action_data.url, new RegExp(`/checkout/${body.checkout_id}$`));
    const view = (await read(body.checkout_id)).json();
    assert.deepEqual(
      [view.status, view.total_amount, view.amount_taxes, view.amount_shipping, view.transaction_id, view.payment_methods],
      ['open', 13.9, 1.9, 2, null, ['cardecom', 'dd', 'wallet', 'a2a', 'bankredirect']],
    );
    assertApiError(await read(body.checkout_id, other), 404, 3001);
  });

  test('every bad field is a 400 naming it; totals must add up', async () => {
    assertApiError(await create({ ...base, total_amount: 14 }), 400, 1001, ['total_amount']);
    assertApiError(await create({ ...base, currency: 'EURO' }), 400, 1001, ['currency']);
    assertApiError(await create({ ...base, amount: 10.001, total_amount: 13.901 }), 400, 1001, ['amount', 'total_amount']);
    assertApiError(await create({ ...base, collect_phone: 2 }), 400, 1001, ['collect_phone']);
    assertApiError(await create({ ...base, collect_dob: '1' }), 400, 1001, ['collect_dob']);
    assertApiError(await create({ ...base, success_url: 'ftp://x' }), 400, 1001, ['success_url']);
    assertApiError(await create({ ...base, prefill_customer_info: { country: 'DEU' } }), 400, 1001, ['prefill_customer_info.country']);
    assertApiError(await create({ ...base, display_manual_payment_instruction_to_customer: 1 }), 400, 1001, [
      'payment_instruction_merchant_iban',
    ]);
    assertApiError(await create({ ...base, payment_instruction_merchant_iban: 'DE00123' }), 400, 1001, [
      'payment_instruction_merchant_iban',
    ]);
    assertApiError(await create({ ...base, locale: 'fr' }), 400, 1001, ['locale']);
    assertApiError(await create({ ...base, surprise: 1 }), 400, 1001, ['surprise']);
    const { merchant_name: _name, ...withoutName } = base;
    assertApiError(await create(withoutName), 400, 1001, ['merchant_name']);
  });

  test('the customer view offers the methods of the currency, collect flags, prefill and instructions', async () => {
    const id = await open({
      currency: 'GBP',
      collect_phone: 1,
      display_transaction_details: 1,
      display_manual_payment_instruction_to_customer: 1,
      payment_instruction_merchant_account_holder: 'Corner Shop Ltd',
      payment_instruction_merchant_iban: 'DE89370400440532013000',
      prefill_customer_info: { email: 'ann@example.com', first_name: 'Ann' },
      locale: 'hr',
    });
    const view = await gw.composition.gateway.checkouts.forCustomer(id);
    assert.ok(view);
    assert.deepEqual(view.methods, ['cardecom', 'wallet', 'a2a'], 'SEPA and bank redirect are EUR only');
    assert.deepEqual([view.collect.phone, view.collect.dob, view.display_transaction_details, view.locale], [true, false, true, 'hr']);
    assert.deepEqual(view.prefill, { email: 'ann@example.com', first_name: 'Ann' });
    assert.deepEqual(view.instructions, { show: true, account_holder: 'Corner Shop Ltd', iban: 'DE89370400440532013000', bic: null });
  });

  test('card payment: open -> processing -> completed, linked to a completed transaction, a postback each time', async () => {
    const id = await open();
    const paid = await gw.composition.gateway.checkouts.pay(id, { method: 'cardecom', customer: { phone: '+49 30 1234' } });
    assert.ok(paid.ok);
    assert.match(paid.value.redirectTo, new RegExp(`/pay/${paid.value.transaction_id}/card$`));
    assert.deepEqual(await status(id), { ...(await status(id)), status: 'processing', transaction_id: paid.value.transaction_id });
    const step = await gw.composition.gateway.payments.submitCard(paid.value.transaction_id, {
      pan: '4111111111111111',
      expiryMonth: 12,
      expiryYear: 2035,
    });
    assert.ok(step.ok);
    assert.equal(step.value.redirectTo, `https://shop.example/ok?transaction_id=${paid.value.transaction_id}&checkout_id=${id}`);
    const view = (await read(id)).json();
    assert.deepEqual([view.status, view.transaction_id, view.customer], ['completed', paid.value.transaction_id, { phone: '+49 30 1234' }]);
    const transaction = (
      await gw.app.inject({ method: 'GET', url: `/rest/transactions/${paid.value.transaction_id}`, headers: { authorization: shop.auth } })
    ).json();
    assert.deepEqual([transaction.status, transaction.amount, transaction.order_id], ['completed', 13.9, 'order-1']);
    assert.deepEqual(
      (await checkoutPostbacks(id)).map((p) => [p.sequence, p.status, p.transaction_id, p.amount, p.currency, p.order_id]),
      [
        [1, 'processing', paid.value.transaction_id, 13.9, 'EUR', 'order-1'],
        [2, 'completed', paid.value.transaction_id, 13.9, 'EUR', 'order-1'],
      ],
    );
    const again = await gw.composition.gateway.checkouts.pay(id, { method: 'cardecom', customer: {} });
    assert.ok(!again.ok && again.error.error_code === 1002, 'a completed checkout takes no second payment');
  });

  test('a declined payment reopens the session for another try; a cancelled wallet too', async () => {
    const id = await open();
    const first = await gw.composition.gateway.checkouts.pay(id, { method: 'cardecom', customer: {} });
    assert.ok(first.ok);
    await gw.composition.gateway.payments.submitCard(first.value.transaction_id, {
      pan: '4000000000000002',
      expiryMonth: 12,
      expiryYear: 2035,
    });
    assert.equal((await status(id)).status, 'open', 'declined: the customer may try again');
    const wallet = await gw.composition.gateway.checkouts.pay(id, { method: 'wallet', customer: {} });
    assert.ok(wallet.ok);
    assert.match(wallet.value.redirectTo, /\/wallet$/);
    await gw.composition.gateway.payments.completeRedirect(wallet.value.transaction_id, 'cancelled');
    assert.equal((await status(id)).status, 'open');
    const third = await gw.composition.gateway.checkouts.pay(id, { method: 'a2a', customer: {} });
    assert.ok(third.ok);
    await gw.composition.gateway.payments.completeRedirect(third.value.transaction_id, 'approved');
    assert.deepEqual(await status(id), { ...(await status(id)), status: 'completed', transaction_id: third.value.transaction_id });
    assert.deepEqual(
      (await checkoutPostbacks(id)).map((p) => p.status),
      ['processing', 'open', 'processing', 'open', 'processing', 'completed'],
    );
  });

  test('SEPA: pending keeps the session processing; settlement completes it', async () => {
    const id = await open();
    const bad = await gw.composition.gateway.checkouts.pay(id, { method: 'dd', customer: {}, iban: 'DE00 1234', account_holder: 'Ann' });
    assert.ok(!bad.ok && bad.error.errors.some((e) => e.field === 'iban'));
    const paid = await gw.composition.gateway.checkouts.pay(id, {
      method: 'dd',
      customer: {},
      iban: 'DE89370400440532013000',
      account_holder: 'Ann Example',
    });
    assert.ok(paid.ok);
    assert.equal(paid.value.redirectTo, `https://shop.example/ok?transaction_id=${paid.value.transaction_id}&checkout_id=${id}`);
    assert.equal((await status(id)).status, 'processing');
    gw.clock.advance(1000);
    await gw.composition.gateway.scheduler.runDue();
    assert.equal((await status(id)).status, 'completed');
  });

  test('a pass of the scheduler started while another runs returns once the due settlement has run, whichever pass ran it', async () => {
    const id = await open();
    const paid = await gw.composition.gateway.checkouts.pay(id, {
      method: 'dd',
      customer: {},
      iban: 'DE89370400440532013000',
      account_holder: 'Ann Example',
    });
    assert.ok(paid.ok);
    gw.clock.advance(1000);
    // As the background loop and a caller can: the first pass claims the settlement, the second
    // finds it claimed.
    const first = gw.composition.gateway.scheduler.runDue();
    const second = gw.composition.gateway.scheduler.runDue();
    await second;
    assert.equal((await status(id)).status, 'completed');
    assert.equal((await first) + (await second), 1, 'the settlement ran once');
  });

  test('cancel: only an open session; the customer goes to error_url', async () => {
    const id = await open();
    const cancelled = await gw.composition.gateway.checkouts.cancel(id);
    assert.ok(cancelled.ok);
    assert.equal(cancelled.value.redirectTo, `https://shop.example/err?checkout_id=${id}`);
    assert.equal((await status(id)).status, 'cancelled');
    const paid = await gw.composition.gateway.checkouts.pay(id, { method: 'cardecom', customer: {} });
    assert.ok(!paid.ok && paid.error.error_code === 1002);
    assert.ok(!(await gw.composition.gateway.checkouts.cancel(id)).ok);
    assert.deepEqual(
      (await checkoutPostbacks(id)).map((p) => p.status),
      ['cancelled'],
    );
  });

  test('a session expires after 24 hours, not before', async () => {
    const id = await open();
    gw.clock.advance(24 * HOUR - 1000);
    await gw.composition.gateway.scheduler.runDue();
    assert.equal((await status(id)).status, 'open');
    gw.clock.advance(2000);
    await gw.composition.gateway.scheduler.runDue();
    assert.equal((await status(id)).status, 'expired');
    assert.ok(!(await gw.composition.gateway.checkouts.pay(id, { method: 'cardecom', customer: {} })).ok);
    assert.deepEqual(
      (await checkoutPostbacks(id)).map((p) => p.status),
      ['expired'],
    );
  });

  test("the merchant's prefill reaches the payment unless the customer changed it", async () => {
    const id = await open({ prefill_customer_info: { email: 'ann@example.com', first_name: 'Ann', country: 'DE' } });
    const paid = await gw.composition.gateway.checkouts.pay(id, { method: 'wallet', customer: { first_name: 'Anna', phone: '' } });
    assert.ok(paid.ok);
    const row = (await sqlOf(gw).get<{ details: string }>('SELECT details FROM transactions WHERE id = ?', paid.value.transaction_id)) as {
      details: string;
    };
    assert.deepEqual((JSON.parse(row.details) as { customer: Record<string, string> }).customer, {
      email: 'ann@example.com',
      first_name: 'Anna',
      country: 'DE',
    });
  });

  test('a customer step after the payment ran out of time is refused, even before the scheduler expired it', async () => {
    const id = await open();
    const paid = await gw.composition.gateway.checkouts.pay(id, { method: 'cardecom', customer: {} });
    assert.ok(paid.ok);
    gw.clock.advance(HOUR + 1000);
    const late = await gw.composition.gateway.payments.submitCard(paid.value.transaction_id, {
      pan: '4111111111111111',
      expiryMonth: 12,
      expiryYear: 2035,
    });
    assert.ok(!late.ok && late.error.error_code === 1002 && /run out/.test(late.error.message));
    await gw.composition.gateway.scheduler.runDue();
    assert.equal((await status(id)).status, 'open', 'the expired payment reopens the session');
  });

  test('an idempotent create replays and makes one session', async () => {
    const headers = { authorization: shop.auth, 'idempotency-key': 'checkout-key-1' };
    const first = await gw.app.inject({ method: 'POST', url: '/rest/checkouts', headers, payload: { ...base, order_id: 'idem' } });
    const second = await gw.app.inject({ method: 'POST', url: '/rest/checkouts', headers, payload: { ...base, order_id: 'idem' } });
    assert.equal(second.body, first.body);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(await countOf(gw, "SELECT COUNT(*) AS n FROM checkout_sessions WHERE order_id = 'idem'"), 1);
  });
});
