/**
 * What the back office's network token screens need beside the token API (which staff sessions of
 * back office and admin call as it is: create, cryptogram, archive and the simulator's actions,
 * each audited): the list with the API's filters and paging, and one token, each with the last four
 * digits of the token number and of the card; the token's status history; the card form's check
 * (what the create would refuse, as 200, nothing requested); and "reveal token data",
 * a POST that writes the reveal to the audit log before the data leaves (docs/decisions.md "Back
 * office: network tokens and checkouts"). A cashier gets 403.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { NetworkTokenListQuery, NetworkTokenRequest } from '../../../../contract/api/network-tokens.js';
import { TOKEN_REVEAL_SECONDS } from '../../../../contract/constants.js';
import { success } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { requireBackOfficeSession, send, staffOf } from '../../api-context.js';
import { answerChecks } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

export function networkTokenBackOfficeRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const onRequest = requireBackOfficeSession(gateway, 'Network tokens are for back office and admin staff');
    answerChecks(app, new Set(['network-tokens.check']));

    route(
      app,
      'network-tokens.backOfficeList',
      {
        schema: {
          tags,
          summary: "The merchant's network tokens with the last fours, newest first (back office, admin)",
          description:
            'The filters and paging of GET /v2/network_tokens; each token also has token_last_four, card_last_four and card_holder.',
        },
        errors: [400, 403],
        config: { queryFieldErrors: (query) => gateway.networkTokens.listQueryErrors(query as NetworkTokenListQuery) },
        onRequest,
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.networkTokens.backOfficeList(staffOf(request).merchantId, request.query))),
    );

    route(
      app,
      'network-tokens.check',
      {
        schema: {
          tags,
          summary: 'What POST /v2/network_tokens would refuse in this body, field by field (nothing is requested)',
          description:
            "The create route's schema and rules; `errors` has the 400 answer's `errors`, empty when the token would be requested. The card data is checked and dropped.",
        },
        errors: [403],
        config: { bodyFieldErrors: (body) => gateway.networkTokens.validate(body as unknown as NetworkTokenRequest) },
        onRequest,
      },
      async (request, reply) => reply.send({ errors: gateway.networkTokens.validate(request.body) }),
    );

    route(
      app,
      'network-tokens.backOfficeGet',
      {
        schema: {
          tags,
          summary: 'One network token with its last fours and its status history (back office, admin)',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.networkTokens.backOfficeDetail(staffOf(request).merchantId, request.params.id))),
    );

    route(
      app,
      'network-tokens.reveal',
      {
        schema: {
          tags,
          summary: 'Reveal the token data to the staff member; written to the audit log first (back office, admin)',
          description: `Only for active or suspended tokens (else 400, 1002). The audit entry (token_reveal, the token id) is written before the data is answered; the back office masks it again after hide_after_seconds (${TOKEN_REVEAL_SECONDS}).`,
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => {
        const { merchantId, staffId } = staffOf(request);
        const outcome = await gateway.networkTokens.data(merchantId, request.params.id, { staffId, via: 'back office' });
        return send(reply, toReply(outcome.ok ? success({ data: outcome.value.data, hide_after_seconds: TOKEN_REVEAL_SECONDS }) : outcome));
      },
    );
  };
}
