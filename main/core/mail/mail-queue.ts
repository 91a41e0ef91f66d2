/**
 * The invoice mail queue (decisions.md D11): e-mail rows are written in the same unit of work as
 * the invoice or the reminder request (status `queued`); this worker hands each due row to the
 * Mailer outside any unit of work and records the outcome: `sent` (with sent_at; `test_outbox`
 * when no SMTP server is configured), or another attempt after the next retry delay, or `failed`
 * once the retry delays are used up. Runs on the same WakeableLoop as postbacks/delivery.ts (start, wake, drain).
 * Receipt e-mails (decisions.md D16, table `receipt_emails`) go through the same queue and retries.
 *
 * Several instances may share the queue (one PostgreSQL database): each pass claims its due
 * e-mails with a lease before sending (docs/decisions.md "PostgreSQL: outbox and mail queue
 * claims"), and an outcome is recorded only while the claim holds, so an e-mail goes out once.
 */
import type { Clock, Ids, Logger, QueueClaim } from '../kernel.js';
import type { EmailRecord, Mailer, MailResult, MailUnit } from './ports.js';
import type { ReceiptEmailRecord } from '../receipts/ports.js';
import type { Store } from '../unit-of-work.js';
import { WakeableLoop } from '../wakeable-loop.js';

const MINUTE = 60_000;

export interface MailQueueSettings {
  /** Delay before each retry; after the last one the e-mail is failed. */
  retryDelaysMs: number[];
  /** Idle poll interval; wake() shortens it after a commit. */
  pollMs: number;
  /** How long a claim keeps other instances off an e-mail (docs/decisions.md "PostgreSQL: outbox and mail queue claims"). */
  claimLeaseMs: number;
}

export const DEFAULT_MAIL_QUEUE_SETTINGS: MailQueueSettings = { retryDelaysMs: [1, 5, 15].map((m) => m * MINUTE), pollMs: 1000, claimLeaseMs: 10 * MINUTE };

/** E-mails of each table claimed at once. */
const CLAIM_BATCH = 20;
/**
 * The longest one message may take to hand over (the SMTP adapter's connection, greeting and
 * socket timeouts); an e-mail is sent only while at least this much of its lease is left.
 */
const SEND_BUDGET_MS = MINUTE;

export class MailQueue {
  private readonly loop: WakeableLoop;
  /** Who claims: this instance's name and a fresh id (`host:pid/id`); each claim batch adds its number. */
  private readonly instance: string;
  private claims = 0;

  constructor(
    private readonly store: Store<MailUnit>,
    private readonly clock: Clock,
    ids: Ids,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly settings: MailQueueSettings,
    instanceName = 'gateway',
  ) {
    this.instance = `${instanceName}/${ids.newId()}`;
    this.loop = new WakeableLoop(
      async () => {
        await this.sendDue();
        return this.settings.pollMs;
      },
      (error) => this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'mail queue pass failed'),
      settings.pollMs,
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  /**
   * Claims the due e-mails (a batch of each kind, with a lease) and sends them one after the other,
   * each only while enough of the lease is left; gives back the rest. Returns how many were attempted.
   */
  private async sendDue(): Promise<number> {
    this.claims += 1;
    const now = this.clock.now().getTime();
    const until = now + this.settings.claimLeaseMs;
    const claim: QueueClaim = { claimedBy: `${this.instance}/${this.claims}`, claimUntil: new Date(until).toISOString() };
    const at = new Date(now).toISOString();
    const claimed = await this.store.runAtomic(
      async (tx) => ({
        invoices: await tx.emails.claimDue(at, claim, CLAIM_BATCH),
        receipts: await tx.receipts.claimDueEmails(at, claim, CLAIM_BATCH),
      }),
      { quiet: true },
    );
    const work = [
      ...claimed.invoices.map((record) => ({ send: () => this.attempt(record, claim.claimedBy), release: (tx: MailUnit) => tx.emails.release(record.id, claim.claimedBy) })),
      ...claimed.receipts.map((record) => ({ send: () => this.attemptReceipt(record, claim.claimedBy), release: (tx: MailUnit) => tx.receipts.releaseEmail(record.id, claim.claimedBy) })),
    ];
    const budget = Math.min(SEND_BUDGET_MS, this.settings.claimLeaseMs / 2);
    let attempted = 0;
    for (const item of work) {
      if (this.clock.now().getTime() > until - budget) break;
      await item.send();
      attempted += 1;
    }
    const left = work.slice(attempted);
    if (left.length > 0) {
      await this.store.runAtomic(
        async (tx) => {
          for (const item of left) await item.release(tx);
        },
        { quiet: true },
      );
    }
    return attempted;
  }

  /** The settled state of an e-mail after an attempt: sent, queued again after the next delay, or failed. */
  private outcome(result: MailResult, attempts: number, retry: boolean) {
    const now = this.clock.now();
    if (result.kind !== 'failed') {
      return { status: 'sent' as const, attempts, nextAttemptAt: now.toISOString(), sentAt: now.toISOString(), lastError: null, testOutbox: result.kind === 'test_outbox' };
    }
    const delay = retry ? this.settings.retryDelaysMs[attempts - 1] : undefined;
    const next = delay === undefined ? null : new Date(now.getTime() + delay);
    return { status: next ? ('queued' as const) : ('failed' as const), attempts, nextAttemptAt: (next ?? now).toISOString(), sentAt: null, lastError: result.message.slice(0, 1000), testOutbox: false };
  }

  private lostClaim(kind: string, id: string): void {
    this.logger.warn({ [kind]: id }, 'e-mail attempt not recorded: its claim ended before the outcome');
  }

  /** One attempt of one claimed receipt e-mail, recorded in one unit of work while the claim holds. */
  private async attemptReceipt(record: ReceiptEmailRecord, claimedBy: string): Promise<void> {
    const result = await this.mailer.send({ merchantId: record.merchantId, from: null, to: record.recipient, subject: record.subject, text: record.bodyText });
    const change = this.outcome(result, record.attempts + 1, true);
    if (!(await this.store.run((tx) => tx.receipts.settleEmail(record.id, claimedBy, change)))) return this.lostClaim('receipt_email_id', record.id);
    if (result.kind === 'failed') {
      this.logger.warn({ receipt_email_id: record.id, attempt: change.attempts, error: result.message, next_attempt_at: change.status === 'queued' ? change.nextAttemptAt : null }, 'receipt e-mail not sent');
    }
  }

  /** One attempt of one claimed invoice e-mail, recorded in one unit of work while the claim holds. */
  private async attempt(record: EmailRecord, claimedBy: string): Promise<void> {
    // An invoice deactivated after the e-mail was queued sends nothing (and is not retried).
    const invoice = await this.store.read((r) => r.invoices.get(record.invoiceId));
    const inactive = !invoice?.active;
    const result: MailResult = inactive
      ? { kind: 'failed', message: 'the invoice is inactive' }
      : await this.mailer.send({ merchantId: record.merchantId, from: record.sender, to: record.recipient, subject: record.subject, text: record.bodyText });
    const change = this.outcome(result, record.attempts + 1, !inactive);
    if (!(await this.store.run((tx) => tx.emails.settle(record.id, claimedBy, change)))) return this.lostClaim('email_id', record.id);
    if (result.kind === 'failed') {
      this.logger.warn({ email_id: record.id, attempt: change.attempts, error: result.message, next_attempt_at: change.status === 'queued' ? change.nextAttemptAt : null }, 'invoice e-mail not sent');
    }
  }

  /** Sends every due e-mail now and waits (tests and the CLI); retries that are due later stay queued. */
  async drain(): Promise<void> {
    await this.loop.exclusive(async () => {
      while ((await this.sendDue()) > 0) {
        /* until nothing is due */
      }
    });
  }
}
