/** The tills' open card attempts (migration 0012). */
import type { SqlDatabase } from '../sql.js';
import type { TillAttemptRecord, TillAttemptRepository } from '../../main/core/till-attempts/ports.js';
import type { Row } from '../rows.js';

function attemptFromRow(r: Row): TillAttemptRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    tillId: r.terminal_id as string,
    staffId: (r.staff_id as string | null) ?? null,
    orderId: r.order_id as string,
    idempotencyKey: r.idempotency_key as string,
    amountMinor: r.amount_minor as number,
    currency: r.currency as string,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    resolvedAt: (r.resolved_at as string | null) ?? null,
    outcome: (r.outcome as TillAttemptRecord['outcome']) ?? null,
    transactionId: (r.transaction_id as string | null) ?? null,
  };
}

export function createTillAttemptRepository(db: SqlDatabase): TillAttemptRepository {
  const s = {
    open: db.prepare('SELECT * FROM till_attempts WHERE merchant_id = ? AND terminal_id = ? AND resolved_at IS NULL'),
    insert: db.prepare(
      `INSERT INTO till_attempts (id, merchant_id, terminal_id, staff_id, order_id, idempotency_key, amount_minor, currency, created_at, updated_at, resolved_at, outcome, transaction_id)
       VALUES (@id, @merchantId, @tillId, @staffId, @orderId, @idempotencyKey, @amountMinor, @currency, @createdAt, @updatedAt, @resolvedAt, @outcome, @transactionId)`,
    ),
    rekey: db.prepare('UPDATE till_attempts SET idempotency_key = ?, staff_id = ?, updated_at = ? WHERE id = ? AND resolved_at IS NULL'),
    resolve: db.prepare(
      'UPDATE till_attempts SET resolved_at = ?, outcome = ?, transaction_id = ?, updated_at = ? WHERE id = ? AND resolved_at IS NULL',
    ),
  };
  return {
    open: async (merchantId, tillId) => {
      const row = (await s.open.get(merchantId, tillId)) as Row | undefined;
      return row && attemptFromRow(row);
    },
    insert: async (attempt) => void (await s.insert.run(attempt)),
    rekey: async (id, key, staffId, now) => (await s.rekey.run(key, staffId, now, id)).changes === 1,
    resolve: async (id, outcome, transactionId, now) => (await s.resolve.run(now, outcome, transactionId, now, id)).changes === 1,
  };
}
