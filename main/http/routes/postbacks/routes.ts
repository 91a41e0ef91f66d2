/** Postback deliveries (decisions.md D7): per transaction with attempts, lists, resends, key rotation. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Gateway } from '../../../core/gateway.js';
import { merchantOf, perform, send } from '../../api-context.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Postbacks'];

export function postbackRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const postbacks = gateway.postbacks;
  return async (app) => {
    route(
      app,
      'postbacks.ofTransaction',
      {
        schema: {
          tags,
          summary: "A transaction's postbacks with every delivery attempt",
        },
        errors: [400, 404],
      },
      async (request, reply) => send(reply, toReply(await postbacks.forTransaction(merchantOf(request), request.params.transaction_id))),
    );

    route(
      app,
      'postbacks.list',
      {
        schema: {
          tags,
          summary: 'List postbacks, newest first',
        },
        errors: [400],
      },
      async (request, reply) => send(reply, toReply(await postbacks.list(merchantOf(request), request.query))),
    );

    route(
      app,
      'postbacks.resend',
      {
        schema: {
          tags,
          summary: 'Send a postback again now',
          description: 'Queues the postback for an immediate attempt (its retry window restarts); the body keeps its event_id.',
        },
        errors: [400, 404, 409, 422],
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => postbacks.resend(op, request.params.event_id))),
    );

    route(
      app,
      'postbacks.resendFailed',
      {
        schema: {
          tags,
          summary: 'Send every failed postback since a time again',
        },
        errors: [400, 409, 422],
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => postbacks.resendFailed(op, request.body.since))),
    );

    route(
      app,
      'postbacks.rotateWebhookKey',
      {
        schema: {
          tags,
          summary: 'Rotate the webhook key',
          description:
            'Returns the new key once. For 24 hours postbacks carry signatures with both keys in webhook-signature; checksum uses the new key.',
        },
        errors: [409, 422],
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => postbacks.rotateWebhookKey(op))),
    );
  };
}
