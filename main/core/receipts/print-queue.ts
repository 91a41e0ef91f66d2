/**
 * Auto-print (decisions.md D16): the print jobs that approved card-present sales queue in their own
 * unit of work (Receipts.queueAutoPrint) are printed here, outside any unit of work, on the
 * merchant's printer as it is set up now. A printer that does not answer gets a few quick retries;
 * a job that could not print while the customer is still likely at the till is marked failed (the
 * cashier reprints from today's sales). One job per receipt, so a sale prints once. Runs on the
 * same WakeableLoop as the mail queue, woken after every commit.
 */
import type { Clock, Logger } from '../kernel.js';
import type { ReceiptPrinter, ReceiptPrintJobRecord, ReceiptsUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import { WakeableLoop } from '../wakeable-loop.js';
import { printerName, printerTarget, type Receipts } from './receipts.js';

export interface PrintQueueSettings {
  /** Delay before each retry; after the last one the job is failed. */
  retryDelaysMs: number[];
  /** A job older than this is failed without printing (e.g. found after a restart). */
  maxAgeMs: number;
  pollMs: number;
}

/** How long a job taken for printing stays with its taker (a printer answers within seconds). */
const CLAIM_MS = 60_000;

export const DEFAULT_PRINT_QUEUE_SETTINGS: PrintQueueSettings = { retryDelaysMs: [2000, 5000], maxAgeMs: 5 * 60_000, pollMs: 1000 };

export class ReceiptPrintQueue {
  private readonly loop: WakeableLoop;

  constructor(
    private readonly store: Store<ReceiptsUnit>,
    private readonly clock: Clock,
    private readonly receipts: Receipts,
    private readonly printer: ReceiptPrinter,
    private readonly logger: Logger,
    private readonly settings: PrintQueueSettings,
  ) {
    this.loop = new WakeableLoop(
      async () => {
        await this.printDue();
        return this.settings.pollMs;
      },
      (error) => this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'receipt print pass failed'),
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

  /** Prints every due job now and waits (tests); retries that are due later stay queued. */
  async drain(): Promise<void> {
    await this.loop.exclusive(async () => {
      while ((await this.printDue()) > 0) {
        /* until nothing is due */
      }
    });
  }

  private async printDue(): Promise<number> {
    const due = await this.store.read((r) => r.receipts.duePrintJobs(this.clock.now().toISOString(), 20));
    for (const job of due) await this.attempt(job);
    return due.length;
  }

  private async attempt(listed: ReceiptPrintJobRecord): Promise<void> {
    // Only the pass that takes the job as listed prints it: drain() beside the background pass, or
    // another gateway instance on the same database (a conditional update; the claim lapses after
    // CLAIM_MS if this instance dies while printing).
    const until = new Date(this.clock.now().getTime() + CLAIM_MS).toISOString();
    if (!(await this.store.runAtomic((tx) => tx.receipts.claimPrintJob(listed, until), { quiet: true }))) return;
    const job = listed;
    const attempts = job.attempts + 1;
    const tooOld = this.clock.now().getTime() - Date.parse(job.createdAt) > this.settings.maxAgeMs;
    const prepared = tooOld ? { ok: false as const, message: 'too late: the sale was approved more than a few minutes ago' } : await this.receipts.printJob(job.merchantId, job.receiptId);
    let error: string | undefined;
    let printer: string | undefined;
    if (!prepared.ok) {
      error = prepared.message;
    } else {
      const target = printerTarget(prepared.record);
      printer = printerName(target);
      const outcome = await this.printer.print(target, prepared.document);
      if (outcome.kind === 'failed') error = outcome.message;
    }
    const now = this.clock.now();
    if (error === undefined) {
      await this.store.run((tx) => tx.receipts.settlePrintJob(job.id, { status: 'printed', attempts, nextAttemptAt: now.toISOString(), lastError: null, printedAt: now.toISOString() }));
      return;
    }
    const delay = prepared.ok ? this.settings.retryDelaysMs[attempts - 1] : undefined;
    const next = delay === undefined ? null : new Date(now.getTime() + delay);
    await this.store.run((tx) =>
      tx.receipts.settlePrintJob(job.id, { status: next ? 'queued' : 'failed', attempts, nextAttemptAt: (next ?? now).toISOString(), lastError: error.slice(0, 500), printedAt: null }),
    );
    this.logger.warn({ receipt_id: job.receiptId, printer: printer ?? null, attempt: attempts, error, next_attempt_at: next?.toISOString() ?? null }, 'receipt auto-print failed');
  }
}
