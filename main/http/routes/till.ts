/**
 * The till's card attempts (decisions.md D16), for the cashier screen: record the attempt before a
 * payment is sent, and resolve it after the answer, a lost answer, a reload or a restart. A sale
 * whose outcome is unknown is never charged again before this says how it ended.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { success, toReply } from '../../core/errors.js';
import type { Gateway } from '../../core/gateway.js';
import { requireStaffSession, send } from '../api-context.js';

const tags = ['Back-office UI'];
/** This till's terminal (GET /ui/terminal); one till per gateway for now. */
export const TILL_TERMINAL_ID = 'TILL-1';

const AttemptSchema = Type.Object({
  attempt_id: Type.String(),
  order_id: Type.String(),
  idempotency_key: Type.String(),
  amount: Type.Number(),
  currency: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export function tillRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const requireSession = requireStaffSession(gateway);
    const merchant = (principal: { merchantId: string | null } | undefined) => principal?.merchantId ?? '';

    app.get(
      '/ui/till/attempt',
      {
        schema: { tags, summary: "This till's open card attempt, or null", response: { 200: Type.Object({ attempt: Type.Union([AttemptSchema, Type.Null()]) }) } },
        onRequest: requireSession,
      },
      async (request, reply) => reply.send({ attempt: await gateway.tillAttempts.current(merchant(request.principal), TILL_TERMINAL_ID) }),
    );

    app.put(
      '/ui/till/attempt',
      {
        schema: {
          tags,
          summary: 'Record the card attempt the till is about to send (before POST /rest/payment with this Idempotency-Key)',
          description:
            'Refused with 409 (4001) while an earlier attempt of this till may still be charging, and with 400 (1002) when the sale was already charged: resolve first.',
          body: Type.Object(
            // Types only: the core names every bad value at once.
            {
              order_id: Type.String({ description: '1 to 100 printable characters; one sale, one order id' }),
              idempotency_key: Type.String({ description: 'the Idempotency-Key of the POST /rest/payment about to be sent' }),
              amount: Type.Number(),
              currency: Type.String({ description: 'ISO 4217' }),
            },
            { additionalProperties: false },
          ),
          response: { 200: AttemptSchema, 201: AttemptSchema },
        },
        onRequest: requireSession,
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.tillAttempts.begin(merchant(request.principal), TILL_TERMINAL_ID, request.principal?.staff?.id ?? null, request.body))),
    );

    app.post(
      '/ui/till/attempt/resolve',
      {
        schema: {
          tags,
          summary: "How this till's open attempt ended: approved, not_charged, in_progress (ask again), or none",
          description:
            'Fences the attempt\'s idempotency key first, so a request that has not arrived yet is never processed afterwards; approved and not_charged close the attempt.',
        },
        onRequest: requireSession,
      },
      async (request, reply) => send(reply, toReply(success(await gateway.tillAttempts.resolve(merchant(request.principal), TILL_TERMINAL_ID)))),
    );
  };
}
