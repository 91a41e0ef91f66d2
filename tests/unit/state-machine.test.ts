// The transaction state machine of decisions.md D2 (main/core/payments/state-machine.ts): every
// trigger from every status, checked against a table written from D2 independently of the code,
// and the forbidden transitions as a client meets them through the API (1002, 1003, 1004).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { statusName, TransactionStatus as S } from '../../contract/codes.js';
import {
  allowedFrom,
  canTransition,
  CREATION_STATUSES,
  FINAL_STATUSES,
  TRANSITIONS,
  type Trigger,
} from '../../main/core/payments/state-machine.js';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import {
  api,
  cardPayment,
  newMerchant,
  orderId,
  REDIRECT,
  SETTLING_IBAN,
  startHarness,
  type Api,
  type Harness,
} from '../helpers/payments.js';

const ALL_STATUSES = Object.values(S);

/** D2, read as a table: trigger -> allowed source statuses -> possible targets. */
const EXPECTED: Record<Trigger, { from: number[]; to: number[] }> = {
  // authorized -> capture -> completed; more partial captures while within the authorization
  capture: { from: [S.authorized, S.completed], to: [S.completed] },
  // full reversal -> reversed; a partial one lowers the authorization and leaves it authorized;
  // after partial captures the uncaptured rest can be released, the status stays (docs/decisions.md)
  reverse: { from: [S.authorized, S.completed, S.partly_refunded], to: [S.reversed, S.authorized, S.completed, S.partly_refunded] },
  refund: { from: [S.completed, S.partly_refunded], to: [S.partly_refunded, S.refunded] },
  authorization_expiry: { from: [S.authorized], to: [S.expired] },
  settle: { from: [S.pending], to: [S.completed] },
  return: { from: [S.pending], to: [S.chargeback] },
  chargeback: { from: [S.completed], to: [S.chargeback] },
  // started -> hosted page -> completed / authorized / declined (also pending for SEPA, error at the processor)
  customer_completes: { from: [S.started], to: [S.completed, S.authorized, S.declined, S.pending, S.error] },
  customer_cancels: { from: [S.started], to: [S.cancelled] },
  customer_action_expiry: { from: [S.started], to: [S.expired] },
  payout_settles: { from: [S.pending], to: [S.completed, S.declined] },
};

describe('state machine table (D2)', () => {
  test('has exactly the triggers of D2', () => {
    assert.deepEqual(Object.keys(TRANSITIONS).sort(), Object.keys(EXPECTED).sort());
  });

  for (const trigger of Object.keys(EXPECTED) as Trigger[]) {
    const expected = EXPECTED[trigger];
    describe(trigger, () => {
      for (const from of ALL_STATUSES) {
        const allowed = expected.from.includes(from);
        test(`${allowed ? 'allowed' : 'forbidden'} from ${from} ${statusName(from)}`, () => {
          assert.equal(canTransition(trigger, from), allowed);
          assert.equal(allowedFrom(trigger).includes(from as never), allowed);
          for (const to of ALL_STATUSES) {
            assert.equal(canTransition(trigger, from, to), allowed && expected.to.includes(to), `${trigger} ${from} -> ${to}`);
          }
        });
      }
    });
  }

  test('no trigger starts from a final status, and every code is a D2 status', () => {
    for (const [trigger, rule] of Object.entries(TRANSITIONS)) {
      for (const from of rule.from) assert.ok(!FINAL_STATUSES.includes(from), `${trigger} from final ${from}`);
      for (const code of [...rule.from, ...rule.to]) assert.doesNotThrow(() => statusName(code));
    }
    assert.deepEqual(
      [...FINAL_STATUSES].sort((a, b) => a - b),
      [S.reversed, S.declined, S.refunded, S.cancelled, S.expired, S.error, S.chargeback],
    );
    assert.deepEqual(
      [...CREATION_STATUSES].sort((a, b) => a - b),
      [S.started, S.pending, S.completed, S.authorized, S.declined, S.error],
    );
  });

  test('an unknown status code is never a valid source', () => {
    for (const trigger of Object.keys(EXPECTED) as Trigger[]) {
      assert.equal(canTransition(trigger, 0), false);
      assert.equal(canTransition(trigger, 13), false);
    }
  });
});

describe('forbidden transitions through the API', () => {
  let h: Harness;
  let merchant: TestMerchant;
  let c: Api;

  before(async () => {
    h = await startHarness();
    merchant = await newMerchant(h);
    c = api(h, merchant);
  });

  after(async () => {
    await h.close();
  });

  async function authorized(amount: number): Promise<string> {
    const body = await c.ok<{ transaction_id: string; status_code: number }>('/rest/authorize', cardPayment('4111111111111111', amount));
    assert.equal(body.status_code, S.authorized);
    return body.transaction_id;
  }

  async function paid(amount: number): Promise<string> {
    const body = await c.ok<{ transaction_id: string; status_code: number }>('/rest/payment', cardPayment('4111111111111111', amount));
    assert.equal(body.status_code, S.completed);
    return body.transaction_id;
  }

  async function expectState(path: string, body: Record<string, unknown>, status: number, code: number, field?: string): Promise<void> {
    const before = await c.transaction(body.transaction_id as string);
    const response = await c.post(path, body);
    assertApiError(response, status, code, field ? [field] : []);
    const afterwards = await c.transaction(body.transaction_id as string);
    assert.deepEqual(afterwards, before, 'a refused operation changes nothing');
  }

  test('capture of a declined payment: 1002', async () => {
    const declined = await c.ok<{ transaction_id: string; status_code: number }>('/rest/authorize', cardPayment('4000000000000002', 10));
    assert.equal(declined.status_code, S.declined);
    await expectState('/rest/capture', { transaction_id: declined.transaction_id }, 400, 1002, 'transaction_id');
    await expectState('/rest/capture', { transaction_id: declined.transaction_id, amount: 5 }, 400, 1002);
  });

  test('capture of a one-step payment (not an authorization): 1002', async () => {
    const id = await paid(10);
    await expectState('/rest/capture', { transaction_id: id, amount: 5 }, 400, 1002);
  });

  test('refund of an authorization (nothing captured): 1002', async () => {
    const id = await authorized(10);
    await expectState('/rest/refund', { transaction_id: id, amount: 5 }, 400, 1002);
    await expectState('/rest/refund', { transaction_id: id }, 400, 1002);
  });

  test('reverse of a completed payment: 1002', async () => {
    const id = await paid(10);
    await expectState('/rest/reverse', { transaction_id: id }, 400, 1002);
  });

  test('reverse of a fully captured authorization: 1002 (nothing left to release; refund instead)', async () => {
    const id = await authorized(10);
    await c.ok('/rest/capture', { transaction_id: id, amount: 4 });
    await c.ok('/rest/capture', { transaction_id: id });
    await expectState('/rest/reverse', { transaction_id: id }, 400, 1002);
  });

  test('refund above the captured amount: 1003', async () => {
    const id = await paid(10);
    await expectState('/rest/refund', { transaction_id: id, amount: 10.01 }, 400, 1003, 'amount');
    await c.ok('/rest/refund', { transaction_id: id, amount: 4 });
    await expectState('/rest/refund', { transaction_id: id, amount: 6.01 }, 400, 1003, 'amount');
  });

  test('capture above the authorization: 1003 (70.01 after 30, and 0.01 after 30 + 70 of 100)', async () => {
    const id = await authorized(100);
    await expectState('/rest/capture', { transaction_id: id, amount: 100.01 }, 400, 1003, 'amount');
    await c.ok('/rest/capture', { transaction_id: id, amount: 30 });
    await expectState('/rest/capture', { transaction_id: id, amount: 70.01 }, 400, 1003, 'amount');
    await c.ok('/rest/capture', { transaction_id: id, amount: 70 });
    await expectState('/rest/capture', { transaction_id: id, amount: 0.01 }, 400, 1003, 'amount');
    await expectState('/rest/capture', { transaction_id: id }, 400, 1003);
  });

  test('after a full reversal nothing can be captured, reversed or refunded: 1002', async () => {
    const id = await authorized(20);
    const reversed = await c.ok<{ status_code: number }>('/rest/reverse', { transaction_id: id });
    assert.equal(reversed.status_code, S.reversed);
    await expectState('/rest/capture', { transaction_id: id }, 400, 1002);
    await expectState('/rest/reverse', { transaction_id: id }, 400, 1002);
    await expectState('/rest/refund', { transaction_id: id }, 400, 1002);
  });

  test('a fully refunded payment cannot be refunded again: 1002', async () => {
    const id = await paid(15);
    const refund = await c.ok<{ transaction_status_code: number }>('/rest/refund', { transaction_id: id });
    assert.equal(refund.transaction_status_code, S.refunded);
    await expectState('/rest/refund', { transaction_id: id, amount: 0.01 }, 400, 1002);
  });

  test('a declined payment cannot be refunded or reversed: 1002', async () => {
    const declined = await c.ok<{ transaction_id: string; status_code: number }>('/rest/payment', cardPayment('4000000000009995', 10));
    assert.equal(declined.status_code, S.declined);
    await expectState('/rest/refund', { transaction_id: declined.transaction_id }, 400, 1002);
    await expectState('/rest/reverse', { transaction_id: declined.transaction_id }, 400, 1002);
  });

  test('a started (hosted page) payment cannot be captured, reversed or refunded: 1002', async () => {
    const started = await c.ok<{ transaction_id: string; status_code: number }>('/rest/authorize', {
      payment_type: 'cardecom',
      order_id: orderId(),
      amount: 12,
      currency: 'EUR',
      ...REDIRECT,
    });
    assert.equal(started.status_code, S.started);
    await expectState('/rest/capture', { transaction_id: started.transaction_id }, 400, 1002);
    await expectState('/rest/reverse', { transaction_id: started.transaction_id }, 400, 1002);
    await expectState('/rest/refund', { transaction_id: started.transaction_id }, 400, 1002);
  });

  test('a pending SEPA debit cannot be refunded, captured or reversed: 1002', async () => {
    const debit = await c.ok<{ transaction_id: string; status_code: number }>('/rest/payment', {
      payment_type: 'dd',
      order_id: orderId('dd'),
      amount: 25,
      currency: 'EUR',
      iban: SETTLING_IBAN,
      account_holder: 'Ada Lovelace',
    });
    assert.equal(debit.status_code, S.pending);
    await expectState('/rest/refund', { transaction_id: debit.transaction_id }, 400, 1002);
    await expectState('/rest/capture', { transaction_id: debit.transaction_id }, 400, 1002);
    await expectState('/rest/reverse', { transaction_id: debit.transaction_id }, 400, 1002);
  });

  test('partial reversal for a payment type without it: 1004', async () => {
    const started = await c.ok<{ transaction_id: string }>('/rest/authorize', {
      payment_type: 'wallet',
      order_id: orderId('w'),
      amount: 40,
      currency: 'EUR',
      ...REDIRECT,
    });
    const approved = await h.gateway.payments.completeRedirect(started.transaction_id, 'approved');
    assert.ok(approved.ok);
    assert.equal(approved.value.transaction.status_code, S.authorized);
    await expectState('/rest/reverse', { transaction_id: started.transaction_id, amount: 10 }, 400, 1004, 'amount');
    const full = await c.ok<{ status_code: number; amount: number; remaining_amount: number }>('/rest/reverse', {
      transaction_id: started.transaction_id,
    });
    assert.deepEqual([full.status_code, full.amount, full.remaining_amount], [S.reversed, 40, 0]);
  });

  test('authorize for dd (no separate authorization): 1004 naming payment_type', async () => {
    const response = await c.post('/rest/authorize', {
      payment_type: 'dd',
      order_id: orderId(),
      amount: 10,
      currency: 'EUR',
      iban: SETTLING_IBAN,
      account_holder: 'Ada',
    });
    assertApiError(response, 400, 1004, ['payment_type']);
  });

  test('register for a type without registration, payout for a type without payouts: 1004', async () => {
    assertApiError(
      await c.post('/rest/register', { payment_type: 'wallet', order_id: orderId(), amount: 0, currency: 'EUR', ...REDIRECT }),
      400,
      1004,
      ['payment_type'],
    );
    const payout = {
      payment_type: 'cardecom',
      order_id: orderId(),
      amount: 10,
      currency: 'EUR',
      merchant_reference: 'Payout 1',
      postback_url: REDIRECT.postback_url,
      country: 'DE',
    };
    assertApiError(await c.post('/rest/payout', payout), 400, 1004, ['payment_type']);
  });

  test('unknown payment_type: 400 (1004) naming payment_type', async () => {
    for (const path of ['/rest/payment', '/rest/authorize', '/rest/register']) {
      const response = await c.post(path, { payment_type: 'crypto', order_id: orderId(), amount: 10, currency: 'EUR' });
      assertApiError(response, 400, 1004, ['payment_type']);
    }
    const payout = {
      payment_type: 'crypto',
      order_id: orderId(),
      amount: 10,
      currency: 'EUR',
      merchant_reference: 'Payout 1',
      postback_url: REDIRECT.postback_url,
      country: 'DE',
    };
    assertApiError(await c.post('/rest/payout', payout), 400, 1004, ['payment_type']);
  });

  test('an operation on an unknown transaction: 404 (3001)', async () => {
    for (const path of ['/rest/capture', '/rest/reverse', '/rest/refund', '/rest/cancel']) {
      assertApiError(await c.post(path, { transaction_id: '00000000-0000-7000-8000-000000000000' }), 404, 3001, ['transaction_id']);
    }
  });

  test("another merchant's transaction is not found: 404 (3001)", async () => {
    const id = await authorized(10);
    const other = api(h, await newMerchant(h, 'Other Shop'));
    assertApiError(await other.post('/rest/capture', { transaction_id: id }), 404, 3001);
    assertApiError(await other.get(`/rest/transactions/${id}`), 404, 3001);
  });
});
