/** Transaction queries: `GET /rest/transactions`, `/rest/transactions/{id}`, `/log`. */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RefTo } from '../../../contract/api/common.js';
import { EventSchema, RefundSchema, TransactionIdParams, TransactionListQuerySchema, TransactionSchema } from '../../../contract/api/transactions.js';
import { TRANSACTION_LIST_DEFAULT_LIMIT, TRANSACTION_LIST_MAX_LIMIT } from '../../../contract/constants.js';
import { toReply } from '../../core/errors.js';
import type { Gateway } from '../../core/gateway.js';
import { merchantOf, send } from '../api-context.js';
import { apiResponses } from '../responses.js';

export function transactionRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/rest/transactions',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'List transactions, newest first',
          description: `Filters combine. ${TRANSACTION_LIST_DEFAULT_LIMIT} by default; \`limit\` (up to ${TRANSACTION_LIST_MAX_LIMIT}) and \`offset\` page further.`,
          querystring: TransactionListQuerySchema,
          response: apiResponses({ 200: Type.Array(RefTo(TransactionSchema)) }),
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
          params: TransactionIdParams,
          response: apiResponses({ 200: RefTo(TransactionSchema) }, [400, 404]),
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
          params: TransactionIdParams,
          response: apiResponses({ 200: Type.Array(RefTo(RefundSchema)) }, [400, 404]),
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
          params: TransactionIdParams,
          response: apiResponses({ 200: Type.Array(RefTo(EventSchema)) }, [400, 404]),
        },
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.transactions.log(merchantOf(request), request.params.transaction_id))),
    );
  };
}
