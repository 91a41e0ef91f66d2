/** What merchants and the back office see of postbacks: deliveries with attempts, resends, key rotation. */
import type { PostbackAttempt, PostbackDelivery, PostbackListQuery } from '../../../contract/api/postbacks.js';
import { ErrorCode } from '../../../contract/codes.js';
import { apiError, failure, success, validationError, type Outcome } from '../errors.js';
import { newWebhookKey } from '../merchants/credentials.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { Clock, Vault } from '../kernel.js';
import type { OutboxRecord, PostbackAttemptRecord, PostbacksUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import { notFound } from '../payments/records.js';
import type { PostbackDelivery as DeliveryLoop } from './delivery.js';

export const KEY_ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

function attemptView(a: PostbackAttemptRecord): PostbackAttempt {
  return {
    attempt: a.attempt,
    created_at: a.createdAt,
    http_status: a.httpStatus,
    outcome: a.outcome,
    error: a.error,
    duration_ms: a.durationMs,
  };
}

export function deliveryView(r: OutboxRecord, attempts?: PostbackAttemptRecord[]): PostbackDelivery {
  return {
    event_id: r.id,
    subject_type: r.subjectType,
    subject_id: r.subjectId,
    sequence: r.sequence,
    url: r.url,
    state: r.state,
    status_code: typeof r.payload.status_code === 'number' ? r.payload.status_code : null,
    attempts: r.attempts,
    next_attempt_at: r.state === 'pending' ? r.nextAttemptAt : null,
    delivered_at: r.deliveredAt ?? null,
    last_error: r.lastError ?? null,
    created_at: r.createdAt,
    payload: r.payload,
    ...(attempts ? { attempt_log: attempts.map(attemptView) } : {}),
  };
}

export class Postbacks {
  constructor(
    private readonly store: Store<PostbacksUnit>,
    private readonly clock: Clock,
    private readonly vault: Vault,
    private readonly delivery: DeliveryLoop,
  ) {}

  async forTransaction(merchantId: string, transactionId: string): Promise<Outcome<PostbackDelivery[]>> {
    const result = await this.store.read(async (r) => {
      const t = await r.transactions.get(merchantId, transactionId);
      if (!t) return undefined;
      const records = await r.outbox.listBySubject(merchantId, 'transaction', t.id);
      return Promise.all(records.map(async (record) => deliveryView(record, await r.outbox.listAttempts(record.id))));
    });
    return result ? success(result) : failure(notFound(transactionId));
  }

  async list(merchantId: string, query: PostbackListQuery): Promise<Outcome<PostbackDelivery[]>> {
    const errors = [];
    if (query.state !== undefined && !['pending', 'delivered', 'failed'].includes(query.state))
      errors.push({ field: 'state', message: 'must be pending, delivered or failed' });
    const since = query.since === undefined ? undefined : Date.parse(query.since);
    if (since !== undefined && Number.isNaN(since)) errors.push({ field: 'since', message: 'must be an ISO 8601 timestamp' });
    const limit = query.limit === undefined ? 50 : /^\d{1,3}$/.test(query.limit) ? Number(query.limit) : Number.NaN;
    if (!(limit >= 1 && limit <= 500)) errors.push({ field: 'limit', message: 'must be a whole number from 1 to 500' });
    if (errors.length) return failure(validationError(errors));
    const records = await this.store.read((r) =>
      r.outbox.list(merchantId, {
        ...(query.state ? { state: query.state as OutboxRecord['state'] } : {}),
        ...(since !== undefined ? { since: new Date(since).toISOString() } : {}),
        limit,
      }),
    );
    return success(records.map((record) => deliveryView(record)));
  }

  async resend(operation: Operation, eventId: string): Promise<Outcome<PostbackDelivery & { error_code: 0 }>> {
    const merchantId = operation.context.merchantId;
    const outcome = await operation.commit(this.store, async (tx) => {
      const record = await tx.outbox.get(merchantId, eventId);
      if (!record)
        return failure(
          apiError(ErrorCode.notFound, `Postback ${eventId} not found`, [
            { field: 'event_id', message: 'no such postback for this merchant' },
          ]),
        );
      await tx.outbox.requeue(record.id, this.clock.now().toISOString());
      const fresh = (await tx.outbox.get(merchantId, eventId)) as OutboxRecord;
      return success({ ...deliveryView(fresh), error_code: 0 as const });
    });
    this.delivery.requeued();
    return outcome;
  }

  async resendFailed(operation: Operation, sinceText: string): Promise<Outcome<{ requeued: number; error_code: 0 }>> {
    const since = Date.parse(sinceText);
    if (Number.isNaN(since)) return failure(validationError([{ field: 'since', message: 'must be an ISO 8601 timestamp' }]));
    const merchantId = operation.context.merchantId;
    const outcome = await operation.commit(this.store, async (tx) => {
      const failed = await tx.outbox.list(merchantId, { state: 'failed', since: new Date(since).toISOString(), limit: 10_000 });
      const now = this.clock.now().toISOString();
      for (const record of failed) await tx.outbox.requeue(record.id, now);
      return success({ requeued: failed.length, error_code: 0 as const });
    });
    this.delivery.requeued();
    return outcome;
  }

  /** A new webhook key; the old one keeps signing (as a second signature) for 24 hours. */
  async rotateWebhookKey(operation: Operation): Promise<Outcome<{ webhook_key: string; previous_key_valid_until: string; error_code: 0 }>> {
    const merchantId = operation.context.merchantId;
    const key = newWebhookKey();
    const until = new Date(this.clock.now().getTime() + KEY_ROTATION_GRACE_MS).toISOString();
    return operation.commit(this.store, async (tx) => {
      const merchant = await tx.merchants.get(merchantId);
      if (!merchant) return failure(apiError(ErrorCode.notFound, 'Merchant not found'));
      await tx.merchants.rotateWebhookKey(merchantId, this.vault.seal(key), merchant.webhookKeySealed, until);
      return success({ webhook_key: key, previous_key_valid_until: until, error_code: 0 as const });
    });
  }
}
