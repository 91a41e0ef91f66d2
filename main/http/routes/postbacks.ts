/** Postback deliveries (decisions.md D7): per transaction with attempts, lists, resends, key rotation. */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdempotencyHeaders, RefTo } from '../../../contract/api/common.js';
import {
  EventIdParams,
  PostbackDeliverySchema,
  PostbackListQuerySchema,
  ResendFailedRequestSchema,
  ResendFailedResponseSchema,
  WebhookKeyResponseSchema,
} from '../../../contract/api/postbacks.js';
import { TransactionIdParams } from '../../../contract/api/transactions.js';

import type { Gateway } from '../../core/gateway.js';
import { merchantOf, perform, send } from '../api-context.js';
import { apiResponses } from '../responses.js';
import { toReply } from '../replies.js';

const tags = ['Postbacks'];

export function postbackRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const postbacks = gateway.postbacks;
  return async (app) => {
    app.get(
      '/rest/transactions/:transaction_id/postbacks',
      {
        schema: {
          tags,
          summary: "A transaction's postbacks with every delivery attempt",
          params: TransactionIdParams,
          response: apiResponses({ 200: Type.Array(RefTo(PostbackDeliverySchema)) }, [400, 404]),
        },
      },
      async (request, reply) => send(reply, toReply(await postbacks.forTransaction(merchantOf(request), request.params.transaction_id))),
    );

    app.get(
      '/rest/postbacks',
      {
        schema: {
          tags,
          summary: 'List postbacks, newest first',
          querystring: PostbackListQuerySchema,
          response: apiResponses({ 200: Type.Array(RefTo(PostbackDeliverySchema)) }),
        },
      },
      async (request, reply) => send(reply, toReply(await postbacks.list(merchantOf(request), request.query))),
    );

    app.post(
      '/rest/postbacks/:event_id/resend',
      {
        schema: {
          tags,
          summary: 'Send a postback again now',
          description: 'Queues the postback for an immediate attempt (its retry window restarts); the body keeps its event_id.',
          headers: IdempotencyHeaders,
          params: EventIdParams,
          response: apiResponses({ 200: RefTo(PostbackDeliverySchema) }, [400, 404, 409, 422]),
        },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => postbacks.resend(op, request.params.event_id))),
    );

    app.post(
      '/rest/postbacks/resend_failed',
      {
        schema: {
          tags,
          summary: 'Send every failed postback since a time again',
          headers: IdempotencyHeaders,
          body: ResendFailedRequestSchema,
          response: apiResponses({ 200: ResendFailedResponseSchema }, [400, 409, 422]),
        },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => postbacks.resendFailed(op, request.body.since))),
    );

    app.post(
      '/rest/webhook_key/rotate',
      {
        schema: {
          tags,
          summary: 'Rotate the webhook key',
          description: 'Returns the new key once. For 24 hours postbacks carry signatures with both keys in webhook-signature; checksum uses the new key.',
          headers: IdempotencyHeaders,
          response: apiResponses({ 200: WebhookKeyResponseSchema }, [409, 422]),
        },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => postbacks.rotateWebhookKey(op))),
    );
  };
}
