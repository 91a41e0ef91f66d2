/**
 * What the back office's Postbacks area reads and does (docs/decisions.md "Back office: postbacks
 * and outbox"): the delivery log over transactions, tokens and checkouts (queued, retrying,
 * delivered, failed; by kind, created range and a search by order id or a pasted id; a page at a
 * time; each with the order id it carries), one postback with every attempt (HTTP status,
 * duration, time, the retry it scheduled, the signed body and the headers it was sent with),
 * resending one, resending every failed one since a time as a job whose progress is read
 * from its postbacks' attempts, the webhook key (masked, its value for Copy, rotation by an admin
 * with the old key signing for 24 h), and the Test environment's outbox: every e-mail and postback
 * attempt the gateway sent, newest first, with a preview. Resends and the rotation are audited in
 * their own unit of work.
 */
import type {
  BackOfficePostback,
  BackOfficePostbackDetail,
  BackOfficePostbackList,
  GatewayEnvironment,
  PostbackAttemptDetail,
  PostbackLogQuery,
  PostbackResend,
  PostbackResendRequest,
  TestOutboxDetail,
  TestOutboxItem,
  TestOutboxList,
  TestOutboxQuery,
  WebhookKeyInfo,
  WebhookKeyReveal,
  WebhookKeyRotated,
} from '../../../contract/api/postbacks.js';
import type { FieldError } from '../../../contract/api/common.js';
import { ErrorCode } from '../../../contract/codes.js';
import {
  POSTBACK_LOG_STATUSES,
  POSTBACK_SUBJECT_TYPES,
  POSTBACKS_DEFAULT_PER_PAGE,
  POSTBACKS_MAX_PER_PAGE,
  TEST_OUTBOX_KINDS,
} from '../../../contract/constants.js';
import { apiError, failure, success, validationError, type Outcome } from '../errors.js';
import { mailHtml } from '../mail/html.js';
import { newWebhookKey } from '../merchants/credentials.js';
import { oneOf, pageMetadata, readPageQuery, readSearch } from '../paging.js';
import type { Clock, Ids, Vault } from '../kernel.js';
import type { OutboxPageFilter, OutboxRecord, PostbackAttemptRecord, PostbacksUnit, SentItemRecord } from './ports.js';
import type { Processor } from '../payments/ports.js';
import type { Store } from '../unit-of-work.js';
import type { PostbackDelivery as DeliveryLoop } from './delivery.js';
import { KEY_ROTATION_GRACE_MS } from './postbacks.js';

/** A staff member acting in the back office. */
export interface PostbackActor {
  merchantId: string;
  staffId: string;
}

/** At most this many failed postbacks are queued again by one "resend all failed". */
export const RESEND_FAILED_LIMIT = 10_000;

export interface PostbackBackOfficeDeps {
  store: Store<PostbacksUnit>;
  clock: Clock;
  ids: Ids;
  vault: Vault;
  delivery: DeliveryLoop;
  processor: Pick<Processor, 'name' | 'environment'>;
}

export function logStatus(record: Pick<OutboxRecord, 'state' | 'attempts'>): BackOfficePostback['status'] {
  if (record.state === 'pending') return record.attempts > 0 ? 'retrying' : 'queued';
  return record.state;
}

function postbackView(record: OutboxRecord, last: Pick<PostbackAttemptRecord, 'createdAt' | 'httpStatus'> | undefined): BackOfficePostback {
  const status = logStatus(record);
  return {
    event_id: record.id,
    kind: record.subjectType,
    subject_id: record.subjectId,
    order_id: record.orderId,
    sequence: record.sequence,
    url: record.url,
    status,
    status_code: typeof record.payload.status_code === 'number' ? record.payload.status_code : null,
    event: typeof record.payload.status === 'string' ? record.payload.status : null,
    attempts: record.attempts,
    last_attempt_at: last?.createdAt ?? null,
    last_http_status: last?.httpStatus ?? null,
    next_attempt_at: record.state === 'pending' ? record.nextAttemptAt : null,
    delivered_at: record.deliveredAt ?? null,
    last_error: record.lastError ?? null,
    created_at: record.createdAt,
  };
}

export function attemptDetail(a: PostbackAttemptRecord): PostbackAttemptDetail {
  return {
    attempt: a.attempt,
    created_at: a.createdAt,
    http_status: a.httpStatus,
    outcome: a.outcome,
    error: a.error,
    duration_ms: a.durationMs,
    next_attempt_at: a.nextAttemptAt ?? null,
    body: a.requestBody ?? null,
    headers: a.requestHeaders ?? null,
  };
}

/** `whsec_` and the key's last four characters, the rest as dots (as many as a real key has). */
export function maskWebhookKey(key: string): string {
  const secret = key.startsWith('whsec_') ? key.slice('whsec_'.length) : key;
  return `whsec_${'•'.repeat(Math.max(4, secret.length - 4))}${secret.slice(-4)}`;
}

const ITEM_PREFIX: Record<SentItemRecord['kind'], string> = { email: 'e', receipt_email: 'r', postback: 'p' };
const KIND_NAMES: Record<string, string> = { transaction: 'Transaction', token: 'Network token', checkout: 'Checkout' };

function outboxItemView(record: SentItemRecord, event: string | null): TestOutboxItem {
  const postback = record.kind === 'postback';
  return {
    item_id: `${ITEM_PREFIX[record.kind]}.${record.id}`,
    kind: postback ? 'postback' : 'email',
    at: record.at,
    to: record.target,
    title: postback ? `${KIND_NAMES[record.title] ?? record.title} postback${event ? `: ${event}` : ''}` : record.title,
    outcome: record.outcome,
    http_status: record.httpStatus,
    event_id: record.eventId,
  };
}

export class PostbackBackOffice {
  constructor(private readonly deps: PostbackBackOfficeDeps) {}

  /** The Test environment (the simulator, D6) or production; only the Test environment has an outbox to show. */
  environment(): GatewayEnvironment {
    return { environment: this.deps.processor.environment === 'test' ? 'test' : 'production', processor: this.deps.processor.name };
  }

  private logQuery(query: PostbackLogQuery): Outcome<{ filter: OutboxPageFilter; page: number; per: number }> {
    const errors: FieldError[] = [];
    const status = oneOf('status', query.status, POSTBACK_LOG_STATUSES, errors);
    const kind = oneOf('kind', query.kind, POSTBACK_SUBJECT_TYPES, errors);
    const search = readSearch(query.search, 'an order id, or a whole transaction, token, checkout or event id', errors);
    const { page, per, createdFrom, createdTo } = readPageQuery(query, POSTBACKS_DEFAULT_PER_PAGE, POSTBACKS_MAX_PER_PAGE, errors);
    if (errors.length) return failure(validationError(errors));
    return success({
      filter: {
        ...(status ? { status } : {}),
        ...(kind ? { subjectType: kind } : {}),
        ...(createdFrom ? { createdFrom } : {}),
        ...(createdTo ? { createdTo } : {}),
        ...(search ? { search: { orderId: search.text, ...(search.id ? { id: search.id } : {}) } } : {}),
      },
      page,
      per,
    });
  }

  /** Every bad parameter of a log query (none: the query is good). Reads nothing. */
  listQueryErrors(query: PostbackLogQuery): FieldError[] {
    const parsed = this.logQuery(query);
    return parsed.ok ? [] : parsed.error.errors;
  }

  async list(merchantId: string, query: PostbackLogQuery): Promise<Outcome<BackOfficePostbackList>> {
    const parsed = this.logQuery(query);
    if (!parsed.ok) return parsed;
    const { filter, page, per } = parsed.value;
    return success(
      await this.deps.store.read(async (r) => {
        const records = await r.outbox.page(merchantId, filter, per, (page - 1) * per);
        const views: BackOfficePostback[] = [];
        for (const record of records) views.push(postbackView(record, await r.outbox.lastAttempt(record.id)));
        return { data_set: views, metadata: pageMetadata(await r.outbox.count(merchantId, filter), page, per) };
      }),
    );
  }

  private async detailIn(r: PostbacksUnit, merchantId: string, eventId: string): Promise<BackOfficePostbackDetail | undefined> {
    const record = await r.outbox.get(merchantId, eventId);
    if (!record) return undefined;
    const attempts = await r.outbox.listAttempts(record.id);
    return { postback: postbackView(record, attempts.at(-1)), payload: record.payload, attempts: attempts.map(attemptDetail) };
  }

  async detail(merchantId: string, eventId: string): Promise<Outcome<BackOfficePostbackDetail>> {
    const detail = await this.deps.store.read((r) => this.detailIn(r, merchantId, eventId));
    return detail ? success(detail) : failure(postbackNotFound(eventId));
  }

  /** Sends one postback again now (its retry window starts over); audited as postback_resend. */
  async resend(actor: PostbackActor, eventId: string): Promise<Outcome<BackOfficePostbackDetail>> {
    const now = this.deps.clock.now().toISOString();
    const outcome = await this.deps.store.run(async (tx) => {
      const record = await tx.outbox.get(actor.merchantId, eventId);
      if (!record) return failure(postbackNotFound(eventId));
      await tx.outbox.requeue(record.id, now);
      await tx.audit.record({
        id: this.deps.ids.newId(),
        merchantId: actor.merchantId,
        staffId: actor.staffId,
        approvedBy: null,
        action: 'postback_resend',
        subjectId: record.id,
        detail: `${record.subjectType} ${record.subjectId}, was ${logStatus(record)} after ${record.attempts} attempt${record.attempts === 1 ? '' : 's'}`,
        createdAt: now,
      });
      return success((await this.detailIn(tx, actor.merchantId, eventId)) as BackOfficePostbackDetail);
    });
    if (outcome.ok) this.deps.delivery.requeued();
    return outcome;
  }

  /** The body's problems, in the words of POST /rest/postbacks/resend_failed. */
  resendErrors(body: Partial<PostbackResendRequest>): FieldError[] {
    if (typeof body.since !== 'string') return [];
    return Number.isNaN(Date.parse(body.since)) ? [{ field: 'since', message: 'must be an ISO 8601 timestamp' }] : [];
  }

  /**
   * Queues every failed postback created since `since` again, as one resend whose progress the
   * back office reads (resendProgress); audited as postback_resend_failed with how many.
   */
  async resendFailed(actor: PostbackActor, body: PostbackResendRequest): Promise<Outcome<PostbackResend>> {
    const errors = this.resendErrors(body);
    if (errors.length) return failure(validationError(errors));
    const since = new Date(Date.parse(body.since)).toISOString();
    const now = this.deps.clock.now().toISOString();
    const id = this.deps.ids.newId();
    const resend = await this.deps.store.run(async (tx) => {
      const failed = await tx.outbox.list(actor.merchantId, { state: 'failed', since, limit: RESEND_FAILED_LIMIT });
      for (const record of failed) await tx.outbox.requeue(record.id, now);
      const record = { id, merchantId: actor.merchantId, staffId: actor.staffId, since, total: failed.length, createdAt: now };
      await tx.outbox.insertResend(
        record,
        failed.map((f) => f.id),
      );
      await tx.audit.record({
        id: this.deps.ids.newId(),
        merchantId: actor.merchantId,
        staffId: actor.staffId,
        approvedBy: null,
        action: 'postback_resend_failed',
        subjectId: id,
        detail: `${failed.length} failed postback${failed.length === 1 ? '' : 's'} created since ${since}`,
        createdAt: now,
      });
      return record;
    });
    this.deps.delivery.requeued();
    return success({
      resend_id: resend.id,
      since,
      created_at: now,
      total: resend.total,
      attempted: 0,
      delivered: 0,
      failing: 0,
      done: resend.total === 0,
    });
  }

  async resendProgress(merchantId: string, resendId: string): Promise<Outcome<PostbackResend>> {
    const found = await this.deps.store.read(async (r) => {
      const resend = await r.outbox.getResend(merchantId, resendId);
      return resend && { resend, progress: await r.outbox.resendProgress(resend) };
    });
    if (!found)
      return failure(
        apiError(ErrorCode.notFound, `Resend ${resendId} not found`, [{ field: 'resend_id', message: 'no such resend for this merchant' }]),
      );
    const { resend, progress } = found;
    return success({
      resend_id: resend.id,
      since: resend.since,
      created_at: resend.createdAt,
      total: resend.total,
      ...progress,
      done: progress.attempted >= resend.total,
    });
  }

  // ---- the webhook key ---------------------------------------------------------------------------

  private async merchantKeys(merchantId: string) {
    const merchant = await this.deps.store.read((r) => r.merchants.get(merchantId));
    if (!merchant) throw new Error(`merchant ${merchantId} not found`);
    const now = this.deps.clock.now().toISOString();
    const previousUntil =
      merchant.previousWebhookKeySealed && merchant.previousWebhookKeyUntil && merchant.previousWebhookKeyUntil > now
        ? merchant.previousWebhookKeyUntil
        : null;
    return { key: this.deps.vault.open(merchant.webhookKeySealed), previousUntil };
  }

  async webhookKey(merchantId: string, mayRotate: boolean): Promise<WebhookKeyInfo> {
    const { key, previousUntil } = await this.merchantKeys(merchantId);
    return { masked: maskWebhookKey(key), previous_key_valid_until: previousUntil, may_rotate: mayRotate };
  }

  /** The key itself, for Copy (not audited: docs/decisions.md "Back office: postbacks and outbox"). */
  async revealWebhookKey(merchantId: string): Promise<WebhookKeyReveal> {
    return { webhook_key: (await this.merchantKeys(merchantId)).key };
  }

  /** A new key; the old one keeps signing (a second signature) for 24 hours. Audited as webhook_key_rotate. */
  async rotateWebhookKey(actor: PostbackActor): Promise<Outcome<WebhookKeyRotated>> {
    const key = newWebhookKey();
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + KEY_ROTATION_GRACE_MS).toISOString();
    return this.deps.store.run(async (tx) => {
      const merchant = await tx.merchants.get(actor.merchantId);
      if (!merchant) return failure(apiError(ErrorCode.notFound, 'Merchant not found'));
      await tx.merchants.rotateWebhookKey(actor.merchantId, this.deps.vault.seal(key), merchant.webhookKeySealed, until);
      await tx.audit.record({
        id: this.deps.ids.newId(),
        merchantId: actor.merchantId,
        staffId: actor.staffId,
        approvedBy: null,
        action: 'webhook_key_rotate',
        subjectId: null,
        detail: `new key ${maskWebhookKey(key).replace(/•+/, '…')}; the previous key signs too until ${until}`,
        createdAt: now.toISOString(),
      });
      return success({ webhook_key: key, masked: maskWebhookKey(key), previous_key_valid_until: until });
    });
  }

  // ---- the Test environment's outbox -------------------------------------------------------------

  private notTest(): Outcome<never> | undefined {
    if (this.deps.processor.environment === 'test') return undefined;
    return failure(apiError(ErrorCode.notFound, 'The outbox exists only in the Test environment'));
  }

  private outboxQuery(query: TestOutboxQuery): Outcome<{ kind: TestOutboxItem['kind'] | undefined; page: number; per: number }> {
    const errors: FieldError[] = [];
    const kind = oneOf('kind', query.kind, TEST_OUTBOX_KINDS, errors);
    const { page, per } = readPageQuery(
      { ...(query.page !== undefined ? { page: query.page } : {}), ...(query.per !== undefined ? { per: query.per } : {}) },
      POSTBACKS_DEFAULT_PER_PAGE,
      POSTBACKS_MAX_PER_PAGE,
      errors,
    );
    if (errors.length) return failure(validationError(errors));
    return success({ kind, page, per });
  }

  outboxQueryErrors(query: TestOutboxQuery): FieldError[] {
    const parsed = this.outboxQuery(query);
    return parsed.ok ? [] : parsed.error.errors;
  }

  /** Every e-mail and postback attempt the gateway sent for the merchant, newest first. */
  async outbox(merchantId: string, query: TestOutboxQuery): Promise<Outcome<TestOutboxList>> {
    const refused = this.notTest();
    if (refused) return refused;
    const parsed = this.outboxQuery(query);
    if (!parsed.ok) return parsed;
    const { kind, page, per } = parsed.value;
    return success(
      await this.deps.store.read(async (r) => {
        const items = await r.outbox.sentItems(merchantId, kind, per, (page - 1) * per);
        const views: TestOutboxItem[] = [];
        for (const item of items) views.push(outboxItemView(item, item.eventId ? await this.eventOf(r, merchantId, item.eventId) : null));
        return { data_set: views, metadata: pageMetadata(await r.outbox.countSentItems(merchantId, kind), page, per) };
      }),
    );
  }

  private async eventOf(r: PostbacksUnit, merchantId: string, eventId: string): Promise<string | null> {
    const record = await r.outbox.get(merchantId, eventId);
    return typeof record?.payload.status === 'string' ? record.payload.status : null;
  }

  /** One sent item with its preview: the e-mail (text and HTML) or the postback attempt (signed body and headers). */
  async outboxItem(merchantId: string, itemId: string): Promise<Outcome<TestOutboxDetail>> {
    const refused = this.notTest();
    if (refused) return refused;
    const missing = failure(
      apiError(ErrorCode.notFound, `Nothing sent as ${itemId}`, [
        { field: 'item_id', message: 'no such e-mail or postback attempt for this merchant' },
      ]),
    );
    const [prefix, id = ''] = [itemId.slice(0, 1), itemId.slice(2)];
    const detail = await this.deps.store.read(async (r): Promise<TestOutboxDetail | undefined> => {
      if (prefix === 'p') {
        const attempt = await r.outbox.getAttempt(merchantId, id);
        const record = attempt && (await r.outbox.get(merchantId, attempt.outboxId));
        if (!attempt || !record) return undefined;
        const item: SentItemRecord = {
          kind: 'postback',
          id: attempt.id,
          at: attempt.createdAt,
          target: record.url,
          title: record.subjectType,
          httpStatus: attempt.httpStatus,
          outcome: attempt.outcome,
          eventId: record.id,
        };
        const event = typeof record.payload.status === 'string' ? record.payload.status : null;
        return { item: outboxItemView(item, event), email: null, postback: { event_id: record.id, attempt: attemptDetail(attempt) } };
      }
      const mail = prefix === 'e' ? await r.emails.get(id) : prefix === 'r' ? await r.receipts.getEmail(id) : undefined;
      if (!mail || mail.merchantId !== merchantId || mail.status !== 'sent' || !mail.sentAt) return undefined;
      const sender = 'sender' in mail ? mail.sender : null;
      const item: SentItemRecord = {
        kind: prefix === 'e' ? 'email' : 'receipt_email',
        id: mail.id,
        at: mail.sentAt,
        target: mail.recipient,
        title: mail.subject,
        httpStatus: null,
        outcome: mail.testOutbox ? 'test_outbox' : 'sent',
        eventId: null,
      };
      return {
        item: outboxItemView(item, null),
        email: {
          source: prefix === 'e' ? 'invoice' : 'receipt',
          from: sender,
          to: mail.recipient,
          subject: mail.subject,
          text: mail.bodyText,
          html: mailHtml({ subject: mail.subject, text: mail.bodyText, lang: mail.locale }),
        },
        postback: null,
      };
    });
    return detail ? success(detail) : missing;
  }
}

export function postbackNotFound(eventId: string) {
  return apiError(ErrorCode.notFound, `Postback ${eventId} not found`, [
    { field: 'event_id', message: 'no such postback for this merchant' },
  ]);
}
