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
 *
 * A claimed row is given back (`queueRelease`) or settled by its claimer only while the claim is
 * still theirs; the two e-mail queues settle the same columns (`emailSettle`).
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
  attempts: number;
  sent_at: string | null;
  last_error: string | null;
  test_outbox: number;
}

/** One of the queues' tables, for the builder (see QueueRow). */
const queueOf = (k: QueryBuilder, table: QueueTable) => ({
  q: k as unknown as Kysely<{ queue: QueueRow }>,
  name: table as unknown as 'queue',
});

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
    const { q, name } = queueOf(k, table);
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

/** Gives a claimed row back (due again at once, as it was), if the claim is still `claimedBy`'s. */
export function queueRelease(db: SqlDatabase, table: QueueTable): (id: string, claimedBy: string) => Promise<void> {
  const statement = typed<{ id: string; claimedBy: string }>()(db, (k, p) => {
    const { q, name } = queueOf(k, table);
    return q
      .updateTable(name)
      .set({ claimed_by: null, claim_until: null })
      .where('id', '=', p('id'))
      .where('claimed_by', '=', p('claimedBy'));
  });
  return async (id, claimedBy) => void (await statement.run({ id, claimedBy }));
}

/** What an e-mail's attempt changes (mail's and receipts' e-mails alike). */
export interface EmailSettlement {
  status: string;
  attempts: number;
  nextAttemptAt: string;
  sentAt: string | null;
  lastError: string | null;
  testOutbox: boolean;
}

/** Records an e-mail attempt's outcome and clears the claim, only while `claimedBy` holds it; false when the claim was lost. */
export function emailSettle(
  db: SqlDatabase,
  table: 'emails' | 'receipt_emails',
): (id: string, claimedBy: string, change: EmailSettlement) => Promise<boolean> {
  const statement = typed<Omit<QueueRow, 'state' | 'claimed_by' | 'claim_until'> & { claimedBy: string }>()(db, (k, p) => {
    const { q, name } = queueOf(k, table);
    return q
      .updateTable(name)
      .set({
        status: p('status'),
        attempts: p('attempts'),
        next_attempt_at: p('next_attempt_at'),
        sent_at: p('sent_at'),
        last_error: p('last_error'),
        test_outbox: p('test_outbox'),
        claimed_by: null,
        claim_until: null,
      })
      .where('id', '=', p('id'))
      .where('claimed_by', '=', p('claimedBy'));
  });
  return async (id, claimedBy, change) =>
    (
      await statement.run({
        id,
        claimedBy,
        status: change.status,
        attempts: change.attempts,
        next_attempt_at: change.nextAttemptAt,
        sent_at: change.sentAt,
        last_error: change.lastError,
        test_outbox: change.testOutbox ? 1 : 0,
      })
    ).changes === 1;
}
