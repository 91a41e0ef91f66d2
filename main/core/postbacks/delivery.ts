/**
 * Postback delivery (interface.md "Postbacks", decisions.md D7): at-least-once from the durable
 * outbox. Each due record is signed and POSTed; 2xx within the timeout is delivered, anything
 * else is retried after 1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h, then every 24 h until 3 days
 * have passed (all scaled by the retry scale), then failed. Every attempt is recorded with its
 * HTTP status, duration, the signed body and headers it sent, the retry it scheduled, and an
 * event-log entry of type `postback`. Concurrency is bounded overall and per
 * receiver, so a slow receiver delays only its own postbacks and never the API.
 */
import type { Clock, Ids, Logger, OutboxRecord, PostbackAttemptRecord, Store, Vault } from '../ports.js';
import { WakeableLoop } from '../wakeable-loop.js';
import { signPostback } from './signing.js';

const MINUTE = 60_000;
export const RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360, 720].map((m) => m * MINUTE);
export const LATER_RETRY_MS = 24 * 60 * MINUTE;
export const GIVE_UP_AFTER_MS = 3 * 24 * 60 * MINUTE;

export type SendResult =
  | { kind: 'response'; status: number }
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
}

/** How many due records beyond the free slots one read takes into the queue. */
const QUEUE_READ_AHEAD = 256;
/** A queue whose records all wait for busy receivers is read again after this long. */
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
  private readonly inFlight = new Set<string>();
  private readonly perReceiver = new Map<string, number>();
  private readonly loop: WakeableLoop;
  private lastDeepScan = Number.NEGATIVE_INFINITY;
  /**
   * Due records read but not launched yet, in due order. A pass that frees a slot launches from
   * here instead of reading (and parsing) the next page of the outbox for every delivery.
   * Only this worker changes pending records' delivery state, and a record is taken out of the
   * queue when it is launched, so a queued record is never sent twice.
   */
  private queue: Array<{ record: OutboxRecord; receiver: string }> = [];
  private readAt = Number.NEGATIVE_INFINITY;
  /** HTTP requests waiting for their receiver's answer. */
  private sending = 0;
  /** Outcomes waiting to be recorded together (see RECORD_DELAY_MS). */
  private toRecord: Array<() => void> = [];
  private recordTimer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<void>>();
  /**
   * Attempts recorded so far, and at which count each record's last one was. A read of the due
   * records that began before an attempt was recorded may still show that record due (its
   * snapshot is older; on PostgreSQL the read is a query that other work overtakes): such a
   * record is not sent again from that read.
   */
  private recorded = 0;
  private readonly recordedAt = new Map<string, number>();
  private readonly openReads = new Set<{ from: number }>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly vault: Vault,
    private readonly sender: PostbackSender,
    private readonly logger: Logger,
    private readonly settings: DeliverySettings,
  ) {
    this.loop = new WakeableLoop(
      () => this.pump(),
      (error) => this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'postback pump failed'),
      settings.pollMs,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops taking new work and waits for attempts in flight to be recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.recordNow();
    await Promise.allSettled([...this.running]);
  }

  wake(): void {
    this.loop.wake();
  }

  /** Records were put back to pending (resend): read the outbox afresh instead of the queue. */
  requeued(): void {
    this.queue = [];
    this.wake();
  }

  /** Starts every due attempt that fits in the concurrency limits; resolves with the poll interval. */
  private async pump(): Promise<number> {
    this.launchQueued();
    if (this.full()) return this.settings.pollMs;
    // Read again when the queue is used up, or when everything left in it waits for a busy
    // receiver (then records of other receivers may be due further on, or newly due).
    const sinceRead = performance.now() - this.readAt;
    if (this.queue.length > 0 && sinceRead < QUEUE_REREAD_MS) return Math.min(this.settings.pollMs, QUEUE_REREAD_MS);
    const now = this.clock.now().toISOString();
    let limit = this.inFlight.size + this.settings.concurrency + QUEUE_READ_AHEAD;
    for (;;) {
      const { due, fresh } = await this.readDue(now, limit);
      this.readAt = performance.now();
      this.queue = fresh.map((record) => ({ record, receiver: receiverOf(record.url) }));
      this.launchQueued();
      // A full page with free slots left means records in flight or of busy receivers filled
      // it: look further, so that a backlog for a slow receiver never holds back the others.
      // Such deeper scans run at most once per poll interval.
      if (due.length < limit || this.full()) break;
      if (performance.now() - this.lastDeepScan < this.settings.pollMs) break;
      this.lastDeepScan = performance.now();
      limit *= 4;
    }
    return this.queue.length > 0 ? Math.min(this.settings.pollMs, QUEUE_REREAD_MS) : this.settings.pollMs;
  }

  /** The due records, and those of them neither in flight nor attempted since the read began. */
  private async readDue(now: string, limit: number): Promise<{ due: OutboxRecord[]; fresh: OutboxRecord[] }> {
    const read = { from: this.recorded };
    this.openReads.add(read);
    try {
      const due = await this.store.read((r) => r.outbox.due(now, limit));
      return { due, fresh: due.filter((record) => !this.inFlight.has(record.id) && (this.recordedAt.get(record.id) ?? -1) < read.from) };
    } finally {
      this.openReads.delete(read);
      let oldest = this.recorded;
      for (const open of this.openReads) oldest = Math.min(oldest, open.from);
      for (const [id, at] of this.recordedAt) if (at < oldest) this.recordedAt.delete(id);
    }
  }

  /** No slot for another attempt: enough requests under way, or enough outcomes to record. */
  private full(): boolean {
    return this.sending >= this.settings.concurrency || this.inFlight.size >= this.settings.concurrency * RECORDING_FACTOR;
  }

  /** Launches queued records, in due order, while slots are free; keeps those of busy receivers. */
  private launchQueued(): void {
    if (this.queue.length === 0) return;
    const kept: typeof this.queue = [];
    for (const entry of this.queue) {
      if (this.inFlight.has(entry.record.id)) continue;
      if (this.full() || (this.perReceiver.get(entry.receiver) ?? 0) >= this.settings.perReceiver) {
        kept.push(entry);
        continue;
      }
      this.launch(entry.record, entry.receiver);
    }
    this.queue = kept;
  }

  private launch(record: OutboxRecord, receiver: string): void {
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
    const task = this.attempt(record, releaseReceiver)
      .catch((error: unknown) => {
        this.logger.error({ event_id: record.id, error: error instanceof Error ? error.message : String(error) }, 'postback attempt could not be recorded');
      })
      .finally(() => {
        this.recordedAt.set(record.id, this.recorded);
        this.recorded += 1;
        this.inFlight.delete(record.id);
        releaseReceiver();
        this.running.delete(task);
        this.wake();
      });
    this.running.add(task);
  }

  /** One delivery attempt of one record, recorded in one unit of work; `answered` runs when the receiver is done with it. */
  async attempt(record: OutboxRecord, answered: () => void = () => undefined): Promise<void> {
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

    const delivered = result.kind === 'response' && result.status >= 200 && result.status < 300;
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

    await this.recordTogether(() => this.store.run(async (tx) => {
      await tx.outbox.appendAttempt(attempt);
      await tx.outbox.settle(record.id, state, (next ?? now).toISOString(), failure, delivered ? now.toISOString() : null);
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
    }));
    if (!delivered) this.logger.info({ event_id: record.id, attempt: attemptNumber, outcome: attempt.outcome, error: failure }, 'postback not delivered');
  }

  /** Runs `work` (one unit of work) together with the other outcomes of the next few milliseconds. */
  private recordTogether(work: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
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

  /** Runs every due attempt now and waits for them (tests and the CLI). */
  async drain(): Promise<void> {
    for (;;) {
      const { fresh } = await this.readDue(this.clock.now().toISOString(), 100);
      if (fresh.length === 0 && this.running.size === 0) return;
      this.queue = [];
      for (const record of fresh) this.launch(record, receiverOf(record.url));
      await Promise.allSettled([...this.running]);
    }
  }
}
