/**
 * The postback calls of the back office (main/http/routes/postback-back-office.ts): the delivery
 * log and one postback with its attempts, resending one, resending every failed one since a day
 * (a job whose progress is read), the webhook key (masked, its value for Copy, rotation by an admin),
 * the gateway's environment, and the Test environment's outbox. Typed by the contract
 * (contract/api/postbacks.ts); same transports and error shape as api/client.ts.
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
import { defaultTransport, expectObject, type Transport } from '../api/client.js';

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

function queryString(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, value);
  return params.toString();
}

const DETAIL = ['postback', 'payload', 'attempts'] as const;
const RESEND = ['resend_id', 'total', 'attempted', 'done'] as const;

export function createPostbacksClient(transport: Transport = defaultTransport()): PostbacksClient {
  const at = (id: string) => `/ui/postbacks/${encodeURIComponent(id)}`;
  return {
    async environment() {
      return expectObject<GatewayEnvironment>(await transport.send({ method: 'GET', path: '/ui/environment' }), ['environment']);
    },
    async list(query) {
      return expectObject<BackOfficePostbackList>(await transport.send({ method: 'GET', path: `/ui/postbacks?${queryString(query)}` }), ['data_set', 'metadata']);
    },
    async detail(eventId) {
      return expectObject<BackOfficePostbackDetail>(await transport.send({ method: 'GET', path: at(eventId) }), DETAIL);
    },
    async resend(eventId) {
      return expectObject<BackOfficePostbackDetail>(await transport.send({ method: 'POST', path: `${at(eventId)}/resend` }), DETAIL);
    },
    async resendFailed(since) {
      return expectObject<PostbackResend>(await transport.send({ method: 'POST', path: '/ui/postbacks/resend-failed', body: { since } }), RESEND);
    },
    async resendProgress(resendId) {
      return expectObject<PostbackResend>(await transport.send({ method: 'GET', path: `/ui/postbacks/resends/${encodeURIComponent(resendId)}` }), RESEND);
    },
    async webhookKey() {
      return expectObject<WebhookKeyInfo>(await transport.send({ method: 'GET', path: '/ui/webhook-key' }), ['masked', 'may_rotate']);
    },
    async revealWebhookKey() {
      return expectObject<WebhookKeyReveal>(await transport.send({ method: 'POST', path: '/ui/webhook-key/reveal' }), ['webhook_key']);
    },
    async rotateWebhookKey() {
      return expectObject<WebhookKeyRotated>(await transport.send({ method: 'POST', path: '/ui/webhook-key/rotate' }), ['webhook_key', 'previous_key_valid_until']);
    },
    async outbox(query) {
      return expectObject<TestOutboxList>(await transport.send({ method: 'GET', path: `/ui/test-outbox?${queryString(query)}` }), ['data_set', 'metadata']);
    },
    async outboxItem(itemId) {
      return expectObject<TestOutboxDetail>(await transport.send({ method: 'GET', path: `/ui/test-outbox/${encodeURIComponent(itemId)}` }), ['item']);
    },
  };
}

export const postbacksClient: PostbacksClient = createPostbacksClient();
