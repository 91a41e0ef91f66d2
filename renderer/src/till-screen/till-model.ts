/**
 * What the till knows of a sale, the events that move it and the effects it asks for: plain data,
 * read by the transition table (till-transitions.ts) and run by the store (till-store.ts). No DOM,
 * no timers, no gateway calls here (docs/decisions.md "The till's transition table (issue 37)").
 */
import type { PaymentRequest, TransactionResponse } from '../../../contract/api/payments.js';
import type { Receipt } from '../../../contract/api/receipts.js';
import type { TillAttempt, TillAttemptInput, TillResolution } from '../../../contract/api/till-attempts.js';
import type { TerminalConfig } from '../../../contract/api/tills.js';
import type { Transaction } from '../../../contract/api/transactions.js';
import { asCardBrand } from '../../../contract/cards.js';
import { TransactionStatus } from '../../../contract/codes.js';
import { PIN_TRIES } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { MessageValues } from '../../../contract/i18n/format.js';
import { ENTRY_NAMES, type CardRead, type ReaderEvent } from './card-read.js';

/**
 * Something the till says, kept as its message and values and put into words when a screen shows it
 * (ui/i18n.tsx: `t(said.id, said.values)`), so the store holds no language. Amounts in the values are
 * formatted when the till says them.
 */
export interface Said {
  id: MessageId;
  values?: MessageValues;
}

export const say = (id: MessageId, values?: MessageValues): Said => (values ? { id, values } : { id });

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

export type PhaseName = TillPhase['name'];

export const PHASES: readonly PhaseName[] = ['amount', 'waiting', 'processing', 'pin', 'approved', 'declined', 'checking', 'failed'];

export interface Attempt {
  request: PaymentRequest;
  key: string;
  pinUsed: boolean;
}

/** One sale's order: one order id, whatever the till sends for it. */
export interface SaleOrder {
  orderId: string;
  amountMinor: number;
  currency: string;
}

export interface Sale extends SaleOrder {
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

export interface TillModel {
  digits: string;
  reference: string;
  phase: TillPhase;
  sale: Sale | null;
  /** Plain words about the reader (try again, insert, two cards, ...), or null. */
  readerMessage: Said | null;
  /** One line at the top of the amount screen, e.g. after a cancelled sale. */
  notice: Said | null;
  /** A sale whose last attempt has no known outcome: nothing is charged before the gateway says how it ended. */
  unresolved: SaleOrder | null;
  /** The amount on screen was kept from a cancelled sale: Enter charges it, a digit starts a new one. */
  amountKept: boolean;
  /** Checks since the last request went out: the first few come quickly, later ones every few seconds. */
  checks: number;
  /** The sale charged while an open attempt was being resolved: it starts once that attempt charged nothing. */
  startAfter: SaleOrder | null;
}

export const INITIAL_MODEL: TillModel = {
  digits: '',
  reference: '',
  phase: { name: 'amount' },
  sale: null,
  readerMessage: null,
  notice: null,
  unresolved: null,
  amountKept: false,
  checks: 0,
  startAfter: null,
};

/** A refused or unanswered call to the gateway, as data (the store reads renderer/src/api/transport.ts `ApiError`). */
export interface Failure {
  kind: 'network' | 'api' | 'unexpected';
  message: string;
  /** HTTP status of an `api` failure, else 0. */
  status: number;
  /** The D3 body's `error_code` (contract/codes.ts ErrorCode), else 0. */
  code: number;
  errors: readonly { field: string; message: string }[];
}

/** The events of the till: the cashier's keys and buttons, the reader, the gateway's answers and the timer. */
export type TillEvent =
  | { type: 'keypad'; key: string }
  | { type: 'setReference'; reference: string }
  | { type: 'charge' }
  | { type: 'cancelWaiting' }
  | { type: 'reader'; event: ReaderEvent }
  | { type: 'pinBlock'; block: string }
  | { type: 'cancelPin' }
  | { type: 'retryPin' }
  | { type: 'anotherCard' }
  | { type: 'insertCard' }
  | { type: 'otherPayment' }
  | { type: 'newSale' }
  | { type: 'nextAmount'; key: string }
  | { type: 'dayClosed' }
  | { type: 'checkAgain' }
  | { type: 'stopChecking' }
  | { type: 'tryAgain' }
  | { type: 'recover' }
  | { type: 'openAttempt'; attempt: TillAttempt | null }
  | { type: 'attemptRecorded'; key: string }
  | { type: 'attemptRefused'; key: string; failure: Failure }
  | { type: 'paid'; key: string; response: TransactionResponse }
  | { type: 'payFailed'; key: string; failure: Failure }
  | { type: 'resolved'; resolution: TillResolution }
  | { type: 'resolveFailed'; failure: Failure }
  | { type: 'resendDue' }
  | { type: 'resolveDue' };

export type TillEventType = TillEvent['type'];

/**
 * What the store does after a transition. The calls answer with events: `recordAttempt` with
 * `attemptRecorded` or `attemptRefused`, `pay` with `paid` or `payFailed`, `resolve` with `resolved`
 * or `resolveFailed`, `findOpenAttempt` with `openAttempt`; `wait` sends `resendDue` or
 * `resolveDue` after `ms` (one timer: a new wait replaces the one before).
 */
export type TillEffect =
  | { type: 'recordAttempt'; key: string; input: TillAttemptInput }
  | { type: 'pay'; key: string; request: PaymentRequest }
  | { type: 'resolve' }
  /** Closes the till's open attempt, answer unread: the till has seen how it ended. */
  | { type: 'closeAttempt' }
  | { type: 'findOpenAttempt' }
  | { type: 'wait'; ms: number; then: 'resendDue' | 'resolveDue' }
  | { type: 'stopWaiting' }
  /** The staff session ended: the store tells the session store, in this message. */
  | { type: 'endSession'; message: MessageId };

/** What the table reads of the world besides the event, taken by the store when the event happens. */
export interface TillContext {
  /** Date.now() at the event: the processing screen counts from it, and a new order id is stamped with it. */
  now: number;
  /** A fresh idempotency key, taken if the event sends a new request. */
  newKey: string;
  /** A fresh random part of an order id, taken if the event starts a sale without a reference. */
  orderSuffix: string;
  /** The merchant's currency; null while no staff session is open. */
  currency: string | null;
  /** This till's terminal (GET /ui/terminal); null until it is known. */
  terminal: TerminalConfig | null;
  /** An amount in the currency's units as the screens say it now (money.ts formatMoney). */
  money: (amount: number, currency: string) => string;
}

/** A declined answer in words a cashier can say to a customer; `pinEntered`: this request carried a PIN. */
export function declineOf(code: string, text: string, wrongPins: number, pinEntered = true): Decline {
  const triesLeft = Math.max(0, PIN_TRIES - wrongPins);
  const refused = (title: MessageId, message: MessageId): Decline => ({
    code,
    title: say(title),
    text: say(message),
    retryPin: false,
    insertCard: false,
  });
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
        ? {
            code,
            title: say('till.decline.55.title'),
            text: say('till.decline.55', { tries: triesLeft }),
            retryPin: true,
            insertCard: false,
          }
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
      return {
        code,
        title: say('common.declined'),
        text: text ? say('till.decline.other.reason', { reason: text, code }) : say('till.decline.other', { code }),
        retryPin: false,
        insertCard: false,
      };
  }
}

/** The result screen's sale from an approving answer to this till's request. */
export function approvedSaleOf(card: CardRead, response: TransactionResponse, pinUsed: boolean): ApprovedSale {
  return {
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
}

/** What the gateway recorded of a sale approved while its answer was lost. */
export function recoveredSaleOf(tx: Transaction): ApprovedSale {
  const entry = tx.entry_mode && tx.entry_mode in ENTRY_NAMES ? tx.entry_mode : 'chip';
  return {
    transaction_id: tx.transaction_id,
    amount: tx.amount,
    currency: tx.currency,
    card: {
      brand: asCardBrand(tx.card_brand),
      last_four: tx.card_last_four ?? '????',
      entry_mode: entry,
      application_label: null,
      aid: null,
    },
    verification: 'none',
    recovered: true,
    ...(tx.status_code === TransactionStatus.stored ? { stored: true } : {}),
  };
}

/** Order ids of the till: terminal, local date and time of `now`, and a random part; or the reference typed in. */
export function newOrderId(reference: string, context: Pick<TillContext, 'now' | 'terminal' | 'orderSuffix'>): string {
  const trimmed = reference.trim();
  if (trimmed) return trimmed;
  const at = new Date(context.now);
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${context.terminal?.terminal_id ?? 'TILL'}-${stamp}-${context.orderSuffix}`;
}
