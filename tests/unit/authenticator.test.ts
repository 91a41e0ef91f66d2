/**
 * The Basic-auth authenticator: concurrent requests with the same credentials share one scrypt
 * verification (a burst of new connections must not start one slow hash each), and each failed
 * request still counts towards the lock-out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Authenticator } from '../../main/core/merchants/authenticator.js';
import { hashPassword } from '../../main/core/merchants/credentials.js';
import type { CredentialRecord, Repositories, Store } from '../../main/core/ports.js';

async function fixture() {
  const passwordHash = await hashPassword('right-password');
  const credential = { id: 'cred-1', merchantId: 'm-1', kind: 'merchant', apiKey: 'tg_test_key', passwordHash } as unknown as CredentialRecord;
  let lookups = 0;
  const repositories = {
    credentials: {
      findActiveByApiKey: async (apiKey: string) => {
        lookups += 1;
        return apiKey === 'tg_test_key' ? credential : undefined;
      },
    },
  } as unknown as Repositories;
  const store: Store = {
    run: () => Promise.reject(new Error('not used')),
    claim: () => Promise.reject(new Error('not used')),
    read: (work) => work(repositories),
    close: async () => undefined,
  };
  const authenticator = new Authenticator(store, { now: () => new Date() }, { maxFailures: 5, windowMs: 60_000, lockMs: 60_000 });
  return { authenticator, lookups: () => lookups };
}

test('concurrent requests with the same credentials share one verification', async () => {
  const { authenticator, lookups } = await fixture();
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => authenticator.authenticate(`10.0.0.${i}`, 'tg_test_key', 'right-password')));
  assert.ok(results.every((r) => r.ok && r.principal.merchantId === 'm-1'));
  assert.equal(lookups(), 1);
  // Cached afterwards: no further lookup.
  const again = await authenticator.authenticate('10.0.0.99', 'tg_test_key', 'right-password');
  assert.ok(again.ok);
  assert.equal(lookups(), 1);
});

test('concurrent wrong passwords are each refused and each counted towards the lock-out', async () => {
  const { authenticator, lookups } = await fixture();
  const results = await Promise.all(Array.from({ length: 5 }, () => authenticator.authenticate('10.0.0.1', 'tg_test_key', 'wrong')));
  assert.deepEqual(results.map((r) => (r.ok ? 'ok' : r.error.error_code)), [2001, 2001, 2001, 2001, 2001]);
  assert.equal(lookups(), 1, 'one shared verification');
  const locked = await authenticator.authenticate('10.0.0.1', 'tg_test_key', 'right-password');
  assert.equal(locked.ok ? 'ok' : locked.error.error_code, 4004, 'the source is locked out after 5 failures');
  // A failed verification is not cached: the right password from another source succeeds.
  const other = await authenticator.authenticate('10.0.0.2', 'tg_test_key', 'right-password');
  assert.ok(other.ok);
});
