// Card payments through the API (docs/api.md "Payments", docs/test-environment.md,
// docs/reliability.md "Data protection"): every test card of main/processor/test-cards.ts on
// cardecom and cardpos, 3-D Secure, account checks, saved cards (recurring=1, /rest/register),
// device wallets, fees and card data at rest.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TransactionStatus as S } from '../../contract/codes.js';
import { TEST_CARDS, type TestCard } from '../../main/processor/test-cards.js';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { sqlOf } from '../helpers/sql.js';
import {
  api,
  assertNoPanAtRest,
  cardFields,
  cardPayment,
  EXPIRY_YEAR,
  freshPan,
  newMerchant,
  orderId,
  posPayment,
  REDIRECT,
  startHarness,
  type Api,
  type Harness,
} from '../helpers/payments.js';

interface TxResponse {
  transaction_id: string;
  payment_type: string;
  status_code: number;
  status: string;
  order_id: string;
  message: string | null;
  reason_code?: string;
  additional_transaction_data: string | null;
  amount: number;
  currency: string;
  included_fees: string;
  error_code: number;
  client_action?: string;
  action_data?: { url: string };
  card_brand?: string;
  card_last_four?: string;
  card_expiry_month?: number;
  card_expiry_year?: number;
}

interface Expected {
  status_code: number;
  status: string;
  message: string;
  reason_code?: string;
}

const approved = (operation: 'payment' | 'authorize'): Expected =>
  operation === 'payment'
    ? { status_code: 3, status: 'completed', message: 'Approved' }
    : { status_code: 4, status: 'authorized', message: 'Approved' };

/** What the README's table promises for a test card, per entry. */
function expectedOutcome(card: TestCard, entry: 'ecommerce' | 'contactless', operation: 'payment' | 'authorize'): Expected {
  const rule = card.rule;
  switch (rule.kind) {
    // Slow or lost on the way to the till: approved all the same (the harness waits 50 ms). Sent at
    // once (not stored by a till), the store-and-forward card is approved too.
    case 'approve':
    case 'declines_when_forwarded':
    case 'token_provisioning_fails':
    case 'slow_answer':
    case 'lost_answer':
      return approved(operation);
    case 'decline':
      return { status_code: 6, status: 'declined', message: `${rule.code} ${rule.text}`, reason_code: rule.code };
    case 'challenge':
      return entry === 'ecommerce' ? { status_code: 1, status: 'started', message: '3-D Secure challenge' } : approved(operation);
    case 'always_pin':
      return entry === 'contactless'
        ? { status_code: 6, status: 'declined', message: 'request_pin', reason_code: '1A' }
        : approved(operation);
    case 'error':
      return { status_code: 11, status: 'error', message: rule.text };
    default: {
      const unhandled: never = rule;
      throw new Error(`a new test card rule needs an expectation here: ${JSON.stringify(unhandled)}`);
    }
  }
}

function assertCardFields(body: TxResponse, pan: string): void {
  assert.equal(body.card_last_four, pan.slice(-4));
  assert.equal(body.card_expiry_month, 12);
  assert.equal(body.card_expiry_year, EXPIRY_YEAR);
  assert.ok(!JSON.stringify(body).includes(pan), 'the full card number is never returned');
}

describe('card payments', () => {
  let h: Harness;
  let merchant: TestMerchant;
  let c: Api;
  const usedPans = new Set<string>(TEST_CARDS.map((card) => card.number));

  before(async () => {
    h = await startHarness();
    merchant = await newMerchant(h);
    c = api(h, merchant);
  });

  after(async () => {
    await h.close();
  });

  describe('each test card gives its documented outcome', () => {
    for (const card of TEST_CARDS) {
      for (const operation of ['payment', 'authorize'] as const) {
        test(`cardecom ${operation} ${card.number} (${card.behaviour.slice(0, 40)})`, async () => {
          const expected = expectedOutcome(card, 'ecommerce', operation);
          const body = await c.ok<TxResponse>(
            `/rest/${operation}`,
            cardPayment(card.number, 10, { additional_transaction_data: 'cart 42' }),
          );
          assert.equal(body.status_code, expected.status_code, JSON.stringify(body));
          assert.equal(body.status, expected.status);
          assert.equal(body.message, expected.message);
          assert.equal(body.reason_code, expected.reason_code);
          assert.equal(body.payment_type, 'cardecom');
          assert.equal(body.amount, 10);
          assert.equal(body.currency, 'EUR');
          assert.equal(body.additional_transaction_data, 'cart 42');
          assert.equal(body.card_brand, card.brand);
          assertCardFields(body, card.number);
          const paid = expected.status_code === 3 || expected.status_code === 4;
          assert.equal(body.included_fees, paid ? '0.39' : '0.00', '1.40% + 0.25 of 10.00 when approved');
          if (expected.status_code === 1) {
            assert.equal(body.client_action, 'redirect');
            assert.match(body.action_data?.url ?? '', new RegExp(`/pay/${body.transaction_id}/3ds$`));
          } else {
            assert.equal(body.client_action, undefined);
          }
          const view = await c.transaction(body.transaction_id);
          assert.equal(view.status_code, expected.status_code);
          assert.equal(view.message, expected.message);
          assert.equal(view.payment_method, 'cardecom');
          assert.equal(view.captured_amount, expected.status_code === 3 ? 10 : null);
        });
      }

      test(`cardpos contactless 10.00 ${card.number}`, async () => {
        const expected = expectedOutcome(card, 'contactless', 'payment');
        const body = await c.ok<TxResponse>('/rest/payment', posPayment(10, { pan: card.number }));
        assert.equal(body.status_code, expected.status_code, JSON.stringify(body));
        assert.equal(body.message, expected.message);
        assert.equal(body.reason_code, expected.reason_code);
        assert.equal(body.card_brand, card.brand);
        assertCardFields(body, card.number);
      });
    }

    test('any other Luhn-valid number is approved with the brand from its BIN', async () => {
      for (const [pan, brand] of [
        [freshPan(), 'visa'],
        ['5200828282828210', 'mastercard'],
        ['378282246310005', 'amex'],
        ['6011111111111117', 'discover'],
      ] as const) {
        usedPans.add(pan);
        const body = await c.ok<TxResponse>('/rest/payment', cardPayment(pan, 5));
        assert.equal(body.status_code, 3, pan);
        assert.equal(body.card_brand, brand);
        assertCardFields(body, pan);
      }
    });

    test('an expiry before the current month declines 54; a number failing Luhn is a 400 naming card_number', async () => {
      const expired = await c.ok<TxResponse>(
        '/rest/payment',
        cardPayment('4111111111111111', 5, { card_expiry_month: '01', card_expiry_year: '2020' }),
      );
      assert.deepEqual([expired.status_code, expired.message, expired.reason_code], [6, '54 Expired card', '54']);
      assertApiError(await c.post('/rest/payment', cardPayment('4111111111111112', 5)), 400, 1001, ['card_number']);
      assertApiError(await c.post('/rest/payment', cardPayment('4111111111111111', 5, { card_expiry_month: '13' })), 400, 1001, [
        'card_expiry_month',
      ]);
    });

    test('a declined payment is HTTP 200 with error_code 0, its log says so', async () => {
      const response = await c.post('/rest/payment', cardPayment('4000000000009995', 20));
      assert.equal(response.statusCode, 200);
      const body = response.json<TxResponse>();
      assert.equal(body.error_code, 0);
      assert.equal(body.message, '51 Insufficient funds');
      const log = await c.log(body.transaction_id);
      assert.deepEqual(
        log.map((e) => [e.type, e.status, e.amount, e.message]),
        [['authorization', 6, 20, '51 Insufficient funds']],
      );
    });
  });

  describe('3-D Secure challenge', () => {
    const challengeCard = '4000000000003220';

    test('passed: started -> completed, the customer is sent to success_url', async () => {
      const started = await c.ok<TxResponse>(
        '/rest/payment',
        cardPayment(challengeCard, 25, { success_url: REDIRECT.success_url, error_url: REDIRECT.error_url }),
      );
      assert.equal(started.status_code, S.started);
      assert.equal(started.client_action, 'redirect');
      const result = await h.gateway.payments.completeChallenge(started.transaction_id, true);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.value.transaction.status_code, S.completed);
      assert.equal(result.value.transaction.included_fees, '0.60');
      assert.equal(result.value.transaction.client_action, undefined);
      assert.equal(result.value.redirectTo, `${REDIRECT.success_url}?transaction_id=${started.transaction_id}`);
      const view = await c.transaction(started.transaction_id);
      assert.deepEqual([view.status_code, view.captured_amount], [3, 25]);
      const log = await c.log(started.transaction_id);
      assert.deepEqual(
        log.map((e) => [e.type, e.status, e.amount]),
        [
          ['authorization', 1, 25],
          ['authorization', 4, 25],
          ['capture', 3, 25],
        ],
      );
      // The step cannot be repeated.
      const again = await h.gateway.payments.completeChallenge(started.transaction_id, true);
      assert.ok(!again.ok);
      assert.equal(again.error.error_code, 1002);
    });

    test('failed: declined 05, the customer is sent to error_url', async () => {
      const started = await c.ok<TxResponse>(
        '/rest/payment',
        cardPayment(challengeCard, 25, { success_url: REDIRECT.success_url, error_url: REDIRECT.error_url }),
      );
      const result = await h.gateway.payments.completeChallenge(started.transaction_id, false);
      assert.ok(result.ok);
      assert.equal(result.value.transaction.status_code, S.declined);
      assert.equal(result.value.transaction.message, '05 Authentication failed');
      assert.equal(result.value.transaction.reason_code, '05');
      assert.equal(result.value.transaction.included_fees, '0.00');
      assert.match(result.value.redirectTo ?? '', /^https:\/\/shop\.example\/failed\?transaction_id=/);
      const log = await c.log(started.transaction_id);
      assert.deepEqual(
        log.map((e) => [e.type, e.status]),
        [
          ['authorization', 1],
          ['authorization', 6],
        ],
      );
    });

    test('on authorize: passed -> authorized, then capturable', async () => {
      const started = await c.ok<TxResponse>('/rest/authorize', cardPayment(challengeCard, 30));
      const result = await h.gateway.payments.completeChallenge(started.transaction_id, true);
      assert.ok(result.ok);
      assert.equal(result.value.transaction.status_code, S.authorized);
      const capture = await c.ok<{ status_code: number; captured_amount: number }>('/rest/capture', {
        transaction_id: started.transaction_id,
      });
      assert.deepEqual([capture.status_code, capture.captured_amount], [3, 30]);
    });

    test('completeChallenge on a payment without a challenge: 1002; unknown id: 3001', async () => {
      const paid = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 5));
      const result = await h.gateway.payments.completeChallenge(paid.transaction_id, true);
      assert.ok(!result.ok);
      assert.equal(result.error.error_code, 1002);
      const unknown = await h.gateway.payments.completeChallenge('00000000-0000-7000-8000-000000000000', true);
      assert.ok(!unknown.ok);
      assert.equal(unknown.error.error_code, 3001);
    });
  });

  test('the processor-error card: HTTP 200, status 11 error', async () => {
    const body = await c.ok<TxResponse>('/rest/payment', cardPayment('4000000000000119', 10));
    assert.deepEqual(
      [body.status_code, body.status, body.message, body.included_fees],
      [11, 'error', 'Simulated processor failure', '0.00'],
    );
    assertApiError(await c.post('/rest/refund', { transaction_id: body.transaction_id }), 400, 1002);
  });

  describe('account checks (amount 0)', () => {
    test('approved card: completed, amount 0, no fees, a precheck log entry, nothing to refund', async () => {
      const body = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 0));
      assert.deepEqual([body.status_code, body.amount, body.included_fees, body.message], [3, 0, '0.00', 'Account verified']);
      assertCardFields(body, '4111111111111111');
      const view = await c.transaction(body.transaction_id);
      assert.equal(view.captured_amount, null);
      assert.equal(view.recurring, 0);
      const log = await c.log(body.transaction_id);
      assert.deepEqual(
        log.map((e) => [e.type, e.status, e.amount]),
        [['precheck', 3, 0]],
      );
      assertApiError(await c.post('/rest/refund', { transaction_id: body.transaction_id, amount: 0.01 }), 400, 1003);
    });

    test('on authorize, on cardpos and on devicewallet too; a declined card declines', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('5555555555554444', 0));
      assert.equal(auth.status_code, 3);
      const pos = await c.ok<TxResponse>('/rest/payment', posPayment(0, { pan: '4111111111111111' }));
      assert.equal(pos.status_code, 3);
      const wallet = await c.ok<TxResponse>('/rest/payment', {
        payment_type: 'devicewallet',
        order_id: orderId('dw'),
        amount: 0,
        currency: 'EUR',
        ...cardFields('4111111111111111'),
        threeds_wallet_cryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=',
        threeds_wallet_cryptogram_eci: '05',
      });
      assert.equal(wallet.status_code, 3);
      const declined = await c.ok<TxResponse>('/rest/payment', cardPayment('4000000000000002', 0));
      assert.deepEqual([declined.status_code, declined.message], [6, '05 Do not honour']);
    });

    test('amount 0 for a type without account checks is a 400 naming amount', async () => {
      const response = await c.post('/rest/payment', {
        payment_type: 'wallet',
        order_id: orderId(),
        amount: 0,
        currency: 'EUR',
        ...REDIRECT,
      });
      assertApiError(response, 400, 1001, ['amount']);
    });
  });

  describe('saved cards', () => {
    test('recurring=1 saves the card; original_transaction_id + recurring=1 charges it without the customer', async () => {
      const first = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 12.5, { recurring: 1 }));
      assert.equal(first.status_code, 3);
      assert.equal(first.included_fees, '0.43', 'cardecom 1.40% + 0.25 on 12.50');
      assert.equal((await c.transaction(first.transaction_id)).recurring, 1);

      const repeat = await c.ok<TxResponse>('/rest/payment', {
        payment_type: 'cardecom',
        order_id: orderId('repeat'),
        amount: 7.5,
        currency: 'EUR',
        recurring: 1,
        original_transaction_id: first.transaction_id,
      });
      assert.deepEqual([repeat.status_code, repeat.amount, repeat.card_brand, repeat.card_last_four], [3, 7.5, 'visa', '1111']);
      assert.equal(repeat.client_action, undefined, 'no customer action');
      const view = await c.transaction(repeat.transaction_id);
      assert.equal(view.parent_id, first.transaction_id);
      assert.equal(view.recurring, 1);
      assert.equal(view.captured_amount, 7.5);
    });

    test('an account check with recurring=1 saves the card; a 3-D Secure card is charged later without a challenge', async () => {
      const check = await c.ok<TxResponse>('/rest/authorize', cardPayment('4000000000003220', 0, { recurring: 1 }));
      // Amount 0 on the 3-D Secure card still needs the customer.
      assert.equal(check.status_code, S.started);
      const passed = await h.gateway.payments.completeChallenge(check.transaction_id, true);
      assert.ok(passed.ok);
      assert.equal(passed.value.transaction.status_code, 3);
      const charge = await c.ok<TxResponse>('/rest/authorize', {
        payment_type: 'cardecom',
        order_id: orderId('mit'),
        amount: 19.99,
        currency: 'EUR',
        recurring: 1,
        original_transaction_id: check.transaction_id,
      });
      assert.deepEqual([charge.status_code, charge.card_last_four], [S.authorized, '3220']);
      assert.equal((await c.transaction(charge.transaction_id)).parent_id, check.transaction_id);
    });

    test("a payment without recurring=1, a declined one, or another merchant's cannot be charged again: 400 original_transaction_id", async () => {
      const plain = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 3));
      const declined = await c.ok<TxResponse>('/rest/payment', cardPayment('4000000000009995', 3, { recurring: 1 }));
      assert.equal(declined.status_code, 6);
      const other = api(h, await newMerchant(h, 'Other Shop'));
      const foreign = await other.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 3, { recurring: 1 }));
      for (const original of [plain.transaction_id, declined.transaction_id, foreign.transaction_id, 'no-such-transaction']) {
        const response = await c.post('/rest/payment', {
          payment_type: 'cardecom',
          order_id: orderId(),
          amount: 3,
          currency: 'EUR',
          recurring: 1,
          original_transaction_id: original,
        });
        assertApiError(response, 400, 1001, ['original_transaction_id']);
      }
    });

    test('/rest/register: redirect to card entry, the customer enters a card, later charges need no customer', async () => {
      const register = await c.ok<TxResponse>('/rest/register', {
        payment_type: 'cardecom',
        order_id: orderId('reg'),
        amount: 0,
        currency: 'EUR',
        ...REDIRECT,
      });
      assert.equal(register.status_code, S.started);
      assert.equal(register.client_action, 'redirect');
      assert.match(register.action_data?.url ?? '', new RegExp(`/pay/${register.transaction_id}/card$`));

      const entered = await h.gateway.payments.submitCard(register.transaction_id, {
        pan: '5555555555554444',
        expiryMonth: 12,
        expiryYear: EXPIRY_YEAR,
        cvv: '123',
      });
      assert.ok(entered.ok, JSON.stringify(entered));
      assert.equal(entered.value.transaction.status_code, 3);
      assert.equal(entered.value.transaction.card_brand, 'mastercard');
      assert.equal(entered.value.redirectTo, `${REDIRECT.success_url}?transaction_id=${register.transaction_id}`);
      const view = await c.transaction(register.transaction_id);
      assert.deepEqual([view.status_code, view.recurring], [3, 1]);
      const log = await c.log(register.transaction_id);
      assert.deepEqual(
        log.map((e) => [e.type, e.status]),
        [
          ['precheck', 1],
          ['precheck', 3],
        ],
      );

      const again = await h.gateway.payments.submitCard(register.transaction_id, {
        pan: '4111111111111111',
        expiryMonth: 12,
        expiryYear: EXPIRY_YEAR,
      });
      assert.ok(!again.ok);
      assert.equal(again.error.error_code, 1002);

      const charge = await c.ok<TxResponse>('/rest/payment', {
        payment_type: 'cardecom',
        order_id: orderId('reg-charge'),
        amount: 30,
        currency: 'EUR',
        recurring: 1,
        original_transaction_id: register.transaction_id,
        postback_url: REDIRECT.postback_url,
      });
      assert.deepEqual(
        [charge.status_code, charge.card_last_four, charge.card_brand, charge.included_fees],
        [3, '4444', 'mastercard', '0.67'],
      );
      assert.equal((await c.transaction(charge.transaction_id)).parent_id, register.transaction_id);
    });

    test('/rest/register with an amount: the registration moves no money and carries no fees', async () => {
      const register = await c.ok<TxResponse>('/rest/register', {
        payment_type: 'cardecom',
        order_id: orderId('reg'),
        amount: 10,
        currency: 'EUR',
        ...REDIRECT,
      });
      const entered = await h.gateway.payments.submitCard(register.transaction_id, {
        pan: '4111111111111111',
        expiryMonth: 12,
        expiryYear: EXPIRY_YEAR,
      });
      assert.ok(entered.ok);
      assert.equal(entered.value.transaction.status_code, 3);
      assert.equal(entered.value.transaction.included_fees, '0.00');
      assert.equal((await c.transaction(register.transaction_id)).captured_amount, null);
    });

    test('/rest/register with a declined card: declined, error_url, and nothing to charge later', async () => {
      const register = await c.ok<TxResponse>('/rest/register', {
        payment_type: 'cardecom',
        order_id: orderId('reg'),
        amount: 0,
        currency: 'EUR',
        ...REDIRECT,
      });
      const entered = await h.gateway.payments.submitCard(register.transaction_id, {
        pan: '4000000000000002',
        expiryMonth: 12,
        expiryYear: EXPIRY_YEAR,
      });
      assert.ok(entered.ok);
      assert.equal(entered.value.transaction.status_code, 6);
      assert.match(entered.value.redirectTo ?? '', /^https:\/\/shop\.example\/failed/);
      const response = await c.post('/rest/payment', {
        payment_type: 'cardecom',
        order_id: orderId(),
        amount: 5,
        currency: 'EUR',
        recurring: 1,
        original_transaction_id: register.transaction_id,
      });
      assertApiError(response, 400, 1001, ['original_transaction_id']);
    });

    test('/rest/register needs the redirect fields', async () => {
      const response = await c.post('/rest/register', { payment_type: 'cardecom', order_id: orderId(), amount: 0, currency: 'EUR' });
      assertApiError(response, 400, 1001, ['success_url', 'error_url', 'postback_url', 'merchant_reference']);
    });

    test('hosted card page (cardecom without card data): started, then submitCard completes it', async () => {
      const started = await c.ok<TxResponse>('/rest/payment', {
        payment_type: 'cardecom',
        order_id: orderId('hosted'),
        amount: 15,
        currency: 'EUR',
        ...REDIRECT,
      });
      assert.equal(started.status_code, S.started);
      assert.match(started.action_data?.url ?? '', /\/card$/);
      const entered = await h.gateway.payments.submitCard(started.transaction_id, {
        pan: '4000000000003220',
        expiryMonth: 12,
        expiryYear: EXPIRY_YEAR,
      });
      assert.ok(entered.ok);
      assert.equal(entered.value.transaction.status_code, S.started, '3-D Secure comes next');
      assert.match(entered.value.redirectTo ?? '', /\/3ds$/);
      const passed = await h.gateway.payments.completeChallenge(started.transaction_id, true);
      assert.ok(passed.ok);
      assert.equal(passed.value.transaction.status_code, 3);
      assert.equal((await c.transaction(started.transaction_id)).captured_amount, 15);
    });
  });

  describe('device wallet', () => {
    const wallet = (extra: Record<string, unknown> = {}) => ({
      payment_type: 'devicewallet',
      order_id: orderId('dw'),
      amount: 12.5,
      currency: 'EUR',
      ...cardFields('4111111111111111'),
      threeds_wallet_cryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=',
      threeds_wallet_cryptogram_eci: '05',
      ...extra,
    });

    test('decrypted token + cryptogram: completed at once', async () => {
      const body = await c.ok<TxResponse>('/rest/payment', wallet());
      assert.deepEqual(
        [body.status_code, body.payment_type, body.included_fees, body.card_brand, body.card_last_four],
        [3, 'devicewallet', '0.43', 'visa', '1111'],
      );
      assert.equal(body.client_action, undefined);
      const auth = await c.ok<TxResponse>('/rest/authorize', wallet());
      assert.equal(auth.status_code, 4);
    });

    test('without the cryptogram: 400 naming it; an ECI that no wallet uses: declined 05', async () => {
      const { threeds_wallet_cryptogram: _c, threeds_wallet_cryptogram_eci: _e, ...bare } = wallet();
      assertApiError(await c.post('/rest/payment', bare), 400, 1001, ['threeds_wallet_cryptogram', 'threeds_wallet_cryptogram_eci']);
      const declined = await c.ok<TxResponse>('/rest/payment', wallet({ threeds_wallet_cryptogram_eci: '01' }));
      assert.deepEqual([declined.status_code, declined.message], [6, '05 Do not honour']);
    });
  });

  describe('fees (D1: percentage + fixed, half-up, from the default schedule)', () => {
    test('cardecom 12.50 -> "0.43"; 0.01 -> "0.25"; JPY 1000 -> "14"; KWD 10.000 -> "0.390"', async () => {
      const cases: Array<[number, string, string]> = [
        [12.5, 'EUR', '0.43'],
        [0.01, 'EUR', '0.25'],
        [99.99, 'EUR', '1.65'],
        [1000, 'JPY', '14'],
        [10, 'KWD', '0.390'],
      ];
      for (const [amount, currency, fees] of cases) {
        const body = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', amount, { currency }));
        assert.equal(body.included_fees, fees, `${amount} ${currency}`);
        assert.equal(body.amount, amount);
      }
    });

    test('cardpos 12.50 -> "0.28" (1.40% + 0.10)', async () => {
      const body = await c.ok<TxResponse>('/rest/payment', posPayment(12.5, { pan: '4111111111111111' }));
      assert.equal(body.included_fees, '0.28');
    });
  });

  test('card data at rest: the database files hold no card number; responses only last four, brand, expiry', async () => {
    const pan = '4111111111111111';
    const saved = await c.ok<TxResponse>('/rest/payment', cardPayment(pan, 9.99, { recurring: 1 }));
    assert.deepEqual(
      [saved.card_last_four, saved.card_brand, saved.card_expiry_month, saved.card_expiry_year],
      ['1111', 'visa', 12, EXPIRY_YEAR],
    );
    const row = (await sqlOf(h).get<{ card_sealed: string | null; card_bin: string; details: string }>(
      'SELECT card_sealed, card_bin, details FROM transactions WHERE id = ?',
      saved.transaction_id,
    )) as { card_sealed: string | null; card_bin: string; details: string };
    assert.ok(row.card_sealed, 'the saved card is stored sealed');
    assert.ok(!row.card_sealed.includes(pan));
    assert.equal(row.card_bin, '411111');
    assert.ok(!row.details.includes(pan));
    for (const path of [
      `/rest/transactions/${saved.transaction_id}`,
      `/rest/transactions/${saved.transaction_id}/log`,
      '/rest/transactions?limit=500',
    ]) {
      const response = await c.get(path);
      assert.ok(!response.body.includes(pan), path);
    }
    usedPans.add(pan);
    await assertNoPanAtRest(h, [...usedPans]);
  });
});
