// One rule per kind of text (contract/text-rules.ts), the same at every endpoint that takes one: an
// e-mail address (payments, network tokens, checkouts, invoices, receipt e-mails, channels, the SMTP
// test), a sender (SMTP settings), an http(s) URL and a calendar date. Each endpoint refuses what the
// rule refuses with a 4xx naming the field, and takes what it takes. The refused addresses here were
// taken by some endpoints before the rule was one; the international one was refused by one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertApiError, loginStaff, type TestMerchant } from '../helpers/api.js';
import {
  api,
  cardPayment,
  freshPan,
  newMerchant,
  POSTBACK_URL,
  posPayment,
  startHarness,
  type Api,
  type Harness,
} from '../helpers/payments.js';

/** Addresses no endpoint takes: two dots in a row, a special in the local part, an underscore in the domain, no dot in the domain. */
const REFUSED = ['ada@example..com', 'ada(x)@example.com', 'ada@exa_mple.com', 'ada@localhost'];
/** An address of an internationalised domain, with a plus in the local part. */
const TAKEN = 'jürgen+beleg@bäckerei-berg.de';

describe('one rule for e-mail addresses, URLs and dates at every endpoint', () => {
  let h: Harness;
  let shop: TestMerchant;
  let a: Api;
  let admin = '';
  let cashier = '';

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Rules Bakery');
    a = api(h, shop);
    admin = (await loginStaff(h, shop, 'admin', 'boss')).session;
    cashier = (await loginStaff(h, shop, 'cashier', 'till')).session;
  });

  after(async () => {
    await h.close();
  });

  const asStaff = (session: string, method: 'POST' | 'PUT', url: string, payload: object) =>
    h.app.inject({ method, url, cookies: { tillgate_session: session }, payload });
  const invoice = (fields: Record<string, unknown>) =>
    a.post('/rest/invoices', { url_name: shop.channel.url_name, invoice: { amount: 10, ...fields } });
  /** An invoice refusal (422, the invoices' own error shape) naming `field`. */
  const assertInvoiceRefuses = (response: { statusCode: number; body: string }, field: string) => {
    assert.equal(response.statusCode, 422, response.body);
    const body = JSON.parse(response.body) as { errors: Array<{ field: string }> };
    assert.deepEqual(
      body.errors.map((e) => e.field),
      [field],
      response.body,
    );
  };

  test('POST /rest/payment: email', async () => {
    for (const email of REFUSED)
      assertApiError(await a.post('/rest/payment', cardPayment('4111111111111111', 10, { email })), 400, 1001, ['email']);
    await a.ok('/rest/payment', cardPayment('4111111111111111', 10, { email: TAKEN }));
  });

  test('POST /v2/network_tokens: email', async () => {
    const body = (email: string) => ({
      card_number: freshPan(),
      expiry_month: 12,
      expiry_year: new Date().getUTCFullYear() + 3,
      postback_url: POSTBACK_URL,
      email,
    });
    for (const email of REFUSED) assertApiError(await a.post('/v2/network_tokens', body(email)), 400, 1001, ['email']);
    const taken = await a.post('/v2/network_tokens', body(TAKEN));
    assert.ok(taken.statusCode === 200 || taken.statusCode === 201, taken.body);
  });

  test('POST /rest/checkouts: prefill_customer_info.email', async () => {
    const body = (email: string) => ({
      merchant_name: 'Rules Bakery',
      order_id: `rules-${email.length}`,
      currency: 'EUR',
      amount: 10,
      total_amount: 10,
      success_url: 'https://shop.example/ok',
      error_url: 'https://shop.example/err',
      postback_url: POSTBACK_URL,
      prefill_customer_info: { email },
    });
    for (const email of REFUSED) assertApiError(await a.post('/rest/checkouts', body(email)), 400, 1001, ['prefill_customer_info.email']);
    const taken = await a.post('/rest/checkouts', body(TAKEN));
    assert.equal(taken.statusCode, 200, taken.body);
  });

  test('POST /rest/invoices: email, success_url and print_date', async () => {
    for (const email of REFUSED) assertInvoiceRefuses(await invoice({ email }), 'invoice.email');
    assert.equal((await invoice({ email: ` ${TAKEN} ` })).statusCode, 201, 'taken, trimmed');
    const url = (length: number) => `https://shop.example/${'a'.repeat(length - 'https://shop.example/'.length)}`;
    assertInvoiceRefuses(await invoice({ success_url: url(2001) }), 'invoice.success_url');
    assertInvoiceRefuses(await invoice({ error_url: 'javascript:alert(1)' }), 'invoice.error_url');
    assert.equal((await invoice({ success_url: url(2000) })).statusCode, 201);
    assertInvoiceRefuses(await invoice({ print_date: '2025-02-29' }), 'invoice.print_date');
    assert.equal((await invoice({ print_date: '2024-02-29' })).statusCode, 201);
  });

  test('POST /rest/payment: success_url and execution_date', async () => {
    assertApiError(await a.post('/rest/payment', cardPayment('4111111111111111', 10, { success_url: 'javascript:alert(1)' })), 400, 1001, [
      'success_url',
    ]);
    assertApiError(
      await a.post('/rest/payment', cardPayment('4111111111111111', 10, { success_url: `https://shop.example/${'a'.repeat(2000)}` })),
      400,
      1001,
      ['success_url'],
    );
    assertApiError(
      await a.post('/rest/payment', {
        payment_type: 'dd',
        order_id: 'rules-dd',
        amount: 10,
        currency: 'EUR',
        iban: 'DE89370400440532013000',
        account_holder: 'Ada',
        execution_date: '2025-02-29',
      }),
      400,
      1001,
      ['execution_date'],
    );
  });

  test('POST /ui/receipts/{id}/email: email', async () => {
    const sale = await a.ok<{ transaction_id: string }>('/rest/payment', posPayment(10, { pan: '4111111111111111' }));
    const url = `/ui/receipts/${sale.transaction_id}/email`;
    for (const email of REFUSED) assertApiError(await asStaff(cashier, 'POST', url, { email }), 400, 1001, ['email']);
    const taken = await asStaff(cashier, 'POST', url, { email: TAKEN });
    assert.equal(taken.statusCode, 202, taken.body);
    assert.equal(taken.json<{ recipient: string }>().recipient, TAKEN);
  });

  test('POST /ui/channels: sender_email; POST /ui/smtp/test: to; PUT /ui/smtp: from', async () => {
    const channel = (sender: string, n: number) =>
      asStaff(admin, 'POST', '/ui/channels', { url_name: `web-${n}`, name: 'Web', currency: 'EUR', language: 'de', sender_email: sender });
    for (const [n, email] of REFUSED.entries()) assertApiError(await channel(email, n), 400, 1001, ['sender_email']);
    assert.equal((await channel(TAKEN, 9)).statusCode, 201);
    for (const to of REFUSED) assertApiError(await asStaff(admin, 'POST', '/ui/smtp/test', { to }), 400, 1001, ['to']);

    const smtp = (from: string) => asStaff(admin, 'PUT', '/ui/smtp', { host: '127.0.0.1', port: 2525, security: 'none', from });
    for (const from of [
      'nobody',
      'Bakery <ada(x)@bakery.example>',
      'Bakery <billing@bakery.example> <b@c.example>',
      'Bakery\r\nBcc: x@evil.example <billing@bakery.example>',
    ]) {
      assertApiError(await smtp(from), 400, 1001, ['from']);
    }
    for (const from of ['Bakery <billing@bakery.example>', 'billing@bakery.example', 'Tillgate <invoices@localhost>'])
      assert.equal((await smtp(from)).statusCode, 200, from);
  });
});
