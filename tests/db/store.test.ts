import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { migrate } from '../../db/migrate.js';
import { openDatabase } from '../../db/open.js';
import { SqliteStore, storageError, UnitOfWorkMisuseError } from '../../db/sqlite-store.js';
import type { MerchantRecord } from '../../main/core/merchants/ports.js';
import { StorageUnavailableError } from '../../main/core/kernel.js';
import { tempDataDir } from '../helpers/gateway-process.js';

function merchant(id: string): MerchantRecord {
  return {
    id,
    name: `Shop ${id}`,
    currency: 'EUR',
    webhookKeySealed: 'sealed',
    previousWebhookKeySealed: null,
    previousWebhookKeyUntil: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

interface Fixture {
  file: string;
  store: SqliteStore;
  /** A second, independent connection to the same file. */
  other: Database.Database;
  idsSeenByOther(): string[];
  close(): Promise<void>;
}

function openFixture(): Fixture {
  const file = join(tempDataDir('tillgate-store-'), 'gateway.sqlite');
  const db = openDatabase(file);
  migrate(db);
  const store = new SqliteStore(db);
  const other = new Database(file, { readonly: true });
  const list = other.prepare('SELECT id FROM merchants ORDER BY id');
  return {
    file,
    store,
    other,
    idsSeenByOther: () => (list.all() as Array<{ id: string }>).map((r) => r.id),
    async close() {
      other.close();
      await store.close();
    },
  };
}

describe('SqliteStore group commit', () => {
  let f: Fixture;
  before(() => {
    f = openFixture();
  });
  after(async () => {
    await f.close();
  });

  test('units issued in one tick share one transaction, commit together and resolve after COMMIT', async () => {
    const ids = ['a1', 'a2', 'a3'];
    const insideSeenByOther: string[][] = [];
    const insideSeenByUnit: string[][] = [];
    const units = ids.map((id) =>
      f.store.run(async (tx) => {
        await tx.merchants.insert(merchant(id));
        insideSeenByUnit.push((await tx.merchants.list()).map((m) => m.id));
        insideSeenByOther.push(f.idsSeenByOther());
        return id;
      }),
    );
    // What another connection sees at the moment each promise resolves.
    const resolved = await Promise.all(units.map(async (unit) => ({ value: await unit, seen: f.idsSeenByOther() })));

    assert.deepEqual(
      resolved.map((r) => r.value),
      ids,
    );
    // One transaction: each unit sees the rows of the units before it in its batch...
    assert.deepEqual(insideSeenByUnit, [['a1'], ['a1', 'a2'], ['a1', 'a2', 'a3']]);
    // ...while nothing is visible outside until the batch commits.
    assert.deepEqual(insideSeenByOther, [[], [], []]);
    // No promise resolves before its rows are committed (durable, visible to any connection).
    for (const r of resolved) assert.deepEqual(r.seen, ids);
  });

  test('a unit that throws is rolled back alone and only its caller sees the error', async () => {
    const boom = new Error('boom');
    const results = await Promise.allSettled([
      f.store.run(async (tx) => {
        await tx.merchants.insert(merchant('b1'));
        return 'first';
      }),
      f.store.run(async (tx) => {
        await tx.merchants.insert(merchant('b2'));
        throw boom;
      }),
      f.store.run(async (tx) => {
        await tx.merchants.insert(merchant('b3'));
        // A constraint violation half-way: the unit's first insert must go too.
        await tx.merchants.insert(merchant('b1'));
        return 'never';
      }),
      f.store.run(async (tx) => {
        await tx.merchants.insert(merchant('b4'));
        return 'last';
      }),
    ]);

    assert.deepEqual(results[0], { status: 'fulfilled', value: 'first' });
    assert.deepEqual(results[1], { status: 'rejected', reason: boom });
    assert.equal(results[2]?.status, 'rejected');
    assert.match(String((results[2] as PromiseRejectedResult).reason), /UNIQUE constraint failed: merchants\.id/);
    assert.deepEqual(results[3], { status: 'fulfilled', value: 'last' });

    const seen = f.idsSeenByOther().filter((id) => id.startsWith('b'));
    assert.deepEqual(seen, ['b1', 'b4']);
    assert.equal(f.store.db.inTransaction, false);
  });

  test('units of later ticks form new batches and still commit', async () => {
    const first = await f.store.run(async (tx) => {
      await tx.merchants.insert(merchant('c1'));
      return 1;
    });
    const second = await f.store.run(async (tx) => {
      await tx.merchants.insert(merchant('c2'));
      return 2;
    });
    assert.equal(first + second, 3);
    assert.deepEqual(
      f.idsSeenByOther().filter((id) => id.startsWith('c')),
      ['c1', 'c2'],
    );
  });

  test('a nested run (or read) inside a unit rejects with UnitOfWorkMisuseError and never runs', async () => {
    let nestedRan = false;
    const outcome = await f.store.run(async (tx) => {
      await tx.merchants.insert(merchant('d1'));
      const nested = f.store.run(async (inner) => {
        nestedRan = true;
        await inner.merchants.insert(merchant('d2'));
      });
      await assert.rejects(nested, UnitOfWorkMisuseError);
      await assert.rejects(
        f.store.read(async (r) => r.merchants.list()),
        UnitOfWorkMisuseError,
      );
      return 'outer done';
    });
    assert.equal(outcome, 'outer done');
    assert.equal(nestedRan, false);
    assert.deepEqual(
      f.idsSeenByOther().filter((id) => id.startsWith('d')),
      ['d1'],
    );
  });

  test('an uncaught nested run rolls back the outer unit', async () => {
    await assert.rejects(
      f.store.run(async (tx) => {
        await tx.merchants.insert(merchant('e1'));
        await f.store.run(async () => undefined);
      }),
      UnitOfWorkMisuseError,
    );
    assert.deepEqual(
      f.idsSeenByOther().filter((id) => id.startsWith('e')),
      [],
    );
  });

  test('a unit that awaits I/O is rolled back and rejected, though nothing collided with it; the rest of its batch commits', async () => {
    const [waited, plain] = await Promise.allSettled([
      f.store.run(async (tx) => {
        await tx.merchants.insert(merchant('g1'));
        await readFile(f.file, { encoding: null, flag: 'r' }).then(() => undefined);
        await tx.merchants.insert(merchant('g2'));
      }),
      f.store.run(async (tx) => tx.merchants.insert(merchant('g3'))),
    ]);
    assert.equal(waited.status, 'rejected');
    assert.ok((waited as PromiseRejectedResult).reason instanceof UnitOfWorkMisuseError, String((waited as PromiseRejectedResult).reason));
    assert.match(((waited as PromiseRejectedResult).reason as Error).message, /awaited I\/O/);
    assert.equal(plain.status, 'fulfilled');
    assert.deepEqual(
      f.idsSeenByOther().filter((id) => id.startsWith('g')),
      ['g3'],
    );
    // Promises that resolve at once (the repositories' own) are not I/O.
    await f.store.run(async (tx) => {
      await Promise.resolve();
      await tx.merchants.insert(merchant('g4'));
    });
    assert.ok(f.idsSeenByOther().includes('g4'));
  });

  test('read() sees committed rows', async () => {
    const found = await f.store.read(async (r) => r.merchants.get('a1'));
    assert.equal(found?.name, 'Shop a1');
  });
});

describe('SqliteStore commit listeners', () => {
  test("a queue's listener runs after a commit that wrote to that queue, not after other commits or a quiet unit's", async () => {
    const f = openFixture();
    try {
      const woken: string[] = [];
      f.store.onCommit(() => woken.push('postbacks'), 'postbacks');
      f.store.onCommit(() => woken.push('mail'), 'mail');
      f.store.onCommit(() => woken.push('any'));
      await f.store.run((tx) => tx.merchants.insert(merchant('m-wake')));
      assert.deepEqual(woken, ['any'], 'a commit that queued nothing wakes no queue worker');
      const outbox = (id: string) => ({
        id,
        merchantId: 'm-wake',
        subjectType: 'transaction',
        subjectId: `t-${id}`,
        orderId: null,
        url: 'http://127.0.0.1:9/postbacks',
        payload: {},
        state: 'pending' as const,
        attempts: 0,
        nextAttemptAt: '2026-01-01T00:00:00.000Z',
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      woken.length = 0;
      await f.store.run((tx) => tx.outbox.append(outbox('o-1')));
      assert.deepEqual(woken.sort(), ['any', 'postbacks'], 'a postback queued wakes the postback worker, not the mail worker');
      woken.length = 0;
      await f.store.runAtomic((tx) => tx.outbox.release('o-1', 'nobody'), { quiet: true });
      assert.deepEqual(woken, [], 'a quiet unit (a worker giving its claims back) wakes nobody');
    } finally {
      await f.close();
    }
  });
});

test('openDatabase: WAL, synchronous=FULL, foreign keys on, statement journals in memory', () => {
  const file = join(tempDataDir('tillgate-open-'), 'gateway.sqlite');
  const db = openDatabase(file);
  try {
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('synchronous', { simple: true }), 2, 'FULL: every commit fsyncs the WAL');
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(db.pragma('temp_store', { simple: true }), 2, 'MEMORY: savepoint journals never spill to a file');
  } finally {
    db.close();
  }
});

describe('SqliteStore.close', () => {
  test('waits for queued units to commit, then closes; later units are refused', async () => {
    const f = openFixture();
    const units = ['z1', 'z2', 'z3'].map((id) =>
      f.store.run(async (tx) => {
        await tx.merchants.insert(merchant(id));
        return id;
      }),
    );
    await f.store.close();
    assert.equal(f.store.db.open, false);
    assert.deepEqual(await Promise.all(units), ['z1', 'z2', 'z3']);
    // Durable: a fresh connection after close sees every unit that was queued before close.
    const reopened = new Database(f.file, { readonly: true });
    try {
      const ids = (reopened.prepare('SELECT id FROM merchants ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
      assert.deepEqual(ids, ['z1', 'z2', 'z3']);
    } finally {
      reopened.close();
    }
    await assert.rejects(
      f.store.run(async () => 1),
      /closed/,
    );
    f.other.close();
    await f.store.close(); // idempotent
  });
});

describe('storage that cannot be written', () => {
  test('a read-only database: the unit fails with StorageUnavailableError (read_only), nothing half-written, reads go on', async () => {
    const file = join(tempDataDir('tillgate-store-'), 'gateway.sqlite');
    const setup = openDatabase(file);
    migrate(setup);
    setup.close();
    const store = new SqliteStore(openDatabase(file, { readonly: true }));
    try {
      await assert.rejects(
        store.run((tx) => tx.merchants.insert(merchant('m-ro'))),
        (error: unknown) => error instanceof StorageUnavailableError && error.reason === 'read_only' && /read-only/.test(error.message),
      );
      assert.equal(await store.read((r) => r.merchants.get('m-ro')), undefined);
    } finally {
      await store.close();
    }
  });

  test('SQLite codes map to the reasons the gateway answers with', () => {
    const reasonOf = (code: string) => {
      const mapped = storageError(Object.assign(new Error(code), { code }));
      return mapped instanceof StorageUnavailableError ? mapped.reason : 'passed through';
    };
    assert.equal(reasonOf('SQLITE_FULL'), 'full');
    assert.equal(reasonOf('SQLITE_READONLY_DBMOVED'), 'read_only');
    assert.equal(reasonOf('SQLITE_IOERR_WRITE'), 'io');
    assert.equal(reasonOf('SQLITE_CONSTRAINT_UNIQUE'), 'passed through');
  });
});

test("viewOf hands on only a unit of work the store built (a listener sees the payment's unit through its own view)", async () => {
  const db = openDatabase(':memory:');
  migrate(db);
  const store = new SqliteStore(db);
  try {
    const same = await store.run(async (tx) => store.viewOf(tx) === tx);
    assert.equal(same, true);
    const forged = { audit: { record: async () => undefined } } as unknown as Parameters<SqliteStore['viewOf']>[0];
    assert.throws(() => store.viewOf(forged), /not a unit of work of this gateway/);
  } finally {
    await store.close();
  }
});
