/**
 * The postback calls of the back office (main/http/routes/postbacks/back-office.ts): the delivery
 * log and one postback with its attempts, resending one, resending every failed one since a day
 * (a job whose progress is read), the webhook key (masked, its value for Copy, rotation by an admin),
 * the gateway's environment, and the Test environment's outbox. Typed by the contract
 * (contract/api/postbacks.ts); same transports and error shape as the other clients (api/call.ts, api/transport.ts).
 */
import type {
  BackOfficePostbackDetail,
  BackOfficePostbackList,
  GatewayEnvironment,
  PostbackLogQuery,
  PostbackResend,
  TestOutboxDetail,
  TestOutboxList,
  TestOutboxQuery,
  WebhookKeyInfo,
  WebhookKeyReveal,
  WebhookKeyRotated,
} from '../../../contract/api/postbacks.js';
import { caller, filled } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type {
  BackOfficePostback,
  BackOfficePostbackDetail,
  BackOfficePostbackList,
  PostbackAttemptDetail,
  PostbackResend,
  TestOutboxDetail,
  TestOutboxItem,
  TestOutboxList,
  WebhookKeyInfo,
  WebhookKeyRotated,
} from '../../../contract/api/postbacks.js';

export interface PostbacksClient {
  environment(): Promise<GatewayEnvironment>;
  list(query: PostbackLogQuery): Promise<BackOfficePostbackList>;
  detail(eventId: string): Promise<BackOfficePostbackDetail>;
  resend(eventId: string): Promise<BackOfficePostbackDetail>;
  resendFailed(since: string): Promise<PostbackResend>;
  resendProgress(resendId: string): Promise<PostbackResend>;
  webhookKey(): Promise<WebhookKeyInfo>;
  /** The key itself, for Copy. */
  revealWebhookKey(): Promise<WebhookKeyReveal>;
  rotateWebhookKey(): Promise<WebhookKeyRotated>;
  outbox(query: TestOutboxQuery): Promise<TestOutboxList>;
  outboxItem(itemId: string): Promise<TestOutboxDetail>;
}

export function createPostbacksClient(transport: Transport = defaultTransport()): PostbacksClient {
  const call = caller(transport);
  return {
    environment: () => call('postbacks.environment'),
    list: (query) => call('postbacks.backOfficeList', { query: filled(query) }),
    detail: (eventId) => call('postbacks.backOfficeGet', { params: { event_id: eventId } }),
    resend: (eventId) => call('postbacks.backOfficeResend', { params: { event_id: eventId } }),
    resendFailed: (since) => call('postbacks.backOfficeResendFailed', { body: { since } }),
    resendProgress: (resendId) => call('postbacks.resendProgress', { params: { resend_id: resendId } }),
    webhookKey: () => call('postbacks.webhookKey'),
    revealWebhookKey: () => call('postbacks.revealWebhookKey'),
    rotateWebhookKey: () => call('postbacks.backOfficeRotateWebhookKey'),
    outbox: (query) => call('postbacks.testOutbox', { query: filled(query) }),
    outboxItem: (itemId) => call('postbacks.testOutboxItem', { params: { item_id: itemId } }),
  };
}

export const postbacksClient: PostbacksClient = createPostbacksClient();
