/** Leases on an operation's key (main/core/locks.ts): one holder at a time across instances. */
import type { SqlDatabase } from './sql.js';
import type { Repositories } from '../main/core/unit-of-work.js';

export function createOperationLockRepository(db: SqlDatabase): Pick<Repositories, 'operationLocks'> {
  const s = {
    // The lease is taken when the key is free, or when the lease on it lapsed (its holder died).
    lockAcquire: db.prepare(
      `INSERT INTO operation_locks (lock_key, holder, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (lock_key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE operation_locks.expires_at <= ?`,
    ),
    lockRelease: db.prepare('DELETE FROM operation_locks WHERE lock_key = ? AND holder = ?'),
  };
  return {
    operationLocks: {
      acquire: async (key, holder, now, expiresAt) => (await s.lockAcquire.run(key, holder, expiresAt, now)).changes === 1,
      release: async (key, holder) => void (await s.lockRelease.run(key, holder)),
    },
  };
}
