/** Transaction queries: a transaction, its event log and its refunds as `GET /rest/transactions...` answer them. */
import { Type, type Static } from '@sinclair/typebox';
import { TRANSACTION_STATUS_LIST } from '../codes.js';
import { TRANSACTION_LIST_DEFAULT_LIMIT, TRANSACTION_LIST_MAX_LIMIT } from '../constants.js';
import { Nullable } from './common.js';

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

export const TransactionListQuerySchema = Type.Object(
  {
    from: Type.Optional(Type.String({ description: 'ISO 8601 timestamp; created at or after' })),
    to: Type.Optional(Type.String({ description: 'ISO 8601 timestamp; created at or before' })),
    status: Type.Optional(Type.String({ description: 'one status code or a comma-separated list, e.g. 3,8' })),
    currency: Type.Optional(Type.String({ description: 'ISO 4217 code' })),
    order_id: Type.Optional(Type.String()),
    limit: Type.Optional(
      Type.String({ pattern: '^[0-9]+$', description: `page size, default ${TRANSACTION_LIST_DEFAULT_LIMIT}, at most ${TRANSACTION_LIST_MAX_LIMIT}` }),
    ),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'rows to skip, default 0' })),
  },
  { additionalProperties: false },
);
export type TransactionListQuery = Static<typeof TransactionListQuerySchema>;

export const TransactionIdParams = Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 64 }) });
