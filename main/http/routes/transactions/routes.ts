/** Transaction queries: `GET /rest/transactions`, its CSV export, `/rest/transactions/{id}`, `/refunds`, `/log`. */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { TRANSACTION_LIST_DEFAULT_LIMIT, TRANSACTION_LIST_MAX_LIMIT } from '../../../../contract/constants.js';
import { EXPORT_NEXT_HEADER, EXPORT_PART_MAX_ROWS, EXPORT_TOTAL_HEADER } from '../../../../contract/transaction-list.js';

import { exportQueryErrors } from '../../../core/transactions/export.js';
import { listQueryErrors } from '../../../core/transactions/queries.js';
import type { Gateway } from '../../../core/gateway.js';
import { merchantOf, send } from '../../api-context.js';
import { sendApiError } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

/** Cashiers see today's transactions only (decisions.md D9): their `from` is at least local midnight. */
function todayOnlyFor<Q extends { from?: string }>(gateway: Gateway, request: FastifyRequest, query: Q): Q {
  if (request.principal?.staff?.role !== 'cashier') return query;
  const midnight = new Date(gateway.clock.now());
  midnight.setHours(0, 0, 0, 0);
  const fromTime = query.from === undefined ? Number.NaN : Date.parse(query.from);
  return Number.isNaN(fromTime) || fromTime < midnight.getTime() ? { ...query, from: midnight.toISOString() } : query;
}

export function transactionRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    route(
      app,
      'transactions.list',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'List transactions, newest first',
          description:
            `Filters combine (all must match). ${TRANSACTION_LIST_DEFAULT_LIMIT} by default, \`limit\` up to ${TRANSACTION_LIST_MAX_LIMIT}. ` +
            'Page with `starting_after` (the last `transaction_id` of the previous page: keyset paging, as fast deep in the list as at its start) or `offset`. ' +
            'A page shorter than `limit` is the last.',
        },
        errors: [400],
        config: { queryFieldErrors: listQueryErrors },
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.transactions.list(merchantOf(request), todayOnlyFor(gateway, request, request.query)))),
    );

    route(
      app,
      'transactions.export',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'Export transactions as CSV (streamed)',
          description:
            "The list's filters, newest first, as `text/csv` (RFC 4180, UTF-8, CRLF): `columns` in the order given, timestamps in `time_zone`, amounts as decimal text in each row's currency. " +
            `Card data is the brand and the last four digits only. The file is streamed from the database a chunk at a time, so any size works; \`${EXPORT_TOTAL_HEADER}\` says how many rows it carries (rows created after the request are not part of it). ` +
            `With \`limit\` (up to ${EXPORT_PART_MAX_ROWS}) the answer is one part: \`${EXPORT_NEXT_HEADER}\` names the transaction the next part starts after (absent on the last part); send it as \`starting_after\` with \`header=0\`. ` +
            'Text that a spreadsheet would read as a formula (starting with =, +, -, @) gets a leading apostrophe. Staff exports are in the audit log.',
          produces: ['text/csv'],
        },
        errors: [400, 403],
        config: { queryFieldErrors: exportQueryErrors },
      },
      async (request, reply) => {
        const staffId = request.principal?.staff?.id;
        const result = await gateway.transactionExport.start(
          merchantOf(request),
          todayOnlyFor(gateway, request, request.query),
          staffId ? { staffId } : {},
        );
        if (!result.ok) return sendApiError(reply, result.error);
        const { filename, total, nextStartingAfter, body } = result.value;
        reply
          .code(200)
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${filename}"`)
          .header('Cache-Control', 'no-store')
          .header(EXPORT_TOTAL_HEADER, String(total));
        if (nextStartingAfter) reply.header(EXPORT_NEXT_HEADER, nextStartingAfter);
        // One chunk buffered at a time: the next one is read when the socket took this one.
        return reply.send(Readable.from(body, { highWaterMark: 1 }));
      },
    );

    route(
      app,
      'transactions.get',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'Read one transaction',
        },
        errors: [400, 404],
      },
      async (request, reply) => send(reply, toReply(await gateway.transactions.get(merchantOf(request), request.params.transaction_id))),
    );

    route(
      app,
      'transactions.refunds',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'List the refunds of a transaction',
        },
        errors: [400, 404],
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.transactions.refunds(merchantOf(request), request.params.transaction_id))),
    );

    route(
      app,
      'transactions.log',
      {
        schema: {
          tags: ['Transaction queries'],
          summary: 'Read the event log of a transaction',
        },
        errors: [400, 404],
      },
      async (request, reply) => send(reply, toReply(await gateway.transactions.log(merchantOf(request), request.params.transaction_id))),
    );
  };
}
