/**
 * The till's state machine:
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
 * records it on the gateway as the till's open attempt (PUT /ui/till/attempt, D16); an attempt whose
 * answer never came stays open (also across a reload or a restart) until the gateway says how it
 * ended (POST /ui/till/attempt/resolve), and the till charges nothing before that. So a sale is
 * never charged twice, whatever the cashier presses. The
 * card read lives in the store only while its sale runs; the clear PIN never reaches the store (the
 * PIN pad encrypts it and hands over the block, which is dropped once the gateway answered).
 */
import { create } from 'zustand';
import type { Receipt } from '../../../contract/api/receipts.js';
import { asCardBrand } from '../../../contract/cards.js';
import { ErrorCode, TransactionStatus } from '../../../contract/codes.js';
import { CENTRE_OUTCOME_UNKNOWN, PIN_TRIES } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { MessageValues } from '../../../contract/i18n/format.js';
import { fromMinorUnits, toMinorUnits } from '../../../contract/money.js';
import { ApiError, client, type PaymentRequest, type TerminalConfig, type TillResolution, type Transaction, type TransactionResponse } from '../api/client.js';
import { useSession } from '../session-store.js';
import { translate } from '../ui/i18n.js';
import { formatMoney, pressAmountKey } from './money.js';
import { buildPosData } from './pos-data.js';
import { createKeyboardWedgeReader, createSimulatedReader, ENTRY_NAMES, type CardRead, type ReaderEvent, type ReaderProblem } from './reader.js';

/**
 * Something the till says, kept as its message and values and put into words when a screen shows it
 * (ui/i18n.tsx: `t(said.id, said.values)`), so the store holds no language. Amounts in the values are
 * formatted when the till says them.
 */
export interface Said {
  id: MessageId;
  values?: MessageValues;
}

const say = (id: MessageId, values?: MessageValues): Said => (values ? { id, values } : { id });

/**
 * An approved sale as the result screen shows it at once: the fields of the contract's receipt that
 * the till knows from the payment's answer (the receipt shown beside it is the gateway's own,
 * GET /ui/receipts/{id}), and what only the till knows.
 */
export type ApprovedSale = Pick<Receipt, 'transaction_id' | 'amount' | 'currency' | 'verification'> & {
  card: NonNullable<Receipt['card']>;
  /** Approved while its answer was lost; the till learnt it from the gateway afterwards. */
  recovered?: boolean;
  /** Approved at a till whose centre was away: stored here, forwarded when the centre answers (issue 26). */
  stored?: boolean;
};

export interface Decline {
  /** ISO 8583 response code, or `error` for a processor error. */
  code: string;
  title: Said;
  text: Said;
  /** Offer the PIN pad again (55 with tries left). */
  retryPin: boolean;
  /** Offer inserting the card (the chip path after a PIN problem). */
  insertCard: boolean;
  /** Offer sending the same card again (a processor error: nothing was charged). */
  tryAgain?: boolean;
}

export type TillPhase =
  | { name: 'amount' }
  | { name: 'waiting'; insertOnly: boolean }
  | { name: 'processing'; since: number }
  | { name: 'pin'; insertPath: boolean }
  | { name: 'approved'; sale: ApprovedSale }
  | { name: 'declined'; decline: Decline }
  /**
   * The outcome is not known yet. `resend`: the request is sent again with its key (the card read is
   * still here); `resolve`: the gateway is asked how the till's open attempt ended.
   */
  | { name: 'checking'; message: Said; automatic: boolean; mode: 'resend' | 'resolve' }
  | { name: 'failed'; title: Said; message: Said };

interface Attempt {
  request: PaymentRequest;
  key: string;
  pinUsed: boolean;
}

export interface Sale {
  orderId: string;
  amountMinor: number;
  currency: string;
  card?: CardRead;
  /** Wrong PINs in this sale. */
  wrongPins: number;
  /** The gateway asked for the PIN: the next request is `sequence: subsequent` with a PIN block. */
  pinRequested: boolean;
  /** The request in flight or waiting to be resent after a network failure. */
  attempt?: Attempt;
  /** A request of this sale reached the gateway's attempt record. */
  sent?: boolean;
}

interface TillState {
  digits: string;
  reference: string;
  phase: TillPhase;
  sale: Sale | null;
  /** Plain words about the reader (try again, insert, two cards, ...), or null. */
  readerMessage: Said | null;
  /** One line at the top of the amount screen, e.g. after a cancelled sale. */
  notice: Said | null;
  /** A sale whose last attempt has no known outcome: nothing is charged before the gateway says how it ended. */
  unresolved: { orderId: string; amountMinor: number; currency: string } | null;
  /** The amount on screen was kept from a cancelled sale: Enter charges it, a digit starts a new one. */
  amountKept: boolean;
  keypad: (key: string) => void;
  setReference: (reference: string) => void;
  charge: () => void;
  cancelWaiting: () => void;
  readerEvent: (event: ReaderEvent) => void;
  submitPinBlock: (block: string) => void;
  cancelPin: () => void;
  retryPin: () => void;
  anotherCard: () => void;
  insertCard: () => void;
  otherPayment: () => void;
  newSale: () => void;
  /** A digit typed on a refusal's screen: the refusal goes, and the next amount starts with it. */
  nextAmount: (key: string) => void;
  /** The till's day was closed: what the till said of the day before goes. */
  dayClosed: () => void;
  checkAgain: () => void;
  stopChecking: () => void;
  tryAgain: () => void;
  /** At start (after a reload or restart): resolves the till's open attempt before a new sale. */
  recover: () => Promise<void>;
}

export const simulatedReader = createSimulatedReader();
export const wedgeReader = typeof window === 'undefined' ? undefined : createKeyboardWedgeReader(window);

const READER_PROBLEMS: Record<ReaderProblem, MessageId> = {
  removed_too_early: 'till.reader.removedTooEarly',
  multiple_cards: 'till.reader.multipleCards',
  unreadable: 'till.reader.unreadable',
  invalid_card: 'till.reader.invalidCard',
};

/** An amount of minor units as the till says it (`12.00 EUR`, `12,00 €`). */
function moneyOf(amountMinor: number, currency: string): string {
  return formatMoney(fromMinorUnits(amountMinor, currency), currency);
}

/** Order ids of the till: terminal, date and time, and a random part; or the reference typed in. */
function newOrderId(terminal: TerminalConfig | null, reference: string): string {
  const trimmed = reference.trim();
  if (trimmed) return trimmed;
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const random = crypto.randomUUID().slice(0, 4).toUpperCase();
  return `${terminal?.terminal_id ?? 'TILL'}-${stamp}-${random}`;
}

/** A declined answer in words a cashier can say to a customer; `pinEntered`: this request carried a PIN. */
export function declineOf(code: string, text: string, wrongPins: number, pinEntered = true): Decline {
  const triesLeft = Math.max(0, PIN_TRIES - wrongPins);
  const refused = (title: MessageId, message: MessageId): Decline => ({ code, title: say(title), text: say(message), retryPin: false, insertCard: false });
  switch (code) {
    case '05':
      return refused('common.declined', 'till.decline.05');
    case '51':
      return refused('till.decline.51.title', 'till.decline.51');
    case '54':
      return refused('till.decline.54.title', 'till.decline.54');
    case '55':
      if (!pinEntered) return refused('till.decline.55.noPin.title', 'till.decline.55.noPin');
      return triesLeft > 0
        ? { code, title: say('till.decline.55.title'), text: say('till.decline.55', { tries: triesLeft }), retryPin: true, insertCard: false }
        : refused('till.decline.55.title', 'till.decline.55.noTries');
    case '75':
      // The bank refuses this card's PIN for a while (D3: 24 hours): inserting it would be declined again.
      return refused('till.decline.75.title', 'till.decline.75');
    case '14':
      return refused('till.decline.14.title', 'till.decline.14');
    case '13':
      return refused('till.decline.13.title', 'till.decline.13');
    case 'error':
      return {
        code,
        title: say('till.decline.error.title'),
        // The network's own words (English, from the processor) go in as they came.
        text: text ? say('till.decline.error.reason', { reason: text }) : say('till.decline.error'),
        retryPin: false,
        insertCard: false,
        tryAgain: true,
      };
    default:
      return { code, title: say('common.declined'), text: text ? say('till.decline.other.reason', { reason: text, code }) : say('till.decline.other', { code }), retryPin: false, insertCard: false };
  }
}

const AUTOMATIC_CHECKS = 3;
/** How often the till asks again while the gateway does not answer. */
const RECONNECT_CHECK_MS = 3000;

export const useTill = create<TillState>()((set, get) => {
  let checks = 0;
  let checkTimer: number | undefined;

  const clearCheckTimer = () => {
    if (checkTimer !== undefined) window.clearTimeout(checkTimer);
    checkTimer = undefined;
  };

  /** Ends the sale: drops the card read and any pending request (with its PIN block). */
  const endSale = (patch: Partial<TillState>) => {
    clearCheckTimer();
    const { sale, phase } = get();
    // A sale given up after answers the till saw (a decline, a PIN request, a refusal): its attempt
    // on the gateway is closed now, so a reload or the next sale does not ask about it again.
    // An unknown outcome (checking) stays open; an approval closes its attempt itself.
    if (sale?.sent && phase.name !== 'checking' && patch.phase?.name !== 'approved' && patch.unresolved === undefined) {
      void client.resolveTillAttempt().catch(() => undefined);
    }
    set({ sale: null, readerMessage: null, ...patch });
  };

  const approved = (card: CardRead, response: TransactionResponse, pinUsed: boolean) => {
    const approvedSale: ApprovedSale = {
      transaction_id: response.transaction_id,
      amount: response.amount,
      currency: response.currency,
      card: {
        brand: card.brand,
        last_four: response.card_last_four ?? card.lastFour,
        entry_mode: card.entry,
        application_label: card.applicationLabel ?? null,
        aid: card.aid ?? null,
      },
      verification: pinUsed ? 'online_pin' : 'none',
      ...(response.status_code === TransactionStatus.stored ? { stored: true } : {}),
    };
    endSale({
      phase: { name: 'approved', sale: approvedSale },
      digits: '',
      reference: '',
      amountKept: false,
    });
    // The till has seen the outcome: close its attempt. If this call is lost, the next sale's
    // attempt is refused until the till resolves it, which finds this approval.
    void client.resolveTillAttempt().catch(() => undefined);
  };

  /** What the gateway recorded of a sale approved while its answer was lost. */
  const recoveredSale = (tx: Transaction): ApprovedSale => {
    const entry = tx.entry_mode && tx.entry_mode in ENTRY_NAMES ? tx.entry_mode : 'chip';
    return {
      transaction_id: tx.transaction_id,
      amount: tx.amount,
      currency: tx.currency,
      card: { brand: asCardBrand(tx.card_brand), last_four: tx.card_last_four ?? '????', entry_mode: entry, application_label: null, aid: null },
      verification: 'none',
      recovered: true,
      ...(tx.status_code === TransactionStatus.stored ? { stored: true } : {}),
    };
  };

  /**
   * Asks the gateway how the till's open attempt ended and acts on it: approved shows that sale's
   * result (it is not charged again); not charged lets `next` start the charge; in progress keeps
   * checking. Nothing is charged while the outcome is unknown.
   */
  const resolveOpen = async (next?: () => void) => {
    clearCheckTimer();
    set({ phase: { name: 'checking', mode: 'resolve', automatic: true, message: say('till.checking.resolving') } });
    let resolution: TillResolution;
    try {
      resolution = await client.resolveTillAttempt();
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'api' && error.status === 401) {
        useSession.getState().ended(translate('till.session.endedCheck'));
        return;
      }
      set({
        phase: {
          name: 'checking',
          mode: 'resolve',
          automatic: false,
          message: say('till.checking.unreachable'),
        },
      });
      // Checks again by itself: a gateway back after a restart or a network cut is asked at once.
      checkTimer = window.setTimeout(() => void resolveOpen(next), RECONNECT_CHECK_MS);
      return;
    }
    if (resolution.state === 'in_progress') {
      checks += 1;
      set({
        phase: {
          name: 'checking',
          mode: 'resolve',
          automatic: true,
          message: say('till.checking.inProgress', { amount: formatMoney(resolution.attempt.amount, resolution.attempt.currency) }),
        },
      });
      checkTimer = window.setTimeout(() => void resolveOpen(next), Math.min(8000, 1000 * 2 ** Math.min(checks, 3)));
      return;
    }
    checks = 0;
    set({ unresolved: null });
    if (resolution.state === 'approved') {
      endSale({ phase: { name: 'approved', sale: recoveredSale(resolution.transaction) }, digits: '', reference: '', amountKept: false, notice: null });
      return;
    }
    if (next) {
      next();
      return;
    }
    const amount = resolution.state === 'not_charged' ? formatMoney(resolution.attempt.amount, resolution.attempt.currency) : null;
    endSale({ phase: { name: 'amount' }, notice: amount ? say('till.notice.notCharged', { amount }) : null });
  };

  const answered = (sale: Sale, attempt: Attempt, response: TransactionResponse) => {
    clearCheckTimer();
    const card = sale.card;
    if (!card) return;
    // The request is answered: its PIN block is no longer needed.
    const settled: Sale = { ...sale, attempt: undefined };
    // A stored sale (a joined till while its centre is away) is approved at the till: forwarded later.
    if (response.status_code === TransactionStatus.completed || response.status_code === TransactionStatus.authorized || response.status_code === TransactionStatus.stored) {
      approved(card, response, attempt.pinUsed);
      return;
    }
    if (response.status_code === TransactionStatus.declined && response.message === 'request_pin') {
      // The gateway says whether the card must be inserted for the PIN (e.g. after a swipe); a tapped
      // card only needs the PIN. Older gateways do not say: then a swiped card goes the insert path.
      const insertPath = response.insert_card ?? card.entry === 'swipe';
      set({
        sale: { ...settled, pinRequested: true },
        phase: insertPath ? { name: 'waiting', insertOnly: true } : { name: 'pin', insertPath: false },
        readerMessage: null,
      });
      return;
    }
    if (response.status_code === TransactionStatus.declined) {
      const match = /^(\w{2})\s*(.*)$/.exec(response.message ?? '');
      const code = response.reason_code ?? match?.[1] ?? '??';
      const wrongPins = settled.wrongPins + (code === '55' && attempt.pinUsed ? 1 : 0);
      set({
        sale: { ...settled, wrongPins },
        phase: { name: 'declined', decline: declineOf(code, match?.[2] ?? '', wrongPins, attempt.pinUsed) },
        readerMessage: null,
      });
      return;
    }
    if (response.status_code === TransactionStatus.error) {
      set({ sale: settled, phase: { name: 'declined', decline: declineOf('error', response.message ?? '', settled.wrongPins) } });
      return;
    }
    set({
      sale: settled,
      phase: { name: 'failed', title: say('till.failed.unexpected.title'), message: say('till.failed.unexpected', { status: response.status }) },
    });
  };

  /** Sends (or resends, same key) the sale's current attempt. */
  const send = async () => {
    const sale = get().sale;
    const attempt = sale?.attempt;
    if (!sale || !attempt) return;
    if (get().phase.name !== 'checking') set({ phase: { name: 'processing', since: Date.now() }, readerMessage: null });
    try {
      const response = await client.pay(attempt.request, attempt.key);
      if (get().sale?.attempt?.key !== attempt.key) return;
      answered(sale, attempt, response);
    } catch (error) {
      if (get().sale?.attempt?.key !== attempt.key) return;
      unanswered(error);
    }
  };

  const unanswered = (error: unknown) => {
    const apiError = error instanceof ApiError ? error : new ApiError('unexpected', translate('till.failed.somethingWrong'));
    const unknownOutcome =
      apiError.kind === 'network' ||
      (apiError.kind === 'api' && apiError.errorCode === ErrorCode.idempotencyInFlight) ||
      // A joined till whose centre went away while it charged: asked again, like a lost answer.
      (apiError.kind === 'api' && apiError.errorCode === ErrorCode.centreAway && apiError.errors.some((e) => e.field === 'centre' && e.message === CENTRE_OUTCOME_UNKNOWN));
    if (unknownOutcome) {
      // Did the card get charged? Ask again with the same key: the gateway answers once per key.
      checks += 1;
      const automatic = checks <= AUTOMATIC_CHECKS;
      set({
        phase: {
          name: 'checking',
          mode: 'resend',
          automatic,
          message: say(automatic ? 'till.checking.noAnswer' : 'till.checking.stillNoAnswer'),
        },
      });
      clearCheckTimer();
      // The same request again (same key: the gateway answers it once), quickly at first, then every
      // few seconds until the gateway answers: a gateway back after a restart is asked at once.
      checkTimer = window.setTimeout(() => void send(), automatic ? 1000 * 2 ** (checks - 1) : RECONNECT_CHECK_MS);
      return;
    }
    if (apiError.kind === 'api' && apiError.status === 401) {
      endSale({ phase: { name: 'amount' }, notice: null });
      useSession.getState().ended(translate('till.session.endedSale'));
      return;
    }
    // The gateway refused the request: it did nothing, so a fresh request is safe.
    const sale = get().sale;
    if (sale) set({ sale: { ...sale, attempt: undefined } });
    const details = apiError.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    if (apiError.kind === 'api' && apiError.errorCode === ErrorCode.processor) {
      set({ phase: { name: 'failed', title: say('till.failed.network.title'), message: say('till.failed.network') } });
      return;
    }
    if (apiError.kind === 'api' && apiError.errorCode === ErrorCode.centreAway) {
      // A joined till whose centre is away, and this sale cannot be stored (a limit, or not card-present).
      set({ phase: { name: 'failed', title: say('till.failed.centreAway.title'), message: say('till.failed.centreAway', { reason: apiError.message }) } });
      return;
    }
    set({
      phase: {
        name: 'failed',
        title: say('till.failed.notSent.title'),
        message: details ? say('till.failed.notSent.details', { reason: apiError.message, details }) : say('till.failed.notSent', { reason: apiError.message }),
      },
    });
  };

  /** Builds and sends the next request of the sale. */
  const attempt = (card: CardRead, pinBlock?: string) => {
    const sale = get().sale;
    const terminal = useSession.getState().terminal;
    if (!sale || !terminal) return;
    const request: PaymentRequest = {
      payment_type: 'cardpos',
      order_id: sale.orderId,
      amount: fromMinorUnits(sale.amountMinor, sale.currency),
      currency: sale.currency,
      pos_data: buildPosData(card, terminal, pinBlock ? { sequence: 'subsequent', pinBlock } : {}),
    };
    checks = 0;
    const key = crypto.randomUUID();
    set({ sale: { ...sale, card, attempt: { request, key, pinUsed: Boolean(pinBlock) }, sent: true }, phase: { name: 'processing', since: Date.now() }, readerMessage: null });
    void (async () => {
      try {
        await client.beginTillAttempt({ order_id: request.order_id, idempotency_key: key, amount: request.amount, currency: request.currency });
      } catch (error) {
        if (get().sale?.attempt?.key !== key) return;
        const refused = error instanceof ApiError && error.kind === 'api' ? error : undefined;
        if (refused?.errorCode === ErrorCode.idempotencyInFlight || refused?.errorCode === ErrorCode.invalidState) {
          // An earlier payment of this till may still be charging, or this sale was charged already:
          // find out how it ended first; nothing is sent for this one.
          set({ unresolved: { orderId: sale.orderId, amountMinor: sale.amountMinor, currency: sale.currency }, sale: { ...sale, card, attempt: undefined } });
          await resolveOpen();
          return;
        }
        // Nothing was sent: the request is dropped, and trying again is safe.
        set({ sale: { ...sale, card, attempt: undefined } });
        if (error instanceof ApiError && error.kind === 'network') {
          set({ phase: { name: 'failed', title: say('till.failed.gateway.title'), message: say('till.failed.gateway') } });
          return;
        }
        unanswered(error);
        return;
      }
      await send();
    })();
  };

  return {
    digits: '',
    reference: '',
    phase: { name: 'amount' },
    sale: null,
    readerMessage: null,
    notice: null,
    unresolved: null,
    amountKept: false,

    keypad: (key) => {
      if (get().phase.name !== 'amount') return;
      // A kept amount (from a cancelled sale) is charged with Enter; typing starts a new amount.
      const base = get().amountKept && key !== 'back' ? '' : get().digits;
      set({ digits: pressAmountKey(base, key), notice: null, amountKept: false });
    },
    setReference: (reference) => set({ reference: reference.replace(/[^\x20-\x7e]/g, '').slice(0, 35) }),
    charge: () => {
      const { digits, reference, phase, unresolved } = get();
      const session = useSession.getState();
      const amountMinor = Number(digits || '0');
      if (phase.name !== 'amount' || amountMinor <= 0 || !session.session) return;
      const currency = session.session.merchant.currency;
      // The same sale again (same amount) keeps its order id; the gateway refuses a charged one.
      const orderId = unresolved && unresolved.amountMinor === amountMinor && unresolved.currency === currency ? unresolved.orderId : newOrderId(session.terminal, reference);
      const start = () =>
        set({
          sale: { orderId, amountMinor, currency, wrongPins: 0, pinRequested: false },
          phase: { name: 'waiting', insertOnly: false },
          readerMessage: null,
          notice: null,
          amountKept: false,
        });
      // An earlier attempt with no known outcome is settled first: it may have charged this sale.
      if (unresolved) void resolveOpen(start);
      else start();
    },
    cancelWaiting: () => {
      if (get().phase.name !== 'waiting') return;
      endSale({ phase: { name: 'amount' }, notice: get().sale?.pinRequested ? say('till.notice.cancelled') : null });
    },
    readerEvent: (event) => {
      const { phase, digits } = get();
      if (phase.name === 'amount') {
        // Swipe first, then Charge is one step: with an amount typed, a swipe charges at once.
        if (event.type !== 'card') return;
        if (Number(digits || '0') <= 0) {
          set({ notice: say('till.notice.amountFirst') });
          return;
        }
        get().charge();
      } else if (phase.name !== 'waiting') {
        return;
      }
      if (event.type === 'problem') {
        set({ readerMessage: say(READER_PROBLEMS[event.problem]) });
        return;
      }
      const sale = get().sale;
      if (!sale) return;
      const { insertOnly } = get().phase as Extract<TillPhase, { name: 'waiting' }>;
      if (insertOnly && event.card.entry !== 'chip') {
        set({ readerMessage: say('till.reader.chipNeeded') });
        return;
      }
      if (sale.pinRequested) {
        // The insert path of a PIN request: the card is in, now the PIN.
        set({ sale: { ...sale, card: event.card }, phase: { name: 'pin', insertPath: true }, readerMessage: null });
        return;
      }
      attempt(event.card);
    },
    submitPinBlock: (block) => {
      const { sale, phase } = get();
      if (phase.name !== 'pin' || !sale?.card) return;
      attempt(sale.card, block);
    },
    cancelPin: () => {
      const sale = get().sale;
      if (get().phase.name !== 'pin' || !sale) return;
      endSale({
        phase: { name: 'amount' },
        digits: String(sale.amountMinor),
        amountKept: true,
        notice: say('till.notice.pinCancelled', { amount: moneyOf(sale.amountMinor, sale.currency) }),
      });
    },
    retryPin: () => {
      const { sale, phase } = get();
      if (phase.name !== 'declined' || !phase.decline.retryPin || !sale?.card) return;
      set({ sale: { ...sale, pinRequested: true }, phase: { name: 'pin', insertPath: false } });
    },
    anotherCard: () => {
      const sale = get().sale;
      if (!sale) return;
      // A new card starts its own PIN count; the order stays the same.
      set({ sale: { orderId: sale.orderId, amountMinor: sale.amountMinor, currency: sale.currency, wrongPins: 0, pinRequested: false, sent: sale.sent }, phase: { name: 'waiting', insertOnly: false }, readerMessage: null });
    },
    insertCard: () => {
      const sale = get().sale;
      if (!sale) return;
      set({ sale: { orderId: sale.orderId, amountMinor: sale.amountMinor, currency: sale.currency, wrongPins: sale.wrongPins, pinRequested: false, sent: sale.sent }, phase: { name: 'waiting', insertOnly: true }, readerMessage: null });
    },
    otherPayment: () => {
      const sale = get().sale;
      const notice = sale ? say('till.notice.otherPayment', { amount: moneyOf(sale.amountMinor, sale.currency) }) : say('till.notice.otherPaymentNoAmount');
      endSale({ phase: { name: 'amount' }, digits: '', reference: '', amountKept: false, notice });
    },
    newSale: () => {
      endSale({ phase: { name: 'amount' }, digits: '', reference: '', notice: null, amountKept: false });
    },
    nextAmount: (key) => {
      if (get().phase.name !== 'failed') return;
      endSale({ phase: { name: 'amount' }, digits: pressAmountKey('', key), reference: '', notice: null, amountKept: false });
    },
    dayClosed: () => {
      if (get().phase.name === 'amount') set({ notice: null });
    },
    checkAgain: () => {
      const phase = get().phase;
      if (phase.name !== 'checking') return;
      clearCheckTimer();
      if (phase.mode === 'resolve' || !get().sale?.attempt) {
        void resolveOpen();
        return;
      }
      set({ phase: { name: 'checking', mode: 'resend', automatic: true, message: say('till.checking.resending') } });
      void send();
    },
    stopChecking: () => {
      if (get().phase.name !== 'checking') return;
      const sale = get().sale;
      const unresolved = sale ? { orderId: sale.orderId, amountMinor: sale.amountMinor, currency: sale.currency } : get().unresolved;
      const notice = unresolved ? say('till.notice.unknown', { amount: moneyOf(unresolved.amountMinor, unresolved.currency) }) : say('till.notice.unknownLast');
      // The attempt stays open on the gateway: the next charge (or the next start) asks how it ended first.
      endSale({
        phase: { name: 'amount' },
        unresolved,
        digits: unresolved ? String(unresolved.amountMinor) : '',
        amountKept: true,
        notice,
      });
    },
    tryAgain: () => {
      const { sale, phase } = get();
      const allowed = phase.name === 'failed' || (phase.name === 'declined' && phase.decline.tryAgain === true);
      if (!allowed || !sale) return;
      if (sale.card && !sale.pinRequested) attempt(sale.card);
      else set({ sale: { ...sale, pinRequested: false, attempt: undefined }, phase: { name: 'waiting', insertOnly: false } });
    },
    recover: async () => {
      if (get().phase.name !== 'amount' || get().sale) return;
      let open;
      try {
        open = await client.tillAttempt();
      } catch {
        return;
      }
      if (!open || get().phase.name !== 'amount' || get().sale) return;
      set({ unresolved: { orderId: open.order_id, amountMinor: toMinorUnits(open.amount, open.currency), currency: open.currency } });
      await resolveOpen();
    },
  };
});
