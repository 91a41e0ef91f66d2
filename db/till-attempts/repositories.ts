/** The tills' open card attempts (migration 0012). Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts. */
import type { Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, rowPlaces } from '../typed-sql.js';
import type { TillAttemptRecord, TillAttemptRepository } from '../../main/core/till-attempts/ports.js';

function attemptFromRow(r: Selectable<Database['till_attempts']>): TillAttemptRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    tillId: r.terminal_id,
    staffId: r.staff_id ?? null,
    orderId: r.order_id,
    idempotencyKey: r.idempotency_key,
    amountMinor: r.amount_minor,
    currency: r.currency,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    resolvedAt: r.resolved_at ?? null,
    outcome: r.outcome ?? null,
    transactionId: r.transaction_id ?? null,
  };
}

export function createTillAttemptRepository(db: SqlDatabase): TillAttemptRepository {
  const s = {
    open: typed<{ merchantId: string; tillId: string }>()(db, (k, p) =>
      k
        .selectFrom('till_attempts')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('terminal_id', '=', p('tillId'))
        .where('resolved_at', 'is', null),
    ),
    insert: typed<Database['till_attempts']>()(db, (k, p) => k.insertInto('till_attempts').values(rowPlaces('till_attempts', p))),
    rekey: typed<{ key: string; staffId: string | null; now: string; id: string }>()(db, (k, p) =>
      k
        .updateTable('till_attempts')
        .set({ idempotency_key: p('key'), staff_id: p('staffId'), updated_at: p('now') })
        .where('id', '=', p('id'))
        .where('resolved_at', 'is', null),
    ),
    resolve: typed<{ now: string; outcome: 'approved' | 'not_charged'; transactionId: string | null; id: string }>()(db, (k, p) =>
      k
        .updateTable('till_attempts')
        .set({ resolved_at: p('now'), outcome: p('outcome'), transaction_id: p('transactionId'), updated_at: p('now') })
        .where('id', '=', p('id'))
        .where('resolved_at', 'is', null),
    ),
  };
  return {
    open: async (merchantId, tillId) => {
      const row = await s.open.get({ merchantId, tillId });
      return row && attemptFromRow(row);
    },
    insert: async (a) =>
      void (await s.insert.run({
        id: a.id,
        merchant_id: a.merchantId,
        terminal_id: a.tillId,
        staff_id: a.staffId ?? null,
        order_id: a.orderId,
        idempotency_key: a.idempotencyKey,
        amount_minor: a.amountMinor,
        currency: a.currency,
        created_at: a.createdAt,
        updated_at: a.updatedAt,
        resolved_at: a.resolvedAt ?? null,
        outcome: a.outcome ?? null,
        transaction_id: a.transactionId ?? null,
      })),
    rekey: async (id, key, staffId, now) => (await s.rekey.run({ key, staffId: staffId ?? null, now, id })).changes === 1,
    resolve: async (id, outcome, transactionId, now) =>
      (await s.resolve.run({ now, outcome, transactionId: transactionId ?? null, id })).changes === 1,
  };
}
