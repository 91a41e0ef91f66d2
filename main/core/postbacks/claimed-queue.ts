/**
 * The postback records one instance has claimed and not launched yet (delivery.ts): one FIFO per
 * receiver host, in due order, so that finding the next record to launch costs one look per
 * receiver instead of one per queued record (a wake follows every answer and every recorded
 * outcome, thousands a second in a backlog). Claim batches are kept in claim order with how many of
 * their records wait, so the records whose launch window ends are found at the front.
 */
import type { OutboxRecord } from './ports.js';

export interface ClaimBatch {
  claimedBy: string;
  /** Clock time (ms) after which its records are no longer launched: too little of the lease would be left. */
  launchBy: number;
  /** Records of the batch still waiting here. */
  waiting: number;
}

export interface Queued {
  record: OutboxRecord;
  receiver: string;
  batch: ClaimBatch;
  waiting: boolean;
}

interface Fifo {
  items: Queued[];
  head: number;
}

/** Earlier in due order (next_attempt_at, id), as the claim returns them. */
function dueBefore(a: OutboxRecord, b: OutboxRecord): boolean {
  return a.nextAttemptAt < b.nextAttemptAt || (a.nextAttemptAt === b.nextAttemptAt && a.id < b.id);
}

export class ClaimedQueue {
  private readonly byReceiver = new Map<string, Fifo>();
  private batches: ClaimBatch[] = [];
  /** Records waiting. */
  size = 0;

  /** Adds a claimed batch (records in due order). */
  add(batch: ClaimBatch, entries: ReadonlyArray<{ record: OutboxRecord; receiver: string }>): void {
    if (entries.length === 0) return;
    this.batches.push(batch);
    for (const { record, receiver } of entries) {
      let fifo = this.byReceiver.get(receiver);
      if (!fifo) {
        fifo = { items: [], head: 0 };
        this.byReceiver.set(receiver, fifo);
      }
      fifo.items.push({ record, receiver, batch, waiting: true });
      batch.waiting += 1;
      this.size += 1;
    }
  }

  /**
   * Takes the first record in due order among the receivers `canTake` allows, whose head is not
   * `blocked` (a record still in flight here); undefined when there is none.
   */
  take(canTake: (receiver: string) => boolean, blocked: (record: OutboxRecord) => boolean): Queued | undefined {
    let best: Fifo | undefined;
    for (const [receiver, fifo] of this.byReceiver) {
      if (!canTake(receiver)) continue;
      const head = fifo.items[fifo.head] as Queued;
      if (blocked(head.record)) continue;
      if (!best || dueBefore(head.record, (best.items[best.head] as Queued).record)) best = fifo;
    }
    if (!best) return undefined;
    const entry = best.items[best.head] as Queued;
    this.remove(entry, best);
    return entry;
  }

  private remove(entry: Queued, fifo: Fifo): void {
    fifo.items[fifo.head] = undefined as unknown as Queued;
    fifo.head += 1;
    if (fifo.head === fifo.items.length) this.byReceiver.delete(entry.receiver);
    else if (fifo.head > 1024 && fifo.head * 2 > fifo.items.length) {
      fifo.items = fifo.items.slice(fifo.head);
      fifo.head = 0;
    }
    entry.waiting = false;
    entry.batch.waiting -= 1;
    this.size -= 1;
    while (this.batches.length > 0 && (this.batches[0] as ClaimBatch).waiting === 0) this.batches.shift();
  }

  /** Takes out every record whose batch's launch window ended before `now`. */
  takeLapsed(now: number): Queued[] {
    const first = this.batches[0];
    if (!first || first.launchBy >= now) return [];
    return this.takeWhere((entry) => entry.batch.launchBy < now);
  }

  /** Takes out every waiting record. */
  takeAll(): Queued[] {
    return this.takeWhere(() => true);
  }

  private takeWhere(match: (entry: Queued) => boolean): Queued[] {
    const taken: Queued[] = [];
    for (const [receiver, fifo] of this.byReceiver) {
      const kept: Queued[] = [];
      for (let i = fifo.head; i < fifo.items.length; i += 1) {
        const entry = fifo.items[i] as Queued;
        if (match(entry)) {
          entry.waiting = false;
          entry.batch.waiting -= 1;
          this.size -= 1;
          taken.push(entry);
        } else kept.push(entry);
      }
      if (kept.length === 0) this.byReceiver.delete(receiver);
      else this.byReceiver.set(receiver, { items: kept, head: 0 });
    }
    this.batches = this.batches.filter((batch) => batch.waiting > 0);
    return taken;
  }
}
