/**
 * The till's transition table (renderer/src/till-screen/till-transitions.ts): every event in the phases it
 * is taken in, what it leads to and which effects it asks for; and every event in every other phase
 * ignored. Each step also stays inside the table's own `to` (see `go`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PaymentRequest, TransactionResponse } from '../../contract/api/payments.js';
import type { TillAttempt } from '../../contract/api/till-attempts.js';
import type { TerminalConfig } from '../../contract/api/tills.js';
import type { Transaction } from '../../contract/api/transactions.js';
import { ErrorCode, TransactionStatus } from '../../contract/codes.js';
import { CENTRE_OUTCOME_UNKNOWN, PIN_TRIES } from '../../contract/constants.js';
import type { CardRead } from '../../renderer/src/till-screen/card-read.js';
import { buildPosData } from '../../renderer/src/till-screen/pos-data.js';
import {
  INITIAL_MODEL,
  PHASES,
  type Failure,
  type PhaseName,
  type Sale,
  type TillContext,
  type TillEvent,
  type TillEventType,
  type TillModel,
  type TillPhase,
} from '../../renderer/src/till-screen/till-model.js';
import { accepts, transition, TRANSITIONS, type Step } from '../../renderer/src/till-screen/till-transitions.js';

const NOW = new Date(2030, 0, 2, 3, 4, 5).getTime();

const TERMINAL: TerminalConfig = {
  terminal_id: 'T-1',
  type: 'softpos',
  attended: true,
  capabilities: ['chip', 'contactless', 'swipe', 'pin'],
  cvm_limit: 50,
  pin_key: { zone_id: 'Z', key_id: 'K', key_hex: '0123456789ABCDEFFEDCBA9876543210' },
  idle_lock_seconds: 600,
  confirm_above: 1000,
};

const card = (entry: CardRead['entry']): CardRead => ({
  entry,
  pan: '4111111111111111',
  expiryMonth: 12,
  expiryYear: 2030,
  brand: 'visa',
  lastFour: '1111',
  posCard: { number: '4111111111111111', expiry_month: 12, expiry_year: 2030 },
  source: 'simulator',
});
const TAP = card('contactless');
const SWIPE = card('swipe');
const CHIP = { ...card('chip'), aid: 'A0000000031010', applicationLabel: 'VISA CREDIT' };

const CONTEXT: TillContext = {
  now: NOW,
  newKey: 'key-new',
  orderSuffix: 'AB12',
  currency: 'EUR',
  terminal: TERMINAL,
  money: (amount, currency) => `${amount.toFixed(2)} ${currency}`,
};

const ORDER = { orderId: 'order-1', amountMinor: 1250, currency: 'EUR' };
const REQUEST: PaymentRequest = {
  payment_type: 'cardpos',
  order_id: 'order-1',
  amount: 12.5,
  currency: 'EUR',
  pos_data: buildPosData(TAP, TERMINAL),
};
const ATTEMPT = { request: REQUEST, key: 'key-1', pinUsed: false };

const model = (patch: Partial<TillModel> = {}): TillModel => ({ ...INITIAL_MODEL, ...patch });
const sale = (patch: Partial<Sale> = {}): Sale => ({ ...ORDER, wrongPins: 0, pinRequested: false, ...patch });
const CHECKING_RESEND: TillPhase = { name: 'checking', mode: 'resend', automatic: true, message: { id: 'till.checking.noAnswer' } };
const CHECKING_RESOLVE: TillPhase = { name: 'checking', mode: 'resolve', automatic: true, message: { id: 'till.checking.resolving' } };
const PROCESSING: TillPhase = { name: 'processing', since: 1 };
const inFlight = (patch: Partial<TillModel> = {}) =>
  model({ phase: PROCESSING, sale: sale({ card: TAP, attempt: ATTEMPT, sent: true }), ...patch });

/** One step through the table; checks it stays inside the table's `from` and `to`. */
function go(from: TillModel, event: TillEvent, context: TillContext = CONTEXT): Step {
  const result = transition(from, event, context);
  const rule = TRANSITIONS[event.type];
  const allowed: readonly string[] = [...rule.to, from.phase.name];
  assert.ok(
    allowed.includes(result.state.phase.name),
    `${event.type} from ${from.phase.name} led to ${result.state.phase.name}, not in the table`,
  );
  return result;
}

const failure = (patch: Partial<Failure>): Failure => ({ kind: 'api', message: 'Refused', status: 422, code: 0, errors: [], ...patch });

const response = (patch: Partial<TransactionResponse>): TransactionResponse => ({
  transaction_id: 'tx-1',
  payment_type: 'cardpos',
  status_code: TransactionStatus.completed,
  status: 'completed',
  order_id: 'order-1',
  message: null,
  additional_transaction_data: null,
  amount: 12.5,
  currency: 'EUR',
  included_fees: '0.00',
  error_code: 0,
  ...patch,
});

const OPEN: TillAttempt = {
  attempt_id: 'a-1',
  order_id: 'order-0',
  idempotency_key: 'key-0',
  amount: 7.5,
  currency: 'EUR',
  created_at: '',
  updated_at: '',
};

const transaction = (patch: Partial<Transaction> = {}): Transaction => ({
  transaction_id: 'tx-0',
  created_at: '',
  updated_at: '',
  status_code: TransactionStatus.completed,
  status: 'completed',
  amount: 7.5,
  currency: 'EUR',
  order_id: 'order-0',
  recurring: 0,
  sepa_mandate: null,
  parent_id: null,
  payment_method: 'cardpos',
  message: null,
  sepa_msg_id: null,
  captured_amount: null,
  additional_transaction_data: null,
  card_brand: 'mastercard',
  card_last_four: '4444',
  entry_mode: 'contactless',
  ...patch,
});

/** Which phases take which event, written from the screens (renderer/src/till-screen/till.tsx) apart from the table. */
const EXPECTED_FROM: Record<TillEventType, readonly PhaseName[]> = {
  keypad: ['amount'],
  setReference: ['amount'],
  charge: ['amount'],
  reader: ['amount', 'waiting'],
  cancelWaiting: ['waiting'],
  pinBlock: ['pin'],
  cancelPin: ['pin'],
  retryPin: ['declined'],
  anotherCard: ['declined'],
  insertCard: ['declined'],
  tryAgain: ['declined', 'failed'],
  otherPayment: ['declined', 'failed'],
  newSale: PHASES,
  nextAmount: ['failed'],
  dayClosed: ['amount'],
  checkAgain: ['checking'],
  stopChecking: ['checking'],
  recover: ['amount'],
  openAttempt: ['amount'],
  attemptRecorded: ['processing'],
  attemptRefused: ['processing'],
  paid: ['processing', 'checking'],
  payFailed: ['processing', 'checking'],
  resolved: ['checking'],
  resolveFailed: ['checking'],
  resendDue: ['checking'],
  resolveDue: ['checking'],
};

/** One event of each type, for the table-wide checks. */
const ONE_OF_EACH: Record<TillEventType, TillEvent> = {
  keypad: { type: 'keypad', key: '5' },
  setReference: { type: 'setReference', reference: 'R-1' },
  charge: { type: 'charge' },
  reader: { type: 'reader', event: { type: 'card', card: TAP } },
  cancelWaiting: { type: 'cancelWaiting' },
  pinBlock: { type: 'pinBlock', block: 'ABCDEF0123456789' },
  cancelPin: { type: 'cancelPin' },
  retryPin: { type: 'retryPin' },
  anotherCard: { type: 'anotherCard' },
  insertCard: { type: 'insertCard' },
  tryAgain: { type: 'tryAgain' },
  otherPayment: { type: 'otherPayment' },
  newSale: { type: 'newSale' },
  nextAmount: { type: 'nextAmount', key: '7' },
  dayClosed: { type: 'dayClosed' },
  checkAgain: { type: 'checkAgain' },
  stopChecking: { type: 'stopChecking' },
  recover: { type: 'recover' },
  openAttempt: { type: 'openAttempt', attempt: OPEN },
  attemptRecorded: { type: 'attemptRecorded', key: 'key-1' },
  attemptRefused: { type: 'attemptRefused', key: 'key-1', failure: failure({ kind: 'network' }) },
  paid: { type: 'paid', key: 'key-1', response: response({}) },
  payFailed: { type: 'payFailed', key: 'key-1', failure: failure({ kind: 'network' }) },
  resolved: { type: 'resolved', resolution: { state: 'none' } },
  resolveFailed: { type: 'resolveFailed', failure: failure({ kind: 'network' }) },
  resendDue: { type: 'resendDue' },
  resolveDue: { type: 'resolveDue' },
};

/** A model in each phase, with a sale in flight wherever one can be. */
const IN_PHASE: Record<PhaseName, TillModel> = {
  amount: model({ digits: '1250' }),
  waiting: model({ phase: { name: 'waiting', insertOnly: false }, sale: sale() }),
  processing: inFlight(),
  pin: model({ phase: { name: 'pin', insertPath: false }, sale: sale({ card: TAP, pinRequested: true, sent: true }) }),
  approved: model({
    phase: {
      name: 'approved',
      sale: {
        transaction_id: 'tx-1',
        amount: 12.5,
        currency: 'EUR',
        verification: 'none',
        card: { brand: 'visa', last_four: '1111', entry_mode: 'contactless', application_label: null, aid: null },
      },
    },
  }),
  declined: model({
    phase: {
      name: 'declined',
      decline: {
        code: 'error',
        title: { id: 'till.decline.error.title' },
        text: { id: 'till.decline.error' },
        retryPin: true,
        insertCard: false,
        tryAgain: true,
      },
    },
    sale: sale({ card: TAP, sent: true }),
  }),
  checking: inFlight({ phase: CHECKING_RESEND }),
  failed: model({
    phase: { name: 'failed', title: { id: 'till.failed.gateway.title' }, message: { id: 'till.failed.gateway' } },
    sale: sale({ card: TAP, sent: true }),
  }),
};

describe('the table', () => {
  test('each event is taken in the phases whose screens offer it, and nowhere else', () => {
    for (const type of Object.keys(EXPECTED_FROM) as TillEventType[]) {
      assert.deepEqual([...TRANSITIONS[type].from].sort(), [...EXPECTED_FROM[type]].sort(), type);
      for (const phase of PHASES) assert.equal(accepts(phase, type), EXPECTED_FROM[type].includes(phase), `${type} in ${phase}`);
    }
  });

  test('an event in a phase not in its `from` is ignored: the same model, no effects', () => {
    let refused = 0;
    for (const type of Object.keys(ONE_OF_EACH) as TillEventType[]) {
      for (const phase of PHASES) {
        if (EXPECTED_FROM[type].includes(phase)) continue;
        const before = IN_PHASE[phase];
        const result = transition(before, ONE_OF_EACH[type], CONTEXT);
        assert.equal(result.state, before, `${type} in ${phase} changed the model`);
        assert.deepEqual(result.effects, [], `${type} in ${phase} asked for effects`);
        refused += 1;
      }
    }
    assert.ok(refused > 150, `${refused} refused pairs checked`);
  });

  test('every event in every phase it is taken in stays inside its `to`', () => {
    for (const type of Object.keys(ONE_OF_EACH) as TillEventType[]) {
      for (const phase of EXPECTED_FROM[type]) go(IN_PHASE[phase], ONE_OF_EACH[type]);
    }
  });

  test('the refusal of a phase the screens no longer show: Another card on the amount screen does nothing', () => {
    const before = model({ sale: sale() });
    assert.equal(transition(before, { type: 'anotherCard' }, CONTEXT).state, before);
  });
});

describe('amount', () => {
  test('keypad: digits build the amount; a kept amount gives way to a digit but not to Back', () => {
    assert.equal(go(model({ digits: '12', notice: { id: 'till.notice.cancelled' } }), { type: 'keypad', key: '5' }).state.digits, '125');
    assert.equal(go(model({ digits: '12' }), { type: 'keypad', key: '5' }).state.notice, null);
    const kept = model({ digits: '1250', amountKept: true });
    assert.deepEqual(
      [
        go(kept, { type: 'keypad', key: '7' }).state.digits,
        go(kept, { type: 'keypad', key: 'back' }).state.digits,
        go(kept, { type: 'keypad', key: '7' }).state.amountKept,
      ],
      ['7', '125', false],
    );
  });

  test('setReference: printable ASCII only, at most 35 characters', () => {
    assert.equal(go(model(), { type: 'setReference', reference: `A\u00e9B\nC${'x'.repeat(40)}` }).state.reference, `ABC${'x'.repeat(32)}`);
  });

  test('charge: nothing without an amount or without a session', () => {
    const none = model();
    assert.equal(go(none, { type: 'charge' }).state, none);
    const noSession = model({ digits: '1250' });
    assert.equal(go(noSession, { type: 'charge' }, { ...CONTEXT, currency: null }).state, noSession);
  });

  test('charge: a new sale waits for the card, its order id stamped with terminal, time and random part', () => {
    const { state, effects } = go(model({ digits: '1250', notice: { id: 'till.notice.cancelled' }, amountKept: true }), { type: 'charge' });
    assert.deepEqual(state.phase, { name: 'waiting', insertOnly: false });
    assert.deepEqual(state.sale, {
      orderId: 'T-1-20300102-030405-AB12',
      amountMinor: 1250,
      currency: 'EUR',
      wrongPins: 0,
      pinRequested: false,
    });
    assert.deepEqual([state.notice, state.amountKept, effects], [null, false, []]);
    assert.equal(go(model({ digits: '1250', reference: '  INV-9 ' }), { type: 'charge' }).state.sale?.orderId, 'INV-9');
  });

  test('charge with an unresolved sale: its open attempt is resolved first, the same amount keeps its order id', () => {
    const unresolved = { orderId: 'order-0', amountMinor: 1250, currency: 'EUR' };
    const { state, effects } = go(model({ digits: '1250', unresolved }), { type: 'charge' });
    assert.deepEqual(state.phase, CHECKING_RESOLVE);
    assert.equal(state.sale, null);
    assert.deepEqual(state.startAfter, unresolved);
    assert.deepEqual(effects, [{ type: 'stopWaiting' }, { type: 'resolve' }]);
    assert.equal(go(model({ digits: '999', unresolved }), { type: 'charge' }).state.startAfter?.orderId, 'T-1-20300102-030405-AB12');
  });

  test('reader on the amount screen: a problem is ignored, a card without an amount asks for one', () => {
    const before = model({ digits: '1250' });
    assert.equal(go(before, { type: 'reader', event: { type: 'problem', problem: 'unreadable' } }).state, before);
    assert.deepEqual(go(model(), { type: 'reader', event: { type: 'card', card: TAP } }).state.notice, { id: 'till.notice.amountFirst' });
  });

  test('reader on the amount screen: with an amount, the card charges at once', () => {
    const { state, effects } = go(model({ digits: '1250' }), { type: 'reader', event: { type: 'card', card: TAP } });
    assert.deepEqual(state.phase, { name: 'processing', since: NOW });
    assert.equal(state.sale?.attempt?.key, 'key-new');
    assert.deepEqual(effects, [
      {
        type: 'recordAttempt',
        key: 'key-new',
        input: { order_id: 'T-1-20300102-030405-AB12', idempotency_key: 'key-new', amount: 12.5, currency: 'EUR' },
      },
    ]);
  });

  test('reader on the amount screen with an unresolved sale: the card is not taken while the attempt is resolved', () => {
    const { state, effects } = go(model({ digits: '1250', unresolved: ORDER }), { type: 'reader', event: { type: 'card', card: TAP } });
    assert.deepEqual([state.phase, state.sale, effects], [CHECKING_RESOLVE, null, [{ type: 'stopWaiting' }, { type: 'resolve' }]]);
  });

  test('dayClosed: the notice goes', () => {
    assert.equal(go(model({ notice: { id: 'till.notice.unknownLast' } }), { type: 'dayClosed' }).state.notice, null);
  });

  test('recover: asks for the open attempt, unless a sale runs', () => {
    assert.deepEqual(go(model(), { type: 'recover' }).effects, [{ type: 'findOpenAttempt' }]);
    assert.deepEqual(go(model({ sale: sale() }), { type: 'recover' }).effects, []);
  });

  test('openAttempt: an open attempt becomes the unresolved sale and is resolved; none, nothing', () => {
    const { state, effects } = go(model(), { type: 'openAttempt', attempt: OPEN });
    assert.deepEqual(state.unresolved, { orderId: 'order-0', amountMinor: 750, currency: 'EUR' });
    assert.deepEqual([state.phase, state.startAfter, effects], [CHECKING_RESOLVE, null, [{ type: 'stopWaiting' }, { type: 'resolve' }]]);
    const before = model();
    assert.equal(go(before, { type: 'openAttempt', attempt: null }).state, before);
  });
});

describe('waiting for the card', () => {
  const waiting = (patch: Partial<Sale> = {}, insertOnly = false) => model({ phase: { name: 'waiting', insertOnly }, sale: sale(patch) });

  test('reader problem: said in plain words', () => {
    assert.deepEqual(go(waiting(), { type: 'reader', event: { type: 'problem', problem: 'multiple_cards' } }).state.readerMessage, {
      id: 'till.reader.multipleCards',
    });
  });

  test('reader card: the request is built and recorded as the open attempt before it goes out', () => {
    const { state, effects } = go(waiting({}, false), { type: 'reader', event: { type: 'card', card: CHIP } });
    assert.deepEqual(state.phase, { name: 'processing', since: NOW });
    const attempt = state.sale?.attempt;
    assert.equal(attempt?.key, 'key-new');
    assert.equal(attempt?.pinUsed, false);
    assert.deepEqual(attempt?.request.pos_data?.type, { terminal_entry_mode: 'chip' });
    assert.equal(state.sale?.card, CHIP);
    assert.equal(state.sale?.sent, undefined, 'sent once the gateway recorded the attempt');
    assert.deepEqual(effects, [
      { type: 'recordAttempt', key: 'key-new', input: { order_id: 'order-1', idempotency_key: 'key-new', amount: 12.5, currency: 'EUR' } },
    ]);
  });

  test('reader card without the terminal: nothing is sent', () => {
    const before = waiting();
    assert.equal(go(before, { type: 'reader', event: { type: 'card', card: TAP } }, { ...CONTEXT, terminal: null }).state, before);
  });

  test('reader card on the insert path: a tapped card is refused, the inserted one goes to the PIN', () => {
    assert.deepEqual(
      go(waiting({ pinRequested: true }, true), { type: 'reader', event: { type: 'card', card: TAP } }).state.readerMessage,
      { id: 'till.reader.chipNeeded' },
    );
    const { state, effects } = go(waiting({ pinRequested: true }, true), { type: 'reader', event: { type: 'card', card: CHIP } });
    assert.deepEqual([state.phase, state.sale?.card, effects], [{ name: 'pin', insertPath: true }, CHIP, []]);
  });

  test('cancelWaiting: back to the amount; after a PIN request it says the sale was cancelled and closes the attempt', () => {
    const plain = go(waiting(), { type: 'cancelWaiting' });
    assert.deepEqual(
      [plain.state.phase, plain.state.sale, plain.state.notice, plain.effects],
      [{ name: 'amount' }, null, null, [{ type: 'stopWaiting' }]],
    );
    const after = go(waiting({ pinRequested: true, sent: true, card: SWIPE }, true), { type: 'cancelWaiting' });
    assert.deepEqual(
      [after.state.notice, after.effects],
      [{ id: 'till.notice.cancelled' }, [{ type: 'stopWaiting' }, { type: 'closeAttempt' }]],
    );
  });
});

describe('PIN entry', () => {
  const pin = model({ phase: { name: 'pin', insertPath: false }, sale: sale({ card: TAP, pinRequested: true, sent: true }) });

  test('pinBlock: the subsequent request with the block', () => {
    const { state, effects } = go(pin, { type: 'pinBlock', block: 'ABCDEF0123456789' });
    assert.equal(state.phase.name, 'processing');
    assert.equal(state.sale?.attempt?.pinUsed, true);
    assert.equal(state.sale?.attempt?.request.pos_data?.type?.sequence, 'subsequent');
    assert.equal(state.sale?.attempt?.request.pos_data?.pin_block?.block, 'ABCDEF0123456789');
    assert.equal(effects[0]?.type, 'recordAttempt');
  });

  test('cancelPin: the amount is kept for Enter and named', () => {
    const { state, effects } = go(pin, { type: 'cancelPin' });
    assert.deepEqual([state.phase, state.digits, state.amountKept, state.sale], [{ name: 'amount' }, '1250', true, null]);
    assert.deepEqual(state.notice, { id: 'till.notice.pinCancelled', values: { amount: '12.50 EUR' } });
    assert.deepEqual(effects, [{ type: 'stopWaiting' }, { type: 'closeAttempt' }]);
  });
});

describe('declined and failed', () => {
  const declined = (retryPin: boolean, tryAgain: boolean, patch: Partial<Sale> = {}) =>
    model({
      phase: {
        name: 'declined',
        decline: {
          code: '55',
          title: { id: 'till.decline.55.title' },
          text: { id: 'till.decline.55' },
          retryPin,
          insertCard: false,
          tryAgain,
        },
      },
      sale: sale({ card: TAP, sent: true, wrongPins: 1, ...patch }),
    });
  const failedModel = (patch: Partial<Sale> = {}) =>
    model({
      phase: { name: 'failed', title: { id: 'till.failed.gateway.title' }, message: { id: 'till.failed.gateway' } },
      sale: sale({ card: TAP, sent: true, ...patch }),
    });

  test('retryPin: offered after a 55 with tries left, not otherwise', () => {
    const { state } = go(declined(true, false), { type: 'retryPin' });
    assert.deepEqual([state.phase, state.sale?.pinRequested], [{ name: 'pin', insertPath: false }, true]);
    const refused = declined(false, false);
    assert.equal(go(refused, { type: 'retryPin' }).state, refused);
  });

  test('anotherCard: the same order, a new PIN count, no card and no request', () => {
    const { state } = go(declined(false, false, { attempt: ATTEMPT, pinRequested: true }), { type: 'anotherCard' });
    assert.deepEqual(state.phase, { name: 'waiting', insertOnly: false });
    assert.deepEqual(state.sale, { ...ORDER, wrongPins: 0, pinRequested: false, sent: true });
  });

  test('insertCard: the same card inserted, its PIN count kept', () => {
    const { state } = go(declined(false, false), { type: 'insertCard' });
    assert.deepEqual([state.phase, state.sale?.wrongPins, state.sale?.card], [{ name: 'waiting', insertOnly: true }, 1, undefined]);
  });

  test('tryAgain: a processor error sends the same card again with a new key; a plain decline does not', () => {
    const { state, effects } = go(declined(false, true), { type: 'tryAgain' });
    assert.deepEqual([state.phase.name, state.sale?.attempt?.key, effects[0]?.type], ['processing', 'key-new', 'recordAttempt']);
    const plain = declined(false, false);
    assert.equal(go(plain, { type: 'tryAgain' }).state, plain);
  });

  test('tryAgain after a refusal: the card again; after a PIN request, a new card', () => {
    assert.equal(go(failedModel(), { type: 'tryAgain' }).state.phase.name, 'processing');
    const { state, effects } = go(failedModel({ pinRequested: true, attempt: ATTEMPT }), { type: 'tryAgain' });
    assert.deepEqual(
      [state.phase, state.sale?.pinRequested, state.sale?.attempt, effects],
      [{ name: 'waiting', insertOnly: false }, false, undefined, []],
    );
  });

  test('otherPayment: the amount to take another way is named, and the attempt is closed', () => {
    const { state, effects } = go(declined(false, false), { type: 'otherPayment' });
    assert.deepEqual(
      [state.phase, state.sale, state.digits, state.notice],
      [{ name: 'amount' }, null, '', { id: 'till.notice.otherPayment', values: { amount: '12.50 EUR' } }],
    );
    assert.deepEqual(effects, [{ type: 'stopWaiting' }, { type: 'closeAttempt' }]);
    assert.deepEqual(go(model({ phase: IN_PHASE.failed.phase }), { type: 'otherPayment' }).state.notice, {
      id: 'till.notice.otherPaymentNoAmount',
    });
  });

  test('nextAmount: a digit on a refusal starts the next amount with it', () => {
    const { state } = go(failedModel(), { type: 'nextAmount', key: '7' });
    assert.deepEqual([state.phase, state.digits, state.sale, state.reference], [{ name: 'amount' }, '7', null, '']);
  });
});

describe('newSale', () => {
  test('from every phase to an empty amount screen; an unknown outcome stays open', () => {
    for (const phase of PHASES) {
      const { state, effects } = go({ ...IN_PHASE[phase], reference: 'R', digits: '5' }, { type: 'newSale' });
      assert.deepEqual(
        [state.phase, state.sale, state.digits, state.reference, state.readerMessage],
        [{ name: 'amount' }, null, '', '', null],
        phase,
      );
      const closes = phase !== 'checking' && IN_PHASE[phase].sale?.sent === true;
      assert.deepEqual(effects, closes ? [{ type: 'stopWaiting' }, { type: 'closeAttempt' }] : [{ type: 'stopWaiting' }], phase);
    }
  });
});

describe('the gateway records the attempt', () => {
  test('attemptRecorded: the request goes out, the sale counts as sent', () => {
    const { state, effects } = go(inFlight({ sale: sale({ card: TAP, attempt: ATTEMPT }) }), { type: 'attemptRecorded', key: 'key-1' });
    assert.deepEqual([state.phase, state.sale?.sent], [{ name: 'processing', since: NOW }, true]);
    assert.deepEqual(effects, [{ type: 'pay', key: 'key-1', request: ATTEMPT.request }]);
  });

  test('attemptRecorded of a request no longer in flight: ignored', () => {
    const before = inFlight();
    assert.equal(go(before, { type: 'attemptRecorded', key: 'key-old' }).state, before);
  });

  test('attemptRefused, in flight or charged already: the open attempt is resolved first, nothing is sent', () => {
    for (const code of [ErrorCode.idempotencyInFlight, ErrorCode.invalidState]) {
      const { state, effects } = go(inFlight(), { type: 'attemptRefused', key: 'key-1', failure: failure({ status: 409, code }) });
      assert.deepEqual([state.phase, state.unresolved, state.sale?.attempt, state.startAfter], [CHECKING_RESOLVE, ORDER, undefined, null]);
      assert.deepEqual(effects, [{ type: 'stopWaiting' }, { type: 'resolve' }]);
    }
  });

  test('attemptRefused, no answer: the gateway is unreachable, the request is dropped', () => {
    const { state, effects } = go(inFlight(), { type: 'attemptRefused', key: 'key-1', failure: failure({ kind: 'network' }) });
    assert.deepEqual(
      [state.phase, state.sale?.attempt, effects],
      [{ name: 'failed', title: { id: 'till.failed.gateway.title' }, message: { id: 'till.failed.gateway' } }, undefined, []],
    );
  });

  test('attemptRefused, session over: back to the amount and the session ends', () => {
    const { state, effects } = go(inFlight({ sale: sale({ card: TAP, attempt: ATTEMPT }) }), {
      type: 'attemptRefused',
      key: 'key-1',
      failure: failure({ status: 401 }),
    });
    assert.deepEqual([state.phase, state.sale], [{ name: 'amount' }, null]);
    assert.deepEqual(effects, [{ type: 'stopWaiting' }, { type: 'endSession', message: 'till.session.endedSale' }]);
  });

  test('attemptRefused otherwise: not sent, with the fields the gateway named', () => {
    const { state } = go(inFlight(), {
      type: 'attemptRefused',
      key: 'key-1',
      failure: failure({ message: 'Bad', errors: [{ field: 'amount', message: 'too big' }] }),
    });
    assert.deepEqual(state.phase, {
      name: 'failed',
      title: { id: 'till.failed.notSent.title' },
      message: { id: 'till.failed.notSent.details', values: { reason: 'Bad', details: 'amount: too big' } },
    });
  });

  test('attemptRefused of a request no longer in flight: ignored', () => {
    const before = inFlight();
    assert.equal(go(before, { type: 'attemptRefused', key: 'key-old', failure: failure({ kind: 'network' }) }).state, before);
  });
});

describe('the gateway answers the payment', () => {
  const paid = (patch: Partial<TransactionResponse>, from: TillModel = inFlight()) =>
    go(from, { type: 'paid', key: 'key-1', response: response(patch) });

  test('approved: the result screen, the amount cleared, the attempt closed', () => {
    const { state, effects } = paid({ card_last_four: '9999' }, inFlight({ digits: '1250', reference: 'R' }));
    assert.deepEqual(state.phase, {
      name: 'approved',
      sale: {
        transaction_id: 'tx-1',
        amount: 12.5,
        currency: 'EUR',
        verification: 'none',
        card: { brand: 'visa', last_four: '9999', entry_mode: 'contactless', application_label: null, aid: null },
      },
    });
    assert.deepEqual([state.sale, state.digits, state.reference], [null, '', '']);
    assert.deepEqual(effects, [{ type: 'stopWaiting' }, { type: 'closeAttempt' }]);
  });

  test('stored at a joined till: approved and marked stored; with a PIN: online PIN', () => {
    const pinned = inFlight({ sale: sale({ card: TAP, attempt: { ...ATTEMPT, pinUsed: true }, sent: true }) });
    const { state } = paid({ status_code: TransactionStatus.stored }, pinned);
    assert.equal(state.phase.name === 'approved' && state.phase.sale.stored, true);
    assert.equal(state.phase.name === 'approved' && state.phase.sale.verification, 'online_pin');
  });

  test('request_pin: a tapped card goes to the PIN pad, a swiped one to the insert path, or as the gateway says', () => {
    const tapped = paid({ status_code: TransactionStatus.declined, message: 'request_pin' });
    assert.deepEqual(
      [tapped.state.phase, tapped.state.sale?.pinRequested, tapped.state.sale?.attempt],
      [{ name: 'pin', insertPath: false }, true, undefined],
    );
    const swiped = inFlight({ sale: sale({ card: SWIPE, attempt: ATTEMPT, sent: true }) });
    assert.deepEqual(paid({ status_code: TransactionStatus.declined, message: 'request_pin' }, swiped).state.phase, {
      name: 'waiting',
      insertOnly: true,
    });
    assert.deepEqual(paid({ status_code: TransactionStatus.declined, message: 'request_pin', insert_card: true }).state.phase, {
      name: 'waiting',
      insertOnly: true,
    });
  });

  test('declined 55 after a PIN: one more wrong PIN, the PIN pad offered while tries are left', () => {
    const pinned = (wrongPins: number) =>
      inFlight({ sale: sale({ card: TAP, attempt: { ...ATTEMPT, pinUsed: true }, sent: true, wrongPins }) });
    const { state } = paid({ status_code: TransactionStatus.declined, message: '55 Incorrect PIN', reason_code: '55' }, pinned(0));
    assert.equal(state.sale?.wrongPins, 1);
    assert.deepEqual(state.phase.name === 'declined' && state.phase.decline.text, {
      id: 'till.decline.55',
      values: { tries: PIN_TRIES - 1 },
    });
    const last = paid({ status_code: TransactionStatus.declined, message: '55 Incorrect PIN' }, pinned(PIN_TRIES - 1));
    assert.equal(last.state.phase.name === 'declined' && last.state.phase.decline.retryPin, false);
  });

  test('declined without a PIN, 51, and an unknown code with its text', () => {
    assert.deepEqual(paid({ status_code: TransactionStatus.declined, message: '55 Incorrect PIN' }).state.sale?.wrongPins, 0);
    const insufficient = paid({ status_code: TransactionStatus.declined, message: '51 Insufficient funds' });
    assert.deepEqual(insufficient.state.phase.name === 'declined' && insufficient.state.phase.decline.title, {
      id: 'till.decline.51.title',
    });
    assert.deepEqual(insufficient.effects, [{ type: 'stopWaiting' }]);
    const other = paid({ status_code: TransactionStatus.declined, message: '62 Restricted card' });
    assert.deepEqual(other.state.phase.name === 'declined' && other.state.phase.decline.text, {
      id: 'till.decline.other.reason',
      values: { reason: 'Restricted card', code: '62' },
    });
  });

  test('a processor error: declined with Try again; an unexpected status: failed', () => {
    const error = paid({ status_code: TransactionStatus.error, message: 'Issuer down' });
    assert.equal(error.state.phase.name === 'declined' && error.state.phase.decline.tryAgain, true);
    assert.equal(error.state.sale?.attempt, undefined);
    const odd = paid({ status_code: TransactionStatus.pending, status: 'pending' });
    assert.deepEqual(odd.state.phase, {
      name: 'failed',
      title: { id: 'till.failed.unexpected.title' },
      message: { id: 'till.failed.unexpected', values: { status: 'pending' } },
    });
  });

  test('an answer while checking (the resend answered): taken', () => {
    assert.equal(paid({}, inFlight({ phase: CHECKING_RESEND })).state.phase.name, 'approved');
  });

  test('an answer to a request no longer in flight: ignored', () => {
    const before = inFlight();
    assert.equal(go(before, { type: 'paid', key: 'key-old', response: response({}) }).state, before);
  });
});

describe('no answer', () => {
  const payFailed = (failed: Partial<Failure>, from: TillModel = inFlight()) =>
    go(from, { type: 'payFailed', key: 'key-1', failure: failure(failed) });

  test('network: checking, the same request again in 1, 2, 4 s, then every 3 s', () => {
    const waits: unknown[] = [];
    let current = inFlight();
    for (let i = 0; i < 5; i += 1) {
      const { state, effects } = payFailed({ kind: 'network' }, current);
      waits.push([state.phase.name === 'checking' && state.phase.automatic, effects]);
      current = state;
    }
    assert.deepEqual(waits, [
      [true, [{ type: 'wait', ms: 1000, then: 'resendDue' }]],
      [true, [{ type: 'wait', ms: 2000, then: 'resendDue' }]],
      [true, [{ type: 'wait', ms: 4000, then: 'resendDue' }]],
      [false, [{ type: 'wait', ms: 3000, then: 'resendDue' }]],
      [false, [{ type: 'wait', ms: 3000, then: 'resendDue' }]],
    ]);
    assert.equal(current.sale?.attempt, ATTEMPT, 'the request and its key are kept');
  });

  test('in flight at the gateway, or the centre away while charging: checking too', () => {
    assert.equal(payFailed({ status: 409, code: ErrorCode.idempotencyInFlight }).state.phase.name, 'checking');
    assert.equal(
      payFailed({ status: 503, code: ErrorCode.centreAway, errors: [{ field: 'centre', message: CENTRE_OUTCOME_UNKNOWN }] }).state.phase
        .name,
      'checking',
    );
  });

  test('refusals: nothing was charged, the request is dropped', () => {
    const processor = payFailed({ status: 502, code: ErrorCode.processor });
    assert.deepEqual(
      [processor.state.phase, processor.state.sale?.attempt],
      [{ name: 'failed', title: { id: 'till.failed.network.title' }, message: { id: 'till.failed.network' } }, undefined],
    );
    assert.deepEqual(payFailed({ status: 503, code: ErrorCode.centreAway, message: 'Limit' }).state.phase, {
      name: 'failed',
      title: { id: 'till.failed.centreAway.title' },
      message: { id: 'till.failed.centreAway', values: { reason: 'Limit' } },
    });
    assert.deepEqual(payFailed({ kind: 'unexpected', status: 0, message: 'Oops' }).state.phase, {
      name: 'failed',
      title: { id: 'till.failed.notSent.title' },
      message: { id: 'till.failed.notSent', values: { reason: 'Oops' } },
    });
  });

  test('session over: back to the amount, the attempt closed, the session ended', () => {
    const { state, effects } = payFailed({ status: 401 });
    assert.deepEqual([state.phase, state.notice], [{ name: 'amount' }, null]);
    assert.deepEqual(effects, [
      { type: 'stopWaiting' },
      { type: 'closeAttempt' },
      { type: 'endSession', message: 'till.session.endedSale' },
    ]);
  });

  test('a failure of a request no longer in flight: ignored', () => {
    const before = inFlight();
    assert.equal(go(before, { type: 'payFailed', key: 'key-old', failure: failure({ kind: 'network' }) }).state, before);
  });
});

describe('checking', () => {
  const resolving = (patch: Partial<TillModel> = {}) =>
    model({ phase: CHECKING_RESOLVE, unresolved: { orderId: 'order-0', amountMinor: 750, currency: 'EUR' }, ...patch });

  test('resendDue: the same request again, same key; not while resolving', () => {
    const checking = inFlight({ phase: CHECKING_RESEND });
    assert.deepEqual(go(checking, { type: 'resendDue' }), {
      state: checking,
      effects: [{ type: 'pay', key: 'key-1', request: ATTEMPT.request }],
    });
    assert.deepEqual(go(resolving(), { type: 'resendDue' }).effects, []);
  });

  test('checkAgain: resends at once with the same key; while resolving, asks again; with no request, resolves', () => {
    const { state, effects } = go(inFlight({ phase: { ...CHECKING_RESEND, automatic: false } }), { type: 'checkAgain' });
    assert.deepEqual(state.phase, { name: 'checking', mode: 'resend', automatic: true, message: { id: 'till.checking.resending' } });
    assert.deepEqual(effects, [{ type: 'stopWaiting' }, { type: 'pay', key: 'key-1', request: ATTEMPT.request }]);
    const again = go(resolving({ startAfter: ORDER }), { type: 'checkAgain' });
    assert.deepEqual(
      [again.state.phase, again.state.startAfter, again.effects],
      [CHECKING_RESOLVE, null, [{ type: 'stopWaiting' }, { type: 'resolve' }]],
    );
    assert.deepEqual(go(model({ phase: CHECKING_RESEND, sale: sale() }), { type: 'checkAgain' }).effects, [
      { type: 'stopWaiting' },
      { type: 'resolve' },
    ]);
  });

  test('stopChecking: the sale stays unresolved, its amount kept, the attempt left open', () => {
    const { state, effects } = go(inFlight({ phase: CHECKING_RESEND }), { type: 'stopChecking' });
    assert.deepEqual(
      [state.phase, state.unresolved, state.digits, state.amountKept, state.sale],
      [{ name: 'amount' }, ORDER, '1250', true, null],
    );
    assert.deepEqual(state.notice, { id: 'till.notice.unknown', values: { amount: '12.50 EUR' } });
    assert.deepEqual(effects, [{ type: 'stopWaiting' }]);
    const last = go(model({ phase: CHECKING_RESOLVE }), { type: 'stopChecking' });
    assert.deepEqual([last.state.notice, last.state.digits, last.state.unresolved], [{ id: 'till.notice.unknownLast' }, '', null]);
  });

  test('resolved in progress: asked again, 2, 4, then 8 s at most', () => {
    const inProgress = { type: 'resolved', resolution: { state: 'in_progress', attempt: OPEN } } as const;
    const first = go(resolving(), inProgress);
    assert.deepEqual(first.state.phase, {
      name: 'checking',
      mode: 'resolve',
      automatic: true,
      message: { id: 'till.checking.inProgress', values: { amount: '7.50 EUR' } },
    });
    assert.deepEqual(first.effects, [{ type: 'wait', ms: 2000, then: 'resolveDue' }]);
    assert.deepEqual(go(resolving({ checks: 5 }), inProgress).effects, [{ type: 'wait', ms: 8000, then: 'resolveDue' }]);
  });

  test('resolved approved: that sale is the result, never charged again', () => {
    const { state, effects } = go(resolving({ startAfter: ORDER, digits: '750' }), {
      type: 'resolved',
      resolution: { state: 'approved', attempt: OPEN, transaction: transaction() },
    });
    assert.deepEqual(state.phase, {
      name: 'approved',
      sale: {
        transaction_id: 'tx-0',
        amount: 7.5,
        currency: 'EUR',
        verification: 'none',
        recovered: true,
        card: { brand: 'mastercard', last_four: '4444', entry_mode: 'contactless', application_label: null, aid: null },
      },
    });
    assert.deepEqual(
      [state.unresolved, state.startAfter, state.digits, state.checks, effects],
      [null, null, '', 0, [{ type: 'stopWaiting' }]],
    );
  });

  test('resolved not charged: the charged sale starts; with none, the amount screen says nothing was charged', () => {
    const notCharged = { type: 'resolved', resolution: { state: 'not_charged', attempt: OPEN, transaction: null } } as const;
    const started = go(resolving({ startAfter: ORDER }), notCharged);
    assert.deepEqual(
      [started.state.phase, started.state.sale, started.state.unresolved, started.state.startAfter],
      [{ name: 'waiting', insertOnly: false }, sale(), null, null],
    );
    const plain = go(resolving({ digits: '750' }), notCharged);
    assert.deepEqual(
      [plain.state.phase, plain.state.notice, plain.state.digits],
      [{ name: 'amount' }, { id: 'till.notice.notCharged', values: { amount: '7.50 EUR' } }, '750'],
    );
    assert.equal(go(resolving(), { type: 'resolved', resolution: { state: 'none' } }).state.notice, null);
  });

  test('resolved while resending (an answer the till no longer waits for): ignored', () => {
    const before = inFlight({ phase: CHECKING_RESEND });
    assert.equal(go(before, { type: 'resolved', resolution: { state: 'none' } }).state, before);
  });

  test('resolveFailed: unreachable, asked again every 3 s; session over: the session ends', () => {
    const { state, effects } = go(resolving(), { type: 'resolveFailed', failure: failure({ kind: 'network' }) });
    assert.deepEqual(
      [state.phase, effects],
      [
        { name: 'checking', mode: 'resolve', automatic: false, message: { id: 'till.checking.unreachable' } },
        [{ type: 'wait', ms: 3000, then: 'resolveDue' }],
      ],
    );
    const before = resolving();
    assert.deepEqual(go(before, { type: 'resolveFailed', failure: failure({ status: 401 }) }), {
      state: before,
      effects: [{ type: 'endSession', message: 'till.session.endedCheck' }],
    });
  });

  test('resolveDue: asks again, still starting the charged sale after', () => {
    const { state, effects } = go(resolving({ startAfter: ORDER, phase: { ...CHECKING_RESOLVE, automatic: false } }), {
      type: 'resolveDue',
    });
    assert.deepEqual([state.phase, state.startAfter, effects], [CHECKING_RESOLVE, ORDER, [{ type: 'stopWaiting' }, { type: 'resolve' }]]);
  });
});
