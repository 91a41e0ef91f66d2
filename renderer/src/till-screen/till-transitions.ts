/**
 * The till's transition table, in the style of main/core/payments/state-machine.ts: for each event,
 * the phases it is taken in (`from`), the phases it may lead to (`to`, besides staying put), and a
 * pure step from the till's model to the next model and the effects the store runs (till-store.ts).
 * An event in a phase not listed is ignored: the model and the screen stay as they are.
 *
 *   amount ──Charge──▶ waiting for card ──card──▶ processing ──▶ approved
 *     ▲                   │ Cancel                     │       ├─▶ declined (reason; another card, other payment,
 *     └───────────────────┘                            │       │             PIN again after 55)
 *                                                      │       ├─▶ PIN entry (request_pin) ──PIN──▶ processing
 *                                                      │       └─▶ insert card (request_pin after a swipe) ──▶ PIN entry
 *                                                      └─ no answer ─▶ checking (same idempotency key, never twice)
 *
 * One sale is one order id. Each request to the gateway has its own idempotency key, which is reused
 * only to resend that same request after a network failure. Before a request goes out the till
 * records it on the gateway as the till's open attempt (docs/decisions.md "A sale is never charged
 * twice (D16)"); an attempt whose answer never came stays open (also across a reload or a restart)
 * until the gateway says how it ended, and the till charges nothing before that. So a sale is never
 * charged twice, whatever the cashier presses. The card read lives in the model only while its sale
 * runs; the clear PIN never reaches it (the PIN pad encrypts it and hands over the block, which is
 * dropped once the gateway answered).
 */
import type { PaymentRequest, TransactionResponse } from '../../../contract/api/payments.js';
import type { TillResolution } from '../../../contract/api/till-attempts.js';
import { ErrorCode, TransactionStatus } from '../../../contract/codes.js';
import { CENTRE_OUTCOME_UNKNOWN } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { fromMinorUnits, toMinorUnits } from '../../../contract/money.js';
import type { CardRead, ReaderEvent, ReaderProblem } from './card-read.js';
import { pressAmountKey } from './money.js';
import { buildPosData } from './pos-data.js';
import {
  approvedSaleOf,
  declineOf,
  newOrderId,
  PHASES,
  recoveredSaleOf,
  say,
  type Attempt,
  type Failure,
  type PhaseName,
  type Said,
  type Sale,
  type SaleOrder,
  type TillContext,
  type TillEffect,
  type TillEvent,
  type TillEventType,
  type TillModel,
  type TillPhase,
} from './till-model.js';

/** The next model and what the store does next. */
export interface Step {
  state: TillModel;
  effects: TillEffect[];
}

type EventOf<T extends TillEventType> = Extract<TillEvent, { type: T }>;

export interface Rule<T extends TillEventType> {
  /** The phases the event is taken in. */
  from: readonly PhaseName[];
  /** The phases it may lead to; it may also leave the phase as it is (a Charge with no amount). */
  to: readonly PhaseName[];
  run: (model: TillModel, event: EventOf<T>, context: TillContext) => Step;
}

const AUTOMATIC_CHECKS = 3;
/** How often the till asks again while the gateway does not answer. */
const RECONNECT_CHECK_MS = 3000;

const READER_PROBLEMS: Record<ReaderProblem, MessageId> = {
  removed_too_early: 'till.reader.removedTooEarly',
  multiple_cards: 'till.reader.multipleCards',
  unreadable: 'till.reader.unreadable',
  invalid_card: 'till.reader.invalidCard',
};

const AMOUNT: TillPhase = { name: 'amount' };

const unchanged = (model: TillModel): Step => ({ state: model, effects: [] });

const step = (model: TillModel, patch: Partial<TillModel>, effects: TillEffect[] = []): Step => ({
  state: { ...model, ...patch },
  effects,
});

const failed = (title: MessageId, message: Said): TillPhase => ({ name: 'failed', title: say(title), message });

const orderOf = (sale: SaleOrder): SaleOrder => ({ orderId: sale.orderId, amountMinor: sale.amountMinor, currency: sale.currency });

/** An amount of minor units as the till says it (`12.00 EUR`, `12,00 €`). */
const moneyOf = (context: TillContext, order: SaleOrder): string =>
  context.money(fromMinorUnits(order.amountMinor, order.currency), order.currency);

/** Ends the sale: drops the card read and any pending request (with its PIN block). */
function endSale(model: TillModel, patch: Partial<TillModel> & { phase: TillPhase }): Step {
  // A sale given up after answers the till saw (a decline, a PIN request, a refusal): its attempt
  // on the gateway is closed now, so a reload or the next sale does not ask about it again.
  // An unknown outcome (checking) stays open; an approval closes its attempt itself.
  const close =
    model.sale?.sent === true && model.phase.name !== 'checking' && patch.phase.name !== 'approved' && patch.unresolved === undefined;
  const effects: TillEffect[] = [{ type: 'stopWaiting' }];
  if (close) effects.push({ type: 'closeAttempt' });
  return { state: { ...model, sale: null, readerMessage: null, startAfter: null, ...patch }, effects };
}

/**
 * Asks the gateway how the till's open attempt ended (`resolved`): approved shows that sale's result
 * (it is not charged again); not charged starts `startAfter`, if any; in progress keeps checking.
 */
function resolving(model: TillModel, startAfter: SaleOrder | null): Step {
  const phase: TillPhase = { name: 'checking', mode: 'resolve', automatic: true, message: say('till.checking.resolving') };
  return step(model, { phase, startAfter }, [{ type: 'stopWaiting' }, { type: 'resolve' }]);
}

function startSale(model: TillModel, order: SaleOrder): Step {
  const sale: Sale = { ...order, wrongPins: 0, pinRequested: false };
  return step(model, { sale, phase: { name: 'waiting', insertOnly: false }, readerMessage: null, notice: null, amountKept: false });
}

function charge(model: TillModel, context: TillContext): Step {
  const amountMinor = Number(model.digits || '0');
  const { currency } = context;
  if (amountMinor <= 0 || currency === null) return unchanged(model);
  const { unresolved } = model;
  // The same sale again (same amount) keeps its order id; the gateway refuses a charged one.
  const same = unresolved !== null && unresolved.amountMinor === amountMinor && unresolved.currency === currency;
  const order: SaleOrder = { orderId: same ? unresolved.orderId : newOrderId(model.reference, context), amountMinor, currency };
  // An earlier attempt with no known outcome is settled first: it may have charged this sale.
  return unresolved ? resolving(model, order) : startSale(model, order);
}

/** Builds the sale's next request (a new key) and records it as the till's open attempt before it goes out. */
function sendNew(model: TillModel, card: CardRead, context: TillContext, pinBlock?: string): Step {
  const { sale } = model;
  const { terminal } = context;
  if (!sale || !terminal) return unchanged(model);
  const request: PaymentRequest = {
    payment_type: 'cardpos',
    order_id: sale.orderId,
    amount: fromMinorUnits(sale.amountMinor, sale.currency),
    currency: sale.currency,
    pos_data: buildPosData(card, terminal, pinBlock ? { sequence: 'subsequent', pinBlock } : {}),
  };
  const key = context.newKey;
  const attempt: Attempt = { request, key, pinUsed: Boolean(pinBlock) };
  const input = { order_id: request.order_id, idempotency_key: key, amount: request.amount, currency: request.currency };
  const patch = {
    checks: 0,
    sale: { ...sale, card, attempt },
    phase: { name: 'processing', since: context.now } as const,
    readerMessage: null,
  };
  return step(model, patch, [{ type: 'recordAttempt', key, input }]);
}

/** A card (or a problem) at the reader while the till waits for the card. */
function cardPresented(model: TillModel, event: ReaderEvent, context: TillContext): Step {
  if (event.type === 'problem') return step(model, { readerMessage: say(READER_PROBLEMS[event.problem]) });
  const { sale, phase } = model;
  if (!sale || phase.name !== 'waiting') return unchanged(model);
  if (phase.insertOnly && event.card.entry !== 'chip') return step(model, { readerMessage: say('till.reader.chipNeeded') });
  // The insert path of a PIN request: the card is in, now the PIN.
  if (sale.pinRequested)
    return step(model, { sale: { ...sale, card: event.card }, phase: { name: 'pin', insertPath: true }, readerMessage: null });
  return sendNew(model, event.card, context);
}

/** A card at the reader while the amount is on screen: with an amount typed, Charge and the card are one step. */
function cardFirst(model: TillModel, event: ReaderEvent, context: TillContext): Step {
  if (event.type !== 'card') return unchanged(model);
  if (Number(model.digits || '0') <= 0) return step(model, { notice: say('till.notice.amountFirst') });
  const charged = charge(model, context);
  // No sale started (nobody logged in, or an open attempt is resolved first): the card is not taken.
  if (charged.state.phase.name !== 'waiting') return charged;
  const presented = cardPresented(charged.state, event, context);
  return { state: presented.state, effects: [...charged.effects, ...presented.effects] };
}

/** The sale's request in flight under `key`, if it still is the one the till waits for. */
function inFlight(model: TillModel, key: string): { sale: Sale; attempt: Attempt } | undefined {
  const sale = model.sale;
  return sale?.attempt?.key === key ? { sale, attempt: sale.attempt } : undefined;
}

function approved(model: TillModel, card: CardRead, response: TransactionResponse, pinUsed: boolean): Step {
  const ended = endSale(model, {
    phase: { name: 'approved', sale: approvedSaleOf(card, response, pinUsed) },
    digits: '',
    reference: '',
    amountKept: false,
  });
  // The till has seen the outcome: close its attempt. If this call is lost, the next sale's
  // attempt is refused until the till resolves it, which finds this approval.
  return { state: ended.state, effects: [...ended.effects, { type: 'closeAttempt' }] };
}

/** The gateway answered the sale's request (approved, declined, PIN wanted, or a processor error). */
function answered(model: TillModel, sale: Sale, attempt: Attempt, response: TransactionResponse): Step {
  const card = sale.card;
  if (!card) return unchanged(model);
  const stop: TillEffect[] = [{ type: 'stopWaiting' }];
  // The request is answered: its PIN block is no longer needed.
  const settled: Sale = { ...sale, attempt: undefined };
  const status = response.status_code;
  // A stored sale (a joined till while its centre is away) is approved at the till: forwarded later.
  if (status === TransactionStatus.completed || status === TransactionStatus.authorized || status === TransactionStatus.stored)
    return approved(model, card, response, attempt.pinUsed);
  if (status === TransactionStatus.declined && response.message === 'request_pin') {
    // The gateway says whether the card must be inserted for the PIN (e.g. after a swipe); a tapped
    // card only needs the PIN. Older gateways do not say: then a swiped card goes the insert path.
    const insertPath = response.insert_card ?? card.entry === 'swipe';
    const phase: TillPhase = insertPath ? { name: 'waiting', insertOnly: true } : { name: 'pin', insertPath: false };
    return step(model, { sale: { ...settled, pinRequested: true }, phase, readerMessage: null }, stop);
  }
  if (status === TransactionStatus.declined) {
    const match = /^(\w{2})\s*(.*)$/.exec(response.message ?? '');
    const code = response.reason_code ?? match?.[1] ?? '??';
    const wrongPins = settled.wrongPins + (code === '55' && attempt.pinUsed ? 1 : 0);
    const decline = declineOf(code, match?.[2] ?? '', wrongPins, attempt.pinUsed);
    return step(model, { sale: { ...settled, wrongPins }, phase: { name: 'declined', decline }, readerMessage: null }, stop);
  }
  if (status === TransactionStatus.error)
    return step(
      model,
      { sale: settled, phase: { name: 'declined', decline: declineOf('error', response.message ?? '', settled.wrongPins) } },
      stop,
    );
  return step(
    model,
    { sale: settled, phase: failed('till.failed.unexpected.title', say('till.failed.unexpected', { status: response.status })) },
    stop,
  );
}

/** No answer, or an answer that may still be coming: whether the card was charged is not known. */
function outcomeUnknown(failure: Failure): boolean {
  return (
    failure.kind === 'network' ||
    (failure.kind === 'api' && failure.code === ErrorCode.idempotencyInFlight) ||
    // A joined till whose centre went away while it charged: asked again, like a lost answer.
    (failure.kind === 'api' &&
      failure.code === ErrorCode.centreAway &&
      failure.errors.some((e) => e.field === 'centre' && e.message === CENTRE_OUTCOME_UNKNOWN))
  );
}

/** Did the card get charged? The same request again (same key: the gateway answers it once). */
function resendLater(model: TillModel): Step {
  const checks = model.checks + 1;
  const automatic = checks <= AUTOMATIC_CHECKS;
  const phase: TillPhase = {
    name: 'checking',
    mode: 'resend',
    automatic,
    message: say(automatic ? 'till.checking.noAnswer' : 'till.checking.stillNoAnswer'),
  };
  // Quickly at first, then every few seconds until the gateway answers: a gateway back after a
  // restart is asked at once.
  return step(model, { checks, phase }, [
    { type: 'wait', ms: automatic ? 1000 * 2 ** (checks - 1) : RECONNECT_CHECK_MS, then: 'resendDue' },
  ]);
}

/** The screen for a request the gateway refused (it did nothing). */
function refusal(failure: Failure): TillPhase {
  if (failure.kind === 'api' && failure.code === ErrorCode.processor)
    return failed('till.failed.network.title', say('till.failed.network'));
  // A joined till whose centre is away, and this sale cannot be stored (a limit, or not card-present).
  if (failure.kind === 'api' && failure.code === ErrorCode.centreAway)
    return failed('till.failed.centreAway.title', say('till.failed.centreAway', { reason: failure.message }));
  const details = failure.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  const message = details
    ? say('till.failed.notSent.details', { reason: failure.message, details })
    : say('till.failed.notSent', { reason: failure.message });
  return failed('till.failed.notSent.title', message);
}

/** The sale's request got no answer, or was refused. */
function unanswered(model: TillModel, failure: Failure): Step {
  if (outcomeUnknown(failure)) return resendLater(model);
  if (failure.kind === 'api' && failure.status === 401) {
    const ended = endSale(model, { phase: AMOUNT, notice: null });
    return { state: ended.state, effects: [...ended.effects, { type: 'endSession', message: 'till.session.endedSale' }] };
  }
  // The gateway refused the request: it did nothing, so a fresh request is safe.
  const sale = model.sale ? { ...model.sale, attempt: undefined } : null;
  return step(model, { sale, phase: refusal(failure) });
}

/** The gateway refused to record the attempt: nothing was sent. */
function attemptRefused(model: TillModel, key: string, failure: Failure): Step {
  const current = inFlight(model, key);
  if (!current) return unchanged(model);
  const dropped: TillModel = { ...model, sale: { ...current.sale, attempt: undefined } };
  if (failure.kind === 'api' && (failure.code === ErrorCode.idempotencyInFlight || failure.code === ErrorCode.invalidState)) {
    // An earlier payment of this till may still be charging, or this sale was charged already:
    // find out how it ended first; nothing is sent for this one.
    return resolving({ ...dropped, unresolved: orderOf(current.sale) }, null);
  }
  // The request is dropped, and trying again is safe.
  if (failure.kind === 'network') return step(dropped, { phase: failed('till.failed.gateway.title', say('till.failed.gateway')) });
  return unanswered(dropped, failure);
}

const resolvingNow = (model: TillModel): boolean => model.phase.name === 'checking' && model.phase.mode === 'resolve';

/** How the till's open attempt ended, as the gateway says. */
function resolved(model: TillModel, resolution: TillResolution, context: TillContext): Step {
  if (!resolvingNow(model)) return unchanged(model);
  if (resolution.state === 'in_progress') {
    const checks = model.checks + 1;
    const message = say('till.checking.inProgress', { amount: context.money(resolution.attempt.amount, resolution.attempt.currency) });
    const phase: TillPhase = { name: 'checking', mode: 'resolve', automatic: true, message };
    return step(model, { checks, phase }, [{ type: 'wait', ms: Math.min(8000, 1000 * 2 ** Math.min(checks, 3)), then: 'resolveDue' }]);
  }
  const settled: TillModel = { ...model, checks: 0, unresolved: null };
  if (resolution.state === 'approved') {
    return endSale(settled, {
      phase: { name: 'approved', sale: recoveredSaleOf(resolution.transaction) },
      digits: '',
      reference: '',
      amountKept: false,
      notice: null,
    });
  }
  if (model.startAfter) return startSale({ ...settled, startAfter: null }, model.startAfter);
  const amount = resolution.state === 'not_charged' ? context.money(resolution.attempt.amount, resolution.attempt.currency) : null;
  return endSale(settled, { phase: AMOUNT, notice: amount ? say('till.notice.notCharged', { amount }) : null });
}

function resolveFailed(model: TillModel, failure: Failure): Step {
  if (!resolvingNow(model)) return unchanged(model);
  if (failure.kind === 'api' && failure.status === 401)
    return { state: model, effects: [{ type: 'endSession', message: 'till.session.endedCheck' }] };
  const phase: TillPhase = { name: 'checking', mode: 'resolve', automatic: false, message: say('till.checking.unreachable') };
  // Checks again by itself: a gateway back after a restart or a network cut is asked at once.
  return step(model, { phase }, [{ type: 'wait', ms: RECONNECT_CHECK_MS, then: 'resolveDue' }]);
}

function checkAgain(model: TillModel): Step {
  const attempt = model.sale?.attempt;
  if (model.phase.name !== 'checking' || model.phase.mode === 'resolve' || !attempt) return resolving(model, null);
  const phase: TillPhase = { name: 'checking', mode: 'resend', automatic: true, message: say('till.checking.resending') };
  return step(model, { phase }, [{ type: 'stopWaiting' }, { type: 'pay', key: attempt.key, request: attempt.request }]);
}

function stopChecking(model: TillModel, context: TillContext): Step {
  const unresolved = model.sale ? orderOf(model.sale) : model.unresolved;
  const notice = unresolved ? say('till.notice.unknown', { amount: moneyOf(context, unresolved) }) : say('till.notice.unknownLast');
  // The attempt stays open on the gateway: the next charge (or the next start) asks how it ended first.
  return endSale(model, { phase: AMOUNT, unresolved, digits: unresolved ? String(unresolved.amountMinor) : '', amountKept: true, notice });
}

function tryAgain(model: TillModel, context: TillContext): Step {
  const { sale, phase } = model;
  if (!sale || (phase.name === 'declined' && phase.decline.tryAgain !== true)) return unchanged(model);
  if (sale.card && !sale.pinRequested) return sendNew(model, sale.card, context);
  return step(model, { sale: { ...sale, pinRequested: false, attempt: undefined }, phase: { name: 'waiting', insertOnly: false } });
}

/** Another card for the same order: `insertOnly` is this card again, inserted, keeping its PIN count. */
function freshCard(model: TillModel, insertOnly: boolean): Step {
  const sale = model.sale;
  if (!sale) return unchanged(model);
  // A new card starts its own PIN count; the order stays the same.
  const next: Sale = { ...orderOf(sale), wrongPins: insertOnly ? sale.wrongPins : 0, pinRequested: false, sent: sale.sent };
  return step(model, { sale: next, phase: { name: 'waiting', insertOnly }, readerMessage: null });
}

function recoverFound(model: TillModel, event: EventOf<'openAttempt'>): Step {
  const open = event.attempt;
  if (!open || model.sale) return unchanged(model);
  const unresolved: SaleOrder = { orderId: open.order_id, amountMinor: toMinorUnits(open.amount, open.currency), currency: open.currency };
  return resolving({ ...model, unresolved }, null);
}

// ---- the steps the table names that are not above --------------------------------------------------

type Run<T extends TillEventType> = Rule<T>['run'];

// A kept amount (from a cancelled sale) is charged with Enter; typing starts a new amount.
const keypad: Run<'keypad'> = (m, e) =>
  step(m, { digits: pressAmountKey(m.amountKept && e.key !== 'back' ? '' : m.digits, e.key), notice: null, amountKept: false });

const setReference: Run<'setReference'> = (m, e) => step(m, { reference: e.reference.replace(/[^\x20-\x7e]/g, '').slice(0, 35) });

const reader: Run<'reader'> = (m, e, c) => (m.phase.name === 'amount' ? cardFirst(m, e.event, c) : cardPresented(m, e.event, c));

const cancelWaiting: Run<'cancelWaiting'> = (m) =>
  endSale(m, { phase: AMOUNT, notice: m.sale?.pinRequested ? say('till.notice.cancelled') : null });

const pinBlock: Run<'pinBlock'> = (m, e, c) => (m.sale?.card ? sendNew(m, m.sale.card, c, e.block) : unchanged(m));

/** PIN Cancel keeps the amount for Enter, and names it. */
const cancelPin: Run<'cancelPin'> = (m, _e, c) => {
  if (!m.sale) return unchanged(m);
  const notice = say('till.notice.pinCancelled', { amount: moneyOf(c, m.sale) });
  return endSale(m, { phase: AMOUNT, digits: String(m.sale.amountMinor), amountKept: true, notice });
};

const retryPin: Run<'retryPin'> = (m) => {
  if (m.phase.name !== 'declined' || !m.phase.decline.retryPin || !m.sale?.card) return unchanged(m);
  return step(m, { sale: { ...m.sale, pinRequested: true }, phase: { name: 'pin', insertPath: false } });
};

/** "Other payment" names the amount to take another way. */
const otherPayment: Run<'otherPayment'> = (m, _e, c) => {
  const notice = m.sale ? say('till.notice.otherPayment', { amount: moneyOf(c, m.sale) }) : say('till.notice.otherPaymentNoAmount');
  return endSale(m, { phase: AMOUNT, digits: '', reference: '', amountKept: false, notice });
};

const newSale: Run<'newSale'> = (m) => endSale(m, { phase: AMOUNT, digits: '', reference: '', notice: null, amountKept: false });

const nextAmount: Run<'nextAmount'> = (m, e) =>
  endSale(m, { phase: AMOUNT, digits: pressAmountKey('', e.key), reference: '', notice: null, amountKept: false });

const recover: Run<'recover'> = (m) => (m.sale ? unchanged(m) : { state: m, effects: [{ type: 'findOpenAttempt' }] });

/** The attempt is on record: the request goes out, and the sale counts as sent. */
const attemptRecorded: Run<'attemptRecorded'> = (m, e, c) => {
  const current = inFlight(m, e.key);
  if (!current) return unchanged(m);
  const sale: Sale = { ...current.sale, sent: true };
  return step(m, { sale, phase: { name: 'processing', since: c.now }, readerMessage: null }, [
    { type: 'pay', key: e.key, request: current.attempt.request },
  ]);
};

const paid: Run<'paid'> = (m, e) => {
  const current = inFlight(m, e.key);
  return current ? answered(m, current.sale, current.attempt, e.response) : unchanged(m);
};

const payFailed: Run<'payFailed'> = (m, e) => (inFlight(m, e.key) ? unanswered(m, e.failure) : unchanged(m));

const resendDue: Run<'resendDue'> = (m) => {
  const attempt = m.sale?.attempt;
  if (m.phase.name !== 'checking' || m.phase.mode !== 'resend' || !attempt) return unchanged(m);
  return { state: m, effects: [{ type: 'pay', key: attempt.key, request: attempt.request }] };
};

const resolveDue: Run<'resolveDue'> = (m) => (resolvingNow(m) ? resolving(m, m.startAfter) : unchanged(m));

// ---- the table ----------------------------------------------------------------------------------------

export const TRANSITIONS: { readonly [T in TillEventType]: Rule<T> } = {
  // The amount screen
  keypad: { from: ['amount'], to: ['amount'], run: keypad },
  setReference: { from: ['amount'], to: ['amount'], run: setReference },
  charge: { from: ['amount'], to: ['waiting', 'checking'], run: (m, _e, c) => charge(m, c) },
  // The till's day was closed: what the till said of the day before goes.
  dayClosed: { from: ['amount'], to: ['amount'], run: (m) => step(m, { notice: null }) },
  // At start (after a reload or restart): the till's open attempt is resolved before a new sale.
  recover: { from: ['amount'], to: ['amount'], run: recover },
  openAttempt: { from: ['amount'], to: ['checking'], run: recoverFound },
  // Swipe first, then Charge is one step: with an amount typed, a card on the amount screen charges.
  reader: { from: ['amount', 'waiting'], to: ['amount', 'waiting', 'pin', 'processing', 'checking'], run: reader },
  cancelWaiting: { from: ['waiting'], to: ['amount'], run: cancelWaiting },
  pinBlock: { from: ['pin'], to: ['processing'], run: pinBlock },
  cancelPin: { from: ['pin'], to: ['amount'], run: cancelPin },
  // The gateway and the sale's request
  attemptRecorded: { from: ['processing'], to: ['processing'], run: attemptRecorded },
  attemptRefused: { from: ['processing'], to: ['checking', 'failed', 'amount'], run: (m, e) => attemptRefused(m, e.key, e.failure) },
  paid: { from: ['processing', 'checking'], to: ['approved', 'waiting', 'pin', 'declined', 'failed'], run: paid },
  payFailed: { from: ['processing', 'checking'], to: ['checking', 'amount', 'failed'], run: payFailed },
  // A decline or a refusal
  retryPin: { from: ['declined'], to: ['pin'], run: retryPin },
  anotherCard: { from: ['declined'], to: ['waiting'], run: (m) => freshCard(m, false) },
  insertCard: { from: ['declined'], to: ['waiting'], run: (m) => freshCard(m, true) },
  tryAgain: { from: ['declined', 'failed'], to: ['processing', 'waiting'], run: (m, _e, c) => tryAgain(m, c) },
  otherPayment: { from: ['declined', 'failed'], to: ['amount'], run: otherPayment },
  // A digit typed on a refusal's screen: the refusal goes, and the next amount starts with it.
  nextAmount: { from: ['failed'], to: ['amount'], run: nextAmount },
  // An unknown outcome
  checkAgain: { from: ['checking'], to: ['checking'], run: (m) => checkAgain(m) },
  stopChecking: { from: ['checking'], to: ['amount'], run: (m, _e, c) => stopChecking(m, c) },
  resendDue: { from: ['checking'], to: ['checking'], run: resendDue },
  resolved: { from: ['checking'], to: ['checking', 'approved', 'waiting', 'amount'], run: (m, e, c) => resolved(m, e.resolution, c) },
  resolveFailed: { from: ['checking'], to: ['checking'], run: (m, e) => resolveFailed(m, e.failure) },
  resolveDue: { from: ['checking'], to: ['checking'], run: resolveDue },
  // The approved screen's next sale, and the end of the staff session in any phase (shell/frame.tsx).
  newSale: { from: PHASES, to: ['amount'], run: newSale },
};

/** Whether the till takes `type` in `phase` at all (the table's `from`). */
export function accepts(phase: PhaseName, type: TillEventType): boolean {
  return TRANSITIONS[type].from.includes(phase);
}

/** One event on the till's model: the next model and the effects to run. Ignored in a phase the table does not list. */
export function transition(model: TillModel, event: TillEvent, context: TillContext): Step {
  if (!accepts(model.phase.name, event.type)) return unchanged(model);
  const run = TRANSITIONS[event.type].run as (model: TillModel, event: TillEvent, context: TillContext) => Step;
  return run(model, event, context);
}
