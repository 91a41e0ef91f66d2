/** Postback deliveries (decisions.md D7): per transaction with attempts, lists, resends, key rotation. */
import { Type, type Static } from '@sinclair/typebox';
import {
  POSTBACK_ATTEMPT_OUTCOMES,
  POSTBACK_LOG_STATUSES,
  POSTBACK_STATES,
  POSTBACK_SUBJECT_TYPES,
  POSTBACKS_DEFAULT_PER_PAGE,
  POSTBACKS_MAX_PER_PAGE,
  TEST_OUTBOX_KINDS,
} from '../constants.js';
import { SEARCH_MAX_LENGTH } from '../transaction-list.js';
import { IdempotencyHeaders, Nullable, PageMetadataSchema, pageQueryProperties, RefTo, StringEnum, StringIn } from './common.js';
import { TransactionIdParams } from './transactions.js';
import type { SchemasOf } from './operation-schemas.js';

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

export const ResendFailedRequestSchema = Type.Object(
  { since: Type.String({ description: 'ISO 8601 timestamp' }) },
  { additionalProperties: false },
);
export const ResendFailedResponseSchema = Type.Object({ requeued: Type.Integer(), error_code: Type.Integer() });
export type ResendFailedResponse = Static<typeof ResendFailedResponseSchema>;

export const WebhookKeyResponseSchema = Type.Object({
  webhook_key: Type.String(),
  previous_key_valid_until: Type.String(),
  error_code: Type.Integer(),
});
export type WebhookKeyResponse = Static<typeof WebhookKeyResponseSchema>;

// ---- the back office (docs/decisions.md "Back office: postbacks and outbox") ----------------------

export const PostbackLogQuerySchema = Type.Object(
  {
    status: Type.Optional(StringIn(POSTBACK_LOG_STATUSES, { description: 'queued (no attempt yet), retrying, delivered or failed' })),
    kind: Type.Optional(StringIn(POSTBACK_SUBJECT_TYPES, { description: 'what the postback is about: transaction, token or checkout' })),
    search: Type.Optional(
      Type.String({
        description: `an order id, or a whole transaction, token, checkout or event id: postbacks that carry that order id or are about (or are) that one (at most ${SEARCH_MAX_LENGTH} characters)`,
      }),
    ),
    ...pageQueryProperties(POSTBACKS_DEFAULT_PER_PAGE, POSTBACKS_MAX_PER_PAGE),
  },
  { additionalProperties: false },
);
export type PostbackLogQuery = Static<typeof PostbackLogQuerySchema>;

export const BackOfficePostbackSchema = Type.Object(
  {
    event_id: Type.String(),
    kind: Type.String({ description: 'transaction, token or checkout (subject_type)' }),
    subject_id: Type.String({ description: 'the transaction, token or checkout id' }),
    order_id: Nullable(Type.String({ description: "the order id the body carries: a transaction's or a checkout's; null for tokens" })),
    sequence: Type.Integer(),
    url: Type.String(),
    status: StringEnum(POSTBACK_LOG_STATUSES),
    status_code: Nullable(Type.Integer({ description: 'transactions: the status code the body carries' })),
    event: Nullable(Type.String({ description: 'the status the body carries (completed, active, cancelled, ...)' })),
    attempts: Type.Integer(),
    last_attempt_at: Nullable(Type.String()),
    last_http_status: Nullable(Type.Integer()),
    next_attempt_at: Nullable(Type.String({ description: 'while queued or retrying' })),
    delivered_at: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    created_at: Type.String(),
  },
  { title: 'Postback (back office)' },
);
export type BackOfficePostback = Static<typeof BackOfficePostbackSchema>;

export const BackOfficePostbackListSchema = Type.Object({ data_set: Type.Array(BackOfficePostbackSchema), metadata: PageMetadataSchema });
export type BackOfficePostbackList = Static<typeof BackOfficePostbackListSchema>;

export const PostbackAttemptDetailSchema = Type.Object({
  attempt: Type.Integer({ description: 'X-Postback-Attempt of this try' }),
  created_at: Type.String({ description: 'when the answer (or the failure) came' }),
  http_status: Nullable(Type.Integer()),
  outcome: StringEnum(POSTBACK_ATTEMPT_OUTCOMES),
  error: Nullable(Type.String()),
  duration_ms: Type.Integer(),
  next_attempt_at: Nullable(Type.String({ description: 'the retry this attempt scheduled; null when none followed' })),
  body: Nullable(Type.String({ description: 'the signed body as sent (null for attempts made before migration 19)' })),
  headers: Nullable(Type.Record(Type.String(), Type.String(), { description: 'the headers it was sent and signed with' })),
});
export type PostbackAttemptDetail = Static<typeof PostbackAttemptDetailSchema>;

export const BackOfficePostbackDetailSchema = Type.Object({
  postback: BackOfficePostbackSchema,
  payload: Type.Record(Type.String(), Type.Unknown(), { description: 'the body without event_id, sequence and checksum' }),
  attempts: Type.Array(PostbackAttemptDetailSchema, { description: 'oldest first' }),
});
export type BackOfficePostbackDetail = Static<typeof BackOfficePostbackDetailSchema>;

export const PostbackResendRequestSchema = Type.Object(
  { since: Type.String({ description: 'ISO 8601: failed postbacks created at or after it are sent again' }) },
  { additionalProperties: false },
);
export type PostbackResendRequest = Static<typeof PostbackResendRequestSchema>;

export const PostbackResendSchema = Type.Object(
  {
    resend_id: Type.String(),
    since: Type.String(),
    created_at: Type.String(),
    total: Type.Integer({ description: 'failed postbacks queued again' }),
    attempted: Type.Integer({ description: 'of them, tried since' }),
    delivered: Type.Integer(),
    failing: Type.Integer({ description: 'tried and not delivered: retrying again, or failed' }),
    done: Type.Boolean({ description: 'every one was tried' }),
  },
  { title: 'Resend of failed postbacks' },
);
export type PostbackResend = Static<typeof PostbackResendSchema>;
export const ResendIdParams = Type.Object({ resend_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const WebhookKeyInfoSchema = Type.Object({
  masked: Type.String({ description: 'whsec_ and the last four characters; the rest as dots' }),
  previous_key_valid_until: Nullable(Type.String({ description: 'while the key before the last rotation still signs' })),
  may_rotate: Type.Boolean({ description: 'the staff member is an admin' }),
});
export type WebhookKeyInfo = Static<typeof WebhookKeyInfoSchema>;

export const WebhookKeyRevealSchema = Type.Object({ webhook_key: Type.String() });
export type WebhookKeyReveal = Static<typeof WebhookKeyRevealSchema>;

export const WebhookKeyRotatedSchema = Type.Object({
  webhook_key: Type.String({ description: 'the new key' }),
  masked: Type.String(),
  previous_key_valid_until: Type.String({ description: 'the old key signs too until then (24 h)' }),
});
export type WebhookKeyRotated = Static<typeof WebhookKeyRotatedSchema>;

export const GatewayEnvironmentSchema = Type.Object({
  environment: StringEnum(['test', 'production'] as const, { description: 'test: the simulated acquirer, networks and banks (D6)' }),
  processor: Type.String(),
});
export type GatewayEnvironment = Static<typeof GatewayEnvironmentSchema>;

export const TestOutboxQuerySchema = Type.Object(
  {
    kind: Type.Optional(StringIn(TEST_OUTBOX_KINDS, { description: 'email or postback' })),
    page: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'default 1' })),
    per: Type.Optional(
      Type.String({ pattern: '^[0-9]+$', description: `default ${POSTBACKS_DEFAULT_PER_PAGE}, at most ${POSTBACKS_MAX_PER_PAGE}` }),
    ),
  },
  { additionalProperties: false },
);
export type TestOutboxQuery = Static<typeof TestOutboxQuerySchema>;

export const TestOutboxItemSchema = Type.Object({
  item_id: Type.String({ description: 'e.<id> an invoice e-mail, r.<id> a receipt e-mail, p.<id> a postback attempt' }),
  kind: StringEnum(TEST_OUTBOX_KINDS),
  at: Type.String({ description: 'when it was sent' }),
  to: Type.String({ description: 'the recipient, or the postback URL' }),
  title: Type.String({ description: "an e-mail's subject; a postback's kind and event" }),
  outcome: Type.String({ description: 'e-mails: test_outbox (kept here) or sent (SMTP); postbacks: delivered, failed or refused' }),
  http_status: Nullable(Type.Integer()),
  event_id: Nullable(Type.String({ description: 'postbacks: the event' })),
});
export type TestOutboxItem = Static<typeof TestOutboxItemSchema>;

export const TestOutboxListSchema = Type.Object({ data_set: Type.Array(TestOutboxItemSchema), metadata: PageMetadataSchema });
export type TestOutboxList = Static<typeof TestOutboxListSchema>;

export const TestOutboxDetailSchema = Type.Object({
  item: TestOutboxItemSchema,
  email: Nullable(
    Type.Object({
      source: StringEnum(['invoice', 'receipt'] as const),
      from: Nullable(Type.String()),
      to: Type.String(),
      subject: Type.String(),
      text: Type.String(),
      html: Type.String({ description: 'the message as an HTML document, for a sandboxed frame (no script, no outside resource)' }),
    }),
  ),
  postback: Nullable(
    Type.Object({
      event_id: Type.String(),
      attempt: PostbackAttemptDetailSchema,
    }),
  ),
});
export type TestOutboxDetail = Static<typeof TestOutboxDetailSchema>;
export const OutboxItemParams = Type.Object({ item_id: Type.String({ minLength: 3, maxLength: 80, pattern: '^[erp]\\.[A-Za-z0-9-]+$' }) });

/** The postbacks operations (contract/operation-table.ts). */
export const postbacksOperations = {
  'postbacks.environment': { response: { 200: GatewayEnvironmentSchema } },
  'postbacks.backOfficeList': { querystring: PostbackLogQuerySchema, response: { 200: BackOfficePostbackListSchema } },
  'postbacks.backOfficeGet': { params: EventIdParams, response: { 200: BackOfficePostbackDetailSchema } },
  'postbacks.backOfficeResend': { params: EventIdParams, response: { 200: BackOfficePostbackDetailSchema } },
  'postbacks.backOfficeResendFailed': { body: PostbackResendRequestSchema, response: { 202: PostbackResendSchema } },
  'postbacks.resendProgress': { params: ResendIdParams, response: { 200: PostbackResendSchema } },
  'postbacks.webhookKey': { response: { 200: WebhookKeyInfoSchema } },
  'postbacks.revealWebhookKey': { response: { 200: WebhookKeyRevealSchema } },
  'postbacks.backOfficeRotateWebhookKey': { response: { 200: WebhookKeyRotatedSchema } },
  'postbacks.testOutbox': { querystring: TestOutboxQuerySchema, response: { 200: TestOutboxListSchema } },
  'postbacks.testOutboxItem': { params: OutboxItemParams, response: { 200: TestOutboxDetailSchema } },
  'postbacks.ofTransaction': { params: TransactionIdParams, response: { 200: Type.Array(RefTo(PostbackDeliverySchema)) } },
  'postbacks.list': { querystring: PostbackListQuerySchema, response: { 200: Type.Array(RefTo(PostbackDeliverySchema)) } },
  'postbacks.resend': { headers: IdempotencyHeaders, params: EventIdParams, response: { 200: RefTo(PostbackDeliverySchema) } },
  'postbacks.resendFailed': { headers: IdempotencyHeaders, body: ResendFailedRequestSchema, response: { 200: ResendFailedResponseSchema } },
  'postbacks.rotateWebhookKey': { headers: IdempotencyHeaders, response: { 200: WebhookKeyResponseSchema } },
} as const satisfies SchemasOf<'postbacks'>;
