/** Postback deliveries (decisions.md D7): per transaction with attempts, lists, resends, key rotation. */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toReply } from '../../core/errors.js';
import type { Gateway } from '../../core/gateway.js';
import { merchantOf, perform, send } from '../api-context.js';
import { apiResponses, IdempotencyHeaders } from '../schemas.js';

const Attempt = Type.Object({
  attempt: Type.Integer(),
  created_at: Type.String(),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  outcome: Type.String({ enum: ['delivered', 'failed', 'refused'] }),
  error: Type.Union([Type.String(), Type.Null()]),
  duration_ms: Type.Integer(),
});

export const PostbackDeliverySchema = Type.Object(
  {
    event_id: Type.String({ description: 'the same on every retry (webhook-id header)' }),
    subject_type: Type.String({ description: 'transaction, token or checkout' }),
    subject_id: Type.String(),
    sequence: Type.Integer({ description: 'increasing per subject' }),
    url: Type.String(),
    state: Type.String({ enum: ['pending', 'delivered', 'failed'] }),
    status_code: Type.Union([Type.Integer(), Type.Null()]),
    attempts: Type.Integer(),
    next_attempt_at: Type.Union([Type.String(), Type.Null()]),
    delivered_at: Type.Union([Type.String(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'the body without event_id, sequence and checksum' }),
    attempt_log: Type.Optional(Type.Array(Attempt)),
    error_code: Type.Optional(Type.Integer({ description: 'on POST replies: 0' })),
  },
  { $id: 'PostbackDelivery', title: 'Postback delivery' },
);

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
          params: Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: apiResponses({ 200: Type.Array(Type.Ref('PostbackDelivery')) }, [400, 404]),
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
          querystring: Type.Object(
            {
              state: Type.Optional(Type.String({ description: 'pending, delivered or failed' })),
              since: Type.Optional(Type.String({ description: 'ISO 8601; created at or after' })),
              limit: Type.Optional(Type.String({ description: 'default 50, at most 500' })),
            },
            { additionalProperties: false },
          ),
          response: apiResponses({ 200: Type.Array(Type.Ref('PostbackDelivery')) }),
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
          params: Type.Object({ event_id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: apiResponses({ 200: Type.Ref('PostbackDelivery') }, [400, 404, 409, 422]),
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
          body: Type.Object({ since: Type.String({ description: 'ISO 8601 timestamp' }) }, { additionalProperties: false }),
          response: apiResponses({ 200: Type.Object({ requeued: Type.Integer(), error_code: Type.Integer() }) }, [400, 409, 422]),
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
          response: apiResponses(
            { 200: Type.Object({ webhook_key: Type.String(), previous_key_valid_until: Type.String(), error_code: Type.Integer() }) },
            [409, 422],
          ),
        },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => postbacks.rotateWebhookKey(op))),
    );
  };
}
