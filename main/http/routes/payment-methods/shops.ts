/**
 * Shops and their terminals, the app's Settings (decisions.md D15): the merchant's shops, a new
 * shop, a terminal put in a shop or taken out (admin).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../../contract/codes.js';
import { apiError } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { requireStaffSession, send } from '../../api-context.js';
import { sendApiError } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

export function shopRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const requireSession = requireStaffSession(gateway);
    const adminOnly = (request: FastifyRequest, what: string) =>
      request.principal?.staff?.role === 'admin' ? undefined : apiError(ErrorCode.forbidden, `Only an admin may ${what}`);
    route(
      app,
      'payment-methods.shops',
      { schema: { tags, summary: "This merchant's shops and their terminals" }, onRequest: requireSession },
      async (request, reply) => {
        if (request.principal?.staff?.role === 'cashier')
          return sendApiError(reply, apiError(ErrorCode.forbidden, 'Cashiers may not manage shops'));
        return reply.send(await gateway.partners.listShops(request.principal?.merchantId ?? ''));
      },
    );
    route(
      app,
      'payment-methods.createShop',
      { schema: { tags, summary: 'Create a shop (admin)' }, onRequest: requireSession },
      async (request, reply) => {
        const denied = adminOnly(request, 'create shops');
        if (denied) return sendApiError(reply, denied);
        return send(
          reply,
          toReply(
            await gateway.partners.createShop(request.principal?.merchantId ?? '', request.body.name, {
              staffId: request.principal?.staff?.id ?? null,
            }),
          ),
        );
      },
    );
    route(
      app,
      'payment-methods.assignTerminal',
      {
        schema: {
          tags,
          summary: 'Assign a terminal id to a shop (admin); a terminal of another shop moves',
        },
        onRequest: requireSession,
      },
      async (request, reply) => {
        const denied = adminOnly(request, 'assign terminals');
        if (denied) return sendApiError(reply, denied);
        const merchantId = request.principal?.merchantId ?? '';
        return send(
          reply,
          toReply(
            await gateway.partners.assignTerminal(
              { shopId: request.params.shop_id, terminalId: request.body.terminal_id, merchantId },
              { staffId: request.principal?.staff?.id ?? null },
            ),
          ),
        );
      },
    );
    route(
      app,
      'payment-methods.unassignTerminal',
      {
        schema: { tags, summary: 'Take a terminal out of its shop (admin)' },
        onRequest: requireSession,
      },
      async (request, reply) => {
        const denied = adminOnly(request, 'unassign terminals');
        if (denied) return sendApiError(reply, denied);
        const merchantId = request.principal?.merchantId ?? '';
        const outcome = await gateway.partners.unassignTerminal(merchantId, request.params.terminal_id, {
          staffId: request.principal?.staff?.id ?? null,
        });
        if (!outcome.ok) return send(reply, toReply(outcome));
        return reply.send({
          terminal_id: outcome.value.terminal_id,
          shop_id: null,
          merchant_id: merchantId,
          previous_shop_id: outcome.value.previous_shop_id,
        });
      },
    );
  };
}
