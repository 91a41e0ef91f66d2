/** Transaction queries: a transaction, its event log and its refunds as `GET /rest/transactions...` answer them. */
import { Type, type Static } from '@sinclair/typebox';
import { TRANSACTION_STATUS_LIST } from '../codes.js';
import { PAYMENT_TYPES, TRANSACTION_LIST_DEFAULT_LIMIT, TRANSACTION_LIST_MAX_LIMIT } from '../constants.js';
import {
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_COLUMNS,
  EXPORT_NEXT_HEADER,
  EXPORT_PART_MAX_ROWS,
  SEARCH_MAX_LENGTH,
} from '../transaction-list.js';
import { Nullable, RefTo } from './common.js';
import type { SchemasOf } from './operation-schemas.js';

export const TransactionSchema = Type.Object(
  {
    transaction_id: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    status_code: Type.Integer({ description: TRANSACTION_STATUS_LIST }),
    status: Type.String(),
    amount: Type.Number(),
    currency: Type.String(),
    order_id: Nullable(Type.String()),
    recurring: Type.Integer(),
    sepa_mandate: Nullable(Type.String()),
    parent_id: Nullable(Type.String()),
    payment_method: Type.String(),
    message: Nullable(Type.String()),
    sepa_msg_id: Nullable(Type.String()),
    captured_amount: Nullable(Type.Number()),
    additional_transaction_data: Nullable(Type.String()),
    card_brand: Type.Optional(Type.String()),
    card_last_four: Type.Optional(Type.String()),
    entry_mode: Type.Optional(Type.String({ description: 'card-present: contactless, chip, swipe or manual' })),
    invoice_number: Type.Optional(
      Type.String({ description: "an invoice's payment: the invoice's number when it was paid (the order id is the pay page's)" }),
    ),
    till_id: Type.Optional(
      Type.String({
        description: "card-present: the till the sale belongs to (absent: a terminal that is no till's, or not card-present)",
      }),
    ),
    terminal_id: Type.Optional(Type.String({ description: 'card-present: pos_data.terminal.id as sent' })),
    staff_id: Type.Optional(
      Type.String({ description: 'the staff member who took the sale (a till screen, or the cashier a joined till named)' }),
    ),
    taken_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'card-present: when the sale was taken (a sale a till stored while its centre was away: when it was stored)',
      }),
    ),
    forwarded_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'a sale a till stored while its centre was away: when it reached the centre' }),
    ),
  },
  { $id: 'Transaction', title: 'Transaction' },
);
export type Transaction = Static<typeof TransactionSchema>;

export const EventSchema = Type.Object(
  {
    created_at: Type.String({ format: 'date-time' }),
    type: Type.String({ description: 'precheck, authorization, reauthorization, capture, refund, reversal, postback, ...' }),
    status: Type.Integer(),
    amount: Type.Number(),
    execution_date: Nullable(Type.String()),
    message: Nullable(Type.String()),
  },
  { $id: 'TransactionEvent', title: 'Transaction event' },
);
export type TransactionEvent = Static<typeof EventSchema>;

/** One refund of a transaction (`GET /rest/transactions/{id}/refunds`). */
export const RefundSchema = Type.Object(
  {
    created_at: Type.String(),
    refund_id: Type.String(),
    amount: Type.Number(),
    status_code: Type.Integer(),
    status: Type.String(),
    merchant_reference: Type.Optional(Type.String()),
    merchant_refund_id: Type.Optional(Type.String()),
    execution_date: Type.Optional(Type.String()),
  },
  { $id: 'Refund', title: 'Refund' },
);
export type Refund = Static<typeof RefundSchema>;

/** The filters of the transaction list, shared by the list and its CSV export. */
const listFilters = {
  from: Type.Optional(Type.String({ description: 'ISO 8601 timestamp; created at or after' })),
  to: Type.Optional(Type.String({ description: 'ISO 8601 timestamp (a plain date: to the end of that day, UTC); created at or before' })),
  status: Type.Optional(Type.String({ description: 'one status code or a comma-separated list, e.g. 3,8' })),
  currency: Type.Optional(Type.String({ description: 'ISO 4217 code' })),
  order_id: Type.Optional(Type.String()),
  payment_type: Type.Optional(Type.String({ description: `one payment type or a comma-separated list: ${PAYMENT_TYPES.join(', ')}` })),
  card_last_four: Type.Optional(Type.String({ description: 'the last four digits of the card, e.g. 1111' })),
  amount: Type.Optional(
    Type.String({
      description: "exact amount, e.g. 12.50, in each transaction's currency (its decimals; with `currency`, at most that currency's)",
    }),
  ),
  amount_min: Type.Optional(Type.String({ description: 'amount at least this (not with `amount`)' })),
  amount_max: Type.Optional(Type.String({ description: 'amount at most this (not with `amount`)' })),
  search: Type.Optional(
    Type.String({
      description: `a transaction id, an order id, a card's last four digits or a till's id: transactions that have it as any of these (at most ${SEARCH_MAX_LENGTH} characters)`,
    }),
  ),
  till_id: Type.Optional(
    Type.String({ description: "a till's sales (its id, e.g. TILL-2); * for card-present sales of no till (other terminals)" }),
  ),
  staff_id: Type.Optional(Type.String({ description: 'the sales a staff member took' })),
};

export const TransactionListQuerySchema = Type.Object(
  {
    ...listFilters,
    limit: Type.Optional(
      Type.String({ description: `page size, default ${TRANSACTION_LIST_DEFAULT_LIMIT}, at most ${TRANSACTION_LIST_MAX_LIMIT}` }),
    ),
    offset: Type.Optional(
      Type.String({ description: 'rows to skip, default 0 (prefer `starting_after`: as fast on page 2,000 as on page 1)' }),
    ),
    starting_after: Type.Optional(
      Type.String({
        description:
          'keyset paging: the `transaction_id` of the last row of the previous page; the page continues after it in the same order (not with `offset`)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TransactionListQuery = Static<typeof TransactionListQuerySchema>;

export const TransactionExportQuerySchema = Type.Object(
  {
    ...listFilters,
    columns: Type.Optional(
      Type.String({
        description: `comma-separated columns in the order wanted; default ${DEFAULT_EXPORT_COLUMNS.join(',')}. Any of: ${EXPORT_COLUMNS.join(', ')}`,
      }),
    ),
    time_zone: Type.Optional(Type.String({ description: 'IANA time zone of the timestamps in the file, e.g. Europe/Berlin; default UTC' })),
    limit: Type.Optional(
      Type.String({
        description: `export a part of at most this many rows (up to ${EXPORT_PART_MAX_ROWS}); ${EXPORT_NEXT_HEADER} then names the transaction to continue after`,
      }),
    ),
    starting_after: Type.Optional(Type.String({ description: 'continue after this transaction (the next part of an export)' })),
    header: Type.Optional(Type.String({ description: '`0`: no header line (later parts of an export); default 1' })),
  },
  { additionalProperties: false },
);
export type TransactionExportQuery = Static<typeof TransactionExportQuerySchema>;

/** Money of a transaction, as the back office's detail shows what each action may still take. */
const TransactionAmountsSchema = Type.Object({
  authorized: Type.Number({ description: 'still authorized (after reversals), 0 for a payment that was not an authorization' }),
  captured: Type.Number(),
  refunded: Type.Number(),
  reversed: Type.Number({ description: 'released of the authorization' }),
  capturable: Type.Number({ description: 'what POST /rest/capture may still take' }),
  releasable: Type.Number({ description: 'what POST /rest/reverse may still release' }),
  refundable: Type.Number({ description: 'what POST /rest/refund may still give back' }),
  partial_reversal: Type.Boolean({ description: 'the payment type releases part of an authorization' }),
  partial_refund: Type.Boolean({ description: 'the payment type refunds part of a payment' }),
});

/** `GET /ui/transactions/{id}`: everything the back office's detail shows, read at once. */
export const TransactionDetailSchema = Type.Object(
  {
    transaction: RefTo(TransactionSchema),
    amounts: TransactionAmountsSchema,
    included_fees: Type.String({ description: 'decimal text, e.g. "0.39"' }),
    card: Nullable(
      Type.Object({
        brand: Type.String(),
        last_four: Type.String(),
        entry_mode: Nullable(Type.String({ description: 'contactless, chip, swipe, manual; ecommerce for a card not present' })),
      }),
    ),
    customer: Type.Record(Type.String(), Type.String(), {
      description: 'first_name, last_name, email, address, city, postal_code, country as given',
    }),
    merchant_reference: Nullable(Type.String()),
    till: Nullable(Type.Object({ till_id: Type.String(), name: Type.String() }), {
      description: 'card-present: the till the sale belongs to; null for other terminals and other payments',
    }),
    cashier: Nullable(Type.Object({ staff_id: Type.String(), name: Type.String() }), {
      description: 'who took the sale; null: API credentials or not a sale at a till',
    }),
    stored: Nullable(
      Type.Object({
        till_id: Type.String(),
        stored_at: Type.String({ format: 'date-time', description: 'when the till took it while its centre was away' }),
        forwarded_at: Nullable(Type.String({ format: 'date-time', description: 'when it reached the centre' })),
        cashier_refused: Type.Boolean({
          description: "the till named a cashier who is not one of this shop's staff at a till: the sale has none (D20)",
        }),
      }),
      { description: 'a sale a till stored while its centre was away and forwarded later' },
    ),
    events: Type.Array(RefTo(EventSchema), { description: 'the event log, oldest first (postback attempts included)' }),
    refunds: Type.Array(RefTo(RefundSchema)),
  },
  { title: 'Transaction detail (back office)' },
);
export type TransactionDetail = Static<typeof TransactionDetailSchema>;

export const TransactionIdParams = Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 64 }) });

/** The CSV export's answer (text/csv, not JSON). */
export const TransactionCsvSchema = Type.Unsafe<string>({
  description: 'the CSV file',
  content: { 'text/csv': { schema: Type.String({ description: 'header line, then one line per transaction' }) } },
});

/** The transactions operations (contract/operation-table.ts). */
export const transactionsOperations = {
  'transactions.detail': { params: TransactionIdParams, response: { 200: TransactionDetailSchema } },
  'transactions.list': { querystring: TransactionListQuerySchema, response: { 200: Type.Array(RefTo(TransactionSchema)) } },
  'transactions.export': { querystring: TransactionExportQuerySchema, response: { 200: TransactionCsvSchema } },
  'transactions.get': { params: TransactionIdParams, response: { 200: RefTo(TransactionSchema) } },
  'transactions.refunds': { params: TransactionIdParams, response: { 200: Type.Array(RefTo(RefundSchema)) } },
  'transactions.log': { params: TransactionIdParams, response: { 200: Type.Array(RefTo(EventSchema)) } },
} as const satisfies SchemasOf<'transactions'>;
