/**
 * One money movement at a time per object (a transaction, an invoice), across every gateway
 * instance on the database: check -> processor call -> guarded update must not interleave for the
 * same object, or two captures of one authorization could both reach the processor.
 *
 * Two layers. Inside this process, waiters for a key queue behind each other in memory (no
 * polling, first come first served). Across processes, the one at the head of the queue takes a
 * lease on the key in the database (`operation_locks`, migration 21): a conditional upsert that
 * succeeds only when no live lease holds the key. It waits for another instance's lease by asking
 * again with a growing pause, and gives up after `waitMs` with OperationBusyError. A lease its
 * holder never gives back (the instance died) lapses after `leaseMs` and is taken over; `leaseMs`
 * is well above the processor's answer time. The guarded updates in the unit of work stay the
 * last word (captured <= authorized, refunded <= captured), whatever happens to a lease.
 */
import { ErrorCode } from '../../contract/codes.js';
import { apiError, failure, type Outcome } from './errors.js';
import type { Clock, Ids, Logger } from './kernel.js';
import type { Store } from './unit-of-work.js';

export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async with<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

export interface OperationLockSettings {
  /** How long a lease holds when its holder never gives it back. */
  leaseMs: number;
  /** How long a request waits for another instance's lease before it is answered "busy". */
  waitMs: number;
}

export const DEFAULT_OPERATION_LOCK_SETTINGS: OperationLockSettings = { leaseMs: 60_000, waitMs: 20_000 };

/** Another instance held the object's lease for longer than the wait. */
export class OperationBusyError extends Error {
  override name = 'OperationBusyError';
  constructor(readonly key: string) {
    super('another operation on this object is under way');
  }
}

const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 200;

export class OperationLocks {
  private readonly local = new KeyedLock();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly logger: Logger,
    private readonly settings: OperationLockSettings = DEFAULT_OPERATION_LOCK_SETTINGS,
  ) {}

  /** Runs `work` holding the key here and in the database; throws OperationBusyError if it never came free. */
  async with<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.local.with(key, async () => {
      const holder = this.ids.newId();
      await this.acquire(key, holder);
      try {
        return await work();
      } finally {
        await this.store
          .runAtomic((tx) => tx.operationLocks.release(key, holder), { quiet: true })
          .catch((error: unknown) => {
            // The lease lapses by itself after leaseMs; until then this key waits.
            this.logger.warn({ key, error: error instanceof Error ? error.message : String(error) }, 'operation lease not released');
          });
      }
    });
  }

  /** `with`, answering 429 (like Stripe's lock_timeout) when the object stayed busy. */
  async outcome<T>(key: string, work: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
    try {
      return await this.with(key, work);
    } catch (error) {
      if (!(error instanceof OperationBusyError)) throw error;
      return failure(apiError(ErrorCode.rateLimited, 'Another request on this object is under way; try again in a moment'));
    }
  }

  private async acquire(key: string, holder: string): Promise<void> {
    const giveUpAt = performance.now() + this.settings.waitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      const now = this.clock.now();
      const until = new Date(now.getTime() + this.settings.leaseMs).toISOString();
      if (await this.store.runAtomic((tx) => tx.operationLocks.acquire(key, holder, now.toISOString(), until), { quiet: true })) return;
      if (performance.now() + pause > giveUpAt) throw new OperationBusyError(key);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
