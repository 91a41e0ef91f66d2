/**
 * The claim of a queue (migration 22), one statement built with Kysely (db/typed-sql.ts) for the
 * three queues: postbacks (postback_outbox), mail (emails) and receipt e-mails (receipt_emails).
 * It takes due rows in due order under no live claim for one claimer. On PostgreSQL the inner
 * SELECT locks the rows it takes and passes over rows another instance is claiming at that moment
 * (FOR UPDATE SKIP LOCKED); run READ COMMITTED (store.claim), a row claimed and committed meanwhile
 * is checked again after its lock and left out. SQLite has one writer and needs no lock.
 *
 * The waiting condition is written into the text (`sql.lit`), never a parameter: the partial index
 * `<table>_claimable` serves the inner SELECT in order only for a condition that implies its own.
 * RETURNING gives the rows in no particular order: `claim` sorts them by due order.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { QueueClaim } from '../main/core/kernel.js';
import type { Database } from './schema.js';
import type { SqlDatabase } from './sql.js';
import { typed, type QueryBuilder, type TypedStatement } from './typed-sql.js';

export type QueueTable = 'postback_outbox' | 'emails' | 'receipt_emails';

/** The column and value of a row waiting in each queue (its partial index's condition). */
const WAITING: Record<QueueTable, { column: 'state' | 'status'; value: string }> = {
  postback_outbox: { column: 'state', value: 'pending' },
  emails: { column: 'status', value: 'queued' },
  receipt_emails: { column: 'status', value: 'queued' },
};

/**
 * Kysely resolves the columns of a named table, not of a type parameter: the claim is built on one
 * table of the columns every queue has (`queue`), named as the real one in the SQL.
 */
interface QueueRow {
  id: string;
  state: string;
  status: string;
  next_attempt_at: string;
  claimed_by: string | null;
  claim_until: string | null;
}

interface ClaimParams {
  now: string;
  limit: number;
  claimedBy: string;
  claimUntil: string;
}

/** The claim statement of `table` on `db`'s engine (its `sql` is what tests explain). */
export function queueClaimStatement(db: SqlDatabase, table: QueueTable): TypedStatement<ClaimParams, QueueRow> {
  const waiting = WAITING[table];
  return typed<ClaimParams>()(db, (k: QueryBuilder, p, dialect) => {
    const q = k as unknown as Kysely<{ queue: QueueRow }>;
    const name = table as unknown as 'queue';
    return q
      .updateTable(name)
      .set({ claimed_by: p('claimedBy'), claim_until: p('claimUntil') })
      .where('id', 'in', (eb) => {
        const due = eb
          .selectFrom(name)
          .select('id')
          .where(waiting.column, '=', sql.lit(waiting.value))
          .where('next_attempt_at', '<=', p('now'))
          .where((w) => w.or([w('claim_until', 'is', null), w('claim_until', '<', p('now'))]))
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(p('limit'));
        return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
      })
      .returningAll();
  });
}

/** Due order of claimed rows (RETURNING has none). */
function byDueOrder(a: QueueRow, b: QueueRow): number {
  if (a.next_attempt_at !== b.next_attempt_at) return a.next_attempt_at < b.next_attempt_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Claims up to `limit` due rows of `table` for `claim`, in due order. */
export function queueClaim<T extends QueueTable>(
  db: SqlDatabase,
  table: T,
): (now: string, claim: QueueClaim, limit: number) => Promise<Selectable<Database[T]>[]> {
  const statement = queueClaimStatement(db, table);
  return async (now, claim, limit) => {
    const rows = await statement.all({ now, limit, claimedBy: claim.claimedBy, claimUntil: claim.claimUntil });
    return rows.sort(byDueOrder) as unknown as Selectable<Database[T]>[];
  };
}
