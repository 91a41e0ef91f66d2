// A unit of work the store runs again (PostgreSQL retries one that failed its serialization check)
// must write the operation's idempotency answer and its audit entry again: only a committed attempt counts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { success } from '../../main/core/errors.js';
import { Idempotency } from '../../main/core/idempotency/idempotency.js';
import { Operations } from '../../main/core/idempotency/operation-runner.js';
import type { IdempotencyUnit } from '../../main/core/idempotency/ports.js';
import type { Store } from '../../main/core/unit-of-work.js';

/** A store that runs each unit twice, as after a serialization failure; only the second attempt commits. */
function retryingStore(attempts: string[][]): Store<IdempotencyUnit> {
  const run = async <T>(work: (tx: IdempotencyUnit) => Promise<T>): Promise<T> => {
    let value: T | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const written: string[] = [];
      attempts.push(written);
      const tx = {
        audit: { record: async (record: { action: string }) => void written.push(`audit ${record.action}`) },
        idempotency: { take: async () => (written.push('answer'), true) },
      } as unknown as IdempotencyUnit;
      value = await work(tx);
    }
    return value as T;
  };
  return { run, runAtomic: run, read: run, readEach: run, viewOf: (tx) => tx as IdempotencyUnit, close: async () => undefined };
}

test('a unit run again writes the answer and the audit entry again, so the committed attempt has both', async () => {
  const attempts: string[][] = [];
  const store = retryingStore(attempts);
  const clock = { now: () => new Date('2026-11-27T12:00:00Z') };
  let n = 0;
  const operations = new Operations({
    store,
    idempotency: new Idempotency(store, clock, 60_000),
    ids: { newId: () => `id-${++n}`, randomToken: () => 'x' },
    clock,
  });
  const context = {
    merchantId: 'm1',
    idempotency: { merchantId: 'm1', key: 'k1', fingerprint: 'f' },
    staffId: 's1',
    audit: { action: 'refund', describe: () => ({ subjectId: 't1', detail: null }) },
  };
  const outcome = await operations.perform(context, (operation) => operation.commit(store, async () => success({ refunded: true })));
  assert.deepEqual(outcome, success({ refunded: true }));
  assert.deepEqual(attempts, [
    ['audit refund', 'answer'],
    ['audit refund', 'answer'],
  ]);
});
