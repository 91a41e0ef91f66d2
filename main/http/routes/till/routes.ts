/**
 * The till's simulated terminal (its configuration for this screen) and its card attempts
 * (decisions.md D16), for the cashier screen: record the attempt before a payment is sent, and
 * resolve it after the answer, a lost answer, a reload or a restart. A sale whose outcome is unknown
 * is never charged again before this says how it ended.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TerminalConfig } from '../../../../contract/api/till.js';
import { DEFAULT_CVM_LIMIT } from '../../../../contract/constants.js';
import { success } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { TEST_PIN_KEY } from '../../../core/payments/payments.js';
import { SESSION_IDLE_MS } from '../../../core/staff/staff.js';
import { requireStaffSession, send } from '../../api-context.js';
import { tillOf, tillOfRequest } from '../tills/routes.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

/** The till's own settings, from the host's settings (docs/operations.md). */
export interface TillSettings {
  /** Above this amount (merchant's currency) the till asks for confirmation before the card prompt. */
  confirmAbove: number;
}

export const DEFAULT_TILL_SETTINGS: TillSettings = { confirmAbove: 1000 };

export function tillRoutes(gateway: Gateway, till: TillSettings = DEFAULT_TILL_SETTINGS): FastifyPluginAsyncTypebox {
  return async (app) => {
    const requireSession = requireStaffSession(gateway);

    const terminal: Omit<TerminalConfig, 'terminal_id'> = {
      type: 'softpos',
      attended: true,
      capabilities: ['contactlessChip', 'contactChip', 'magstripe', 'onlinePin'],
      cvm_limit: DEFAULT_CVM_LIMIT,
      // The Test environment's published PIN key; a production terminal keeps its key in hardware.
      pin_key: { zone_id: TEST_PIN_KEY.zoneId, key_id: TEST_PIN_KEY.keyId, key_hex: TEST_PIN_KEY.keyHex },
      idle_lock_seconds: SESSION_IDLE_MS / 1000,
      // Above this the till asks "Charge …? That is above this till's usual limit" before the card prompt.
      confirm_above: till.confirmAbove,
    };
    route(
      app,
      'till.terminal',
      {
        schema: { tags, summary: "The simulated terminal of this screen's till (PUT /ui/session/till first where the shop has several)" },
        errors: [400, 409],
        onRequest: requireSession,
        preHandler: tillOfRequest(gateway),
      },
      async (request, reply) => {
        // The CVM limit of this till's payments: its shop's cardpos setting, else the merchant's, else the default (D15).
        const cvm = await gateway.paymentMethods.terminalCvmLimit(request.principal?.merchantId ?? '', tillOf(request));
        return reply.send({ ...terminal, terminal_id: tillOf(request), cvm_limit: cvm.amount });
      },
    );

    // Every route here works on the till this session's screen holds.
    const preHandler = tillOfRequest(gateway);
    const merchant = (principal: { merchantId: string | null } | undefined) => principal?.merchantId ?? '';

    route(
      app,
      'till.attempt',
      {
        schema: { tags, summary: "This till's open card attempt, or null" },
        onRequest: requireSession,
        preHandler,
      },
      async (request, reply) => reply.send({ attempt: await gateway.tillAttempts.current(merchant(request.principal), tillOf(request)) }),
    );

    route(
      app,
      'till.beginAttempt',
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
      'till.resolveAttempt',
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
