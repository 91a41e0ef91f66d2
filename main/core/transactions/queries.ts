/** Transaction queries (interface.md "Transaction queries"): list with filters, detail, refunds, log. */
import type { FieldError } from '../../../contract/api/common.js';
import type { Transaction, TransactionEvent, Refund, TransactionListQuery } from '../../../contract/api/transactions.js';
import { ErrorCode, isStatusCode, refundStatusName, statusName } from '../../../contract/codes.js';
import { TRANSACTION_LIST_MAX_LIMIT, TRANSACTION_LIST_DEFAULT_LIMIT } from '../../../contract/constants.js';
import { currencyExponent, isCurrency, minorToAmount } from '../../../contract/money.js';
import { apiError, failure, success, validationError, type Outcome } from '../errors.js';
import type { EventRecord, Store, TransactionFilter, TransactionRecord } from '../ports.js';

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

export function parseListQuery(query: TransactionListQuery): Outcome<TransactionFilter> {
  const errors: FieldError[] = [];
  const filter: TransactionFilter = {
    limit: parseCount(query.limit, 'limit', 1, TRANSACTION_LIST_MAX_LIMIT, TRANSACTION_LIST_DEFAULT_LIMIT, errors),
    offset: parseCount(query.offset, 'offset', 0, 100_000_000, 0, errors),
  };
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
  if (query.order_id !== undefined) filter.orderId = query.order_id;
  if (filter.from && filter.to && filter.from > filter.to) errors.push({ field: 'from', message: 'must not be after `to`' });
  return errors.length ? failure(validationError(errors)) : success(filter);
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
    ...(typeof (t.details.pos as { entry_mode?: unknown } | undefined)?.entry_mode === 'string'
      ? { entry_mode: (t.details.pos as { entry_mode: string }).entry_mode }
      : {}),
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
  constructor(private readonly store: Store) {}

  async list(merchantId: string, query: TransactionListQuery): Promise<Outcome<Transaction[]>> {
    const filter = parseListQuery(query);
    if (!filter.ok) return filter;
    const rows = await this.store.read((r) => r.transactions.list(merchantId, filter.value));
    return success(rows.map(transactionView));
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
    return success(
      result.refunds.map((refund) => ({
        created_at: refund.createdAt,
        refund_id: refund.id,
        amount: amountOf(refund.amountMinor, result.row.currency),
        status_code: refund.statusCode,
        status: refundStatusName(refund.statusCode),
        ...(refund.merchantReference !== null ? { merchant_reference: refund.merchantReference } : {}),
        ...(refund.merchantRefundId !== null ? { merchant_refund_id: refund.merchantRefundId } : {}),
        ...(refund.executionDate !== null ? { execution_date: refund.executionDate } : {}),
      })),
    );
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

export function notFound(transactionId: string) {
  return apiError(ErrorCode.notFound, `Transaction ${transactionId} not found`, [{ field: 'transaction_id', message: 'no such transaction for this merchant' }]);
}
