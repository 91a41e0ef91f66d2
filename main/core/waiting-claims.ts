/**
 * The items a claimed-queue worker (claimed-queue.ts) has claimed and not launched yet: one FIFO per
 * key (a postback's receiver host), in due order, so that finding the next item to launch costs one
 * look per key instead of one per waiting item (a wake follows every answer and every settled
 * outcome, thousands a second in a postback backlog). Claim batches are kept in claim order with how
 * many of their items wait, so the items whose launch window ends are found at the front.
 */

/** A queue row as claimed: its id and when it fell due (the claim's order: next_attempt_at, id). */
export interface Claimable {
  readonly id: string;
  readonly nextAttemptAt: string;
}

export interface ClaimBatch {
  claimedBy: string;
  /** ISO 8601: when the batch's lease ends. */
  claimUntil: string;
  /** Clock time (ms) after which its items are no longer launched: too little of the lease would be left. */
  launchBy: number;
  /** Items of the batch still waiting here. */
  waiting: number;
}

export interface Waiting<T extends Claimable> {
  item: T;
  key: string;
  batch: ClaimBatch;
  waiting: boolean;
}

interface Fifo<T extends Claimable> {
  items: Waiting<T>[];
  head: number;
}

/** Earlier in due order (next_attempt_at, id), as the claim returns them. */
function dueBefore(a: Claimable, b: Claimable): boolean {
  return a.nextAttemptAt < b.nextAttemptAt || (a.nextAttemptAt === b.nextAttemptAt && a.id < b.id);
}

export class WaitingClaims<T extends Claimable> {
  private readonly byKey = new Map<string, Fifo<T>>();
  private batches: ClaimBatch[] = [];
  /** Items waiting. */
  size = 0;

  /** Adds a claimed batch (items in due order). */
  add(batch: ClaimBatch, entries: ReadonlyArray<{ item: T; key: string }>): void {
    if (entries.length === 0) return;
    this.batches.push(batch);
    for (const { item, key } of entries) {
      let fifo = this.byKey.get(key);
      if (!fifo) {
        fifo = { items: [], head: 0 };
        this.byKey.set(key, fifo);
      }
      fifo.items.push({ item, key, batch, waiting: true });
      batch.waiting += 1;
      this.size += 1;
    }
  }

  /**
   * Takes the first item in due order among the keys `canTake` allows, whose head is not `blocked`
   * (an item still in flight here); undefined when there is none.
   */
  take(canTake: (key: string) => boolean, blocked: (item: T) => boolean): Waiting<T> | undefined {
    let best: Fifo<T> | undefined;
    for (const [key, fifo] of this.byKey) {
      if (!canTake(key)) continue;
      const head = fifo.items[fifo.head] as Waiting<T>;
      if (blocked(head.item)) continue;
      if (!best || dueBefore(head.item, (best.items[best.head] as Waiting<T>).item)) best = fifo;
    }
    if (!best) return undefined;
    const entry = best.items[best.head] as Waiting<T>;
    this.remove(entry, best);
    return entry;
  }

  private remove(entry: Waiting<T>, fifo: Fifo<T>): void {
    fifo.items[fifo.head] = undefined as unknown as Waiting<T>;
    fifo.head += 1;
    if (fifo.head === fifo.items.length) this.byKey.delete(entry.key);
    else if (fifo.head > 1024 && fifo.head * 2 > fifo.items.length) {
      fifo.items = fifo.items.slice(fifo.head);
      fifo.head = 0;
    }
    entry.waiting = false;
    entry.batch.waiting -= 1;
    this.size -= 1;
    while (this.batches.length > 0 && (this.batches[0] as ClaimBatch).waiting === 0) this.batches.shift();
  }

  /** Takes out every item whose batch's launch window ended before `now`. */
  takeLapsed(now: number): Waiting<T>[] {
    const first = this.batches[0];
    if (!first || first.launchBy >= now) return [];
    return this.takeWhere((entry) => entry.batch.launchBy < now);
  }

  /** Takes out every waiting item. */
  takeAll(): Waiting<T>[] {
    return this.takeWhere(() => true);
  }

  private takeWhere(match: (entry: Waiting<T>) => boolean): Waiting<T>[] {
    const taken: Waiting<T>[] = [];
    for (const [key, fifo] of this.byKey) {
      const kept: Waiting<T>[] = [];
      for (let i = fifo.head; i < fifo.items.length; i += 1) {
        const entry = fifo.items[i] as Waiting<T>;
        if (match(entry)) {
          entry.waiting = false;
          entry.batch.waiting -= 1;
          this.size -= 1;
          taken.push(entry);
        } else kept.push(entry);
      }
      if (kept.length === 0) this.byKey.delete(key);
      else this.byKey.set(key, { items: kept, head: 0 });
    }
    this.batches = this.batches.filter((batch) => batch.waiting > 0);
    return taken;
  }
}
