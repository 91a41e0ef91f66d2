/** Transaction queries (docs/api.md "Transactions and mandates"): list with filters, detail, refunds, log. */
import type { FieldError } from '../../../contract/api/common.js';
import type { Transaction, TransactionDetail, TransactionEvent, Refund, TransactionListQuery } from '../../../contract/api/transactions.js';
import { isStatusCode, refundStatusName, statusName } from '../../../contract/codes.js';
import {
  INVOICE_NUMBER_MAX_LENGTH,
  MAX_AMOUNT_TEXT,
  OTHER_TERMINALS_BOOK,
  PAYMENT_TYPES,
  TILL_ID_PATTERN,
  TRANSACTION_LIST_MAX_LIMIT,
  TRANSACTION_LIST_DEFAULT_LIMIT,
  type PaymentType,
} from '../../../contract/constants.js';
import { currencyExponent, isCurrency, minorToAmount, minorToText } from '../../../contract/money.js';
import { readSearch } from '../paging.js';
import { failure, success, validationError, type Outcome } from '../errors.js';
import { CAPABILITIES } from '../payment-methods/payment-types.js';
import { notFound } from '../payments/records.js';
import { allowedFrom } from '../payments/state-machine.js';
import type { EventRecord, RefundRecord, TransactionFilter, TransactionRecord } from '../payments/ports.js';
import type { Store } from '../unit-of-work.js';
import type { TransactionsUnit } from './ports.js';

// ISO 8601 date-time with an offset or Z, or a plain date.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** Date.parse rolls impossible days over (2026-02-30 becomes March 2); this refuses them. */
function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day ?? 0));
  return date.getUTCFullYear() === year && date.getUTCMonth() + 1 === month && date.getUTCDate() === day;
}

function parseTimestamp(value: string, field: string, errors: FieldError[]): string | undefined {
  const time = ISO_TIMESTAMP.test(value) && isCalendarDate(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) {
    errors.push({ field, message: 'must be an ISO 8601 timestamp, e.g. 2026-11-21T10:00:00+02:00' });
    return undefined;
  }
  return new Date(time).toISOString();
}

function parseCount(value: string | undefined, field: string, min: number, max: number, fallback: number, errors: FieldError[]): number {
  if (value === undefined) return fallback;
  const n = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isNaN(n) || n < min || n > max) {
    errors.push({ field, message: `must be a whole number from ${min} to ${max}` });
    return fallback;
  }
  return n;
}

/** The filters the list and its export share (all but paging), as the query gives them. */
export type ListFilterQuery = Omit<TransactionListQuery, 'limit' | 'offset' | 'starting_after'>;

const PAYMENT_TYPE_SET: ReadonlySet<string> = new Set(PAYMENT_TYPES);
/** Most decimals any currency has (CLF, UYW): amounts are compared in ten-thousandths of a unit. */
const SCALE_DECIMALS = 4;
/** 999,999,999.99 in ten-thousandths. */
const MAX_AMOUNT_SCALED = Number(MAX_AMOUNT_TEXT.replace('.', '')) * 10 ** (SCALE_DECIMALS - 2);

/**
 * An amount of the list's filters in ten-thousandths of a unit (12.50 -> 125000), from its decimal
 * text, without float arithmetic; with a currency at most as many decimals as it has.
 */
function parseScaledAmount(value: string, field: string, currency: string | undefined, errors: FieldError[]): number | undefined {
  const match = /^(\d{1,9})(?:\.(\d{1,4}))?$/.exec(value.trim());
  if (!match) {
    errors.push({ field, message: 'must be a decimal amount such as 12.50 (a period, at most 4 decimals, not negative)' });
    return undefined;
  }
  const decimals = match[2] ?? '';
  const exponent = currency !== undefined ? currencyExponent(currency) : undefined;
  if (exponent !== undefined && decimals.replace(/0+$/, '').length > exponent) {
    errors.push({ field, message: `has more than ${exponent} decimal${exponent === 1 ? '' : 's'}, the most ${currency ?? ''} allows` });
    return undefined;
  }
  const scaled = Number(match[1]) * 10 ** SCALE_DECIMALS + Number(decimals.padEnd(SCALE_DECIMALS, '0'));
  if (scaled > MAX_AMOUNT_SCALED) {
    errors.push({ field, message: `must not exceed ${MAX_AMOUNT_TEXT}` });
    return undefined;
  }
  return scaled;
}

/** Parses the filters of the list and the export; every bad one lands in `errors`. */
export function parseFilters(query: ListFilterQuery, errors: FieldError[]): Omit<TransactionFilter, 'limit' | 'offset'> {
  const filter: Omit<TransactionFilter, 'limit' | 'offset'> = {};
  if (query.from !== undefined) filter.from = parseTimestamp(query.from, 'from', errors);
  if (query.to !== undefined) {
    // A plain date as the upper bound means "to the end of that day" (UTC), as people read it.
    const endOfDay = /^\d{4}-\d{2}-\d{2}$/.test(query.to) ? `${query.to}T23:59:59.999Z` : query.to;
    filter.to = parseTimestamp(endOfDay, 'to', errors);
  }
  if (query.status !== undefined) {
    const codes = query.status.split(',').map((part) => part.trim());
    if (codes.some((code) => !/^\d{1,2}$/.test(code) || !isStatusCode(Number(code)))) {
      errors.push({ field: 'status', message: 'must be one status code or a comma-separated list of codes 1-12' });
    } else {
      filter.statusCodes = [...new Set(codes.map(Number))];
    }
  }
  if (query.currency !== undefined) {
    if (!isCurrency(query.currency)) errors.push({ field: 'currency', message: 'must be an ISO 4217 currency code' });
    else filter.currency = query.currency;
  }
  if (query.order_id !== undefined) {
    if (query.order_id === '' || query.order_id.length > 255) errors.push({ field: 'order_id', message: 'must be 1 to 255 characters' });
    else filter.orderId = query.order_id;
  }
  if (query.payment_type !== undefined) {
    const types = query.payment_type.split(',').map((part) => part.trim());
    if (types.some((type) => !PAYMENT_TYPE_SET.has(type))) {
      errors.push({ field: 'payment_type', message: `must be one payment type or a comma-separated list of: ${PAYMENT_TYPES.join(', ')}` });
    } else {
      filter.paymentTypes = [...new Set(types)];
    }
  }
  if (query.card_last_four !== undefined) {
    if (!/^\d{4}$/.test(query.card_last_four))
      errors.push({ field: 'card_last_four', message: 'must be the last four digits of a card, e.g. 1111' });
    else filter.cardLastFour = query.card_last_four;
  }
  const currency = query.currency !== undefined && isCurrency(query.currency) ? query.currency : undefined;
  const exact = query.amount !== undefined ? parseScaledAmount(query.amount, 'amount', currency, errors) : undefined;
  const min = query.amount_min !== undefined ? parseScaledAmount(query.amount_min, 'amount_min', currency, errors) : undefined;
  const max = query.amount_max !== undefined ? parseScaledAmount(query.amount_max, 'amount_max', currency, errors) : undefined;
  if (query.amount !== undefined && (query.amount_min !== undefined || query.amount_max !== undefined)) {
    errors.push({ field: 'amount', message: 'give either `amount` (exact) or `amount_min` / `amount_max` (a range), not both' });
  } else if (min !== undefined && max !== undefined && min > max) {
    errors.push({ field: 'amount_min', message: 'must not be more than `amount_max`' });
  } else if (exact !== undefined || min !== undefined || max !== undefined) {
    filter.amountScaled = {
      ...(exact !== undefined ? { exact } : {}),
      ...(min !== undefined ? { min } : {}),
      ...(max !== undefined ? { max } : {}),
    };
  }
  if (query.till_id !== undefined) {
    if (query.till_id !== OTHER_TERMINALS_BOOK && !TILL_ID_PATTERN.test(query.till_id))
      errors.push({ field: 'till_id', message: "must be a till's id (e.g. TILL-2), or * for other terminals" });
    else filter.tillId = query.till_id;
  }
  if (query.staff_id !== undefined) {
    if (!/^[\x21-\x7e]{1,64}$/.test(query.staff_id)) errors.push({ field: 'staff_id', message: "must be a staff member's id" });
    else filter.staffId = query.staff_id;
  }
  const search = readSearch(
    query.search,
    "a transaction id, an order id, an invoice number, a card's last four digits or a till's id",
    errors,
  );
  if (search) {
    filter.search = {
      orderId: search.text,
      ...(search.id ? { id: search.id } : {}),
      ...(/^\d{4}$/.test(search.text) ? { cardLastFour: search.text } : {}),
      // A till's id finds its sales ("TILL-3").
      ...(TILL_ID_PATTERN.test(search.text) && !search.id ? { tillId: search.text } : {}),
      // An invoice's number (its payments' order ids are UUIDs the pay page made).
      ...(search.text.length <= INVOICE_NUMBER_MAX_LENGTH && !search.id ? { invoiceNumber: search.text } : {}),
    };
  }
  if (filter.from && filter.to && filter.from > filter.to) errors.push({ field: 'from', message: 'must not be after `to`' });
  return filter;
}

/** The list's query: its filters, and a page by `limit` with `offset` or `starting_after` (looked up by the caller). */
export function parseListQuery(query: TransactionListQuery): Outcome<{ filter: TransactionFilter; startingAfter?: string }> {
  const errors: FieldError[] = [];
  const filter: TransactionFilter = {
    ...parseFilters(query, errors),
    limit: parseCount(query.limit, 'limit', 1, TRANSACTION_LIST_MAX_LIMIT, TRANSACTION_LIST_DEFAULT_LIMIT, errors),
    offset: parseCount(query.offset, 'offset', 0, 100_000_000, 0, errors),
  };
  const startingAfter = parseStartingAfter(query.starting_after, errors);
  if (startingAfter !== undefined && query.offset !== undefined) {
    errors.push({ field: 'offset', message: 'cannot be combined with `starting_after`; page with one of them' });
  }
  return errors.length ? failure(validationError(errors)) : success({ filter, ...(startingAfter !== undefined ? { startingAfter } : {}) });
}

export function parseStartingAfter(value: string | undefined, errors: FieldError[]): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,64}$/.test(value)) {
    errors.push({ field: 'starting_after', message: 'must be the transaction_id of the last row of the previous page' });
    return undefined;
  }
  return value;
}

/** The position of `starting_after` in the list's order, or the 400 naming it. */
export async function keysetPosition(
  store: Store<TransactionsUnit>,
  merchantId: string,
  id: string,
): Promise<Outcome<{ createdAt: string; id: string }>> {
  const row = await store.read((r) => r.transactions.get(merchantId, id));
  return row
    ? success({ createdAt: row.createdAt, id: row.id })
    : failure(validationError([{ field: 'starting_after', message: 'names no transaction of this merchant' }]));
}

/** Every field a list query names wrongly, for one 400 also when the schema rejected some (docs/api.md). */
export function listQueryErrors(query: Record<string, unknown>): FieldError[] {
  const strings = Object.fromEntries(Object.entries(query).filter(([, value]) => typeof value === 'string')) as TransactionListQuery;
  const result = parseListQuery(strings);
  return result.ok ? [] : result.error.errors;
}

function amountOf(minor: number, currency: string): number {
  return minorToAmount(minor, currencyExponent(currency) ?? 2);
}

export function transactionView(t: TransactionRecord): Transaction {
  return {
    transaction_id: t.id,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    status_code: t.statusCode,
    status: statusName(t.statusCode),
    amount: amountOf(t.amountMinor, t.currency),
    currency: t.currency,
    order_id: t.orderId,
    recurring: t.recurring,
    sepa_mandate: t.sepaMandate,
    parent_id: t.parentId,
    payment_method: t.paymentType,
    message: t.message,
    sepa_msg_id: t.sepaMsgId,
    captured_amount: t.capturedMinor > 0 ? amountOf(t.capturedMinor, t.currency) : null,
    additional_transaction_data: t.additionalTransactionData,
    ...(t.cardLastFour ? { card_brand: t.cardBrand ?? 'unknown', card_last_four: t.cardLastFour } : {}),
    ...(t.details.pos ? { entry_mode: t.details.pos.entry_mode } : {}),
    ...(t.invoiceNumber !== null ? { invoice_number: t.invoiceNumber } : {}),
    ...(t.tillId !== null ? { till_id: t.tillId } : {}),
    ...(t.details.pos?.terminal.id ? { terminal_id: t.details.pos.terminal.id } : {}),
    ...(t.details.staff_id ? { staff_id: t.details.staff_id } : {}),
    ...(t.paymentType === 'cardpos' ? { taken_at: takenAt(t) } : {}),
    ...(t.details.stored?.forwarded_at ? { forwarded_at: t.details.stored.forwarded_at } : {}),
  };
}

/** When a card-present sale was taken: a sale a till stored while its centre was away, when it was stored. */
export function takenAt(t: TransactionRecord): string {
  return t.details.stored?.stored_at ?? t.createdAt;
}

export function refundView(refund: RefundRecord, currency: string): Refund {
  return {
    created_at: refund.createdAt,
    refund_id: refund.id,
    amount: amountOf(refund.amountMinor, currency),
    status_code: refund.statusCode,
    status: refundStatusName(refund.statusCode),
    ...(refund.merchantReference !== null ? { merchant_reference: refund.merchantReference } : {}),
    ...(refund.merchantRefundId !== null ? { merchant_refund_id: refund.merchantRefundId } : {}),
    ...(refund.executionDate !== null ? { execution_date: refund.executionDate } : {}),
  };
}

export function eventView(e: EventRecord, currency: string): TransactionEvent {
  return {
    created_at: e.createdAt,
    type: e.type,
    status: e.status,
    amount: amountOf(e.amountMinor, currency),
    execution_date: e.executionDate,
    message: e.message,
  };
}

export class TransactionQueries {
  constructor(private readonly store: Store<TransactionsUnit>) {}

  async list(merchantId: string, query: TransactionListQuery): Promise<Outcome<Transaction[]>> {
    const parsed = parseListQuery(query);
    if (!parsed.ok) return parsed;
    const { filter, startingAfter } = parsed.value;
    if (startingAfter !== undefined) {
      const position = await keysetPosition(this.store, merchantId, startingAfter);
      if (!position.ok) return position;
      filter.after = position.value;
    }
    const rows = await this.store.read((r) => r.transactions.list(merchantId, filter));
    return success(rows.map(transactionView));
  }

  /**
   * Everything the back office's detail shows, in one read: the transaction, what each action may
   * still take (capture, release, refund), the card (brand, last four, entry mode; never more), the
   * customer, fees, the event log (postback attempts included) and the refunds.
   */
  async detail(merchantId: string, transactionId: string): Promise<Outcome<TransactionDetail>> {
    const result = await this.store.read(async (r) => {
      const row = await r.transactions.get(merchantId, transactionId);
      if (!row) return undefined;
      const staffId = row.details.staff_id;
      return {
        row,
        events: await r.events.listByTransaction(row.id),
        refunds: await r.refunds.listByTransaction(row.id),
        till: row.tillId !== null ? await r.tills.get(merchantId, row.tillId) : undefined,
        cashier: staffId ? await r.staff.get(staffId) : undefined,
      };
    });
    if (!result) return failure(notFound(transactionId));
    const { row: t, events, refunds, till, cashier } = result;
    const stored = t.details.stored;
    const exponent = currencyExponent(t.currency) ?? 2;
    const amount = (minor: number) => minorToAmount(minor, exponent);
    const authorization = t.operation === 'authorize';
    const uncaptured = authorization ? Math.max(0, t.authorizedMinor - t.capturedMinor) : 0;
    const capabilities = CAPABILITIES[t.paymentType as PaymentType] as (typeof CAPABILITIES)[PaymentType] | undefined;
    const entryMode = t.details.pos?.entry_mode ?? (t.paymentType === 'cardecom' ? 'ecommerce' : null);
    const customer = { ...t.details.customer };
    return success({
      transaction: transactionView(t),
      amounts: {
        authorized: amount(authorization ? t.authorizedMinor : 0),
        captured: amount(t.capturedMinor),
        refunded: amount(t.refundedMinor),
        reversed: amount(t.reversedMinor),
        capturable: amount(allowedFrom('capture').includes(t.statusCode as never) ? uncaptured : 0),
        releasable: amount(allowedFrom('reverse').includes(t.statusCode as never) ? uncaptured : 0),
        refundable: amount(allowedFrom('refund').includes(t.statusCode as never) ? Math.max(0, t.capturedMinor - t.refundedMinor) : 0),
        partial_reversal: capabilities?.partialReversal ?? false,
        partial_refund: capabilities?.partialRefund ?? false,
      },
      included_fees: minorToText(t.feesMinor, exponent),
      card: t.cardLastFour ? { brand: t.cardBrand ?? 'unknown', last_four: t.cardLastFour, entry_mode: entryMode } : null,
      customer,
      merchant_reference: t.merchantReference,
      till: t.tillId !== null ? { till_id: t.tillId, name: till?.name ?? t.tillId } : null,
      cashier: t.details.staff_id ? { staff_id: t.details.staff_id, name: cashier?.displayName ?? t.details.staff_id } : null,
      stored: stored
        ? {
            till_id: stored.till_id,
            stored_at: stored.stored_at,
            forwarded_at: stored.forwarded_at ?? null,
            cashier_refused: stored.staff_refused === true,
          }
        : null,
      events: events.map((e) => eventView(e, t.currency)),
      refunds: refunds.map((refund) => refundView(refund, t.currency)),
    });
  }

  async get(merchantId: string, transactionId: string): Promise<Outcome<Transaction>> {
    const row = await this.store.read((r) => r.transactions.get(merchantId, transactionId));
    return row ? success(transactionView(row)) : failure(notFound(transactionId));
  }

  async refunds(merchantId: string, transactionId: string): Promise<Outcome<Refund[]>> {
    const result = await this.store.read(async (r) => {
      const row = await r.transactions.get(merchantId, transactionId);
      return row ? { row, refunds: await r.refunds.listByTransaction(row.id) } : undefined;
    });
    if (!result) return failure(notFound(transactionId));
    return success(result.refunds.map((refund) => refundView(refund, result.row.currency)));
  }

  async log(merchantId: string, transactionId: string): Promise<Outcome<TransactionEvent[]>> {
    const result = await this.store.read(async (r) => {
      const row = await r.transactions.get(merchantId, transactionId);
      return row ? { row, events: await r.events.listByTransaction(row.id) } : undefined;
    });
    if (!result) return failure(notFound(transactionId));
    return success(result.events.map((e) => eventView(e, result.row.currency)));
  }
}
