/**
 * Auto-print (decisions.md D16): the print jobs that approved card-present sales queue in their own
 * unit of work (Receipts.queueAutoPrint) are printed here, outside any unit of work, on the
 * merchant's printer as it is set up now. A printer that does not answer gets a few quick retries;
 * a job that could not print while the customer is still likely at the till is marked failed (the
 * cashier reprints from today's sales). One job per receipt, so a sale prints once. Runs on the
 * claimed-queue worker (../claimed-queue.ts) as the mail queue does, one job at a time, woken after
 * the commits that queue jobs; what is its own is here: taking a due job, printing it, and settling
 * it (printed, again after a retry delay, or failed).
 *
 * Only the pass that takes a job as listed prints it: drain() beside the background pass, or another
 * gateway instance on the same database. Taking it is a conditional update that moves its due time
 * to the end of the claim (CLAIM_MS), which lapses if this instance dies while printing; giving it
 * back moves the due time back, if the job is still as taken.
 */
import type { Clock, Logger, QueueClaim } from '../kernel.js';
import type { ReceiptPrinter, ReceiptPrintJobRecord, ReceiptsUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import { ClaimedQueueWorker, type ClaimedItem } from '../claimed-queue.js';
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
/** Due jobs read at once; one is taken at a time, just before it prints. */
const READ_BATCH = 20;

export const DEFAULT_PRINT_QUEUE_SETTINGS: PrintQueueSettings = { retryDelaysMs: [2000, 5000], maxAgeMs: 5 * 60_000, pollMs: 1000 };

export class ReceiptPrintQueue {
  private readonly worker: ClaimedQueueWorker<ReceiptPrintJobRecord>;

  constructor(
    private readonly store: Store<ReceiptsUnit>,
    private readonly clock: Clock,
    private readonly receipts: Receipts,
    private readonly printer: ReceiptPrinter,
    private readonly logger: Logger,
    private readonly settings: PrintQueueSettings,
  ) {
    this.worker = new ClaimedQueueWorker<ReceiptPrintJobRecord>(
      {
        claim: (claim, now, limit) => this.take(claim, now, limit),
        release: (jobs) => this.giveBack(jobs),
        attempt: (claimed) => this.attempt(claimed),
      },
      clock,
      logger,
      {
        // A job's claim is its due time (no claimed_by column), so the instance is not recorded.
        instance: 'prints',
        pollMs: settings.pollMs,
        leaseMs: CLAIM_MS,
        // Taken only when a slot is free, so launched at once.
        launchWindowMs: CLAIM_MS / 2,
        concurrency: 1,
        perKey: 1,
        inFlight: 1,
        readAhead: 0,
        depth: 1,
        drainBatch: 1,
        drainConcurrency: 1,
        log: {
          idField: 'print_job_id',
          passFailed: 'receipt print pass failed',
          attemptFailed: 'receipt print attempt failed',
          releaseFailed: 'receipt print jobs could not be given back',
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

  /** Prints every due job now and waits (tests); retries that are due later stay queued. */
  drain(): Promise<void> {
    return this.worker.drain();
  }

  /** Takes up to `limit` of the due jobs (the first that are still as listed) until the claim's end. */
  private take(claim: QueueClaim, now: string, limit: number): Promise<ReceiptPrintJobRecord[]> {
    return this.store.runAtomic(
      async (tx) => {
        const taken: ReceiptPrintJobRecord[] = [];
        for (const job of await tx.receipts.duePrintJobs(now, READ_BATCH)) {
          if (taken.length === limit) break;
          if (await tx.receipts.claimPrintJob(job, claim.claimUntil)) taken.push(job);
        }
        return taken;
      },
      { quiet: true },
    );
  }

  /** Puts jobs taken and not printed back to their due time, if each is still as taken. */
  private giveBack(jobs: ReadonlyArray<ClaimedItem<ReceiptPrintJobRecord>>): Promise<void> {
    return this.store.runAtomic(
      async (tx) => {
        for (const { item, claim } of jobs)
          await tx.receipts.claimPrintJob({ id: item.id, attempts: item.attempts, nextAttemptAt: claim.claimUntil }, item.nextAttemptAt);
      },
      { quiet: true },
    );
  }

  private async attempt({ item: listed }: ClaimedItem<ReceiptPrintJobRecord>): Promise<void> {
    const job = listed;
    const attempts = job.attempts + 1;
    const tooOld = this.clock.now().getTime() - Date.parse(job.createdAt) > this.settings.maxAgeMs;
    const prepared = tooOld
      ? { ok: false as const, message: 'too late: the sale was approved more than a few minutes ago' }
      : await this.receipts.printJob(job.merchantId, job.receiptId);
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
      await this.store.run((tx) =>
        tx.receipts.settlePrintJob(job.id, {
          status: 'printed',
          attempts,
          nextAttemptAt: now.toISOString(),
          lastError: null,
          printedAt: now.toISOString(),
        }),
      );
      return;
    }
    const delay = prepared.ok ? this.settings.retryDelaysMs[attempts - 1] : undefined;
    const next = delay === undefined ? null : new Date(now.getTime() + delay);
    await this.store.run((tx) =>
      tx.receipts.settlePrintJob(job.id, {
        status: next ? 'queued' : 'failed',
        attempts,
        nextAttemptAt: (next ?? now).toISOString(),
        lastError: error.slice(0, 500),
        printedAt: null,
      }),
    );
    this.logger.warn(
      { receipt_id: job.receiptId, printer: printer ?? null, attempt: attempts, error, next_attempt_at: next?.toISOString() ?? null },
      'receipt auto-print failed',
    );
  }
}
