/**
 * One worker for the gateway's claimed queues: postback delivery (postbacks/delivery.ts), the mail
 * queue (mail/mail-queue.ts) and receipt auto-print (receipts/print-queue.ts). Their rows are written
 * in the unit of work of the change that needs them; this worker claims due rows in batches with a
 * lease (docs/decisions.md "PostgreSQL: outbox and mail queue claims"), launches each claimed item's
 * attempt outside any unit of work within an overall limit and a limit per key, launches an item only
 * within its batch's launch window (so its attempt and settling fit in the lease), and gives back the
 * claims it will not use in time, on a stop and after a requeue. It runs on a WakeableLoop: woken
 * after the commits that queue work, polling otherwise.
 *
 * What is the feature's (ClaimedQueueJob): what it claims and gives back, how an item is attempted
 * (the I/O) and settled (sent, again after its backoff, or failed) while its claim holds, and the key
 * whose attempts are limited together.
 */
import type { Clock, Logger, QueueClaim } from './kernel.js';
import { WakeableLoop } from './wakeable-loop.js';
import { WaitingClaims, type ClaimBatch, type Claimable, type Waiting } from './waiting-claims.js';

export type { Claimable } from './waiting-claims.js';

/** An item and the claim it was taken under. */
export interface ClaimedItem<T extends Claimable> {
  item: T;
  claim: QueueClaim;
}

export interface ClaimedQueueJob<T extends Claimable> {
  /** Claims up to `limit` items due at `now` for `claim`, in one unit of work, in due order. */
  claim(claim: QueueClaim, now: string, limit: number): Promise<readonly T[]>;
  /** Gives back, in one unit of work, the claims of items that are not attempted after all. */
  release(items: ReadonlyArray<ClaimedItem<T>>): Promise<void>;
  /**
   * One attempt of one claimed item: the I/O outside any unit of work, then its outcome settled in a
   * unit of its own while the claim still holds. `answered()` frees the item's slot once the other
   * side is done with it, before the outcome is settled (the worker frees it when the attempt ends,
   * at the latest). A throw is logged; the claim then lapses with its lease.
   */
  attempt(claimed: ClaimedItem<T>, answered: () => void): Promise<void>;
  /** The key whose attempts share `perKey` slots (a postback's receiver); absent: one key for every item. */
  keyOf?(item: T): string;
  /** On stop, after the loop stopped and before the attempts in flight are waited for. */
  stopping?(): void;
}

export interface ClaimedQueueSettings {
  /** Who claims: this instance (`host:pid/id`); each claim batch adds its number. */
  instance: string;
  /** Idle poll interval (and the delay after a failed pass); a wake shortens it. */
  pollMs: number;
  /** How long a claim keeps other instances off an item. */
  leaseMs: number;
  /** How long after its claim an item may still be launched; the rest of the lease is its attempt's. */
  launchWindowMs: number;
  /** Attempts under way at once (until answered). */
  concurrency: number;
  /** Attempts under way at once per key. */
  perKey: number;
  /** Attempts launched and not yet settled, at most. */
  inFlight: number;
  /** How many items beyond the free slots one claim takes. */
  readAhead: number;
  /** Items waiting here, at most this many times (concurrency + readAhead). */
  depth: number;
  /** drain(): items claimed at once, and attempts under way at once (Infinity: all of a batch). */
  drainBatch: number;
  drainConcurrency: number;
  /** Log lines: the field that names an item, a failed pass, a failed attempt, claims not given back after a requeue. */
  log: { idField: string; passFailed: string; attemptFailed: string; releaseFailed: string };
}

/** A queue whose waiting items all wait for busy keys claims more after this long. */
const REREAD_MS = 50;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class ClaimedQueueWorker<T extends Claimable> {
  private readonly loop: WakeableLoop;
  /**
   * Items claimed and not launched yet. A pass that frees a slot launches from here instead of
   * claiming (and reading) the next batch for every attempt. Items claimed here are not claimed again
   * (by any instance) until their lease ends; an item leaves when it is launched, or given back when
   * its launch window has passed.
   */
  private readonly waiting = new WaitingClaims<T>();
  /** Items being attempted or settled here (never launched twice at once here). */
  private readonly inFlight = new Set<string>();
  private readonly perKey = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  /** Attempts not answered yet. */
  private sending = 0;
  private claims = 0;
  private readAt = Number.NEGATIVE_INFINITY;
  private lastDeepScan = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly job: ClaimedQueueJob<T>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: ClaimedQueueSettings,
  ) {
    this.loop = new WakeableLoop(
      () => this.pass(),
      (error) => this.logger.error({ error: messageOf(error) }, settings.log.passFailed),
      settings.pollMs,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due items soon (after a commit that queued some, or an attempt that ended). */
  wake(): void {
    this.loop.wake();
  }

  /** Stops taking new work, waits for the attempts in flight, and gives back the claims of waiting items. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.job.stopping?.();
    await Promise.allSettled([...this.running]);
    await this.release(this.waiting.takeAll()).catch(() => undefined);
  }

  /** Items were put back to be attempted afresh (a resend cleared their claims): what waits here is given back. */
  requeued(): void {
    this.release(this.waiting.takeAll())
      .catch((error: unknown) => this.logger.error({ error: messageOf(error) }, this.settings.log.releaseFailed))
      .finally(() => this.wake());
  }

  /**
   * Attempts every due item now and waits for them (tests and the CLI), up to `drainConcurrency` at
   * once and beside no pass of the loop; items that fall due later stay queued.
   */
  drain(): Promise<void> {
    return this.loop.exclusive(async () => {
      for (;;) {
        await this.claim(this.settings.drainBatch);
        const fresh = this.waiting.takeAll().filter((entry) => !this.inFlight.has(entry.item.id));
        if (fresh.length === 0 && this.running.size === 0) return;
        for (const entry of fresh) {
          while (this.running.size >= this.settings.drainConcurrency) await Promise.race(this.running);
          if (entry.batch.launchBy < this.clock.now().getTime()) await this.release([entry]);
          else this.launch(entry);
        }
        await Promise.allSettled([...this.running]);
      }
    });
  }

  /** Claims up to `limit` due items for this instance and queues them; resolves with how many. */
  private async claim(limit: number): Promise<number> {
    this.claims += 1;
    const now = this.clock.now().getTime();
    const claim: QueueClaim = {
      claimedBy: `${this.settings.instance}/${this.claims}`,
      claimUntil: new Date(now + this.settings.leaseMs).toISOString(),
    };
    const items = await this.job.claim(claim, new Date(now).toISOString(), limit);
    const batch: ClaimBatch = { ...claim, launchBy: now + this.settings.launchWindowMs, waiting: 0 };
    const keyOf = this.job.keyOf;
    this.waiting.add(
      batch,
      items.map((item) => ({ item, key: keyOf ? keyOf(item) : '' })),
    );
    return items.length;
  }

  /** Gives back the claims of waiting items this instance will not attempt (their lease would run out, a stop, a requeue). */
  private async release(entries: readonly Waiting<T>[]): Promise<void> {
    if (entries.length === 0) return;
    await this.job.release(
      entries.map(({ item, batch }) => ({ item, claim: { claimedBy: batch.claimedBy, claimUntil: batch.claimUntil } })),
    );
  }

  /** Launches every waiting item that fits in the limits, claiming more as needed; resolves with the time to sleep. */
  private async pass(): Promise<number> {
    await this.dropLapsing();
    this.launchWaiting();
    const { pollMs, concurrency, readAhead, depth } = this.settings;
    if (this.full()) return pollMs;
    // Claim again when nothing waits, or when everything waiting is for a busy key (then items of
    // other keys may be due further on, or newly due).
    if (this.waiting.size > 0 && performance.now() - this.readAt < REREAD_MS) return Math.min(pollMs, REREAD_MS);
    const base = concurrency + readAhead;
    let limit = base;
    for (;;) {
      const room = base * depth - this.waiting.size;
      if (room <= 0) break;
      const want = Math.min(limit, room);
      // An item claimed while still in flight here (requeued meanwhile) waits for its attempt.
      const claimed = await this.claim(want);
      this.readAt = performance.now();
      this.launchWaiting();
      // A full batch with free slots left means items of busy keys filled it: claim further, so
      // that a backlog for one slow key never holds back the others. Such deeper claims run at
      // most once per poll interval.
      if (claimed < want || this.full()) break;
      if (performance.now() - this.lastDeepScan < pollMs) break;
      this.lastDeepScan = performance.now();
      limit *= 4;
    }
    return this.waiting.size > 0 ? Math.min(pollMs, REREAD_MS) : pollMs;
  }

  /** Takes the items whose launch window has passed out of the queue and gives their claims back. */
  private async dropLapsing(): Promise<void> {
    const lapsing = this.waiting.takeLapsed(this.clock.now().getTime());
    if (lapsing.length > 0) await this.release(lapsing);
  }

  /** No slot for another attempt: enough attempts under way, or enough to settle. */
  private full(): boolean {
    return this.sending >= this.settings.concurrency || this.inFlight.size >= this.settings.inFlight;
  }

  /** Launches waiting items, in due order, while slots are free; keeps those of busy keys. */
  private launchWaiting(): void {
    if (this.waiting.size === 0) return;
    const canTake = (key: string) => (this.perKey.get(key) ?? 0) < this.settings.perKey;
    const inFlight = (item: T) => this.inFlight.has(item.id);
    while (!this.full()) {
      const entry = this.waiting.take(canTake, inFlight);
      if (!entry) return;
      this.launch(entry);
    }
  }

  private launch(entry: Waiting<T>): void {
    const { item, key, batch } = entry;
    this.inFlight.add(item.id);
    this.sending += 1;
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
    // The key's slot is free as soon as the other side has answered: settling the outcome (a
    // durable commit) needs nothing more from it. The item stays in flight until it is settled,
    // so it is never attempted twice at once.
    let holdsSlot = true;
    const answered = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      this.sending -= 1;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left <= 0) this.perKey.delete(key);
      else this.perKey.set(key, left);
      this.wake();
    };
    const task = this.job
      .attempt({ item, claim: { claimedBy: batch.claimedBy, claimUntil: batch.claimUntil } }, answered)
      .catch((error: unknown) => {
        this.logger.error({ [this.settings.log.idField]: item.id, error: messageOf(error) }, this.settings.log.attemptFailed);
      })
      .finally(() => {
        this.inFlight.delete(item.id);
        answered();
        this.running.delete(task);
        this.wake();
      });
    this.running.add(task);
  }
}
