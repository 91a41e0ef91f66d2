// Payment flows through the API (docs/api.md "Payments", "Transactions and mandates";
// docs/decisions.md "Payments engine"): authorize/capture/refund/reverse with their log and
// postback outbox, expiries on a movable clock, SEPA debits, wallet subscriptions and capture
// events, a2a, bank redirect, list filters, request validation and idempotent replays.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { WALLET_CAPTURE_EVENTS } from '../../contract/constants.js';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import {
  api,
  cardPayment,
  DAY,
  HOUR,
  newMerchant,
  orderId,
  outboxOf,
  posPayment,
  POSTBACK_URL,
  REDIRECT,
  SETTLING_IBAN,
  SIM_DELAY_MS,
  startHarness,
  type Api,
  type Harness,
} from '../helpers/payments.js';
import { sqlOf } from '../helpers/sql.js';

interface TxResponse {
  transaction_id: string;
  payment_type: string;
  status_code: number;
  status: string;
  order_id: string;
  message: string | null;
  reason_code?: string;
  amount: number;
  included_fees: string;
  client_action?: string;
  action_data?: { url: string };
  card_last_four?: string;
  sepa_mandate?: string;
  sepa_msg_id?: string;
  subscription_status?: string;
  wallet_capture_event?: string;
}

interface CaptureResponse {
  transaction_id: string;
  status_code: number;
  status: string;
  amount: number;
  captured_amount: number;
  card_last_four?: string;
  card_brand?: string;
  card_expiry_month?: number;
  card_expiry_year?: number;
  error_code: number;
}

interface RefundResponse {
  refund_id: string;
  transaction_id: string;
  status_code: number;
  status: string;
  amount: number;
  currency: string;
  merchant_refund_id: string | null;
  merchant_reference: string | null;
  transaction_status_code: number;
  transaction_status: string;
}

interface SubscriptionResponse {
  transaction_id: string;
  subscription_status: string;
  subscription_plan_id: string | null;
  amount: number;
  client_action?: string;
  action_data?: { url: string };
}

const RETURNED_IBAN = 'DE78370400440532013004';
const REJECTED_IBAN = 'DE51370400440532013005';

describe('payment flows', () => {
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

  const log = async (id: string) => (await c.log(id)).map((e) => [e.type, e.status, e.amount]);

  describe('one idempotency key, 50 requests at once', () => {
    test('a card-present payment sent 50 times at once with one key is one payment: one original 200, the rest its replay or 409 (4001); a retry afterwards replays it', async () => {
      const key = randomUUID();
      const body = posPayment(12.34, { pan: '4111111111111111' });
      const answers = await Promise.all(Array.from({ length: 50 }, () => c.post('/rest/payment', body, { 'idempotency-key': key })));
      const ok = answers.filter((r) => r.statusCode === 200);
      const originals = ok.filter((r) => r.headers['idempotent-replayed'] === undefined);
      assert.equal(originals.length, 1, answers.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
      assert.equal(new Set(ok.map((r) => r.json().transaction_id)).size, 1, 'every 200 is the same payment');
      for (const r of answers.filter((a) => a.statusCode !== 200)) assertApiError(r, 409, 4001);
      const stored = await sqlOf(h).get<{ n: number | string }>('SELECT count(*) AS n FROM transactions WHERE order_id = ?', body.order_id);
      assert.equal(Number(stored?.n), 1, 'one transaction for the order');
      const retry = await c.post('/rest/payment', body, { 'idempotency-key': key });
      assert.equal(retry.statusCode, 200);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.json().transaction_id, originals[0]?.json().transaction_id);
    });
  });

  describe('authorize, capture, refund', () => {
    test('authorize 100, capture 30 then 70, 30.01 more rejected; refund 10 + 20 -> partly_refunded, the rest -> refunded', async () => {
      const auth = await c.ok<TxResponse>(
        '/rest/authorize',
        cardPayment('4111111111111111', 100, { postback_url: POSTBACK_URL, merchant_reference: 'Order 100' }),
      );
      assert.deepEqual([auth.status_code, auth.status, auth.included_fees], [4, 'authorized', '1.65']);
      const id = auth.transaction_id;

      const first = await c.ok<CaptureResponse>('/rest/capture', { transaction_id: id, amount: 30 });
      assert.deepEqual([first.status_code, first.status, first.amount, first.captured_amount], [3, 'completed', 30, 30]);
      assert.deepEqual([first.card_last_four, first.card_brand, first.card_expiry_month], ['1111', 'visa', 12]);
      const second = await c.ok<CaptureResponse>('/rest/capture', { transaction_id: id, amount: 70, execution_date: '2026-05-04' });
      assert.deepEqual([second.status_code, second.amount, second.captured_amount], [3, 70, 100]);
      assertApiError(await c.post('/rest/capture', { transaction_id: id, amount: 30.01 }), 400, 1003, ['amount']);
      assert.equal((await c.transaction(id)).captured_amount, 100);

      const r1 = await c.ok<RefundResponse>('/rest/refund', {
        transaction_id: id,
        amount: 10,
        merchant_refund_id: 'RF-1',
        merchant_reference: 'Return 1',
      });
      assert.deepEqual(
        [r1.status_code, r1.status, r1.amount, r1.currency, r1.merchant_refund_id, r1.merchant_reference],
        [1, 'success', 10, 'EUR', 'RF-1', 'Return 1'],
      );
      assert.deepEqual([r1.transaction_status_code, r1.transaction_status], [8, 'partly_refunded']);
      const r2 = await c.ok<RefundResponse>('/rest/refund', { transaction_id: id, amount: 20 });
      assert.deepEqual([r2.transaction_status_code, r2.merchant_refund_id, r2.merchant_reference], [8, null, null]);
      const view = await c.transaction(id);
      assert.deepEqual([view.status_code, view.status], [8, 'partly_refunded']);
      assertApiError(await c.post('/rest/refund', { transaction_id: id, amount: 70.01 }), 400, 1003, ['amount']);
      const rest = await c.ok<RefundResponse>('/rest/refund', { transaction_id: id });
      assert.deepEqual([rest.amount, rest.transaction_status_code, rest.transaction_status], [70, 7, 'refunded']);
      assert.deepEqual([(await c.transaction(id)).status_code, (await c.transaction(id)).status], [7, 'refunded']);

      const refunds = (await c.get(`/rest/transactions/${id}/refunds`)).json<Array<Record<string, unknown>>>();
      assert.deepEqual(
        refunds.map(({ created_at: _c, ...rest }) => rest),
        [
          {
            refund_id: r1.refund_id,
            amount: 10,
            status_code: 1,
            status: 'success',
            merchant_refund_id: 'RF-1',
            merchant_reference: 'Return 1',
          },
          { refund_id: r2.refund_id, amount: 20, status_code: 1, status: 'success' },
          { refund_id: rest.refund_id, amount: 70, status_code: 1, status: 'success' },
        ],
      );

      // Every step is in the log, in order, with its type, status and amount.
      const entries = await c.log(id);
      assert.deepEqual(
        entries.map((e) => [e.type, e.status, e.amount]),
        [
          ['authorization', 4, 100],
          ['capture', 3, 30],
          ['capture', 3, 70],
          ['refund', 8, 10],
          ['refund', 8, 20],
          ['refund', 7, 70],
        ],
      );
      assert.equal(entries[2]?.execution_date, '2026-05-04');
      for (const entry of entries) assert.ok(!Number.isNaN(Date.parse(entry.created_at)));

      // Each state change wrote one postback outbox record in its unit, with increasing sequence.
      const outbox = await outboxOf(h, id);
      assert.deepEqual(
        outbox.map((row) => row.sequence),
        [1, 2, 3, 4, 5, 6],
      );
      assert.deepEqual(
        outbox.map((row) => row.payload.status_code),
        entries.map((e) => e.status),
      );
      for (const row of outbox) {
        assert.equal(row.url, POSTBACK_URL);
        assert.equal(row.state, 'pending');
        assert.equal(row.payload.transaction_id, id);
        assert.equal(row.payload.payment_type, 'cardecom');
        assert.equal(row.payload.amount, 100);
        assert.equal(row.payload.included_fees, '1.65');
      }
      assert.equal(outbox[5]?.payload.status, 'refunded');
      assert.equal(outbox[5]?.payload.refunded_amount, 100);
    });

    test('a state change, its log entry and its outbox record commit together or not at all', async () => {
      const failing = 'https://fail.example/postbacks';
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('4111111111111111', 80, { postback_url: failing }));
      const sql = sqlOf(h);
      if (sql.dialect === 'postgres') {
        await sql.run(`CREATE FUNCTION fail_capture_postback() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF NEW.url = '${failing}' AND NEW.payload::jsonb ->> 'status_code' = '3' THEN RAISE EXCEPTION 'simulated outbox failure'; END IF;
            RETURN NEW;
          END $$`);
        await sql.run(
          'CREATE TRIGGER fail_capture_postback BEFORE INSERT ON postback_outbox FOR EACH ROW EXECUTE FUNCTION fail_capture_postback()',
        );
      } else {
        await sql.run(`CREATE TEMP TRIGGER fail_capture_postback BEFORE INSERT ON postback_outbox
          WHEN NEW.url = '${failing}' AND json_extract(NEW.payload, '$.status_code') = 3
          BEGIN SELECT RAISE(ABORT, 'simulated outbox failure'); END`);
      }
      try {
        const response = await c.post('/rest/capture', { transaction_id: auth.transaction_id, amount: 20 });
        assertApiError(response, 500, 5002);
        const view = await c.transaction(auth.transaction_id);
        assert.deepEqual([view.status_code, view.captured_amount], [4, null], 'the capture was rolled back');
        assert.deepEqual(await log(auth.transaction_id), [['authorization', 4, 80]], 'so was its log entry');
        assert.equal((await outboxOf(h, auth.transaction_id)).length, 1);
      } finally {
        await sql.run(
          sql.dialect === 'postgres' ? 'DROP TRIGGER fail_capture_postback ON postback_outbox' : 'DROP TRIGGER fail_capture_postback',
        );
      }
      const capture = await c.ok<CaptureResponse>('/rest/capture', { transaction_id: auth.transaction_id, amount: 20 });
      assert.equal(capture.captured_amount, 20);
      assert.deepEqual(
        (await outboxOf(h, auth.transaction_id)).map((row) => [row.sequence, row.payload.status_code]),
        [
          [1, 4],
          [2, 3],
        ],
      );
    });

    test('capture without amount takes all that is still authorized; a capture with vat', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('5555555555554444', 40));
      const capture = await c.ok<CaptureResponse>('/rest/capture', { transaction_id: auth.transaction_id, vat: 6.39 });
      assert.deepEqual([capture.amount, capture.captured_amount], [40, 40]);
      assertApiError(await c.post('/rest/capture', { transaction_id: auth.transaction_id, amount: 1, vat: 2 }), 400, 1003);
      const other = await c.ok<TxResponse>('/rest/authorize', cardPayment('5555555555554444', 40));
      assertApiError(await c.post('/rest/capture', { transaction_id: other.transaction_id, amount: 10, vat: 11 }), 400, 1001, ['vat']);
    });

    test('a one-step payment logs authorization and capture; it can be refunded in parts', async () => {
      const paid = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 50, { postback_url: POSTBACK_URL }));
      assert.deepEqual(await log(paid.transaction_id), [
        ['authorization', 4, 50],
        ['capture', 3, 50],
      ]);
      // The authorization step of a one-step payment is no status change of its own: one postback.
      assert.deepEqual(
        (await outboxOf(h, paid.transaction_id)).map((row) => [row.sequence, row.payload.status_code]),
        [[1, 3]],
      );
      const refund = await c.ok<RefundResponse>('/rest/refund', { transaction_id: paid.transaction_id, amount: 0.5 });
      assert.equal(refund.transaction_status_code, 8);
      assert.equal((await outboxOf(h, paid.transaction_id)).at(-1)?.sequence, 2);
    });

    test('a transaction without postback_url writes no outbox record; a decline with one carries reason_code', async () => {
      const silent = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 5));
      assert.deepEqual(await outboxOf(h, silent.transaction_id), []);
      const declined = await c.ok<TxResponse>('/rest/payment', cardPayment('4000000000009995', 5, { postback_url: POSTBACK_URL }));
      const [row] = await outboxOf(h, declined.transaction_id);
      assert.deepEqual(
        [row?.payload.status_code, row?.payload.status, row?.payload.reason_code, row?.payload.message],
        [6, 'declined', '51', '51 Insufficient funds'],
      );
    });
  });

  describe('reverse', () => {
    test('full reversal -> reversed', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('4111111111111111', 50, { postback_url: POSTBACK_URL }));
      const reversed = await c.ok<Record<string, unknown>>('/rest/reverse', { transaction_id: auth.transaction_id });
      assert.deepEqual(reversed, {
        transaction_id: auth.transaction_id,
        status_code: 5,
        status: 'reversed',
        amount: 50,
        remaining_amount: 0,
        error_code: 0,
      });
      assert.deepEqual(await log(auth.transaction_id), [
        ['authorization', 4, 50],
        ['reversal', 5, 50],
      ]);
      assert.deepEqual(
        (await outboxOf(h, auth.transaction_id)).map((row) => row.payload.status_code),
        [4, 5],
      );
    });

    test('partial reversal -> still authorized with remaining_amount; the rest can be captured, not more', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('4111111111111111', 50));
      const partial = await c.ok<Record<string, unknown>>('/rest/reverse', {
        transaction_id: auth.transaction_id,
        amount: 20,
        execution_date: '2026-05-04',
      });
      assert.deepEqual([partial.status_code, partial.status, partial.amount, partial.remaining_amount], [4, 'authorized', 20, 30]);
      assertApiError(await c.post('/rest/reverse', { transaction_id: auth.transaction_id, amount: 30.01 }), 400, 1003, ['amount']);
      assertApiError(await c.post('/rest/capture', { transaction_id: auth.transaction_id, amount: 30.01 }), 400, 1003);
      const capture = await c.ok<CaptureResponse>('/rest/capture', { transaction_id: auth.transaction_id });
      assert.deepEqual([capture.amount, capture.captured_amount], [30, 30]);
      const entries = await c.log(auth.transaction_id);
      assert.deepEqual(
        entries.map((e) => [e.type, e.status, e.amount, e.execution_date]),
        [
          ['authorization', 4, 50, null],
          ['reversal', 4, 20, '2026-05-04'],
          ['capture', 3, 30, null],
        ],
      );
    });
  });

  describe('release after partial capture', () => {
    test('reverse releases the uncaptured rest: status stays completed, logged, postback, captured money stays refundable', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('4111111111111111', 80, { postback_url: POSTBACK_URL }));
      await c.ok('/rest/capture', { transaction_id: auth.transaction_id, amount: 30 });
      assertApiError(await c.post('/rest/reverse', { transaction_id: auth.transaction_id, amount: 50.01 }), 400, 1003, ['amount']);
      const released = await c.ok<Record<string, unknown>>('/rest/reverse', { transaction_id: auth.transaction_id });
      assert.deepEqual(released, {
        transaction_id: auth.transaction_id,
        status_code: 3,
        status: 'completed',
        amount: 50,
        remaining_amount: 0,
        error_code: 0,
      });
      const view = await c.transaction(auth.transaction_id);
      assert.deepEqual([view.status_code, view.amount, view.captured_amount], [3, 80, 30]);
      const entries = await c.log(auth.transaction_id);
      assert.deepEqual(
        entries.map((e) => [e.type, e.status, e.amount]),
        [
          ['authorization', 4, 80],
          ['capture', 3, 30],
          ['reversal', 3, 50],
        ],
      );
      assert.match(String(entries.at(-1)?.message), /Released the uncaptured 50\.00 EUR; captured 30\.00/);
      assert.deepEqual(
        (await outboxOf(h, auth.transaction_id)).map((row) => row.payload.status_code),
        [4, 3, 3],
      );
      // Nothing is left to capture or release; the captured 30 is refundable, not more.
      assertApiError(await c.post('/rest/capture', { transaction_id: auth.transaction_id, amount: 0.01 }), 400, 1003);
      assertApiError(await c.post('/rest/reverse', { transaction_id: auth.transaction_id }), 400, 1002);
      assertApiError(await c.post('/rest/refund', { transaction_id: auth.transaction_id, amount: 30.01 }), 400, 1003, ['amount']);
      const refund = await c.ok<RefundResponse>('/rest/refund', { transaction_id: auth.transaction_id });
      assert.equal(refund.amount, 30);
      assert.equal((await c.transaction(auth.transaction_id)).status_code, 7);
    });

    test('after a partial refund the rest can still be released, in parts where the type allows partial reversal', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('4111111111111111', 40));
      await c.ok('/rest/capture', { transaction_id: auth.transaction_id, amount: 10 });
      await c.ok('/rest/refund', { transaction_id: auth.transaction_id, amount: 4 });
      const part = await c.ok<Record<string, unknown>>('/rest/reverse', { transaction_id: auth.transaction_id, amount: 5 });
      assert.deepEqual([part.status_code, part.amount, part.remaining_amount], [8, 5, 25]);
      const rest = await c.ok<Record<string, unknown>>('/rest/reverse', { transaction_id: auth.transaction_id });
      assert.deepEqual([rest.status_code, rest.status, rest.amount, rest.remaining_amount], [8, 'partly_refunded', 25, 0]);
      const refund = await c.ok<RefundResponse>('/rest/refund', { transaction_id: auth.transaction_id });
      assert.equal(refund.amount, 6);
    });

    test('a one-step payment has nothing to release: 1002', async () => {
      const paid = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 12));
      assertApiError(await c.post('/rest/reverse', { transaction_id: paid.transaction_id }), 400, 1002);
    });
  });

  describe('expiry (movable clock)', () => {
    test('an authorization not captured within 7 days expires', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('4111111111111111', 60, { postback_url: POSTBACK_URL }));
      await h.advance(7 * DAY - 1000);
      assert.equal((await c.transaction(auth.transaction_id)).status_code, 4);
      await h.advance(2000);
      const view = await c.transaction(auth.transaction_id);
      assert.deepEqual([view.status_code, view.status], [10, 'expired']);
      assert.deepEqual(await log(auth.transaction_id), [
        ['authorization', 4, 60],
        ['expiry', 10, 0],
      ]);
      assert.deepEqual(
        (await outboxOf(h, auth.transaction_id)).map((row) => row.payload.status_code),
        [4, 10],
      );
      assertApiError(await c.post('/rest/capture', { transaction_id: auth.transaction_id }), 400, 1002);
      assertApiError(await c.post('/rest/reverse', { transaction_id: auth.transaction_id }), 400, 1002);
    });

    test('a captured authorization does not expire', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('4111111111111111', 60));
      await c.ok('/rest/capture', { transaction_id: auth.transaction_id, amount: 10 });
      await h.advance(8 * DAY);
      assert.equal((await c.transaction(auth.transaction_id)).status_code, 3);
    });

    test('a started redirect not finished within 1 h expires; the customer step is then refused', async () => {
      const hosted = await c.ok<TxResponse>('/rest/payment', {
        payment_type: 'cardecom',
        order_id: orderId('hosted'),
        amount: 15,
        currency: 'EUR',
        ...REDIRECT,
      });
      const wallet = await c.ok<TxResponse>('/rest/payment', {
        payment_type: 'wallet',
        order_id: orderId('w'),
        amount: 15,
        currency: 'EUR',
        ...REDIRECT,
      });
      await h.advance(HOUR - 1000);
      assert.equal((await c.transaction(hosted.transaction_id)).status_code, 1);
      await h.advance(2000);
      for (const id of [hosted.transaction_id, wallet.transaction_id]) {
        const view = await c.transaction(id);
        assert.deepEqual([view.status_code, view.status], [10, 'expired']);
        assert.deepEqual(await log(id), [
          ['authorization', 1, 15],
          ['expiry', 10, 0],
        ]);
        assert.deepEqual(
          (await outboxOf(h, id)).map((row) => row.payload.status_code),
          [1, 10],
        );
      }
      const card = await h.gateway.payments.submitCard(hosted.transaction_id, {
        pan: '4111111111111111',
        expiryMonth: 12,
        expiryYear: 2030,
      });
      assert.ok(!card.ok);
      assert.equal(card.error.error_code, 1002);
      const approval = await h.gateway.payments.completeRedirect(wallet.transaction_id, 'approved');
      assert.ok(!approval.ok);
      assert.equal(approval.error.error_code, 1002);
    });

    test('a recurring card payment whose 3-D Secure challenge expired cannot be charged later', async () => {
      const started = await c.ok<TxResponse>('/rest/payment', cardPayment('4000000000003220', 10, { recurring: 1 }));
      assert.equal(started.status_code, 1);
      await h.advance(HOUR + 1000);
      assert.equal((await c.transaction(started.transaction_id)).status_code, 10);
      const response = await c.post('/rest/payment', {
        payment_type: 'cardecom',
        order_id: orderId(),
        amount: 10,
        currency: 'EUR',
        recurring: 1,
        original_transaction_id: started.transaction_id,
      });
      assertApiError(response, 400, 1001, ['original_transaction_id']);
    });
  });

  describe('SEPA direct debit', () => {
    async function mandate(paymentType: 'dd' | 'dd_b2b', iban = SETTLING_IBAN): Promise<string> {
      const body = await c.ok<{ sepa_mandate: string }>('/rest/create_mandate_reference', {
        payment_type: paymentType,
        recurring: 1,
        first_name: 'Ada',
        last_name: 'Lovelace',
        account_holder: 'Ada Lovelace',
        iban,
      });
      return body.sepa_mandate;
    }

    const debit = (extra: Record<string, unknown>) => ({
      payment_type: 'dd',
      order_id: orderId('dd'),
      amount: 25,
      currency: 'EUR',
      postback_url: POSTBACK_URL,
      ...extra,
    });

    test('mandate + dd payment: pending, then completed after settlement', async () => {
      const reference = await mandate('dd');
      const body = await c.ok<TxResponse>(
        '/rest/payment',
        debit({ sepa_mandate: reference, iban: SETTLING_IBAN, account_holder: 'Ada Lovelace' }),
      );
      assert.deepEqual([body.status_code, body.status, body.sepa_mandate, body.included_fees], [2, 'pending', reference, '0.29']);
      assert.match(body.sepa_msg_id ?? '', /^MSG-/);
      let view = await c.transaction(body.transaction_id);
      assert.deepEqual(
        [view.status_code, view.sepa_mandate, view.sepa_msg_id, view.captured_amount],
        [2, reference, body.sepa_msg_id, null],
      );
      await h.advance(SIM_DELAY_MS + 1);
      view = await c.transaction(body.transaction_id);
      assert.deepEqual([view.status_code, view.status, view.captured_amount, view.message], [3, 'completed', 25, 'Settled']);
      assert.deepEqual(await log(body.transaction_id), [
        ['authorization', 2, 25],
        ['capture', 3, 25],
      ]);
      assert.deepEqual(
        (await outboxOf(h, body.transaction_id)).map((row) => [row.sequence, row.payload.status_code]),
        [
          [1, 2],
          [2, 3],
        ],
      );
      const refund = await c.ok<RefundResponse>('/rest/refund', { transaction_id: body.transaction_id, amount: 5 });
      assert.equal(refund.transaction_status_code, 8);
    });

    test("with a mandate the IBAN may be left out; an IBAN that is not the mandate's is a 400", async () => {
      const reference = await mandate('dd');
      const body = await c.ok<TxResponse>('/rest/payment', debit({ sepa_mandate: reference }));
      assert.deepEqual([body.status_code, body.sepa_mandate], [2, reference]);
      assertApiError(
        await c.post('/rest/payment', debit({ sepa_mandate: reference, iban: RETURNED_IBAN, account_holder: 'Ada' })),
        400,
        1001,
        ['iban'],
      );
      assertApiError(await c.post('/rest/payment', debit({ sepa_mandate: 'MND-UNKNOWN' })), 400, 1001, ['sepa_mandate']);
    });

    test('a repeat debit with original_transaction_id uses the same mandate', async () => {
      const first = await c.ok<TxResponse>('/rest/payment', debit({ iban: SETTLING_IBAN, account_holder: 'Ada Lovelace', recurring: 1 }));
      const repeat = await c.ok<TxResponse>('/rest/payment', debit({ original_transaction_id: first.transaction_id, recurring: 1 }));
      assert.deepEqual([repeat.status_code, repeat.sepa_mandate], [2, first.sepa_mandate]);
      assert.equal((await c.transaction(repeat.transaction_id)).parent_id, first.transaction_id);
    });

    test(`IBAN ${RETURNED_IBAN}: pending, then returned -> chargeback AM04`, async () => {
      const body = await c.ok<TxResponse>('/rest/payment', debit({ iban: RETURNED_IBAN, account_holder: 'Ada Lovelace' }));
      assert.equal(body.status_code, 2);
      await h.advance(SIM_DELAY_MS + 1);
      const view = await c.transaction(body.transaction_id);
      assert.deepEqual(
        [view.status_code, view.status, view.message, view.captured_amount],
        [12, 'chargeback', 'AM04 Insufficient funds', null],
      );
      assert.deepEqual(await log(body.transaction_id), [
        ['authorization', 2, 25],
        ['return', 12, 25],
      ]);
      const last = (await outboxOf(h, body.transaction_id)).at(-1);
      assert.deepEqual([last?.payload.status_code, last?.payload.reason_code], [12, 'AM04']);
      assertApiError(await c.post('/rest/refund', { transaction_id: body.transaction_id }), 400, 1002);
    });

    test(`IBAN ${REJECTED_IBAN}: declined AC01 at once`, async () => {
      const body = await c.ok<TxResponse>('/rest/payment', debit({ iban: REJECTED_IBAN, account_holder: 'Ada Lovelace' }));
      assert.deepEqual(
        [body.status_code, body.status, body.message, body.reason_code, body.included_fees],
        [6, 'declined', 'AC01 Incorrect account number', 'AC01', '0.00'],
      );
      await h.advance(SIM_DELAY_MS + 1);
      assert.equal((await c.transaction(body.transaction_id)).status_code, 6);
    });

    test('dd_b2b needs a B2B mandate: none or a B2C one is a 400 naming sepa_mandate', async () => {
      const b2c = await mandate('dd');
      const b2b = await mandate('dd_b2b');
      assertApiError(
        await c.post('/rest/payment', debit({ payment_type: 'dd_b2b', iban: SETTLING_IBAN, account_holder: 'Ada GmbH' })),
        400,
        1001,
        ['sepa_mandate'],
      );
      assertApiError(await c.post('/rest/payment', debit({ payment_type: 'dd_b2b', sepa_mandate: b2c })), 400, 1001, ['sepa_mandate']);
      const body = await c.ok<TxResponse>('/rest/payment', debit({ payment_type: 'dd_b2b', sepa_mandate: b2b }));
      assert.deepEqual([body.status_code, body.payment_type, body.included_fees], [2, 'dd_b2b', '0.39']);
    });

    test('dd without sepa_mandate creates a mandate on the fly, usable for the next debit', async () => {
      const body = await c.ok<TxResponse>(
        '/rest/payment',
        debit({ iban: 'DE89 3704 0044 0532 0130 00', account_holder: 'Ada Lovelace', first_name: 'Ada' }),
      );
      assert.equal(body.status_code, 2);
      assert.match(body.sepa_mandate ?? '', /^MND-\d{8}-[A-Z2-9]{10}$/);
      const row = await sqlOf(h).get<{ payment_type: string }>(
        'SELECT payment_type FROM mandates WHERE merchant_id = ? AND reference = ?',
        merchant.merchant_id,
        body.sepa_mandate,
      );
      assert.equal(row?.payment_type, 'dd');
      const next = await c.ok<TxResponse>('/rest/payment', debit({ sepa_mandate: body.sepa_mandate }));
      assert.equal(next.status_code, 2);
    });

    test('validation: iban and account_holder without a mandate, a bad IBAN, a currency other than EUR', async () => {
      assertApiError(await c.post('/rest/payment', debit({})), 400, 1001, ['iban', 'account_holder']);
      assertApiError(await c.post('/rest/payment', debit({ iban: 'DE00370400440532013000', account_holder: 'Ada' })), 400, 1001, ['iban']);
      assertApiError(await c.post('/rest/payment', debit({ iban: SETTLING_IBAN, account_holder: 'Ada', currency: 'USD' })), 400, 1001, [
        'currency',
      ]);
      assertApiError(await c.post('/rest/payment', debit({ iban: SETTLING_IBAN, account_holder: '   ' })), 400, 1001, ['account_holder']);
    });
  });

  describe('wallet', () => {
    const subscription = (extra: Record<string, unknown> = {}) => ({
      payment_type: 'wallet',
      order_id: orderId('sub'),
      amount: 9.99,
      currency: 'EUR',
      recurring: 1,
      subscription_plan_id: 'plan-basic',
      ...REDIRECT,
      ...extra,
    });

    test('subscription: started/redirect, approved -> completed and active; revise lower -> active, higher -> approval_pending; cancel', async () => {
      const started = await c.ok<TxResponse>('/rest/payment', subscription());
      assert.deepEqual(
        [started.status_code, started.status, started.client_action, started.subscription_status],
        [1, 'started', 'redirect', 'approval_pending'],
      );
      assert.match(started.action_data?.url ?? '', new RegExp(`/pay/${started.transaction_id}/wallet$`));
      const id = started.transaction_id;

      const approved = await h.gateway.payments.completeRedirect(id, 'approved');
      assert.ok(approved.ok);
      assert.deepEqual(
        [approved.value.transaction.status_code, approved.value.transaction.subscription_status, approved.value.transaction.included_fees],
        [3, 'active', '0.60'],
      );
      assert.equal(approved.value.redirectTo, `${REDIRECT.success_url}?transaction_id=${id}`);
      assert.equal((await c.transaction(id)).captured_amount, 9.99);

      const lower = await c.ok<SubscriptionResponse>('/rest/revise', { transaction_id: id, amount: 4.99 });
      assert.deepEqual(
        [lower.subscription_status, lower.amount, lower.subscription_plan_id, lower.client_action],
        ['active', 4.99, 'plan-basic', undefined],
      );

      const higher = await c.ok<SubscriptionResponse>('/rest/revise', {
        transaction_id: id,
        amount: 19.99,
        subscription_plan_id: 'plan-gold',
      });
      assert.deepEqual([higher.subscription_status, higher.client_action], ['approval_pending', 'redirect']);
      assert.match(higher.action_data?.url ?? '', new RegExp(`/pay/${id}/wallet\\?revision=1$`));
      assertApiError(await c.post('/rest/revise', { transaction_id: id, amount: 30 }), 400, 1002);

      const reapproved = await h.gateway.payments.completeRedirect(id, 'approved');
      assert.ok(reapproved.ok);
      assert.equal(reapproved.value.transaction.subscription_status, 'active');
      const current = await c.ok<SubscriptionResponse>('/rest/revise', { transaction_id: id, subscription_plan_id: 'plan-gold-2' });
      assert.deepEqual([current.subscription_status, current.amount, current.subscription_plan_id], ['active', 19.99, 'plan-gold-2']);

      const cancelled = await c.ok<SubscriptionResponse>('/rest/cancel', { transaction_id: id });
      assert.equal(cancelled.subscription_status, 'cancelled');
      assertApiError(await c.post('/rest/cancel', { transaction_id: id }), 400, 1002);
      assertApiError(await c.post('/rest/revise', { transaction_id: id, amount: 1 }), 400, 1002);
      // The payment itself is untouched.
      assert.equal((await c.transaction(id)).status_code, 3);
      const types = (await c.log(id)).map((e) => e.type);
      assert.deepEqual(types, [
        'authorization',
        'authorization',
        'capture',
        'reauthorization',
        'reauthorization',
        'reauthorization',
        'reauthorization',
        'cancellation',
      ]);
    });

    test('a rejected revision keeps the old amount', async () => {
      const started = await c.ok<TxResponse>('/rest/payment', subscription());
      assert.ok((await h.gateway.payments.completeRedirect(started.transaction_id, 'approved')).ok);
      await c.ok('/rest/revise', { transaction_id: started.transaction_id, amount: 50 });
      const rejected = await h.gateway.payments.completeRedirect(started.transaction_id, 'cancelled');
      assert.ok(rejected.ok);
      assert.equal(rejected.value.transaction.subscription_status, 'active');
      const current = await c.ok<SubscriptionResponse>('/rest/revise', {
        transaction_id: started.transaction_id,
        subscription_plan_id: 'plan-basic',
      });
      assert.equal(current.amount, 9.99);
    });

    test('cancel or revise on a payment that set up no subscription: 1002; subscription_plan_id needs wallet and recurring=1', async () => {
      const paid = await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', 5));
      assertApiError(await c.post('/rest/cancel', { transaction_id: paid.transaction_id }), 400, 1002, ['transaction_id']);
      assertApiError(await c.post('/rest/revise', { transaction_id: paid.transaction_id, amount: 3 }), 400, 1002);
      assertApiError(await c.post('/rest/payment', subscription({ recurring: 0 })), 400, 1001, ['subscription_plan_id']);
      assertApiError(
        await c.post('/rest/payment', cardPayment('4111111111111111', 5, { recurring: 1, subscription_plan_id: 'plan' })),
        400,
        1001,
        ['subscription_plan_id'],
      );
    });

    test('wallet_capture_event: default OTHER on authorize, each of the five values accepted, 400 elsewhere', async () => {
      const authorize = (extra: Record<string, unknown> = {}) => ({
        payment_type: 'wallet',
        order_id: orderId('wce'),
        amount: 20,
        currency: 'EUR',
        ...REDIRECT,
        ...extra,
      });
      const defaulted = await c.ok<TxResponse>('/rest/authorize', authorize());
      assert.equal(defaulted.wallet_capture_event, 'OTHER');
      for (const event of WALLET_CAPTURE_EVENTS) {
        assert.equal((await c.ok<TxResponse>('/rest/authorize', authorize({ wallet_capture_event: event }))).wallet_capture_event, event);
      }
      assert.deepEqual([...WALLET_CAPTURE_EVENTS], ['SHIPPING', 'DELIVERY', 'AVAILABILITY', 'SERVICE_FULFILMENT', 'OTHER']);
      assertApiError(await c.post('/rest/authorize', authorize({ wallet_capture_event: 'LATER' })), 400, 1001, ['wallet_capture_event']);
      for (const path of ['/rest/payment', '/rest/register']) {
        assertApiError(await c.post(path, authorize({ wallet_capture_event: 'SHIPPING' })), 400, 1001, ['wallet_capture_event']);
      }
      // An approved wallet authorization is captured like a card one.
      const approved = await h.gateway.payments.completeRedirect(defaulted.transaction_id, 'approved');
      assert.ok(approved.ok);
      assert.equal(approved.value.transaction.status_code, 4);
      const capture = await c.ok<CaptureResponse>('/rest/capture', { transaction_id: defaulted.transaction_id, amount: 20 });
      assert.equal(capture.status_code, 3);
    });
  });

  describe('a2a and bank redirect', () => {
    test('a2a payment: started, approved in the banking app -> completed with wallet references', async () => {
      const started = await c.ok<TxResponse>('/rest/payment', {
        payment_type: 'a2a',
        order_id: orderId('a2a'),
        amount: 42,
        currency: 'EUR',
        ...REDIRECT,
        merchant_reference: 'INV 2026/42',
      });
      assert.deepEqual([started.status_code, started.client_action], [1, 'redirect']);
      assert.match(started.action_data?.url ?? '', /\/a2a$/);
      const approved = await h.gateway.payments.completeRedirect(started.transaction_id, 'approved');
      assert.ok(approved.ok);
      assert.deepEqual([approved.value.transaction.status_code, approved.value.transaction.included_fees], [3, '0.31']);
      const last = (await outboxOf(h, started.transaction_id)).at(-1);
      assert.equal(last?.payload.status_code, 3);
      assert.equal(last?.payload.remittance_info, 'INV 2026/42');
      assert.match(String(last?.payload.wallet_activity_reference), /^ACT-/);
      assert.match(String(last?.payload.wallet_account_reference), /^ACC-/);
      assertApiError(
        await c.post('/rest/payment', { payment_type: 'a2a', order_id: orderId(), amount: 42, currency: 'USD', ...REDIRECT }),
        400,
        1001,
        ['currency'],
      );
    });

    test('a2a payout: pending, then completed; the recipient is required, an IBAN given is checked', async () => {
      const payout = {
        payment_type: 'a2a',
        order_id: orderId('a2a-out'),
        amount: 99.5,
        currency: 'EUR',
        merchant_reference: 'Payout 7',
        postback_url: POSTBACK_URL,
        country: 'DE',
        account_holder: 'Ada Lovelace',
      };
      const body = await c.ok<Record<string, unknown>>('/rest/payout', { ...payout, iban: SETTLING_IBAN });
      assert.deepEqual([body.status_code, body.status, body.order_id, body.error_code], [2, 'pending', payout.order_id, 0]);
      await h.advance(SIM_DELAY_MS + 1);
      const view = await c.transaction(body.transaction_id as string);
      assert.deepEqual([view.status_code, view.payment_method, view.captured_amount], [3, 'a2a', 99.5]);
      assert.deepEqual(await log(body.transaction_id as string), [
        ['payout', 2, 99.5],
        ['payout', 3, 99.5],
      ]);
      // No recipient at all (no email, original_transaction_id or iban): named once, as email.
      const missing = assertApiError(await c.post('/rest/payout', payout), 400, 1001, ['email']);
      assert.match(missing.errors[0]?.message ?? '', /email, original_transaction_id .* or iban/);
      assertApiError(await c.post('/rest/payout', { ...payout, iban: 'DE00370400440532013000' }), 400, 1001, ['iban']);
    });

    test('bank redirect: cancelled by the customer -> 9 cancelled, sent to error_url; approved -> completed, refunded only in full', async () => {
      const bank = () => ({ payment_type: 'bankredirect', order_id: orderId('bank'), amount: 30, currency: 'EUR', ...REDIRECT });
      const started = await c.ok<TxResponse>('/rest/payment', bank());
      assert.match(started.action_data?.url ?? '', /\/bank$/);
      const cancelled = await h.gateway.payments.completeRedirect(started.transaction_id, 'cancelled');
      assert.ok(cancelled.ok);
      assert.deepEqual([cancelled.value.transaction.status_code, cancelled.value.transaction.status], [9, 'cancelled']);
      assert.match(cancelled.value.redirectTo ?? '', /^https:\/\/shop\.example\/failed\?transaction_id=/);
      assert.deepEqual(await log(started.transaction_id), [
        ['authorization', 1, 30],
        ['cancellation', 9, 30],
      ]);
      assert.deepEqual(
        (await outboxOf(h, started.transaction_id)).map((row) => row.payload.status_code),
        [1, 9],
      );

      const paid = await c.ok<TxResponse>('/rest/payment', bank());
      assert.ok((await h.gateway.payments.completeRedirect(paid.transaction_id, 'approved')).ok);
      assertApiError(await c.post('/rest/refund', { transaction_id: paid.transaction_id, amount: 10 }), 400, 1004, ['amount']);
      const refund = await c.ok<RefundResponse>('/rest/refund', { transaction_id: paid.transaction_id });
      assert.equal(refund.transaction_status_code, 7);
    });

    test('redirect types need success_url, error_url, postback_url and merchant_reference', async () => {
      for (const type of ['wallet', 'a2a', 'bankredirect']) {
        const response = await c.post('/rest/payment', { payment_type: type, order_id: orderId(), amount: 10, currency: 'EUR' });
        assertApiError(response, 400, 1001, ['success_url', 'error_url', 'postback_url', 'merchant_reference']);
      }
    });
  });

  describe('transaction list', () => {
    test('filters: status list, currency, from/to, order_id; limit/offset; newest first; only this merchant', async () => {
      const shop = api(h, await newMerchant(h, 'List Shop'));
      const start = h.clock.now().getTime();
      const at: string[] = [];
      const create = async (body: Record<string, unknown>, path = '/rest/payment') => {
        at.push(h.clock.now().toISOString());
        const created = await shop.ok<TxResponse>(path, body);
        h.clock.advance(60_000);
        return created.transaction_id;
      };
      const a = await create(cardPayment('4111111111111111', 10));
      const b = await create(cardPayment('4111111111111111', 11, { currency: 'GBP' }));
      const cId = await create(cardPayment('4000000000000002', 12));
      const d = await create(cardPayment('4111111111111111', 13));
      await shop.ok('/rest/refund', { transaction_id: d, amount: 1 });
      const e = await create(cardPayment('4111111111111111', 14), '/rest/authorize');
      const orderOfC = (await shop.transaction(cId)).order_id as string;

      const ids = async (query: string) => {
        const response = await shop.get(`/rest/transactions${query}`);
        assert.equal(response.statusCode, 200, response.body);
        return response.json<Array<{ transaction_id: string }>>().map((t) => t.transaction_id);
      };
      assert.deepEqual(await ids(''), [e, d, cId, b, a], 'newest first');
      assert.deepEqual(await ids('?status=3,8'), [d, b, a]);
      assert.deepEqual(await ids('?status=3'), [b, a]);
      assert.deepEqual(await ids('?status=6'), [cId]);
      assert.deepEqual(await ids('?currency=GBP'), [b]);
      assert.deepEqual(await ids('?status=3&currency=EUR'), [a]);
      assert.deepEqual(await ids(`?from=${encodeURIComponent(at[1] as string)}&to=${encodeURIComponent(at[3] as string)}`), [d, cId, b]);
      // Any offset: 2 h ahead of UTC names the same instant.
      const plusTwo = new Date(Date.parse(at[1] as string) + 2 * HOUR).toISOString().replace('Z', '+02:00');
      assert.deepEqual(await ids(`?from=${encodeURIComponent(plusTwo)}`), [e, d, cId, b]);
      assert.deepEqual(await ids(`?to=${encodeURIComponent(new Date(start - 1).toISOString())}`), []);
      assert.deepEqual(await ids(`?order_id=${encodeURIComponent(orderOfC)}`), [cId]);
      assert.deepEqual(await ids('?limit=2'), [e, d]);
      assert.deepEqual(await ids('?limit=2&offset=2'), [cId, b]);
      assert.deepEqual(await ids('?limit=2&offset=4'), [a]);

      const view = (await shop.get('/rest/transactions?limit=1')).json<Array<Record<string, unknown>>>()[0] as Record<string, unknown>;
      assert.deepEqual(Object.keys(view).sort(), [
        'additional_transaction_data',
        'amount',
        'captured_amount',
        'card_brand',
        'card_last_four',
        'created_at',
        'currency',
        'message',
        'order_id',
        'parent_id',
        'payment_method',
        'recurring',
        'sepa_mandate',
        'sepa_msg_id',
        'status',
        'status_code',
        'transaction_id',
        'updated_at',
      ]);
      assert.match(String(view.card_last_four), /^\d{4}$/, 'the list shows the last four digits, never more');
      assert.deepEqual(
        [view.status_code, view.status, view.amount, view.captured_amount, view.payment_method],
        [4, 'authorized', 14, null, 'cardecom'],
      );

      // The first merchant's transactions are not listed here, nor this one's there.
      assert.ok(!(await ids('?limit=500')).some((id) => !([a, b, cId, d, e] as string[]).includes(id)));
      const mine = (await c.get('/rest/transactions?limit=500')).json<Array<{ transaction_id: string }>>().map((t) => t.transaction_id);
      assert.ok(![a, b, cId, d, e].some((id) => mine.includes(id)));
    });

    test('50 by default', async () => {
      let count = (await c.get('/rest/transactions?limit=500')).json<unknown[]>().length;
      for (; count <= 50; count += 1) await c.ok('/rest/payment', cardPayment('4111111111111111', 1));
      const page = (await c.get('/rest/transactions')).json<Array<{ transaction_id: string }>>();
      assert.equal(page.length, 50);
      const all = (await c.get('/rest/transactions?limit=500')).json<Array<{ transaction_id: string }>>();
      assert.deepEqual(page, all.slice(0, 50));
    });

    test('bad filters: 400 naming the parameter', async () => {
      const cases: Array<[string, string]> = [
        ['status=14', 'status'],
        ['status=3,x', 'status'],
        ['currency=EURO', 'currency'],
        ['currency=XYZ', 'currency'],
        ['from=yesterday', 'from'],
        ['to=2026-02-30T00:00:00Z', 'to'],
        ['limit=0', 'limit'],
        ['limit=501', 'limit'],
        ['offset=-1', 'offset'],
      ];
      for (const [query, field] of cases) assertApiError(await c.get(`/rest/transactions?${query}`), 400, 1001, [field]);
    });
  });

  describe('request validation (each violation a 400 naming the field)', () => {
    const base = () => cardPayment('4111111111111111', 10, { merchant_reference: 'Order 1', country: 'DE' });

    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['merchant_reference of 36 characters', { merchant_reference: 'A'.repeat(36) }, 'merchant_reference'],
      ['merchant_reference with #', { merchant_reference: 'Order #1' }, 'merchant_reference'],
      ['merchant_reference with _', { merchant_reference: 'order_1' }, 'merchant_reference'],
      ['merchant_reference with an umlaut', { merchant_reference: 'Bestellung Müller' }, 'merchant_reference'],
      ['merchant_reference empty', { merchant_reference: '' }, 'merchant_reference'],
      ['sepa_mandate of 36 characters', { payment_type: 'dd', sepa_mandate: 'M'.repeat(36), card_number: undefined }, 'sepa_mandate'],
      ['currency EURO', { currency: 'EURO' }, 'currency'],
      ['currency XYZ', { currency: 'XYZ' }, 'currency'],
      ['currency eur', { currency: 'eur' }, 'currency'],
      ['country DEU', { country: 'DEU' }, 'country'],
      ['country XX', { country: 'XX' }, 'country'],
      ['country de', { country: 'de' }, 'country'],
      ['amount 10.555 EUR', { amount: 10.555 }, 'amount'],
      ['amount 10.5 JPY', { amount: 10.5, currency: 'JPY' }, 'amount'],
      ['amount negative', { amount: -1 }, 'amount'],
      ['amount as a string', { amount: '10.00' }, 'amount'],
      ['amount above 999,999,999.99', { amount: 1_000_000_000 }, 'amount'],
      ['amount missing', { amount: undefined }, 'amount'],
      ['order_id missing', { order_id: undefined }, 'order_id'],
      ['recurring 2', { recurring: 2 }, 'recurring'],
      ['recurring "1"', { recurring: '1' }, 'recurring'],
      ['an unknown field', { ammount: 10 }, 'ammount'],
      ['email', { email: 'not-an-email' }, 'email'],
      ['postback_url', { postback_url: 'ftp://shop.example/' }, 'postback_url'],
      ['execution_date', { execution_date: '2026-02-30' }, 'execution_date'],
      ['iban on a card payment', { iban: SETTLING_IBAN }, 'iban'],
    ];
    for (const [name, change, field] of cases) {
      test(name, async () => {
        const body: Record<string, unknown> = { ...base(), ...change };
        for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
        if (body.payment_type === 'dd') {
          for (const key of ['card_number', 'card_expiry_month', 'card_expiry_year', 'card_cvv', 'card_holder']) delete body[key];
        }
        const before = (await c.get('/rest/transactions?limit=500')).json<unknown[]>().length;
        assertApiError(await c.post('/rest/payment', body), 400, 1001, [field]);
        assert.equal((await c.get('/rest/transactions?limit=500')).json<unknown[]>().length, before, 'nothing was created');
      });
    }

    test('every bad field is named at once', async () => {
      const body = { ...base(), merchant_reference: 'a_b', country: 'XX', amount: 10.555, execution_date: '2026-13-01' };
      const error = assertApiError(await c.post('/rest/payment', body), 400, 1001, [
        'merchant_reference',
        'country',
        'amount',
        'execution_date',
      ]);
      assert.ok(error.message.includes('merchant_reference'));
    });

    test('a valid merchant_reference of 35 characters with every allowed character is accepted', async () => {
      const reference = "Ab9 /-?():.,'+ Zz0123456789abcdefgh";
      assert.equal(reference.length, 35);
      const body = await c.ok<TxResponse>('/rest/payment', { ...base(), merchant_reference: reference });
      assert.equal(body.status_code, 3);
    });

    test('refund, capture and reverse amounts are validated too', async () => {
      const paid = await c.ok<TxResponse>('/rest/payment', base());
      assertApiError(await c.post('/rest/refund', { transaction_id: paid.transaction_id, amount: 1.005 }), 400, 1001, ['amount']);
      assertApiError(await c.post('/rest/refund', { transaction_id: paid.transaction_id, amount: 0 }), 400, 1001, ['amount']);
      assertApiError(await c.post('/rest/refund', { transaction_id: paid.transaction_id, amount: -1 }), 400, 1001, ['amount']);
      assertApiError(await c.post('/rest/refund', { transaction_id: paid.transaction_id, merchant_reference: 'R#1' }), 400, 1001, [
        'merchant_reference',
      ]);
      assertApiError(await c.post('/rest/refund', { transaction_id: paid.transaction_id, merchant_refund_id: 'has space' }), 400, 1001, [
        'merchant_refund_id',
      ]);
      const auth = await c.ok<TxResponse>('/rest/authorize', base());
      assertApiError(await c.post('/rest/capture', { transaction_id: auth.transaction_id, amount: '5' }), 400, 1001, ['amount']);
      assertApiError(await c.post('/rest/capture', { transaction_id: auth.transaction_id, amount: 5.001 }), 400, 1001, ['amount']);
      assertApiError(await c.post('/rest/reverse', { transaction_id: auth.transaction_id, amount: 0 }), 400, 1001, ['amount']);
      assertApiError(await c.post('/rest/capture', { transaction_id: auth.transaction_id, execution_date: '05/04/2026' }), 400, 1001, [
        'execution_date',
      ]);
      assert.equal((await c.transaction(auth.transaction_id)).status_code, 4, 'unchanged');
    });
  });

  describe('idempotency', () => {
    test('a replay of /rest/payment creates no second transaction', async () => {
      const key = randomUUID();
      const body = cardPayment('4111111111111111', 33);
      const first = await c.post('/rest/payment', body, { 'Idempotency-Key': key });
      assert.equal(first.statusCode, 200);
      const replay = await c.post('/rest/payment', body, { 'Idempotency-Key': key });
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.deepEqual(replay.json(), first.json());
      const listed = (await c.get(`/rest/transactions?order_id=${encodeURIComponent(body.order_id as string)}`)).json<unknown[]>();
      assert.equal(listed.length, 1);
      const other = await c.post('/rest/payment', { ...body, amount: 34 }, { 'X-Idempotency-Key': key });
      assertApiError(other, 422, 4002);
    });

    test('a replayed capture or refund moves the money once', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', cardPayment('4111111111111111', 50));
      const key = randomUUID();
      for (let i = 0; i < 3; i += 1) {
        const response = await c.post('/rest/capture', { transaction_id: auth.transaction_id, amount: 10 }, { 'Idempotency-Key': key });
        assert.equal(response.statusCode, 200);
      }
      assert.equal((await c.transaction(auth.transaction_id)).captured_amount, 10);
      const refundKey = randomUUID();
      for (let i = 0; i < 2; i += 1) {
        const response = await c.post('/rest/refund', { transaction_id: auth.transaction_id, amount: 4 }, { 'Idempotency-Key': refundKey });
        assert.equal(response.statusCode, 200);
      }
      assert.equal((await c.get(`/rest/transactions/${auth.transaction_id}/refunds`)).json<unknown[]>().length, 1);
      assert.deepEqual(await log(auth.transaction_id), [
        ['authorization', 4, 50],
        ['capture', 3, 10],
        ['refund', 8, 4],
      ]);
    });

    test('a request rejected by validation is not stored: the same key works once fixed', async () => {
      const key = randomUUID();
      const body = cardPayment('4111111111111111', 10.555);
      assertApiError(await c.post('/rest/payment', body, { 'Idempotency-Key': key }), 400, 1001, ['amount']);
      const fixed = await c.post('/rest/payment', { ...body, amount: 10.55 }, { 'Idempotency-Key': key });
      assert.equal(fixed.statusCode, 200);
      assert.equal(fixed.headers['idempotent-replayed'], undefined);
    });
  });
});
