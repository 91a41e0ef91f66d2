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
 */
import type { Clock, Ids, Logger, QueueClaim, Vault } from '../kernel.js';
import type { OutboxRecord, PostbackAttemptRecord, PostbacksUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import { WakeableLoop } from '../wakeable-loop.js';
import { ClaimedQueue, type ClaimBatch, type Queued } from './claimed-queue.js';
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
/** A queue whose records all wait for busy receivers claims more after this long. */
const QUEUE_REREAD_MS = 50;
/**
 * Outcomes are recorded together: those that arrive within RECORD_DELAY_MS (or the first
 * RECORD_BATCH of them) go to the store in one tick, so they share one group commit (one fsync)
 * instead of one each; at a few thousand deliveries a second that is most of the event loop's time.
 */
const RECORD_DELAY_MS = 2;
const RECORD_BATCH = 16;
/** Records answered but not yet recorded may add up to this many times `concurrency`. */
const RECORDING_FACTOR = 4;

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = { retryScale: 1, timeoutMs: 10_000, concurrency: 32, perReceiver: 4, pollMs: 250 };

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
  /** Records being sent or recorded by this instance (never launched twice at once here). */
  private readonly inFlight = new Set<string>();
  private readonly perReceiver = new Map<string, number>();
  private readonly loop: WakeableLoop;
  private lastDeepScan = Number.NEGATIVE_INFINITY;
  /** Who claims: this instance's name and a fresh id (`host:pid/id`); each claim batch adds its number. */
  private readonly instance: string;
  private claims = 0;
  private readonly leaseMs: number;
  /** How long after its claim a record may still be launched (the rest of the lease is the attempt's). */
  private readonly launchWindowMs: number;
  /**
   * Due records claimed but not launched yet, in due order per receiver. A pass that frees a slot
   * launches from here instead of claiming (and parsing) the next batch of the outbox for every
   * delivery. Records claimed here are not claimed again (by any instance) until their lease ends,
   * and a record is taken out of the queue when it is launched, or when its launch window has passed.
   */
  private readonly queue = new ClaimedQueue();
  private readAt = Number.NEGATIVE_INFINITY;
  /** HTTP requests waiting for their receiver's answer. */
  private sending = 0;
  /** Outcomes waiting to be recorded together (see RECORD_DELAY_MS). */
  private toRecord: Array<() => void> = [];
  private recordTimer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<void>>();

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
    this.instance = `${instanceName}/${ids.newId()}`;
    this.leaseMs = settings.claimLeaseMs ?? settings.timeoutMs + CLAIM_MARGIN_MS;
    const window = this.leaseMs - settings.timeoutMs - RECORD_MARGIN_MS;
    this.launchWindowMs = window > 0 ? window : this.leaseMs / 3;
    this.loop = new WakeableLoop(
      () => this.pump(),
      (error) => this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'postback pump failed'),
      settings.pollMs,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops taking new work, waits for attempts in flight to be recorded, and gives back the claims of queued records. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.recordNow();
    await Promise.allSettled([...this.running]);
    await this.releaseQueued(this.queue.takeAll()).catch(() => undefined);
  }

  wake(): void {
    this.loop.wake();
  }

  /** Records were put back to pending (resend): their claims were cleared, so the queue is claimed afresh. */
  requeued(): void {
    this.releaseQueued(this.queue.takeAll())
      .catch((error: unknown) => this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'postback claims could not be given back'))
      .finally(() => this.wake());
  }

  /** Claims up to `limit` due records for this instance and queues them; resolves with how many. */
  private async claim(limit: number): Promise<number> {
    this.claims += 1;
    const claimedBy = `${this.instance}/${this.claims}`;
    const now = this.clock.now().getTime();
    const claim: QueueClaim = { claimedBy, claimUntil: new Date(now + this.leaseMs).toISOString() };
    const records = await this.store.runAtomic((tx) => tx.outbox.claimDue(new Date(now).toISOString(), claim, limit), { quiet: true });
    const batch: ClaimBatch = { claimedBy, launchBy: now + this.launchWindowMs, waiting: 0 };
    this.queue.add(batch, records.map((record) => ({ record, receiver: receiverOf(record.url) })));
    return records.length;
  }

  /** Gives back claims of records this instance will not send (their lease would run out, or a stop). */
  private async releaseQueued(entries: readonly Queued[]): Promise<void> {
    if (entries.length === 0) return;
    await this.store.runAtomic(
      async (tx) => {
        for (const entry of entries) await tx.outbox.release(entry.record.id, entry.batch.claimedBy);
      },
      { quiet: true },
    );
  }

  /** Starts every due attempt that fits in the concurrency limits; resolves with the poll interval. */
  private async pump(): Promise<number> {
    await this.dropLapsing();
    this.launchQueued();
    if (this.full()) return this.settings.pollMs;
    // Claim again when the queue is used up, or when everything left in it waits for a busy
    // receiver (then records of other receivers may be due further on, or newly due).
    const sinceRead = performance.now() - this.readAt;
    if (this.queue.size > 0 && sinceRead < QUEUE_REREAD_MS) return Math.min(this.settings.pollMs, QUEUE_REREAD_MS);
    const base = this.settings.concurrency + QUEUE_READ_AHEAD;
    let limit = base;
    for (;;) {
      const room = base * QUEUE_DEPTH - this.queue.size;
      if (room <= 0) break;
      const want = Math.min(limit, room);
      // A record claimed while still in flight here (a resend queued it again) waits for its attempt.
      const claimed = await this.claim(want);
      this.readAt = performance.now();
      this.launchQueued();
      // A full batch with free slots left means records of busy receivers filled it: claim
      // further, so that a backlog for a slow receiver never holds back the others. Such deeper
      // claims run at most once per poll interval.
      if (claimed < want || this.full()) break;
      if (performance.now() - this.lastDeepScan < this.settings.pollMs) break;
      this.lastDeepScan = performance.now();
      limit *= 4;
    }
    return this.queue.size > 0 ? Math.min(this.settings.pollMs, QUEUE_REREAD_MS) : this.settings.pollMs;
  }

  /** Takes queued records whose launch window has passed out of the queue and gives their claims back. */
  private async dropLapsing(): Promise<void> {
    const lapsing = this.queue.takeLapsed(this.clock.now().getTime());
    if (lapsing.length > 0) await this.releaseQueued(lapsing);
  }

  /** No slot for another attempt: enough requests under way, or enough outcomes to record. */
  private full(): boolean {
    return this.sending >= this.settings.concurrency || this.inFlight.size >= this.settings.concurrency * RECORDING_FACTOR;
  }

  /** Launches queued records, in due order, while slots are free; keeps those of busy receivers. */
  private launchQueued(): void {
    if (this.queue.size === 0) return;
    const canTake = (receiver: string) => (this.perReceiver.get(receiver) ?? 0) < this.settings.perReceiver;
    const inFlight = (record: OutboxRecord) => this.inFlight.has(record.id);
    while (!this.full()) {
      const entry = this.queue.take(canTake, inFlight);
      if (!entry) return;
      this.launch(entry);
    }
  }

  private launch(entry: Queued): void {
    const { record, receiver } = entry;
    const { claimedBy } = entry.batch;
    this.inFlight.add(record.id);
    this.sending += 1;
    this.perReceiver.set(receiver, (this.perReceiver.get(receiver) ?? 0) + 1);
    // The receiver's slot is free as soon as it has answered: recording the outcome (a durable
    // commit) needs nothing more from it. The record stays in flight until it is recorded, so it
    // is never sent twice at once.
    let holdsSlot = true;
    const releaseReceiver = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      this.sending -= 1;
      const left = (this.perReceiver.get(receiver) ?? 1) - 1;
      if (left <= 0) this.perReceiver.delete(receiver);
      else this.perReceiver.set(receiver, left);
      this.wake();
    };
    const task = this.attempt(record, claimedBy, releaseReceiver)
      .catch((error: unknown) => {
        this.logger.error({ event_id: record.id, error: error instanceof Error ? error.message : String(error) }, 'postback attempt could not be recorded');
      })
      .finally(() => {
        this.inFlight.delete(record.id);
        releaseReceiver();
        this.running.delete(task);
        this.wake();
      });
    this.running.add(task);
  }

  /**
   * One delivery attempt of one record claimed by `claimedBy`, recorded in one unit of work if the
   * claim still holds; `answered` runs when the receiver is done with it.
   */
  private async attempt(record: OutboxRecord, claimedBy: string, answered: () => void): Promise<void> {
    const merchant = await this.store.read((r) => r.merchants.get(record.merchantId));
    if (!merchant) throw new Error(`merchant ${record.merchantId} not found`);
    const started = this.clock.now();
    const previousValid = merchant.previousWebhookKeySealed && merchant.previousWebhookKeyUntil && merchant.previousWebhookKeyUntil > started.toISOString();
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
    const result = await this.sender.send({ url: record.url, body: signed.rawBody, headers: signed.headers, timeoutMs: this.settings.timeoutMs });
    answered();
    const durationMs = Math.round(performance.now() - t0);
    const now = this.clock.now();

    const delivered = result.kind === 'response' && result.delivered;
    const refused = result.kind === 'refused';
    const failure = delivered ? null : result.kind === 'response' ? `HTTP ${result.status}` : result.message;
    const next = delivered || refused ? null : nextAttemptAt(new Date(record.retryFrom ?? record.createdAt), now, (record.windowAttempts ?? record.attempts) + 1, this.settings.retryScale);
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

    const recorded = await this.recordTogether(() => this.store.run(async (tx) => {
      // Only while the claim is ours: a record whose lease ran out may be another instance's now
      // (its attempt is the one recorded), and a resend cleared the claim of one queued again.
      if (!(await tx.outbox.settle(record.id, claimedBy, state, (next ?? now).toISOString(), failure, delivered ? now.toISOString() : null))) return false;
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
    }));
    if (!recorded) {
      this.logger.warn({ event_id: record.id, attempt: attemptNumber, outcome: attempt.outcome }, 'postback attempt not recorded: its claim ended before the outcome (lease over, or resent)');
      return;
    }
    if (!delivered) this.logger.info({ event_id: record.id, attempt: attemptNumber, outcome: attempt.outcome, error: failure }, 'postback not delivered');
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

  /** Runs every due attempt now and waits for them (tests and the CLI); ignores the concurrency limits. */
  async drain(): Promise<void> {
    for (;;) {
      await this.claim(100);
      const fresh = this.queue.takeAll().filter((entry) => !this.inFlight.has(entry.record.id));
      if (fresh.length === 0 && this.running.size === 0) return;
      for (const entry of fresh) this.launch(entry);
      await Promise.allSettled([...this.running]);
    }
  }
}
