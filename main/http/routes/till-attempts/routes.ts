/**
 * The till's card attempts (decisions.md D16), for the cashier screen: record the attempt before a
 * payment is sent, and resolve it after the answer, a lost answer, a reload or a restart. A sale
 * whose outcome is unknown is never charged again before this says how it ended.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { success } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { requireStaffSession, send } from '../../api-context.js';
import { tillOf, tillOfRequest } from '../tills/routes.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

export function tillAttemptRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const requireSession = requireStaffSession(gateway);

    // Every route here works on the till this session's screen holds.
    const preHandler = tillOfRequest(gateway);
    const merchant = (principal: { merchantId: string | null } | undefined) => principal?.merchantId ?? '';

    route(
      app,
      'till-attempts.current',
      {
        schema: { tags, summary: "This till's open card attempt, or null" },
        onRequest: requireSession,
        preHandler,
      },
      async (request, reply) => reply.send({ attempt: await gateway.tillAttempts.current(merchant(request.principal), tillOf(request)) }),
    );

    route(
      app,
      'till-attempts.begin',
      {
        schema: {
          tags,
          summary: 'Record the card attempt the till is about to send (before POST /rest/payment with this Idempotency-Key)',
          description:
            'Refused with 409 (4001) while an earlier attempt of this till may still be charging, and with 400 (1002) when the sale was already charged: resolve first.',
        },
        onRequest: requireSession,
        preHandler,
      },
      async (request, reply) =>
        send(
          reply,
          toReply(
            await gateway.tillAttempts.begin(
              merchant(request.principal),
              tillOf(request),
              request.principal?.staff?.id ?? null,
              request.body,
            ),
          ),
        ),
    );

    route(
      app,
      'till-attempts.resolve',
      {
        schema: {
          tags,
          summary: "How this till's open attempt ended: approved, not_charged, in_progress (ask again), or none",
          description:
            "Fences the attempt's idempotency key first, so a request that has not arrived yet is never processed afterwards; approved and not_charged close the attempt.",
        },
        onRequest: requireSession,
        preHandler,
      },
      async (request, reply) =>
        send(reply, toReply(success(await gateway.tillAttempts.resolve(merchant(request.principal), tillOf(request))))),
    );
  };
}
