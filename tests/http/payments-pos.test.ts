// Card-present payments (cardpos) through the API (decisions.md D3, D6): online PIN above the
// contactless CVM limit, the PIN retry with an ISO-0 block, wrong PINs and the try limit, amount
// triggers, card input from PAN, track 2 and EMV data, and card-present payouts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TransactionStatus as S } from '../../contract/codes.js';
import { clearPinBlock } from '../../main/processor/pin-block.js';
import { AMOUNT_TRIGGERS } from '../../main/processor/test-cards.js';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import {
  api,
  assertNoPanAtRest,
  assertNotStored,
  cardPayment,
  DAY,
  EXPIRY_YEAR,
  freshPan,
  newMerchant,
  orderId,
  outboxOf,
  posData,
  posPayment,
  REDIRECT,
  SIM_DELAY_MS,
  startHarness,
  TEST_PIN,
  type Api,
  type Harness,
} from '../helpers/payments.js';

interface TxResponse {
  transaction_id: string;
  status_code: number;
  status: string;
  message: string | null;
  reason_code?: string;
  amount: number;
  currency: string;
  included_fees: string;
  card_brand?: string;
  card_last_four?: string;
  card_expiry_month?: number;
  card_expiry_year?: number;
}

const PIN_CARD = '5555555551234561';
const YY = String(EXPIRY_YEAR).slice(2);

describe('card-present payments', () => {
  let h: Harness;
  let merchant: TestMerchant;
  let c: Api;
  const pans = new Set<string>([PIN_CARD]);
  const blocks = new Set<string>();

  before(async () => {
    h = await startHarness();
    merchant = await newMerchant(h);
    c = api(h, merchant);
  });

  after(async () => {
    await h.close();
  });

  function pan(): string {
    const value = freshPan();
    pans.add(value);
    return value;
  }

  async function pay(
    amount: number,
    options: Parameters<typeof posPayment>[1],
    extra: Record<string, unknown> = {},
    client: Api = c,
  ): Promise<TxResponse> {
    const body = posPayment(amount, options, extra);
    const block = (body.pos_data as { pin_block?: { block: string } }).pin_block?.block;
    if (block) blocks.add(block);
    return client.ok<TxResponse>('/rest/payment', body);
  }

  describe('what the till needs to show', () => {
    test('request_pin says whether the card must be inserted; approvals carry an authorization code; the list shows card and entry mode', async () => {
      const tapped = await pay(80, { pan: pan() });
      assert.deepEqual(
        [tapped.message, (tapped as { insert_card?: boolean }).insert_card],
        ['request_pin', false],
        'contactless: enter the PIN on the pad',
      );
      const swiped = await pay(12, { pan: PIN_CARD, entry: 'swipe' });
      assert.deepEqual(
        [swiped.message, (swiped as { insert_card?: boolean }).insert_card],
        ['request_pin', true],
        'a swiped card must be inserted for the PIN',
      );
      const approved = await pay(12, { pan: pan() });
      assert.match(String((approved as { authorization_code?: string }).authorization_code), /^\d{6}$/);
      assert.equal((approved as { insert_card?: boolean }).insert_card, undefined);
      const listed = await c.transaction(approved.transaction_id);
      assert.deepEqual(
        [
          (listed as { card_brand?: string }).card_brand,
          (listed as { card_last_four?: string }).card_last_four,
          (listed as { entry_mode?: string }).entry_mode,
        ],
        [approved.card_brand, approved.card_last_four, 'contactless'],
      );
    });
  });

  describe('online PIN (D3)', () => {
    test('contactless 80.00: request_pin / 1A; the retry with a correct PIN block completes and links to the first attempt', async () => {
      const card = pan();
      const order = orderId('till');
      const first = await pay(80, { pan: card, order });
      assert.deepEqual(
        [first.status_code, first.status, first.message, first.reason_code, first.included_fees],
        [6, 'declined', 'request_pin', '1A', '0.00'],
      );
      assert.deepEqual(
        (await c.log(first.transaction_id)).map((e) => [e.type, e.status, e.amount, e.message]),
        [['authorization', 6, 80, 'request_pin']],
      );

      const retry = await pay(80, { pan: card, order, sequence: 'subsequent', pin: TEST_PIN });
      assert.deepEqual([retry.status_code, retry.status, retry.reason_code, retry.included_fees], [3, 'completed', undefined, '1.22']);
      assert.equal(retry.card_last_four, card.slice(-4));
      const view = await c.transaction(retry.transaction_id);
      assert.equal(view.parent_id, first.transaction_id);
      assert.equal(view.order_id, order);
      assert.equal(view.captured_amount, 80);
      assert.deepEqual(
        (await c.log(retry.transaction_id)).map((e) => [e.type, e.status, e.amount]),
        [
          ['reauthorization', 4, 80],
          ['capture', 3, 80],
        ],
      );
      // The first attempt stays declined.
      assert.equal((await c.transaction(first.transaction_id)).status_code, 6);
    });

    test('a wrong PIN declines 55 Incorrect PIN', async () => {
      const card = pan();
      const order = orderId('till');
      await pay(80, { pan: card, order });
      const wrong = await pay(80, { pan: card, order, sequence: 'subsequent', pin: '9999' });
      assert.deepEqual([wrong.status_code, wrong.message, wrong.reason_code], [6, '55 Incorrect PIN', '55']);
    });

    test('the third wrong PIN for a card within 24 h declines 75, and so does the next try even with the right PIN; another merchant, another card and the next day are not affected', async () => {
      const card = pan();
      const order = orderId('till');
      assert.equal((await pay(80, { pan: card, order })).message, 'request_pin');
      assert.equal((await pay(80, { pan: card, order, sequence: 'subsequent', pin: '0000' })).message, '55 Incorrect PIN');
      assert.equal((await pay(80, { pan: card, order, sequence: 'subsequent', pin: '1111' })).message, '55 Incorrect PIN');
      const third = await pay(80, { pan: card, order, sequence: 'subsequent', pin: '2222' });
      assert.deepEqual([third.message, third.reason_code], ['75 PIN tries exceeded', '75']);
      const fourth = await pay(80, { pan: card, order, sequence: 'subsequent', pin: TEST_PIN });
      assert.deepEqual([fourth.status_code, fourth.message], [6, '75 PIN tries exceeded']);
      // A small amount without a PIN still goes through: the limit is about PINs.
      assert.equal((await pay(5, { pan: card })).status_code, 3);

      assert.equal((await pay(80, { pan: pan(), sequence: 'subsequent', pin: TEST_PIN })).status_code, 3, 'another card');
      const other = api(h, await newMerchant(h, 'Other Till'));
      assert.equal((await pay(80, { pan: card, sequence: 'subsequent', pin: TEST_PIN }, {}, other)).status_code, 3, 'another merchant');

      h.clock.advance(DAY + 1000);
      assert.equal((await pay(80, { pan: card, sequence: 'subsequent', pin: TEST_PIN })).status_code, 3, 'a day later');
    });

    test('the always-ask-PIN card asks on contactless, chip and swipe at any amount; PIN 1234 approves', async () => {
      assert.equal(clearPinBlock(TEST_PIN, PIN_CARD), '041261AAAAEDCBA9', 'its PIN block is the D6 test vector');
      for (const entry of ['contactless', 'chip', 'swipe']) {
        const order = orderId('pin-card');
        const asked = await pay(5, { pan: PIN_CARD, entry, order });
        assert.deepEqual([asked.status_code, asked.message, asked.reason_code], [6, 'request_pin', '1A'], entry);
        const retry = await pay(5, {
          pan: PIN_CARD,
          entry: entry === 'swipe' ? 'chip' : entry,
          order,
          sequence: 'subsequent',
          pin: TEST_PIN,
        });
        assert.equal(retry.status_code, 3, entry);
        assert.equal(retry.card_brand, 'mastercard');
      }
      // Not card-present: no PIN.
      assert.equal((await c.ok<TxResponse>('/rest/payment', cardPayment(PIN_CARD, 5))).status_code, 3);
    });

    test('at the CVM limit (50.00 EUR, 7,000 JPY, ...) no PIN is asked, above it it is; chip is not limited', async () => {
      assert.equal((await pay(50, { pan: pan() })).status_code, 3);
      assert.equal((await pay(50.01, { pan: pan() })).message, 'request_pin');
      assert.equal((await pay(80, { pan: pan(), entry: 'chip' })).status_code, 3);
      // The default limit of each currency is about 50 EUR (docs/decisions.md "Merchant management"), in its own decimals.
      assert.equal((await pay(500, { pan: pan() }, { currency: 'JPY' })).status_code, 3, 'a 500 JPY tap needs no PIN');
      assert.equal((await pay(7000, { pan: pan() }, { currency: 'JPY' })).status_code, 3);
      assert.equal((await pay(7001, { pan: pan() }, { currency: 'JPY' })).message, 'request_pin');
      assert.equal((await pay(15, { pan: pan() }, { currency: 'KWD' })).status_code, 3);
      assert.equal((await pay(15.001, { pan: pan() }, { currency: 'KWD' })).message, 'request_pin');
      // A currency without a default of its own: 50 units.
      assert.equal((await pay(50, { pan: pan() }, { currency: 'UYU' })).status_code, 3);
      assert.equal((await pay(50.01, { pan: pan() }, { currency: 'UYU' })).message, 'request_pin');
    });

    test('a PIN block on the first attempt is verified too', async () => {
      assert.equal((await pay(80, { pan: pan(), pin: TEST_PIN })).status_code, 3);
      assert.equal((await pay(20, { pan: pan(), pin: '4321' })).message, '55 Incorrect PIN');
    });

    test('authorize on cardpos: authorized, then captured', async () => {
      const auth = await c.ok<TxResponse>('/rest/authorize', posPayment(30, { pan: pan() }));
      assert.equal(auth.status_code, S.authorized);
      const capture = await c.ok<{ status_code: number; captured_amount: number }>('/rest/capture', {
        transaction_id: auth.transaction_id,
        amount: 20,
      });
      assert.deepEqual([capture.status_code, capture.captured_amount], [3, 20]);
    });
  });

  describe('amount triggers (D6)', () => {
    for (const trigger of AMOUNT_TRIGGERS) {
      test(`.${trigger.decimals} declines ${trigger.code} on every card-present entry, without asking for a PIN`, async () => {
        for (const entry of ['contactless', 'chip', 'swipe']) {
          const small = await pay(Number(`12.${trigger.decimals}`), { pan: pan(), entry });
          assert.deepEqual(
            [small.status_code, small.message, small.reason_code],
            [6, `${trigger.code} ${trigger.text}`, trigger.code],
            entry,
          );
        }
        // Above the CVM limit and with the always-ask-PIN card: still the trigger, not request_pin.
        assert.equal((await pay(Number(`80.${trigger.decimals}`), { pan: pan() })).message, `${trigger.code} ${trigger.text}`);
        assert.equal((await pay(Number(`7.${trigger.decimals}`), { pan: PIN_CARD })).message, `${trigger.code} ${trigger.text}`);
        // KWD 12.xx0 triggers as well.
        assert.equal(
          (await pay(Number(`12.${trigger.decimals}`), { pan: pan(), entry: 'chip' }, { currency: 'KWD' })).reason_code,
          trigger.code,
        );
        // E-commerce is not affected.
        assert.equal(
          (await c.ok<TxResponse>('/rest/payment', cardPayment('4111111111111111', Number(`12.${trigger.decimals}`)))).status_code,
          3,
        );
      });
    }

    test('other decimals and currencies without decimals do not trigger', async () => {
      assert.equal((await pay(12.5, { pan: pan(), entry: 'chip' })).status_code, 3);
      assert.equal((await pay(12.515, { pan: pan(), entry: 'chip' }, { currency: 'KWD' })).status_code, 3);
      assert.equal((await pay(1251, { pan: pan(), entry: 'chip' }, { currency: 'JPY' })).status_code, 3);
    });
  });

  describe('card input', () => {
    test('track2_data carries the card', async () => {
      const card = pan();
      const body = posPayment(20, { pan: card });
      (body.pos_data as { card: unknown }).card = { track2_data: `;${card}=${YY}12101123456789?` };
      const paid = await c.ok<TxResponse>('/rest/payment', body);
      assert.deepEqual(
        [paid.status_code, paid.card_last_four, paid.card_expiry_month, paid.card_expiry_year, paid.card_brand],
        [3, card.slice(-4), 12, EXPIRY_YEAR, 'visa'],
      );
    });

    test('emv_data (BER-TLV: 5A PAN, 5F24 expiry, 4F AID, 50 label) carries the card', async () => {
      const card = pan();
      const label = Buffer.from('VISA DEBIT', 'latin1').toString('hex');
      const tlv = `5A08${card}5F2403${YY}12314F07A0000000031010500A${label}`;
      const body = posPayment(20, { pan: card, entry: 'chip' });
      (body.pos_data as { card: unknown }).card = { emv_data: `70${(tlv.length / 2).toString(16).padStart(2, '0').toUpperCase()}${tlv}` };
      const paid = await c.ok<TxResponse>('/rest/payment', body);
      assert.deepEqual(
        [paid.status_code, paid.card_last_four, paid.card_expiry_month, paid.card_expiry_year],
        [3, card.slice(-4), 12, EXPIRY_YEAR],
      );
    });

    test('emv_data with only track 2 equivalent data (tag 57)', async () => {
      const card = pan();
      const track = `${card}D${YY}12201123456789F`;
      const body = posPayment(20, { pan: card });
      (body.pos_data as { card: unknown }).card = { emv_data: `57${(track.length / 2).toString(16).padStart(2, '0')}${track}` };
      const paid = await c.ok<TxResponse>('/rest/payment', body);
      assert.deepEqual([paid.status_code, paid.card_last_four, paid.card_expiry_year], [3, card.slice(-4), EXPIRY_YEAR]);
    });

    test('unreadable card data: 400 naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        [{ track2_data: 'garbage' }, 'pos_data.card.track2_data'],
        [{ emv_data: 'ZZ' }, 'pos_data.card.emv_data'],
        [{}, 'pos_data.card.number'],
        [{ number: '4111111111111112', expiry_month: 12, expiry_year: EXPIRY_YEAR }, 'pos_data.card.number'],
        [{ number: '4111111111111111', expiry_year: EXPIRY_YEAR }, 'pos_data.card.expiry_month'],
      ];
      for (const [card, field] of cases) {
        const body = posPayment(20, { pan: '4111111111111111' });
        (body.pos_data as { card: unknown }).card = card;
        assertApiError(await c.post('/rest/payment', body), 400, 1001, [field]);
      }
    });
  });

  describe('request validation', () => {
    test('pos_data missing: 400 naming pos_data; pos_data on another type: 400 naming pos_data', async () => {
      assertApiError(
        await c.post('/rest/payment', { payment_type: 'cardpos', order_id: orderId(), amount: 10, currency: 'EUR' }),
        400,
        1001,
        ['pos_data'],
      );
      assertApiError(
        await c.post('/rest/payment', { ...cardPayment('4111111111111111', 10), pos_data: posData({ pan: '4111111111111111' }) }),
        400,
        1001,
        ['pos_data'],
      );
    });

    test('an unknown PIN key: 400 naming pos_data.pin_block.key_id', async () => {
      const response = await c.post('/rest/payment', posPayment(80, { pan: pan(), sequence: 'subsequent', pin: TEST_PIN, keyId: '2' }));
      assertApiError(response, 400, 1001, ['pos_data.pin_block.key_id']);
    });

    test('a retry without a PIN block, a bad block, a bad entry mode or sequence: 400 naming each', async () => {
      assertApiError(await c.post('/rest/payment', posPayment(80, { pan: pan(), sequence: 'subsequent' })), 400, 1001, [
        'pos_data.pin_block',
      ]);
      const bad = posPayment(80, { pan: pan(), sequence: 'subsequent', pin: TEST_PIN });
      const data = bad.pos_data as { pin_block: Record<string, string>; type: Record<string, string> };
      data.pin_block.format = 'ISO-1';
      data.pin_block.block = 'XYZ0000000000000';
      data.type.terminal_entry_mode = 'telepathy';
      data.type.sequence = 'third';
      assertApiError(await c.post('/rest/payment', bad), 400, 1001, [
        'pos_data.pin_block.format',
        'pos_data.pin_block.block',
        'pos_data.type.terminal_entry_mode',
        'pos_data.type.sequence',
      ]);
    });
  });

  describe('payouts (card credit)', () => {
    const payout = (extra: Record<string, unknown> = {}) => ({
      payment_type: 'cardpos',
      order_id: orderId('credit'),
      amount: 25,
      currency: 'EUR',
      merchant_reference: 'Refund at till 3',
      postback_url: REDIRECT.postback_url,
      country: 'DE',
      first_name: 'Ada',
      last_name: 'Lovelace',
      pos_data: posData({ pan: pan() }),
      ...extra,
    });

    test('pending, then completed after the simulated delay; log and postbacks follow', async () => {
      const body = await c.ok<{ transaction_id: string; status_code: number; status: string; order_id: string }>('/rest/payout', payout());
      assert.deepEqual([body.status_code, body.status], [2, 'pending']);
      assert.equal((await c.transaction(body.transaction_id)).status_code, 2);
      await h.advance(SIM_DELAY_MS + 1);
      const view = await c.transaction(body.transaction_id);
      assert.deepEqual([view.status_code, view.status, view.payment_method], [3, 'completed', 'cardpos']);
      assert.deepEqual(
        (await c.log(body.transaction_id)).map((e) => [e.type, e.status, e.amount]),
        [
          ['payout', 2, 25],
          ['payout', 3, 25],
        ],
      );
      assert.deepEqual(
        (await outboxOf(h, body.transaction_id)).map((row) => [row.sequence, row.payload.status_code]),
        [
          [1, 2],
          [2, 3],
        ],
      );
    });

    test('a payout above the CVM limit asks for no PIN', async () => {
      const body = await c.ok<{ status_code: number }>('/rest/payout', payout({ amount: 200 }));
      assert.equal(body.status_code, 2);
    });

    test('validation: pos_data, amount, country, merchant_reference', async () => {
      const { pos_data: _p, ...withoutPos } = payout();
      assertApiError(await c.post('/rest/payout', withoutPos), 400, 1001, ['pos_data']);
      assertApiError(await c.post('/rest/payout', payout({ amount: 0 })), 400, 1001, ['amount']);
      assertApiError(await c.post('/rest/payout', payout({ country: 'XX' })), 400, 1001, ['country']);
      assertApiError(await c.post('/rest/payout', payout({ country: 'DEU' })), 400, 1001, ['country']);
      const { merchant_reference: _m, ...withoutReference } = payout();
      assertApiError(await c.post('/rest/payout', withoutReference), 400, 1001, ['merchant_reference']);
    });
  });

  test('neither card numbers nor PIN blocks are stored', async () => {
    assert.ok(blocks.size > 5);
    await assertNoPanAtRest(h, [...pans]);
    await assertNotStored(h, [...blocks], { what: 'PIN block' });
  });
});
