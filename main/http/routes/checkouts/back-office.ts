/**
 * The back office's checkout screens (docs/decisions.md "Back office: network tokens and
 * checkouts"): the merchant's sessions, newest first, by status and created range; one session with
 * its link's QR code and its transaction; a session for a phone or e-mail order (the gateway fills in
 * the merchant's name, the total and its own page as success and error URL), validated with the
 * rules and words of POST /rest/checkouts, and its check (the same answer as 200, nothing opened,
 * for the form); cancelling an open session. Creating and cancelling are
 * audited in their own unit of work. A cashier gets 403.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BackOfficeCheckoutRequest, CheckoutListQuery } from '../../../../contract/api/checkouts.js';
import type { Gateway } from '../../../core/gateway.js';
import { idempotencyKeys, perform, requireBackOfficeSession, send, staffOf } from '../../api-context.js';
import { answerChecks } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

export function checkoutBackOfficeRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const onRequest = requireBackOfficeSession(gateway, 'Checkouts are for back office and admin staff');
    const checkBody = (body: Record<string, unknown>) =>
      gateway.checkouts.validateBackOffice(body as unknown as BackOfficeCheckoutRequest).errors;
    answerChecks(app, new Set(['checkouts.check']));

    route(
      app,
      'checkouts.backOfficeList',
      {
        schema: {
          tags,
          summary: "The merchant's checkout sessions, newest first (back office, admin)",
          description:
            'Filters status and created_at[min] / created_at[max] (inclusive ISO 8601), paging page and per as GET /v2/network_tokens.',
        },
        errors: [400, 403],
        config: { queryFieldErrors: (query) => gateway.checkouts.listQueryErrors(query as CheckoutListQuery) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await gateway.checkouts.backOfficeList(staffOf(request).merchantId, request.query))),
    );

    route(
      app,
      'checkouts.backOfficeCreate',
      {
        schema: {
          tags,
          summary: 'Open a checkout session for a phone or e-mail order (back office, admin)',
          description:
            "The gateway adds the merchant's name, total_amount (amount + amount_taxes + amount_shipping) and the session's own page as success and error URL. " +
            'Field errors as POST /rest/checkouts words them (a total of 0 is named on amount). Without postback_url the session and its payment send no postbacks. Audited (checkout_create).',
        },
        errors: [400, 403, 409, 422],
        config: { bodyFieldErrors: checkBody },
        onRequest,
        preHandler: idempotencyKeys(gateway),
      },
      async (request, reply) => {
        const { staffId } = staffOf(request);
        return send(
          reply,
          await perform(gateway, request, (operation) => gateway.checkouts.backOfficeCreate(operation, staffId, request.body)),
        );
      },
    );

    route(
      app,
      'checkouts.check',
      {
        schema: {
          tags,
          summary: 'What POST /ui/checkouts would refuse in this body, field by field (nothing is opened)',
          description:
            "The create route's schema and rules; `errors` has the 400 answer's `errors`, empty when the session would be opened.",
        },
        errors: [403],
        config: { bodyFieldErrors: checkBody },
        onRequest,
      },
      async (request, reply) => reply.send({ errors: gateway.checkouts.validateBackOffice(request.body).errors }),
    );

    route(
      app,
      'checkouts.backOfficeGet',
      {
        schema: {
          tags,
          summary: "A checkout session with its link's QR code and its transaction (back office, admin)",
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.checkouts.backOfficeDetail(staffOf(request).merchantId, request.params.checkout_id))),
    );

    route(
      app,
      'checkouts.cancel',
      {
        schema: {
          tags,
          summary: 'Cancel an open checkout session: its link takes no payment any more (back office, admin)',
          description: 'Only while open (else 400, 1002); a postback when the session has a postback URL. Audited (checkout_cancel).',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.checkouts.backOfficeCancel(staffOf(request), request.params.checkout_id))),
    );
  };
}
