// The claimed-queue worker (main/core/claimed-queue.ts) on a queue kept in memory: the limits per
// key and overall, the launch window (claims it cannot use in time are given back), a clean stop,
// and drain one attempt at a time. Postbacks, e-mails and receipt prints run it on real stores
// (tests/http/postbacks.test.ts, invoice-emails.test.ts, receipt-printing.test.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClaimedQueueWorker, type ClaimedQueueSettings } from '../../main/core/claimed-queue.js';
import type { QueueClaim } from '../../main/core/kernel.js';
import { TestClock } from '../helpers/api.js';

interface Row {
  id: string;
  nextAttemptAt: string;
  key: string;
  claim?: QueueClaim;
  attempts: number;
}

/** A queue in memory: claims as the stores do, attempts that wait until the test lets them end. */
class MemoryQueue {
  readonly rows: Row[];
  readonly released: string[] = [];
  private readonly gates = new Map<string, () => void>();
  /** Most attempts under way at once, overall and per key. */
  maxOverall = 0;
  readonly maxPerKey = new Map<string, number>();
  private readonly under = new Map<string, number>();
  private overall = 0;
  /** Let every attempt end on the next turn of the event loop (otherwise each waits for finish()). */
  autoFinish = false;

  constructor(
    private readonly clock: TestClock,
    keys: string[],
  ) {
    const due = clock.now().toISOString();
    this.rows = keys.map((key, i) => ({ id: `row-${String(i).padStart(2, '0')}`, nextAttemptAt: due, key, attempts: 0 }));
  }

  async claim(claim: QueueClaim, now: string, limit: number): Promise<Row[]> {
    await Promise.resolve();
    const free = this.rows
      .filter((row) => row.nextAttemptAt <= now && (!row.claim || row.claim.claimUntil < now) && row.attempts === 0)
      .slice(0, limit);
    for (const row of free) row.claim = claim;
    return free.map((row) => ({ ...row }));
  }

  async release(items: ReadonlyArray<{ item: Row; claim: QueueClaim }>): Promise<void> {
    await Promise.resolve();
    for (const { item, claim } of items) {
      const row = this.rows.find((r) => r.id === item.id);
      if (row?.claim?.claimedBy === claim.claimedBy) delete row.claim;
      this.released.push(item.id);
    }
  }

  async attempt(item: Row, claim: QueueClaim): Promise<void> {
    this.overall += 1;
    this.under.set(item.key, (this.under.get(item.key) ?? 0) + 1);
    this.maxOverall = Math.max(this.maxOverall, this.overall);
    this.maxPerKey.set(item.key, Math.max(this.maxPerKey.get(item.key) ?? 0, this.under.get(item.key) ?? 0));
    if (this.autoFinish) await new Promise((resolve) => setImmediate(resolve));
    else await new Promise<void>((resolve) => this.gates.set(item.id, resolve));
    this.overall -= 1;
    this.under.set(item.key, (this.under.get(item.key) ?? 1) - 1);
    const row = this.rows.find((r) => r.id === item.id);
    assert.equal(row?.claim?.claimedBy, claim.claimedBy, `${item.id} is attempted under its own claim`);
    if (row) {
      row.attempts += 1;
      delete row.claim;
    }
  }

  /** Attempts waiting for the test. */
  get waiting(): string[] {
    return [...this.gates.keys()];
  }

  finish(id: string): void {
    const gate = this.gates.get(id);
    this.gates.delete(id);
    gate?.();
  }
}

const SETTINGS: ClaimedQueueSettings = {
  instance: 'test/1',
  pollMs: 20,
  leaseMs: 10_000,
  launchWindowMs: 5_000,
  concurrency: 2,
  perKey: 1,
  inFlight: 2,
  readAhead: 8,
  depth: 1,
  drainBatch: 10,
  drainConcurrency: 1,
  log: { idField: 'row_id', passFailed: 'pass failed', attemptFailed: 'attempt failed', releaseFailed: 'release failed' },
};

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

function worker(queue: MemoryQueue, clock: TestClock, settings: Partial<ClaimedQueueSettings> = {}): ClaimedQueueWorker<Row> {
  return new ClaimedQueueWorker<Row>(
    {
      claim: (c, now, limit) => queue.claim(c, now, limit),
      release: (items) => queue.release(items),
      attempt: ({ item, claim }) => queue.attempt(item, claim),
      keyOf: (row) => row.key,
    },
    clock,
    silent,
    { ...SETTINGS, ...settings },
  );
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the claimed-queue worker', () => {
  test('attempts every due item once, at most `concurrency` at once and `perKey` per key', async () => {
    const clock = new TestClock();
    const queue = new MemoryQueue(clock, ['a', 'a', 'a', 'b', 'b', 'c']);
    const w = worker(queue, clock);
    w.start();
    try {
      for (let done = 0; done < queue.rows.length; done += 1) {
        await until(() => queue.waiting.length > 0, 'an attempt is under way');
        queue.finish(queue.waiting[0] as string);
      }
      await until(() => queue.rows.every((row) => row.attempts === 1), 'every row is attempted');
    } finally {
      await w.stop();
    }
    assert.equal(queue.maxOverall, 2);
    assert.deepEqual(Object.fromEntries(queue.maxPerKey), { a: 1, b: 1, c: 1 });
  });

  test('gives back the claims of items whose launch window passes while they wait, and attempts them under a new claim', async () => {
    const clock = new TestClock();
    const queue = new MemoryQueue(clock, ['a', 'a', 'a']);
    const w = worker(queue, clock, { concurrency: 1 });
    w.start();
    try {
      await until(() => queue.waiting.length === 1, 'the first attempt is under way');
      clock.advance(SETTINGS.launchWindowMs + 1);
      queue.autoFinish = true;
      queue.finish(queue.waiting[0] as string);
      await until(() => queue.rows.every((row) => row.attempts === 1), 'every row is attempted');
    } finally {
      await w.stop();
    }
    assert.deepEqual(queue.released, ['row-01', 'row-02']);
  });

  test('stop waits for the attempts under way and gives back the claims of the items still waiting', async () => {
    const clock = new TestClock();
    const queue = new MemoryQueue(clock, ['a', 'a', 'a']);
    const w = worker(queue, clock);
    w.start();
    await until(() => queue.waiting.length === 1, 'the first attempt is under way');
    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(stopped, false, 'stop waits for the attempt under way');
    queue.finish('row-00');
    await stopping;
    assert.deepEqual(queue.released, ['row-01', 'row-02']);
    assert.deepEqual(
      queue.rows.map((row) => [row.attempts, row.claim]),
      [
        [1, undefined],
        [0, undefined],
        [0, undefined],
      ],
    );
  });

  test('drain attempts what is due, one at a time with drainConcurrency 1, and returns when nothing is', async () => {
    const clock = new TestClock();
    const queue = new MemoryQueue(clock, ['a', 'b', 'c', 'd']);
    queue.autoFinish = true;
    const w = worker(queue, clock);
    await w.drain();
    assert.ok(queue.rows.every((row) => row.attempts === 1));
    assert.equal(queue.maxOverall, 1);
    await w.stop();
  });
});
