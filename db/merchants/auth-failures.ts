/**
 * The lock-out counters of authentication (migration 23), shared by every instance on the database.
 * Each method is one statement, atomic on its own (the core runs them with `Store.runAtomic`).
 * Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts; the numbers written in
 * the SQL are literals (`sql.lit`), so PostgreSQL types each comparison from its column or literal.
 */
import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, type Placeholders } from '../typed-sql.js';
import type { AuthFailureRecord, AuthFailureRepository } from '../../main/core/merchants/ports.js';

type Row = Pick<Selectable<Database['auth_failures']>, 'bucket' | 'count' | 'window_start' | 'locked_until'>;

function failureFromRow(r: Row): AuthFailureRecord {
  return {
    bucket: r.bucket,
    count: Number(r.count),
    windowStart: r.window_start,
    lockedUntil: r.locked_until,
  };
}

const COLUMNS = ['bucket', 'count', 'window_start', 'locked_until'] as const;

interface TakeParams {
  bucket: string;
  now: string;
  windowCutoff: string;
  maxFailures: number;
  lockUntil: string;
}

type Eb = ExpressionBuilder<Database, 'auth_failures'>;

/** The bucket's row starts a new window: its window ran out, or its lock is over (take() only runs on an unlocked row). */
const fresh = (eb: Eb, p: Placeholders<TakeParams>) =>
  eb.or([eb('auth_failures.window_start', '<=', p('windowCutoff')), eb('auth_failures.locked_until', 'is not', null)]);

/** The row's count after this attempt: 1 in a new window, one more in the current one. */
const nextCount = (eb: Eb, p: Placeholders<TakeParams>) =>
  eb
    .case()
    .when(fresh(eb, p))
    .then(sql.lit(1))
    .else(eb('auth_failures.count', '+', sql.lit(1)))
    .end();

export function createAuthFailureRepository(db: SqlDatabase): AuthFailureRepository {
  const s = {
    take: typed<TakeParams>()(db, (k, p) =>
      k
        .insertInto('auth_failures')
        .values((eb) => ({
          bucket: p('bucket'),
          count: sql.lit(1),
          window_start: p('now'),
          locked_until: eb.case().when(sql.lit(1), '>=', p('maxFailures')).then(p('lockUntil')).else(null).end(),
        }))
        .onConflict((oc) =>
          oc
            .column('bucket')
            .doUpdateSet((eb) => ({
              count: nextCount(eb, p),
              window_start: eb.case().when(fresh(eb, p)).then(p('now')).else(eb.ref('auth_failures.window_start')).end(),
              locked_until: eb.case().when(nextCount(eb, p), '>=', p('maxFailures')).then(p('lockUntil')).else(null).end(),
            }))
            .where((eb) => eb.or([eb('auth_failures.locked_until', 'is', null), eb('auth_failures.locked_until', '<=', p('now'))])),
        )
        .returning(COLUMNS),
    ),
    giveBack: typed<{ bucket: string; windowStart: string; maxFailures: number }>()(db, (k, p) =>
      k
        .updateTable('auth_failures')
        .set((eb) => ({
          count: eb('count', '-', sql.lit(1)),
          locked_until: eb
            .case()
            .when(eb('count', '-', sql.lit(1)), '<', p('maxFailures'))
            .then(null)
            .else(eb.ref('locked_until'))
            .end(),
        }))
        .where('bucket', '=', p('bucket'))
        .where('window_start', '=', p('windowStart'))
        .where('count', '>', sql.lit(0))
        .returning(COLUMNS),
    ),
    get: typed<{ bucket: string }>()(db, (k, p) => k.selectFrom('auth_failures').select(COLUMNS).where('bucket', '=', p('bucket'))),
    deleteStale: typed<{ windowCutoff: string; now: string }>()(db, (k, p) =>
      k
        .deleteFrom('auth_failures')
        .where('window_start', '<=', p('windowCutoff'))
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', p('now'))])),
    ),
  };
  return {
    take: async (bucket, now, windowCutoff, maxFailures, lockUntil) => {
      const row = await s.take.get({ bucket, now, windowCutoff, maxFailures, lockUntil });
      return row && failureFromRow(row);
    },
    giveBack: async (bucket, windowStart, maxFailures) => {
      const row = await s.giveBack.get({ bucket, windowStart, maxFailures });
      return row && failureFromRow(row);
    },
    get: async (bucket) => {
      const row = await s.get.get({ bucket });
      return row && failureFromRow(row);
    },
    deleteStale: async (windowCutoff, now) => (await s.deleteStale.run({ windowCutoff, now })).changes,
  };
}
