/**
 * Postback delivery (docs/postbacks.md "Retries", docs/reliability.md "Postbacks: at least once"):
 * at-least-once from the durable outbox. Each due record is signed and POSTed; 2xx within the
 * timeout is delivered, anything else is retried after 1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h,
 * then every 24 h until 3 days have passed (all scaled by the retry scale), then failed. Every
 * attempt is recorded with its HTTP status, duration, the signed body and headers it sent, the
 * retry it scheduled, and an event-log entry of type `postback`. Concurrency is bounded overall and
 * per receiver, so a slow receiver delays only its own postbacks and never the API.
 *
 * Several instances may deliver from one database (docs/decisions.md "PostgreSQL: outbox and mail
 * queue claims"): a worker claims due records in batches with a lease (`claimDue`, one unit per
 * batch) before sending them, and records an attempt's outcome only while its claim still holds
 * (`settle` clears it). A record is launched only while enough of its lease is left for the send
 * timeout and the recording; one whose claim ran out unsent is given back or left to lapse. The
 * claims of an instance that died lapse with their lease, and another instance takes them over.
 * The claims, the queue of claimed records, the limits and the loop are the claimed-queue worker's
 * (../claimed-queue.ts); what is the postbacks' own is here: the outbox's claim and release, the
 * signed POST, its backoff (nextAttemptAt), the attempt's record and event, and recording outcomes
 * together.
 */
import type { Clock, Ids, Logger, Vault } from '../kernel.js';
import type { OutboxRecord, PostbackAttemptRecord, PostbacksUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import { ClaimedQueueWorker, type ClaimedItem } from '../claimed-queue.js';
import { signPostback } from './signing.js';

const MINUTE = 60_000;
export const RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360, 720].map((m) => m * MINUTE);
export const LATER_RETRY_MS = 24 * 60 * MINUTE;
export const GIVE_UP_AFTER_MS = 3 * 24 * 60 * MINUTE;

export type SendResult =
  /** The receiver answered with HTTP `status`; `delivered`: a 2xx, it took the postback (docs/postbacks.md). */
  | { kind: 'response'; status: number; delivered: boolean }
  | { kind: 'network_error'; message: string }
  | { kind: 'refused'; message: string };

/** Sends one HTTP POST; never throws. The adapter enforces the address policy and the timeout. */
export interface PostbackSender {
  send(request: { url: string; body: string; headers: Record<string, string>; timeoutMs: number }): Promise<SendResult>;
}

export interface DeliverySettings {
  retryScale: number;
  timeoutMs: number;
  concurrency: number;
  perReceiver: number;
  /** Idle poll interval; wake() shortens it after a commit that queued postbacks. */
  pollMs: number;
  /**
   * How long a claim keeps other instances off a record (default: the timeout plus
   * CLAIM_MARGIN_MS). It must outlast an attempt and its recording; shorter leases are for tests.
   */
  claimLeaseMs?: number;
}

/** A lease beyond the send timeout: time to record the outcome and for the queue to launch. */
export const CLAIM_MARGIN_MS = 30_000;
/** Of a lease, this much is kept for recording the outcome after the send timeout. */
const RECORD_MARGIN_MS = 10_000;

/** How many due records beyond the free slots one claim takes into the queue. */
const QUEUE_READ_AHEAD = 256;
/** The queue holds at most this many times (concurrency + read-ahead) claimed records. */
const QUEUE_DEPTH = 5;
/**
 * Outcomes are recorded together: those that arrive within RECORD_DELAY_MS (or the first
 * RECORD_BATCH of them) go to the store in one tick, so they share one group commit (one fsync)
 * instead of one each; at a few thousand deliveries a second that is most of the event loop's time.
 */
const RECORD_DELAY_MS = 2;
const RECORD_BATCH = 16;
/** Records answered but not yet recorded may add up to this many times `concurrency`. */
const RECORDING_FACTOR = 4;

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  retryScale: 1,
  timeoutMs: 10_000,
  concurrency: 32,
  perReceiver: 4,
  pollMs: 250,
};

/** When to try again after `failedAttempts` failures, or null to give up. */
export function nextAttemptAt(createdAt: Date, now: Date, failedAttempts: number, scale: number): Date | null {
  const delay = (RETRY_DELAYS_MS[failedAttempts - 1] ?? LATER_RETRY_MS) * scale;
  const next = new Date(now.getTime() + delay);
  return next.getTime() - createdAt.getTime() > GIVE_UP_AFTER_MS * scale ? null : next;
}

function receiverOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export class PostbackDelivery {
  private readonly worker: ClaimedQueueWorker<OutboxRecord>;
  /** Outcomes waiting to be recorded together (see RECORD_DELAY_MS). */
  private toRecord: Array<() => void> = [];
  private recordTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store<PostbacksUnit>,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly vault: Vault,
    private readonly sender: PostbackSender,
    private readonly logger: Logger,
    private readonly settings: DeliverySettings,
    instanceName = 'gateway',
  ) {
    const leaseMs = settings.claimLeaseMs ?? settings.timeoutMs + CLAIM_MARGIN_MS;
    const window = leaseMs - settings.timeoutMs - RECORD_MARGIN_MS;
    this.worker = new ClaimedQueueWorker<OutboxRecord>(
      {
        claim: (claim, now, limit) => this.store.runAtomic((tx) => tx.outbox.claimDue(now, claim, limit), { quiet: true }),
        release: (records) =>
          this.store.runAtomic(
            async (tx) => {
              for (const { item, claim } of records) await tx.outbox.release(item.id, claim.claimedBy);
            },
            { quiet: true },
          ),
        attempt: (claimed, answered) => this.attempt(claimed, answered),
        keyOf: (record) => receiverOf(record.url),
        stopping: () => this.recordNow(),
      },
      clock,
      logger,
      {
        instance: `${instanceName}/${ids.newId()}`,
        pollMs: settings.pollMs,
        leaseMs,
        // How long after its claim a record may still be launched (the rest of the lease is the attempt's).
        launchWindowMs: window > 0 ? window : leaseMs / 3,
        concurrency: settings.concurrency,
        perKey: settings.perReceiver,
        inFlight: settings.concurrency * RECORDING_FACTOR,
        readAhead: QUEUE_READ_AHEAD,
        depth: QUEUE_DEPTH,
        // drain() ignores the concurrency limits.
        drainBatch: 100,
        drainConcurrency: Number.POSITIVE_INFINITY,
        log: {
          idField: 'event_id',
          passFailed: 'postback pump failed',
          attemptFailed: 'postback attempt could not be recorded',
          releaseFailed: 'postback claims could not be given back',
        },
      },
    );
  }

  start(): void {
    this.worker.start();
  }

  /** Stops taking new work, waits for attempts in flight to be recorded, and gives back the claims of queued records. */
  async stop(): Promise<void> {
    await this.worker.stop();
  }

  wake(): void {
    this.worker.wake();
  }

  /** Records were put back to pending (resend): their claims were cleared, so the queue is claimed afresh. */
  requeued(): void {
    this.worker.requeued();
  }

  /** Runs every due attempt now and waits for them (tests and the CLI); ignores the concurrency limits. */
  drain(): Promise<void> {
    return this.worker.drain();
  }

  /**
   * One delivery attempt of one claimed record, recorded in one unit of work if the claim still
   * holds; `answered` runs when the receiver is done with it.
   */
  private async attempt({ item: record, claim }: ClaimedItem<OutboxRecord>, answered: () => void): Promise<void> {
    const { claimedBy } = claim;
    const merchant = await this.store.read((r) => r.merchants.get(record.merchantId));
    if (!merchant) throw new Error(`merchant ${record.merchantId} not found`);
    const started = this.clock.now();
    const previousValid =
      merchant.previousWebhookKeySealed && merchant.previousWebhookKeyUntil && merchant.previousWebhookKeyUntil > started.toISOString();
    const attemptNumber = record.attempts + 1;
    const signed = signPostback(
      record.payload,
      { eventId: record.id, sequence: record.sequence, attempt: attemptNumber, timestampSeconds: Math.floor(started.getTime() / 1000) },
      {
        current: this.vault.open(merchant.webhookKeySealed),
        ...(previousValid ? { previous: this.vault.open(merchant.previousWebhookKeySealed as string) } : {}),
      },
    );
    const t0 = performance.now();
    const result = await this.sender.send({
      url: record.url,
      body: signed.rawBody,
      headers: signed.headers,
      timeoutMs: this.settings.timeoutMs,
    });
    answered();
    const durationMs = Math.round(performance.now() - t0);
    const now = this.clock.now();

    const delivered = result.kind === 'response' && result.delivered;
    const refused = result.kind === 'refused';
    const failure = delivered ? null : result.kind === 'response' ? `HTTP ${result.status}` : result.message;
    const next =
      delivered || refused
        ? null
        : nextAttemptAt(
            new Date(record.retryFrom ?? record.createdAt),
            now,
            (record.windowAttempts ?? record.attempts) + 1,
            this.settings.retryScale,
          );
    const state: OutboxRecord['state'] = delivered ? 'delivered' : next ? 'pending' : 'failed';
    const attempt: PostbackAttemptRecord = {
      id: this.ids.newId(),
      outboxId: record.id,
      attempt: attemptNumber,
      httpStatus: result.kind === 'response' ? result.status : null,
      outcome: delivered ? 'delivered' : refused ? 'refused' : 'failed',
      error: failure,
      durationMs,
      createdAt: now.toISOString(),
      requestBody: signed.rawBody,
      requestHeaders: signed.headers,
      nextAttemptAt: next ? next.toISOString() : null,
    };
    const message = delivered
      ? `delivered: HTTP ${(result as { status: number }).status} in ${durationMs} ms (attempt ${attemptNumber})`
      : `${failure} (attempt ${attemptNumber}); ${next ? `next attempt at ${next.toISOString()}` : 'no more attempts'}`;

    const recorded = await this.recordTogether(() =>
      this.store.run(async (tx) => {
        // Only while the claim is ours: a record whose lease ran out may be another instance's now
        // (its attempt is the one recorded), and a resend cleared the claim of one queued again.
        if (
          !(await tx.outbox.settle(record.id, claimedBy, state, (next ?? now).toISOString(), failure, delivered ? now.toISOString() : null))
        )
          return false;
        await tx.outbox.appendAttempt(attempt);
        if (record.subjectType === 'transaction') {
          await tx.events.append({
            id: this.ids.newId(),
            transactionId: record.subjectId,
            type: 'postback',
            status: typeof record.payload.status_code === 'number' ? record.payload.status_code : 0,
            amountMinor: 0,
            executionDate: null,
            message,
            createdAt: now.toISOString(),
          });
        }
        return true;
      }),
    );
    if (!recorded) {
      this.logger.warn(
        { event_id: record.id, attempt: attemptNumber, outcome: attempt.outcome },
        'postback attempt not recorded: its claim ended before the outcome (lease over, or resent)',
      );
      return;
    }
    if (!delivered)
      this.logger.info({ event_id: record.id, attempt: attemptNumber, outcome: attempt.outcome, error: failure }, 'postback not delivered');
  }

  /** Runs `work` (one unit of work) together with the other outcomes of the next few milliseconds. */
  private recordTogether<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.toRecord.push(() => void work().then(resolve, reject));
      if (this.toRecord.length >= RECORD_BATCH) this.recordNow();
      else this.recordTimer ??= setTimeout(() => this.recordNow(), RECORD_DELAY_MS);
    });
  }

  private recordNow(): void {
    if (this.recordTimer) clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    const batch = this.toRecord;
    this.toRecord = [];
    for (const start of batch) start();
  }
}
