/**
 * The lock-out counters of authentication (migration 23), shared by every instance on the database.
 * Each method is one statement, atomic on its own (the core runs them with `Store.runAtomic`): the
 * same text serves both engines.
 */
import type { SqlDatabase } from '../sql.js';
import type { AuthFailureRecord, AuthFailureRepository } from '../../main/core/merchants/ports.js';
import type { Row } from '../rows.js';

function failureFromRow(r: Row): AuthFailureRecord {
  return {
    bucket: r.bucket as string,
    count: Number(r.count),
    windowStart: r.window_start as string,
    lockedUntil: (r.locked_until as string | null) ?? null,
  };
}

/** The bucket's row starts a new window: its window ran out, or its lock is over (take() only runs on an unlocked row). */
const FRESH = 'auth_failures.window_start <= @windowCutoff OR auth_failures.locked_until IS NOT NULL';
const NEXT_COUNT = `CASE WHEN ${FRESH} THEN 1 ELSE auth_failures.count + 1 END`;

export function createAuthFailureRepository(db: SqlDatabase): AuthFailureRepository {
  const s = {
    take: db.prepare(
      `INSERT INTO auth_failures (bucket, count, window_start, locked_until)
       VALUES (@bucket, 1, @now, CASE WHEN 1 >= @maxFailures THEN @lockUntil ELSE NULL END)
       ON CONFLICT (bucket) DO UPDATE SET
         count = ${NEXT_COUNT},
         window_start = CASE WHEN ${FRESH} THEN @now ELSE auth_failures.window_start END,
         locked_until = CASE WHEN ${NEXT_COUNT} >= @maxFailures THEN @lockUntil ELSE NULL END
       WHERE auth_failures.locked_until IS NULL OR auth_failures.locked_until <= @now
       RETURNING bucket, count, window_start, locked_until`,
    ),
    giveBack: db.prepare(
      `UPDATE auth_failures SET count = count - 1, locked_until = CASE WHEN count - 1 < @maxFailures THEN NULL ELSE locked_until END
       WHERE bucket = @bucket AND window_start = @windowStart AND count > 0
       RETURNING bucket, count, window_start, locked_until`,
    ),
    get: db.prepare('SELECT bucket, count, window_start, locked_until FROM auth_failures WHERE bucket = ?'),
    deleteStale: db.prepare('DELETE FROM auth_failures WHERE window_start <= ? AND (locked_until IS NULL OR locked_until <= ?)'),
  };
  return {
    take: async (bucket, now, windowCutoff, maxFailures, lockUntil) => {
      const row = (await s.take.get({ bucket, now, windowCutoff, maxFailures, lockUntil })) as Row | undefined;
      return row && failureFromRow(row);
    },
    giveBack: async (bucket, windowStart, maxFailures) => {
      const row = (await s.giveBack.get({ bucket, windowStart, maxFailures })) as Row | undefined;
      return row && failureFromRow(row);
    },
    get: async (bucket) => {
      const row = (await s.get.get(bucket)) as Row | undefined;
      return row && failureFromRow(row);
    },
    deleteStale: async (windowCutoff, now) => (await s.deleteStale.run(windowCutoff, now)).changes,
  };
}
