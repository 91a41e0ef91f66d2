// docs/api.md "Requests and errors": a 400 (1001) names every bad field of the request at once, so an
// integrator fixes a request in one round. Several bad fields go to each main POST endpoint in one
// body, mixing what the JSON schema catches (missing fields, wrong types, unknown fields) with what
// only the gateway's own rules catch (Luhn, IBAN check digits, currencies, decimals, dates, URLs),
// and every one must be named.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { api, cardPayment, newMerchant, startHarness, type Api, type Harness } from '../helpers/payments.js';

describe('every bad field is named in one answer', () => {
  let h: Harness;
  let shop: TestMerchant;
  let a: Api;

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Field Errors Shop');
    a = api(h, shop);
  });

  after(async () => {
    await h.close();
  });

  /** Sends the body and asserts the error code and that `errors` names exactly these fields (in any order). */
  const expectFields = async (path: string, body: unknown, fields: string[], code = 1001) => {
    const response = await a.post(path, body);
    const answer = assertApiError(response, 400, code, fields);
    const named = answer.errors.map((e) => e.field);
    assert.deepEqual([...named].sort(), [...fields].sort(), `${path} ${JSON.stringify(body)}: ${response.body}`);
    assert.equal(new Set(named).size, named.length, 'each field once');
    if (code === 1001)
      for (const field of fields) assert.ok(answer.message.includes(field), `the message names ${field}: ${answer.message}`);
  };

  test('POST /rest/payment: schema errors and the gateway rules together', async () => {
    // Missing order_id (schema), a negative amount and an unknown currency (rules), a card number
    // failing Luhn, and no expiry with it.
    await expectFields('/rest/payment', { payment_type: 'cardecom', amount: -5, currency: 'XYZ', card_number: '4111111111111112' }, [
      'order_id',
      'amount',
      'currency',
      'card_number',
      'card_expiry_month',
      'card_expiry_year',
    ]);
    // A wrong type (schema) beside a bad decimal count and a bad e-mail (rules).
    await expectFields(
      '/rest/payment',
      {
        payment_type: 'cardecom',
        order_id: 'o-1',
        amount: 10.555,
        currency: 'EUR',
        card_number: 4111111111111111,
        email: 'nobody',
        country: 'ZZ',
      },
      ['amount', 'card_number', 'email', 'country'],
    );
    // Only missing fields and a wrong type.
    await expectFields('/rest/payment', { amount: 'x' }, ['payment_type', 'order_id', 'currency', 'amount']);
  });

  test('POST /rest/payment cardpos: every bad pos_data member, an unknown field and a bad order id', async () => {
    await expectFields(
      '/rest/payment',
      {
        payment_type: 'cardpos',
        order_id: ' ',
        amount: 1.234,
        currency: 'EUR',
        pos_data: {
          type: { terminal_entry_mode: 'telepathy', sequence: 'third' },
          card: { number: '1234', expiry_month: 13 },
          pin_block: { format: 'ISO-1', block: 'zz' },
        },
        tip: 1,
      },
      [
        'order_id',
        'amount',
        'tip',
        'pos_data.type.terminal_entry_mode',
        'pos_data.type.sequence',
        'pos_data.card.number',
        'pos_data.card.expiry_month',
        'pos_data.card.expiry_year',
        'pos_data.pin_block.format',
        'pos_data.pin_block.block',
        'pos_data.pin_block.zone_id',
        'pos_data.pin_block.key_id',
      ],
    );
  });

  test('POST /rest/payment dd: IBAN, account holder, country and execution date', async () => {
    await expectFields(
      '/rest/payment',
      {
        payment_type: 'dd',
        order_id: 'dd-1',
        amount: 10,
        currency: 'EUR',
        iban: 'DE00 1234',
        account_holder: ' ',
        country: 'ZZ',
        execution_date: 20260101,
      },
      ['iban', 'account_holder', 'country', 'execution_date'],
    );
  });

  test('POST /rest/authorize: an unknown payment type (1004) still names the other bad fields', async () => {
    await expectFields(
      '/rest/authorize',
      { payment_type: 'bitcoin', order_id: 'o-2', amount: -1, currency: 'EUR', email: 'x' },
      ['payment_type', 'amount', 'email'],
      1004,
    );
  });

  test('POST /rest/register: redirect fields, reference and a wrong type', async () => {
    await expectFields(
      '/rest/register',
      {
        payment_type: 'cardecom',
        order_id: 'r-1',
        amount: 0,
        currency: 'EUR',
        success_url: 'ftp://shop.example/ok',
        merchant_reference: 'Order #1',
        recurring: 'yes',
      },
      ['success_url', 'merchant_reference', 'recurring', 'error_url', 'postback_url'],
    );
  });

  test('POST /rest/capture, /rest/reverse and /rest/refund', async () => {
    const authorization = await a.ok<{ transaction_id: string }>('/rest/authorize', cardPayment('4111111111111111', 20));
    const other = await a.ok<{ transaction_id: string }>('/rest/authorize', cardPayment('4111111111111111', 20));
    const paid = await a.ok<{ transaction_id: string }>('/rest/payment', cardPayment('4111111111111111', 20));
    // The gateway's rules alone (the schema is satisfied).
    await expectFields(
      '/rest/capture',
      { transaction_id: authorization.transaction_id, amount: 1.234, vat: -1, execution_date: '2026-13-01' },
      ['amount', 'vat', 'execution_date'],
    );
    // Schema errors beside the rules.
    await expectFields(
      '/rest/capture',
      { transaction_id: authorization.transaction_id, amount: '5', execution_date: 'tomorrow', note: 'x' },
      ['amount', 'execution_date', 'note'],
    );
    await expectFields('/rest/reverse', { transaction_id: other.transaction_id, amount: -1, execution_date: 'x', reason: 'y' }, [
      'amount',
      'execution_date',
      'reason',
    ]);
    await expectFields(
      '/rest/refund',
      {
        transaction_id: paid.transaction_id,
        amount: 'all',
        merchant_reference: 'Refund #1',
        merchant_refund_id: 'has space',
        execution_date: 'x',
      },
      ['amount', 'merchant_reference', 'merchant_refund_id', 'execution_date'],
    );
    await expectFields('/rest/refund', { amount: -2, merchant_reference: 'Refund #1' }, ['transaction_id', 'amount', 'merchant_reference']);
  });

  test('POST /rest/payout', async () => {
    await expectFields(
      '/rest/payout',
      {
        payment_type: 'a2a',
        order_id: ' ',
        amount: 0,
        currency: 'EUR',
        merchant_reference: 'Payout #1',
        postback_url: 'ftp://x',
        country: 'ZZ',
        iban: 'XX00',
      },
      ['order_id', 'amount', 'merchant_reference', 'postback_url', 'country', 'iban'],
    );
    await expectFields(
      '/rest/payout',
      {
        payment_type: 'a2a',
        order_id: 'p-1',
        amount: '5',
        currency: 'EURO',
        merchant_reference: 'Payout 1',
        postback_url: 'https://shop.example/pb',
        iban: 'DE00',
      },
      ['amount', 'currency', 'country', 'iban'],
    );
  });

  test('POST /rest/create_mandate_reference', async () => {
    await expectFields('/rest/create_mandate_reference', { payment_type: 'sepa', iban: 'DE00', bic: 'NOPE', email: 'x', recurring: 5 }, [
      'payment_type',
      'iban',
      'bic',
      'email',
      'recurring',
      'account_holder',
    ]);
  });

  test('POST /rest/checkouts', async () => {
    await expectFields(
      '/rest/checkouts',
      {
        merchant_name: 'Shop',
        order_id: 'c-1',
        currency: 'EUR',
        amount: 1.234,
        total_amount: 5,
        success_url: 'ftp://a',
        error_url: 'x',
        postback_url: 5,
        collect_dob: 3,
        locale: 'fr',
      },
      ['amount', 'success_url', 'error_url', 'postback_url', 'collect_dob', 'locale'],
    );
    await expectFields(
      '/rest/checkouts',
      {
        merchant_name: ' ',
        currency: 'EUR',
        amount: 10,
        total_amount: 11,
        success_url: 'https://a.example',
        error_url: 'https://a.example',
        postback_url: 'https://a.example',
      },
      ['merchant_name', 'order_id', 'total_amount'],
    );
  });

  test('POST /v2/network_tokens', async () => {
    await expectFields(
      '/v2/network_tokens',
      {
        card_number: '4111111111111112',
        expiry_month: 13,
        expiry_year: 1999,
        card_cvv: 'abcd',
        billing_country: 'ZZ',
        postback_url: 'http://shop.example/pb',
      },
      ['card_number', 'expiry_month', 'expiry_year', 'card_cvv', 'billing_country', 'postback_url'],
    );
  });

  test('POST /rest/invoices (invoice error body): every bad field in the message', async () => {
    const response = await a.post('/rest/invoices', {
      invoice: { amount: 'abc', currency: 'EURO', locale: 'fr', expires_in: 'x', email: 'nobody' },
      bogus: 1,
    });
    assert.equal(response.statusCode, 422, response.body);
    const body = response.json<{ message: string; error: string }>();
    for (const named of ['url_name', 'bogus', 'Amount', 'Currency', 'Locale', 'Expires in', 'Email'])
      assert.ok(body.message.includes(named), `names ${named}: ${body.message}`);
    assert.equal(body.error, body.message);
  });
});
