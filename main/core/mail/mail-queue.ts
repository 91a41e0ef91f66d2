/**
 * The invoice mail queue (decisions.md D11): e-mail rows are written in the same unit of work as
 * the invoice or the reminder request (status `queued`); this worker hands each due row to the
 * Mailer outside any unit of work and records the outcome: `sent` (with sent_at; `test_outbox`
 * when no SMTP server is configured), or another attempt after the next retry delay, or `failed`
 * once the retry delays are used up. Runs on the same WakeableLoop as postbacks/delivery.ts (start, wake, drain).
 * Receipt e-mails (decisions.md D16, table `receipt_emails`) go through the same queue and retries.
 */
import type { Clock, EmailRecord, Logger, Mailer, MailResult, ReceiptEmailRecord, Store } from '../ports.js';
import { WakeableLoop } from '../wakeable-loop.js';

const MINUTE = 60_000;

export interface MailQueueSettings {
  /** Delay before each retry; after the last one the e-mail is failed. */
  retryDelaysMs: number[];
  /** Idle poll interval; wake() shortens it after a commit. */
  pollMs: number;
}

export const DEFAULT_MAIL_QUEUE_SETTINGS: MailQueueSettings = { retryDelaysMs: [1, 5, 15].map((m) => m * MINUTE), pollMs: 1000 };

export class MailQueue {
  private readonly loop: WakeableLoop;
  /** E-mails being sent, by id: drain() beside the background pass waits for the other's send instead of skipping it. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly settings: MailQueueSettings,
  ) {
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

  /** Sends every due e-mail once, one after the other; returns how many were attempted. */
  private async sendDue(): Promise<number> {
    const now = this.clock.now().toISOString();
    const due = await this.store.read(async (r) => ({ invoices: await r.emails.due(now, 50), receipts: await r.receipts.dueEmails(now, 50) }));
    let attempted = 0;
    const once = async (id: string, send: () => Promise<void>) => {
      const sending = this.inFlight.get(id);
      if (sending) {
        // Sent by the other caller (background pass or drain): done when that attempt is recorded.
        await sending.catch(() => undefined);
        return;
      }
      const attempt = send().finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, attempt);
      await attempt;
      attempted += 1;
    };
    for (const record of due.invoices) await once(record.id, () => this.attempt(record));
    for (const record of due.receipts) await once(record.id, () => this.attemptReceipt(record));
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

  /** One attempt of one receipt e-mail, recorded in one unit of work. */
  private async attemptReceipt(queued: ReceiptEmailRecord): Promise<void> {
    const record = await this.store.read((r) => r.receipts.getEmail(queued.id));
    if (!record || record.status !== 'queued' || record.attempts !== queued.attempts) return;
    const result = await this.mailer.send({ merchantId: record.merchantId, from: null, to: record.recipient, subject: record.subject, text: record.bodyText });
    const change = this.outcome(result, record.attempts + 1, true);
    await this.store.run((tx) => tx.receipts.settleEmail(record.id, change));
    if (result.kind === 'failed') {
      this.logger.warn({ receipt_email_id: record.id, attempt: change.attempts, error: result.message, next_attempt_at: change.status === 'queued' ? change.nextAttemptAt : null }, 'receipt e-mail not sent');
    }
  }

  /** One attempt of one e-mail, recorded in one unit of work. */
  async attempt(queued: EmailRecord): Promise<void> {
    // The row may have been attempted since it was listed (drain() beside the background pump).
    const record = await this.store.read((r) => r.emails.get(queued.id));
    if (!record || record.status !== 'queued' || record.attempts !== queued.attempts) return;
    // An invoice deactivated after the e-mail was queued sends nothing (and is not retried).
    const invoice = await this.store.read((r) => r.invoices.get(record.invoiceId));
    const inactive = !invoice?.active;
    const result: MailResult = inactive
      ? { kind: 'failed', message: 'the invoice is inactive' }
      : await this.mailer.send({ merchantId: record.merchantId, from: record.sender, to: record.recipient, subject: record.subject, text: record.bodyText });
    const now = this.clock.now();
    const attempts = record.attempts + 1;
    if (result.kind !== 'failed') {
      await this.store.run((tx) =>
        tx.emails.settle(record.id, {
          status: 'sent',
          attempts,
          nextAttemptAt: now.toISOString(),
          sentAt: now.toISOString(),
          lastError: null,
          testOutbox: result.kind === 'test_outbox',
        }),
      );
      return;
    }
    const delay = inactive ? undefined : this.settings.retryDelaysMs[attempts - 1];
    const next = delay === undefined ? null : new Date(now.getTime() + delay);
    await this.store.run((tx) =>
      tx.emails.settle(record.id, {
        status: next ? 'queued' : 'failed',
        attempts,
        nextAttemptAt: (next ?? now).toISOString(),
        sentAt: null,
        lastError: result.message.slice(0, 1000),
        testOutbox: false,
      }),
    );
    this.logger.warn({ email_id: record.id, attempt: attempts, error: result.message, next_attempt_at: next?.toISOString() ?? null }, 'invoice e-mail not sent');
  }

  /** Sends every due e-mail now and waits (tests and the CLI); retries that are due later stay queued. */
  async drain(): Promise<void> {
    await this.loop.idle();
    while ((await this.sendDue()) > 0) {
      /* until nothing is due */
    }
  }
}
