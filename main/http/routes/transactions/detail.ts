/**
 * The back office's transaction detail (docs/decisions.md "Back office: transactions"): one read of
 * everything the detail shows (the transaction, what capture, release and refund may still take,
 * card summary, customer, fees, event log with postback attempts, refunds). Staff sessions of the
 * back office and admins; a cashier reads today's transactions through /rest (D9). Capture, reverse
 * and refund themselves go through /rest/capture, /rest/reverse and /rest/refund, audited there.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema, RefTo } from '../../../../contract/api/common.js';
import { ErrorCode } from '../../../../contract/codes.js';
import { apiError } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { requireStaffSession, send } from '../../api-context.js';
import { sendApiError } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const ErrorRef = RefTo(ErrorBodySchema);
const error = (description: string): TSchema => Type.Unsafe({ ...ErrorRef, description });

export function transactionDetailRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    route(
      app,
      'transactions.detail',
      {
        schema: {
          tags: ['Back-office UI'],
          summary:
            "A transaction's detail for the back office: amounts left to capture, release and refund, card summary, customer, fees, event log and refunds",
        },
        errors: (success) => ({
          ...success,
          400: error('Invalid request (1001)'),
          401: error('No staff session (2001)'),
          403: error('Not for cashiers (2002)'),
          404: error('No such transaction for this merchant (3001)'),
        }),
        onRequest: requireStaffSession(gateway),
      },
      async (request, reply) => {
        const principal = request.principal;
        if (principal?.staff?.role === 'cashier')
          return sendApiError(reply, apiError(ErrorCode.forbidden, 'The transaction detail is for back-office staff and admins'));
        return send(reply, toReply(await gateway.transactions.detail(principal?.merchantId ?? '', request.params.transaction_id)));
      },
    );
  };
}
