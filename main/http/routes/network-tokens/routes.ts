/**
 * Network tokens (docs/api.md "Network tokens", docs/decisions.md "Network tokens"): create, list,
 * token data, cryptogram, archive, and the simulated token service's test actions. Answers use the
 * `result` + `data` envelope; errors use the API error body (D3).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { NetworkTokenRequest } from '../../../../contract/api/network-tokens.js';
import type { SimulateAction } from '../../../../contract/constants.js';

import type { Gateway } from '../../../core/gateway.js';
import { merchantOf, perform, send } from '../../api-context.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

export function networkTokenRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    route(
      app,
      'network-tokens.create',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Create a network token for a card',
          description:
            'New tokens answer 201 with status requested and become active (or failed) after the simulated delay, with a postback to postback_url. The same card for the same merchant answers 200 with its existing token.',
        },
        errors: [400, 409, 422],
        config: { bodyFieldErrors: (body) => gateway.networkTokens.validate(body as unknown as NetworkTokenRequest) },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => gateway.networkTokens.create(op, request.body))),
    );
    route(
      app,
      'network-tokens.list',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'List network tokens, newest first',
        },
        errors: [400],
      },
      async (request, reply) => send(reply, toReply(await gateway.networkTokens.list(merchantOf(request), request.query))),
    );
    route(
      app,
      'network-tokens.get',
      {
        schema: { tags: ['Network tokens'], summary: 'Read a network token' },
        errors: [400, 404],
      },
      async (request, reply) => send(reply, toReply(await gateway.networkTokens.read(merchantOf(request), request.params.id))),
    );
    route(
      app,
      'network-tokens.data',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Token data: number, expiry, payment account reference (no cryptogram)',
          description: "Only for active or suspended tokens. A staff session's read is written to the audit log (token_reveal).",
        },
        errors: [400, 404],
      },
      async (request, reply) => {
        const staff = request.principal?.staff;
        return send(
          reply,
          toReply(
            await gateway.networkTokens.data(merchantOf(request), request.params.id, staff ? { staffId: staff.id, via: 'API' } : undefined),
          ),
        );
      },
    );
    route(
      app,
      'network-tokens.cryptogram',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Generate a TAVV (visa) or DSRP (mastercard) cryptogram',
          description:
            'Only for active tokens. Single use, valid 24 hours: pay with card_number = the token number, threeds_wallet_cryptogram = authentication_data and ECI 05 or 07.',
        },
        errors: [400, 404, 409, 422],
      },
      async (request, reply) =>
        send(reply, await perform(gateway, request, (op) => gateway.networkTokens.cryptogram(op, request.params.id))),
    );
    route(
      app,
      'network-tokens.archive',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Archive a network token (irreversible)',
          description: 'Answers 202 with an empty body; the token is archive_pending, then archived after the simulated delay.',
        },
        errors: [400, 404],
      },
      async (request, reply) => {
        const result = await perform(gateway, request, (op) => gateway.networkTokens.archive(op, request.params.id));
        if (result.status !== 202) return send(reply, result);
        return reply.code(202).send();
      },
    );
    route(
      app,
      'network-tokens.simulate',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Test mode: the simulated token service suspends, resumes or refreshes a token',
          description:
            'suspend: active -> suspended; resume: suspended -> active; refresh: sets last_token_refresh (active or suspended). Each sends a postback.',
        },
        errors: [400, 404, 409, 422],
      },
      async (request, reply) =>
        send(
          reply,
          await perform(gateway, request, (op) =>
            gateway.networkTokens.simulate(op, request.params.id, request.body.action as SimulateAction),
          ),
        ),
    );
  };
}
