/** Postback deliveries (decisions.md D7): per transaction with attempts, lists, resends, key rotation. */
import { Type, type Static } from '@sinclair/typebox';
import { POSTBACK_ATTEMPT_OUTCOMES, POSTBACK_STATES } from '../constants.js';
import { Nullable, StringEnum } from './common.js';

export const PostbackAttemptSchema = Type.Object({
  attempt: Type.Integer(),
  created_at: Type.String(),
  http_status: Nullable(Type.Integer()),
  outcome: StringEnum(POSTBACK_ATTEMPT_OUTCOMES),
  error: Nullable(Type.String()),
  duration_ms: Type.Integer(),
});
export type PostbackAttempt = Static<typeof PostbackAttemptSchema>;

export const PostbackDeliverySchema = Type.Object(
  {
    event_id: Type.String({ description: 'the same on every retry (webhook-id header)' }),
    subject_type: Type.String({ description: 'transaction, token or checkout' }),
    subject_id: Type.String(),
    sequence: Type.Integer({ description: 'increasing per subject' }),
    url: Type.String(),
    state: StringEnum(POSTBACK_STATES),
    status_code: Nullable(Type.Integer()),
    attempts: Type.Integer(),
    next_attempt_at: Nullable(Type.String()),
    delivered_at: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    created_at: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'the body without event_id, sequence and checksum' }),
    attempt_log: Type.Optional(Type.Array(PostbackAttemptSchema)),
    error_code: Type.Optional(Type.Integer({ description: 'on POST replies: 0' })),
  },
  { $id: 'PostbackDelivery', title: 'Postback delivery' },
);
export type PostbackDelivery = Static<typeof PostbackDeliverySchema>;

export const PostbackListQuerySchema = Type.Object(
  {
    state: Type.Optional(Type.String({ description: 'pending, delivered or failed' })),
    since: Type.Optional(Type.String({ description: 'ISO 8601; created at or after' })),
    limit: Type.Optional(Type.String({ description: 'default 50, at most 500' })),
  },
  { additionalProperties: false },
);
export type PostbackListQuery = Static<typeof PostbackListQuerySchema>;

export const EventIdParams = Type.Object({ event_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const ResendFailedRequestSchema = Type.Object({ since: Type.String({ description: 'ISO 8601 timestamp' }) }, { additionalProperties: false });
export const ResendFailedResponseSchema = Type.Object({ requeued: Type.Integer(), error_code: Type.Integer() });
export type ResendFailedResponse = Static<typeof ResendFailedResponseSchema>;

export const WebhookKeyResponseSchema = Type.Object({ webhook_key: Type.String(), previous_key_valid_until: Type.String(), error_code: Type.Integer() });
export type WebhookKeyResponse = Static<typeof WebhookKeyResponseSchema>;
