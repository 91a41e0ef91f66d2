/**
 * The postback outbox, its attempts and resends, and the Test environment's sent items. Adapter: db/.
 */
import type { Outbox, OutboxRecord, QueueClaim } from '../kernel.js';
import type { IdempotencyUnit } from '../idempotency/ports.js';
import type { EmailRepository } from '../mail/ports.js';
import type { MerchantRepository } from '../merchants/ports.js';
import type { EventRepository, TransactionRepository } from '../payments/ports.js';
import type { ReceiptRepository } from '../receipts/ports.js';

export type { OutboxRecord, NewOutboxRecord } from '../kernel.js';

export interface PostbackAttemptRecord {
  id: string;
  outboxId: string;
  attempt: number;
  httpStatus: number | null;
  outcome: 'delivered' | 'failed' | 'refused';
  error: string | null;
  durationMs: number;
  createdAt: string;
  /** The signed body as sent (migration 19; null for attempts made before it). */
  requestBody?: string | null;
  /** The headers the body was sent and signed with (migration 19; null before it). */
  requestHeaders?: Record<string, string> | null;
  /** The retry this attempt scheduled; null when none followed (delivered, refused, given up). */
  nextAttemptAt?: string | null;
}

export interface OutboxFilter {
  state?: OutboxRecord['state'];
  since?: string;
  limit: number;
}

/**
 * The back office's delivery log (decisions.md "Back office: postbacks and outbox"): by status
 * (`retrying` and `queued` are pending records with and without an attempt), kind of subject and
 * created range, newest first, a page at a time.
 */
export interface OutboxPageFilter {
  status?: 'queued' | 'retrying' | 'delivered' | 'failed';
  subjectType?: string;
  createdFrom?: string;
  createdTo?: string;
  /** The search box: records with this order id, or (`id`, a pasted id) this subject or event id. */
  search?: { orderId: string; id?: string };
}

/** "Resend all failed since": which postbacks one request queued again (migration 19). */
export interface PostbackResendRecord {
  id: string;
  merchantId: string;
  staffId: string | null;
  since: string;
  total: number;
  createdAt: string;
}

/** How far a resend has come: its postbacks attempted since it was made, and how they ended. */
export interface PostbackResendProgress {
  attempted: number;
  delivered: number;
  /** Attempted, not delivered: retrying again or failed. */
  failing: number;
}

/** One thing the gateway sent, for the Test environment's outbox: an e-mail or a postback attempt. */
export interface SentItemRecord {
  kind: 'email' | 'receipt_email' | 'postback';
  id: string;
  at: string;
  /** Recipient address or postback URL. */
  target: string;
  /** Subject of an e-mail; kind of subject of a postback (transaction, token, checkout). */
  title: string;
  /** Postbacks: the HTTP status; null for e-mails and for attempts without an answer. */
  httpStatus: number | null;
  /** E-mails: test_outbox or sent (SMTP); postbacks: delivered, failed or refused. */
  outcome: string;
  /** Postbacks: the event (outbox record) id. */
  eventId: string | null;
}

export interface OutboxRepository extends Outbox {
  get(merchantId: string, id: string): Promise<OutboxRecord | undefined>;
  /**
   * Claims up to `limit` pending records that are due at `now` and under no live claim (none, or
   * its lease ended before `now`), in due order, for `claim`; returns them in due order. Run in
   * `store.claim`.
   */
  claimDue(now: string, claim: QueueClaim, limit: number): Promise<OutboxRecord[]>;
  /** Gives a claimed record back unsent (if the claim is still `claimedBy`'s). */
  release(id: string, claimedBy: string): Promise<void>;
  nextDueAt(): Promise<string | undefined>;
  listBySubject(merchantId: string, subjectType: string, subjectId: string): Promise<OutboxRecord[]>;
  list(merchantId: string, filter: OutboxFilter): Promise<OutboxRecord[]>;
  /**
   * Records the result of an attempt (delivered, pending again at `nextAttemptAt`, or failed) and
   * clears the claim, only while the record is still claimed by `claimedBy`; false (nothing
   * changed) when the claim was lost (its lease ended and another instance took it, or a resend).
   */
  settle(
    id: string,
    claimedBy: string,
    state: OutboxRecord['state'],
    nextAttemptAt: string,
    lastError: string | null,
    deliveredAt: string | null,
  ): Promise<boolean>;
  /** Queues a record again now (resend), keeping its history; clears any claim. */
  requeue(id: string, now: string): Promise<boolean>;
  appendAttempt(attempt: PostbackAttemptRecord): Promise<void>;
  listAttempts(outboxId: string): Promise<PostbackAttemptRecord[]>;
  /** The latest attempt of a record (time and HTTP status only), or undefined before the first. */
  lastAttempt(outboxId: string): Promise<Pick<PostbackAttemptRecord, 'createdAt' | 'httpStatus'> | undefined>;
  /** The back office's log: a page of the merchant's records, newest first (created_at, id). */
  page(merchantId: string, filter: OutboxPageFilter, limit: number, offset: number): Promise<OutboxRecord[]>;
  count(merchantId: string, filter: OutboxPageFilter): Promise<number>;
  /** One attempt of one of the merchant's postbacks, with its record's id. */
  getAttempt(merchantId: string, attemptId: string): Promise<PostbackAttemptRecord | undefined>;
  insertResend(record: PostbackResendRecord, outboxIds: readonly string[]): Promise<void>;
  getResend(merchantId: string, id: string): Promise<PostbackResendRecord | undefined>;
  resendProgress(resend: PostbackResendRecord): Promise<PostbackResendProgress>;
  /** The Test environment's outbox: sent e-mails (invoice and receipt) and postback attempts, newest first. */
  sentItems(merchantId: string, kind: 'email' | 'postback' | undefined, limit: number, offset: number): Promise<SentItemRecord[]>;
  countSentItems(merchantId: string, kind: 'email' | 'postback' | undefined): Promise<number>;
}

/** The postbacks feature's view of a unit of work: the outbox, its attempts and resends; what the Test outbox and a postback's body show of other records. */
export interface PostbacksUnit extends IdempotencyUnit {
  outbox: OutboxRepository;
  merchants: Pick<MerchantRepository, 'get' | 'rotateWebhookKey'>;
  transactions: Pick<TransactionRepository, 'get'>;
  events: Pick<EventRepository, 'append'>;
  receipts: Pick<ReceiptRepository, 'getEmail'>;
  emails: Pick<EmailRepository, 'get'>;
}
