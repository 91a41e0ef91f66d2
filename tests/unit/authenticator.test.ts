/**
 * The Basic-auth authenticator on a real store (SQLite in memory): concurrent requests with the same
 * credentials share one scrypt verification (a burst of new connections must not start one slow
 * hash each), each failed request still counts towards the lock-out, a cached credential costs no
 * write, and two authenticators on one database (two instances) share the lock-out and see each
 * other's revocations within RECHECK_MS. Time is a movable clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrate } from '../../db/migrate.js';
import { openDatabase } from '../../db/open.js';
import { SqliteStore } from '../../db/sqlite-store.js';
import { Authenticator, RECHECK_MS } from '../../main/core/merchants/authenticator.js';
import { hashPassword } from '../../main/core/merchants/credentials.js';
import type { Repositories } from '../../db/repositories.js';
import type { Store } from '../../main/core/unit-of-work.js';
import { TestClock } from '../helpers/api.js';

const POLICY = { maxFailures: 5, windowMs: 60_000, lockMs: 60_000 };

/** A store that counts what goes through it: credential lookups by key, reads and writing units. */
function counting(store: Store<Repositories>) {
  const counts = { lookups: 0, reads: 0, writes: 0 };
  const wrap = (repos: Repositories): Repositories => ({
    ...repos,
    credentials: {
      ...repos.credentials,
      findActiveByApiKey: (apiKey: string) => {
        counts.lookups += 1;
        return repos.credentials.findActiveByApiKey(apiKey);
      },
    },
  });
  const counted: Store<Repositories> = {
    run: (work) => ((counts.writes += 1), store.run((tx) => work(wrap(tx)))),
    runAtomic: (work, options) => ((counts.writes += 1), store.runAtomic((tx) => work(wrap(tx)), options)),
    read: (work) => ((counts.reads += 1), store.read((r) => work(wrap(r)))),
    readEach: (work) => ((counts.reads += 1), store.readEach((r) => work(wrap(r)))),
    viewOf: (tx) => store.viewOf(tx),
    close: () => store.close(),
  };
  return { store: counted, counts };
}

async function fixture(policy = POLICY) {
  const db = openDatabase(':memory:');
  migrate(db);
  db.prepare(
    "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m-1', 'Shop', 'EUR', 'x', '2026-01-01T00:00:00.000Z')",
  ).run();
  db.prepare(
    "INSERT INTO credentials (id, merchant_id, kind, api_key, password_hash, created_at, revoked_at) VALUES ('cred-1', 'm-1', 'merchant', 'tg_test_key', ?, '2026-01-01T00:00:00.000Z', NULL)",
  ).run(await hashPassword('right-password'));
  const shared = new SqliteStore(db);
  const clock = new TestClock();
  const instance = () => {
    const { store, counts } = counting(shared);
    return { authenticator: new Authenticator(store, clock, policy), counts };
  };
  return { db, clock, instance, close: () => shared.close() };
}

const code = (result: Awaited<ReturnType<Authenticator['authenticate']>>) => (result.ok ? 'ok' : result.error.error_code);

test('concurrent requests with the same credentials share one verification; cached, they write nothing', async () => {
  const f = await fixture();
  try {
    const { authenticator, counts } = f.instance();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => authenticator.authenticate(`10.0.0.${i}`, 'tg_test_key', 'right-password')),
    );
    assert.ok(results.every((r) => r.ok && r.principal.merchantId === 'm-1'));
    assert.equal(counts.lookups, 1);
    // Cached afterwards: no further lookup, and no write, however many requests come.
    const writes = counts.writes;
    for (let i = 0; i < 50; i += 1) assert.ok((await authenticator.authenticate('10.0.0.99', 'tg_test_key', 'right-password')).ok);
    assert.equal(counts.lookups, 1);
    assert.equal(counts.writes, writes, 'a cache hit writes nothing');
    // It reads again (revocation, lock-out) once RECHECK_MS has passed, and only then.
    const reads = counts.reads;
    for (let i = 0; i < 10; i += 1) await authenticator.authenticate('10.0.0.99', 'tg_test_key', 'right-password');
    assert.equal(counts.reads, reads);
    f.clock.advance(RECHECK_MS);
    for (let i = 0; i < 10; i += 1) await authenticator.authenticate('10.0.0.99', 'tg_test_key', 'right-password');
    assert.equal(counts.reads, reads + 1);
    assert.equal(counts.writes, writes);
  } finally {
    await f.close();
  }
});

test('concurrent wrong passwords are each refused and each counted towards the lock-out', async () => {
  const f = await fixture();
  try {
    const { authenticator, counts } = f.instance();
    const results = await Promise.all(Array.from({ length: 5 }, () => authenticator.authenticate('10.0.0.1', 'tg_test_key', 'wrong')));
    assert.deepEqual(results.map(code), [2001, 2001, 2001, 2001, 2001]);
    assert.equal(counts.lookups, 1, 'one shared verification');
    assert.equal(
      code(await authenticator.authenticate('10.0.0.1', 'tg_test_key', 'right-password')),
      4004,
      'the source is locked out after 5 failures',
    );
    // A failed verification is not cached: the right password from another source succeeds.
    assert.ok((await authenticator.authenticate('10.0.0.2', 'tg_test_key', 'right-password')).ok);
  } finally {
    await f.close();
  }
});

test('a success gives its slot back: after four failures, successes do not count, and the fifth failure locks', async () => {
  const f = await fixture();
  try {
    const { authenticator } = f.instance();
    for (let i = 0; i < 4; i += 1) assert.equal(code(await authenticator.authenticate('10.0.0.3', 'tg_test_key', `wrong-${i}`)), 2001);
    for (let i = 0; i < 3; i += 1) {
      authenticator.forgetCache();
      assert.equal(code(await authenticator.authenticate('10.0.0.3', 'tg_test_key', 'right-password')), 'ok');
    }
    const row = () => ({
      ...(f.db.prepare('SELECT count, locked_until FROM auth_failures WHERE bucket = ?').get('api 10.0.0.3 cred-1') as object),
    });
    assert.deepEqual(row(), { count: 4, locked_until: null });
    assert.equal(code(await authenticator.authenticate('10.0.0.3', 'tg_test_key', 'wrong-4')), 2001);
    authenticator.forgetCache();
    assert.equal(code(await authenticator.authenticate('10.0.0.3', 'tg_test_key', 'right-password')), 4004);
    assert.deepEqual(row(), { count: 5, locked_until: new Date(f.clock.now().getTime() + POLICY.lockMs).toISOString() });
  } finally {
    await f.close();
  }
});

test('two instances on one database: failures add up to one lock-out, and each sees the other lock within RECHECK_MS', async () => {
  const f = await fixture();
  try {
    const a = f.instance().authenticator;
    const b = f.instance().authenticator;
    // B has the right password cached for this source.
    assert.ok((await b.authenticate('10.0.0.4', 'tg_test_key', 'right-password')).ok);
    for (let i = 0; i < 3; i += 1) assert.equal(code(await a.authenticate('10.0.0.4', 'tg_test_key', `a-wrong-${i}`)), 2001);
    for (let i = 0; i < 2; i += 1) assert.equal(code(await b.authenticate('10.0.0.4', 'tg_test_key', `b-wrong-${i}`)), 2001);
    // Three on A and two on B: the fifth locked the bucket on both.
    assert.equal(code(await a.authenticate('10.0.0.4', 'tg_test_key', 'a-wrong-9')), 4004);
    assert.equal(code(await b.authenticate('10.0.0.4', 'tg_test_key', 'b-wrong-9')), 4004);
    // A never verified the right password: it goes to the database, which says locked.
    assert.equal(code(await a.authenticate('10.0.0.4', 'tg_test_key', 'right-password')), 4004);
    // B counted the last failure itself, so its cached credential is refused at once too.
    assert.equal(code(await b.authenticate('10.0.0.4', 'tg_test_key', 'right-password')), 4004);
    const lock = (await a.lockout('api 10.0.0.4 cred-1'))?.retryAfterSeconds;
    assert.equal(lock, POLICY.lockMs / 1000);
  } finally {
    await f.close();
  }
});

test('a lock made by another instance reaches a cached credential within RECHECK_MS', async () => {
  const f = await fixture();
  try {
    const a = f.instance().authenticator;
    const b = f.instance().authenticator;
    assert.ok((await b.authenticate('10.0.0.5', 'tg_test_key', 'right-password')).ok);
    for (let i = 0; i < 5; i += 1) await a.authenticate('10.0.0.5', 'tg_test_key', `wrong-${i}`);
    f.clock.advance(RECHECK_MS);
    assert.equal(code(await b.authenticate('10.0.0.5', 'tg_test_key', 'right-password')), 4004);
  } finally {
    await f.close();
  }
});

test('a credential revoked in the database answers 401 on another instance within RECHECK_MS, at once where it was revoked', async () => {
  const f = await fixture();
  try {
    const a = f.instance().authenticator;
    const b = f.instance().authenticator;
    assert.ok((await a.authenticate('10.0.0.6', 'tg_test_key', 'right-password')).ok);
    assert.ok((await b.authenticate('10.0.0.6', 'tg_test_key', 'right-password')).ok);
    // A revokes (as BackOfficeSettings.revokeCredential does).
    a.forgetCredential('cred-1');
    f.db.prepare("UPDATE credentials SET revoked_at = '2026-01-02T00:00:00.000Z' WHERE id = 'cred-1'").run();
    assert.equal(code(await a.authenticate('10.0.0.6', 'tg_test_key', 'right-password')), 2001);
    f.clock.advance(RECHECK_MS);
    assert.equal(code(await b.authenticate('10.0.0.6', 'tg_test_key', 'right-password')), 2001);
  } finally {
    await f.close();
  }
});

test('the purge deletes buckets whose window and lock are over, and keeps locked and current ones', async () => {
  const f = await fixture({ ...POLICY, lockMs: 2 * POLICY.windowMs });
  try {
    const { authenticator } = f.instance();
    for (let i = 0; i < 5; i += 1) await authenticator.authenticate('10.0.0.7', 'tg_test_key', `wrong-${i}`);
    await authenticator.authenticate('10.0.0.8', 'tg_test_key', 'wrong');
    const buckets = () =>
      (f.db.prepare('SELECT bucket FROM auth_failures ORDER BY bucket').all() as Array<{ bucket: string }>).map((r) => r.bucket);
    f.clock.advance(POLICY.windowMs - 1);
    assert.equal(await authenticator.purgeStale(), 0);
    // Both windows are over; 10.0.0.7 stays locked for another window.
    f.clock.advance(1);
    assert.equal(await authenticator.purgeStale(), 1);
    assert.deepEqual(buckets(), ['api 10.0.0.7 cred-1']);
    assert.equal(code(await authenticator.authenticate('10.0.0.7', 'tg_test_key', 'right-password')), 4004);
    f.clock.advance(POLICY.windowMs);
    assert.equal(await authenticator.purgeStale(), 1);
    assert.deepEqual(buckets(), []);
    assert.ok((await authenticator.authenticate('10.0.0.7', 'tg_test_key', 'right-password')).ok);
  } finally {
    await f.close();
  }
});
