/** `POST /rest/checkouts` (docs/api.md "Hosted checkout") and `GET /rest/checkouts/{checkout_id}`. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CheckoutRequest } from '../../../../contract/api/checkouts.js';
import type { Gateway } from '../../../core/gateway.js';
import { merchantOf, perform, send } from '../../api-context.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

export function checkoutRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    route(
      app,
      'checkouts.create',
      {
        schema: {
          tags: ['Checkout'],
          summary: 'Create a hosted checkout session',
          description:
            'Redirect the customer to action_data.url; they choose one of your payment types there and pay. Status open -> processing -> completed, or cancelled, or expired after 24 h; a postback on each change.',
        },
        errors: [400, 409, 422],
        config: { bodyFieldErrors: (body) => gateway.checkouts.validate(body as unknown as CheckoutRequest).errors },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => gateway.checkouts.create(op, request.body))),
    );
    route(
      app,
      'checkouts.get',
      {
        schema: {
          tags: ['Checkout'],
          summary: 'Read a checkout session',
        },
        errors: [400, 404],
      },
      async (request, reply) => send(reply, toReply(await gateway.checkouts.read(merchantOf(request), request.params.checkout_id))),
    );
  };
}
