/**
 * The simulated terminal of this screen's till (`tills.terminal`, GET /ui/terminal): its
 * capabilities, the CVM limit of its payments, the Test environment's PIN key and the till's own
 * settings, for the cashier screen.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TerminalConfig } from '../../../../contract/api/tills.js';
import { DEFAULT_CVM_LIMIT } from '../../../../contract/constants.js';
import type { Gateway } from '../../../core/gateway.js';
import { TEST_PIN_KEY } from '../../../core/payments/payments.js';
import { SESSION_IDLE_MS } from '../../../core/staff/staff.js';
import { requireStaffSession } from '../../api-context.js';
import { route } from '../../operation-route.js';
import { tillOf, tillOfRequest } from './routes.js';

const tags = ['Back-office UI'];

/** The till's own settings, from the host's settings (docs/operations.md). */
export interface TillSettings {
  /** Above this amount (merchant's currency) the till asks for confirmation before the card prompt. */
  confirmAbove: number;
}

export const DEFAULT_TILL_SETTINGS: TillSettings = { confirmAbove: 1000 };

export function tillTerminalRoutes(gateway: Gateway, till: TillSettings = DEFAULT_TILL_SETTINGS): FastifyPluginAsyncTypebox {
  return async (app) => {
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
      'tills.terminal',
      {
        schema: { tags, summary: "The simulated terminal of this screen's till (PUT /ui/session/till first where the shop has several)" },
        errors: [400, 409],
        onRequest: requireStaffSession(gateway),
        preHandler: tillOfRequest(gateway),
      },
      async (request, reply) => {
        // The CVM limit of this till's payments: its shop's cardpos setting, else the merchant's, else the default (D15).
        const cvm = await gateway.paymentMethods.terminalCvmLimit(request.principal?.merchantId ?? '', tillOf(request));
        return reply.send({ ...terminal, terminal_id: tillOf(request), cvm_limit: cvm.amount });
      },
    );
  };
}
