/** Transaction queries: `GET /rest/transactions`, `/rest/transactions/{id}`, `/log`. */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toReply } from '../../core/errors.js';
import type { Gateway } from '../../core/gateway.js';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../core/transactions/queries.js';
import { merchantOf, send } from '../api-context.js';
import { apiResponses } from '../schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const TransactionSchema = Type.Object(
  {
    transaction_id: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    status_code: Type.Integer({ description: '1 started, 2 pending, 3 completed, 4 authorized, 5 reversed, 6 declined, 7 refunded, 8 partly_refunded, 9 cancelled, 10 expired, 11 error, 12 chargeback' }),
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

const ListQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ description: 'ISO 8601 timestamp; created at or after' })),
    to: Type.Optional(Type.String({ description: 'ISO 8601 timestamp; created at or before' })),
    status: Type.Optional(Type.String({ description: 'one status code or a comma-separated list, e.g. 3,8' })),
    currency: Type.Optional(Type.String({ description: 'ISO 4217 code' })),
    order_id: Type.Optional(Type.String()),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: `page size, default ${LIST_DEFAULT_LIMIT}, at most ${LIST_MAX_LIMIT}` })),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'rows to skip, default 0' })),
  },
  { additionalProperties: false },
);

const IdParams = Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 64 }) });

export function transactionRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/rest/transactions',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'List transactions, newest first',
          description: `Filters combine. ${LIST_DEFAULT_LIMIT} by default; \`limit\` (up to ${LIST_MAX_LIMIT}) and \`offset\` page further.`,
          querystring: ListQuery,
          response: apiResponses({ 200: Type.Array(Type.Ref('Transaction')) }),
        },
      },
      async (request, reply) => {
        const query = { ...request.query };
        if (request.principal?.staff?.role === 'cashier') {
          // Cashiers see today's transactions only (decisions.md D9).
          const midnight = new Date(gateway.clock.now());
          midnight.setHours(0, 0, 0, 0);
          const fromTime = query.from === undefined ? Number.NaN : Date.parse(query.from);
          if (Number.isNaN(fromTime) || fromTime < midnight.getTime()) query.from = midnight.toISOString();
        }
        return send(reply, toReply(await gateway.transactions.list(merchantOf(request), query)));
      },
    );

    app.get(
      '/rest/transactions/:transaction_id',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'Read one transaction',
          params: IdParams,
          response: apiResponses({ 200: Type.Ref('Transaction') }, [400, 404]),
        },
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.transactions.get(merchantOf(request), request.params.transaction_id))),
    );

    app.get(
      '/rest/transactions/:transaction_id/refunds',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'List the refunds of a transaction',
          params: IdParams,
          response: apiResponses({ 200: Type.Array(Type.Ref('Refund')) }, [400, 404]),
        },
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.transactions.refunds(merchantOf(request), request.params.transaction_id))),
    );

    app.get(
      '/rest/transactions/:transaction_id/log',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'Read the event log of a transaction',
          params: IdParams,
          response: apiResponses({ 200: Type.Array(Type.Ref('TransactionEvent')) }, [400, 404]),
        },
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.transactions.log(merchantOf(request), request.params.transaction_id))),
    );
  };
}
