/**
 * The invoice mail queue (decisions.md D11): e-mail rows are written in the same unit of work as
 * the invoice or the reminder request (status `queued`); this worker hands each due row to the
 * Mailer outside any unit of work and records the outcome: `sent` (with sent_at; `test_outbox`
 * when no SMTP server is configured), or another attempt after the next retry delay, or `failed`
 * once the retry delays are used up (start, wake, drain as postbacks/delivery.ts).
 * Receipt e-mails (decisions.md D16, table `receipt_emails`) go through the same queue and retries.
 *
 * Several instances may share the queue (one PostgreSQL database): each pass claims its due
 * e-mails with a lease before sending (docs/decisions.md "PostgreSQL: outbox and mail queue
 * claims"), and an outcome is recorded only while the claim holds, so an e-mail goes out once.
 * The claims, the launch window and the loop are the claimed-queue worker's (../claimed-queue.ts);
 * the mail queue's own are here: its two tables' claims and releases, the send and its outcome, and
 * the retry delays. One e-mail is sent at a time (concurrency 1), as this queue always has.
 */
import type { Clock, Ids, Logger } from '../kernel.js';
import type { EmailRecord, Mailer, MailResult, MailUnit } from './ports.js';
import type { ReceiptEmailRecord } from '../receipts/ports.js';
import type { Store } from '../unit-of-work.js';
import { ClaimedQueueWorker } from '../claimed-queue.js';

const MINUTE = 60_000;

export interface MailQueueSettings {
  /** Delay before each retry; after the last one the e-mail is failed. */
  retryDelaysMs: number[];
  /** Idle poll interval; wake() shortens it after a commit. */
  pollMs: number;
  /** How long a claim keeps other instances off an e-mail (docs/decisions.md "PostgreSQL: outbox and mail queue claims"). */
  claimLeaseMs: number;
}

export const DEFAULT_MAIL_QUEUE_SETTINGS: MailQueueSettings = {
  retryDelaysMs: [1, 5, 15].map((m) => m * MINUTE),
  pollMs: 1000,
  claimLeaseMs: 10 * MINUTE,
};

/** E-mails of each table claimed at once. */
const CLAIM_BATCH = 20;
/**
 * The longest one message may take to hand over (the SMTP adapter's connection, greeting and
 * socket timeouts); an e-mail is sent only while at least this much of its lease is left.
 */
const SEND_BUDGET_MS = MINUTE;

/** A claimed e-mail of either table: an invoice's (D11) or a receipt's (D16). */
type QueuedEmail =
  | { kind: 'invoice'; id: string; nextAttemptAt: string; record: EmailRecord }
  | { kind: 'receipt'; id: string; nextAttemptAt: string; record: ReceiptEmailRecord };

export class MailQueue {
  private readonly worker: ClaimedQueueWorker<QueuedEmail>;

  constructor(
    private readonly store: Store<MailUnit>,
    private readonly clock: Clock,
    ids: Ids,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly settings: MailQueueSettings,
    instanceName = 'gateway',
  ) {
    this.worker = new ClaimedQueueWorker<QueuedEmail>(
      {
        claim: (claim, now, limit) =>
          this.store.runAtomic(
            async (tx) => [
              ...(await tx.emails.claimDue(now, claim, limit)).map((record) => ({
                kind: 'invoice' as const,
                id: record.id,
                nextAttemptAt: record.nextAttemptAt,
                record,
              })),
              ...(await tx.receipts.claimDueEmails(now, claim, limit)).map((record) => ({
                kind: 'receipt' as const,
                id: record.id,
                nextAttemptAt: record.nextAttemptAt,
                record,
              })),
            ],
            { quiet: true },
          ),
        release: (emails) =>
          this.store.runAtomic(
            async (tx) => {
              for (const { item, claim } of emails) {
                if (item.kind === 'invoice') await tx.emails.release(item.id, claim.claimedBy);
                else await tx.receipts.releaseEmail(item.id, claim.claimedBy);
              }
            },
            { quiet: true },
          ),
        attempt: (claimed) =>
          claimed.item.kind === 'invoice'
            ? this.attempt(claimed.item.record, claimed.claim.claimedBy)
            : this.attemptReceipt(claimed.item.record, claimed.claim.claimedBy),
      },
      clock,
      logger,
      {
        instance: `${instanceName}/${ids.newId()}`,
        pollMs: settings.pollMs,
        leaseMs: settings.claimLeaseMs,
        launchWindowMs: settings.claimLeaseMs - Math.min(SEND_BUDGET_MS, settings.claimLeaseMs / 2),
        concurrency: 1,
        perKey: 1,
        inFlight: 1,
        readAhead: CLAIM_BATCH - 1,
        depth: 1,
        drainBatch: CLAIM_BATCH,
        drainConcurrency: 1,
        log: {
          idField: 'email_id',
          passFailed: 'mail queue pass failed',
          attemptFailed: 'e-mail attempt failed',
          releaseFailed: 'e-mail claims could not be given back',
        },
      },
    );
  }

  start(): void {
    this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }

  wake(): void {
    this.worker.wake();
  }

  /** Sends every due e-mail now and waits (tests and the CLI); retries that are due later stay queued. */
  drain(): Promise<void> {
    return this.worker.drain();
  }

  /** The settled state of an e-mail after an attempt: sent, queued again after the next delay, or failed. */
  private outcome(result: MailResult, attempts: number, retry: boolean) {
    const now = this.clock.now();
    if (result.kind !== 'failed') {
      return {
        status: 'sent' as const,
        attempts,
        nextAttemptAt: now.toISOString(),
        sentAt: now.toISOString(),
        lastError: null,
        testOutbox: result.kind === 'test_outbox',
      };
    }
    const delay = retry ? this.settings.retryDelaysMs[attempts - 1] : undefined;
    const next = delay === undefined ? null : new Date(now.getTime() + delay);
    return {
      status: next ? ('queued' as const) : ('failed' as const),
      attempts,
      nextAttemptAt: (next ?? now).toISOString(),
      sentAt: null,
      lastError: result.message.slice(0, 1000),
      testOutbox: false,
    };
  }

  private lostClaim(kind: string, id: string): void {
    this.logger.warn({ [kind]: id }, 'e-mail attempt not recorded: its claim ended before the outcome');
  }

  /** One attempt of one claimed receipt e-mail, recorded in one unit of work while the claim holds. */
  private async attemptReceipt(record: ReceiptEmailRecord, claimedBy: string): Promise<void> {
    const result = await this.mailer.send({
      merchantId: record.merchantId,
      from: null,
      to: record.recipient,
      subject: record.subject,
      text: record.bodyText,
    });
    const change = this.outcome(result, record.attempts + 1, true);
    if (!(await this.store.run((tx) => tx.receipts.settleEmail(record.id, claimedBy, change))))
      return this.lostClaim('receipt_email_id', record.id);
    if (result.kind === 'failed') {
      this.logger.warn(
        {
          receipt_email_id: record.id,
          attempt: change.attempts,
          error: result.message,
          next_attempt_at: change.status === 'queued' ? change.nextAttemptAt : null,
        },
        'receipt e-mail not sent',
      );
    }
  }

  /** One attempt of one claimed invoice e-mail, recorded in one unit of work while the claim holds. */
  private async attempt(record: EmailRecord, claimedBy: string): Promise<void> {
    // An invoice deactivated after the e-mail was queued sends nothing (and is not retried).
    const invoice = await this.store.read((r) => r.invoices.get(record.invoiceId));
    const inactive = !invoice?.active;
    const result: MailResult = inactive
      ? { kind: 'failed', message: 'the invoice is inactive' }
      : await this.mailer.send({
          merchantId: record.merchantId,
          from: record.sender,
          to: record.recipient,
          subject: record.subject,
          text: record.bodyText,
        });
    const change = this.outcome(result, record.attempts + 1, !inactive);
    if (!(await this.store.run((tx) => tx.emails.settle(record.id, claimedBy, change)))) return this.lostClaim('email_id', record.id);
    if (result.kind === 'failed') {
      this.logger.warn(
        {
          email_id: record.id,
          attempt: change.attempts,
          error: result.message,
          next_attempt_at: change.status === 'queued' ? change.nextAttemptAt : null,
        },
        'invoice e-mail not sent',
      );
    }
  }
}
