/**
 * Repositories of the payments engine: guarded money movements (conditional updates that report
 * whether they applied, never read-then-write), refunds, PIN security.
 */
import { type DialectSql, type SqlDatabase, type SqlStatement } from '../sql.js';
import type {
  DetailsChange,
  PinSecurityRepository,
  RefundRecord,
  RefundRepository,
  SubscriptionStatus,
  TransactionChange,
} from '../../main/core/payments/ports.js';
import type { Row } from '../rows.js';

const changeColumns: ReadonlyArray<readonly [keyof TransactionChange, string]> = [
  ['statusCode', 'status_code'],
  ['message', 'message'],
  ['reasonCode', 'reason_code'],
  ['authorizedMinor', 'authorized_minor'],
  ['capturedMinor', 'captured_minor'],
  ['feesMinor', 'fees_minor'],
  ['sepaMsgId', 'sepa_msg_id'],
  ['cardBrand', 'card_brand'],
  ['cardLastFour', 'card_last_four'],
  ['cardBin', 'card_bin'],
  ['cardExpiryMonth', 'card_expiry_month'],
  ['cardExpiryYear', 'card_expiry_year'],
  ['cardSealed', 'card_sealed'],
  ['cardFingerprint', 'card_fingerprint'],
  ['details', 'details'],
  ['expiresAt', 'expires_at'],
];

export interface TransactionMovements {
  transition(id: string, from: readonly number[], change: TransactionChange, now: string): Promise<boolean>;
  addCapture(id: string, amountMinor: number, statusCode: number, now: string): Promise<boolean>;
  addRefund(id: string, amountMinor: number, now: string): Promise<boolean>;
  addReversal(id: string, amountMinor: number, now: string): Promise<boolean>;
  changeSubscription(id: string, from: readonly SubscriptionStatus[], change: DetailsChange, now: string): Promise<boolean>;
}

export function createTransactionMovements(db: SqlDatabase): TransactionMovements {
  const capture = db.prepare(
    `UPDATE transactions SET captured_minor = captured_minor + @amount, status_code = @status, updated_at = @now
     WHERE id = @id AND status_code IN (3, 4) AND captured_minor + @amount <= authorized_minor`,
  );
  const refund = db.prepare(
    `UPDATE transactions SET refunded_minor = refunded_minor + @amount,
       status_code = CASE WHEN refunded_minor + @amount = captured_minor THEN 7 ELSE 8 END, updated_at = @now
     WHERE id = @id AND status_code IN (3, 8) AND refunded_minor + @amount <= captured_minor`,
  );
  // Releases reserved money that was never captured. Uncaptured: reversed (all) or still authorized
  // (part). After captures the status (completed, partly_refunded) stays: captured money is untouched.
  const reversal = db.prepare(
    `UPDATE transactions SET reversed_minor = reversed_minor + @amount, authorized_minor = authorized_minor - @amount,
       status_code = CASE WHEN status_code <> 4 THEN status_code WHEN authorized_minor - @amount = 0 THEN 5 ELSE 4 END, updated_at = @now
     WHERE id = @id AND status_code IN (3, 4, 8) AND operation = 'authorize' AND @amount > 0 AND captured_minor + @amount <= authorized_minor`,
  );
  const transitions = new Map<string, SqlStatement>();
  const prepared = (sql: string | DialectSql): SqlStatement => {
    const key = typeof sql === 'string' ? sql : sql.sqlite;
    let statement = transitions.get(key);
    if (!statement) {
      statement = db.prepare(sql);
      transitions.set(key, statement);
    }
    return statement;
  };

  return {
    async transition(id, from, change, now) {
      const fields = changeColumns.filter(([field]) => change[field] !== undefined);
      const sql =
        `UPDATE transactions SET ${fields.map(([, column]) => `${column} = ?`).join(', ')}, updated_at = ? ` +
        `WHERE id = ? AND status_code IN (${from.map(() => '?').join(', ')})`;
      const values = fields.map(([field]) => (field === 'details' ? JSON.stringify(change.details) : change[field]));
      return (await prepared(sql).run(...values, now, id, ...from)).changes === 1;
    },
    // The details JSON is changed in place by key (json_set, json_remove), guarded by the
    // subscription status it holds: one statement, never the object as read written back.
    async changeSubscription(id, from, change, now) {
      const entries = Object.entries(change).filter(([, value]) => value !== undefined);
      const set = entries.filter(([, value]) => value !== null);
      const removed = entries.filter(([, value]) => value === null);
      let details = 'details';
      if (set.length) details = `json_set(${details}, ${set.map(() => '?, json(?)').join(', ')})`;
      if (removed.length) details = `json_remove(${details}, ${removed.map(() => '?').join(', ')})`;
      const statuses = from.map(() => '?').join(', ');
      const sqlite =
        `UPDATE transactions SET details = ${details}, updated_at = ? ` +
        `WHERE id = ? AND json_extract(details, '$.subscription_status') IN (${statuses})`;
      // PostgreSQL: the same change as jsonb, the keys set merged in and the removed ones taken out.
      const postgres =
        `UPDATE transactions SET details = ((details::jsonb || ?::jsonb) - ?::text[])::text, updated_at = ? ` +
        `WHERE id = ? AND details::jsonb ->> 'subscription_status' IN (${statuses})`;
      if (db.dialect === 'postgres') {
        const merged = JSON.stringify(Object.fromEntries(set));
        const result = await prepared({ sqlite, postgres }).run(
          merged,
          removed.map(([key]) => key),
          now,
          id,
          ...from,
        );
        return result.changes === 1;
      }
      const values = [...set.flatMap(([key, value]) => [`$.${key}`, JSON.stringify(value)]), ...removed.map(([key]) => `$.${key}`)];
      return (await prepared({ sqlite, postgres }).run(...values, now, id, ...from)).changes === 1;
    },
    addCapture: async (id, amountMinor, statusCode, now) =>
      (await capture.run({ id, amount: amountMinor, status: statusCode, now })).changes === 1,
    addRefund: async (id, amountMinor, now) => (await refund.run({ id, amount: amountMinor, now })).changes === 1,
    addReversal: async (id, amountMinor, now) => (await reversal.run({ id, amount: amountMinor, now })).changes === 1,
  };
}

function refundFromRow(r: Row): RefundRecord {
  return {
    id: r.id as string,
    transactionId: r.transaction_id as string,
    merchantId: r.merchant_id as string,
    amountMinor: r.amount_minor as number,
    statusCode: r.status_code as 0 | 1 | 2,
    merchantRefundId: (r.merchant_refund_id as string | null) ?? null,
    merchantReference: (r.merchant_reference as string | null) ?? null,
    executionDate: (r.execution_date as string | null) ?? null,
    processorReference: (r.processor_reference as string | null) ?? null,
    createdAt: r.created_at as string,
  };
}

export function createPaymentRepositories(db: SqlDatabase): {
  refunds: RefundRepository;
  pinSecurity: PinSecurityRepository;
} {
  const s = {
    refundInsert: db.prepare(
      `INSERT INTO refunds (id, transaction_id, merchant_id, amount_minor, status_code, merchant_refund_id, merchant_reference, execution_date, processor_reference, created_at)
       VALUES (@id, @transactionId, @merchantId, @amountMinor, @statusCode, @merchantRefundId, @merchantReference, @executionDate, @processorReference, @createdAt)`,
    ),
    refundsByTransaction: db.prepare('SELECT * FROM refunds WHERE transaction_id = ? ORDER BY id'),
    pinFailure: db.prepare('INSERT INTO pin_failures (merchant_id, card_fingerprint, failed_at) VALUES (?, ?, ?)'),
    pinFailures: db.prepare('SELECT COUNT(*) AS n FROM pin_failures WHERE merchant_id = ? AND card_fingerprint = ? AND failed_at > ?'),
    pinKey: db.prepare('SELECT key_sealed FROM pin_keys WHERE merchant_id = ? AND zone_id = ? AND key_id = ?'),
  };
  return {
    refunds: {
      insert: async (r) => void (await s.refundInsert.run(r)),
      listByTransaction: async (transactionId) => ((await s.refundsByTransaction.all(transactionId)) as Row[]).map(refundFromRow),
    },
    pinSecurity: {
      recordFailure: async (merchantId, fingerprint, at) => void (await s.pinFailure.run(merchantId, fingerprint, at)),
      failuresSince: async (merchantId, fingerprint, since) =>
        ((await s.pinFailures.get(merchantId, fingerprint, since)) as { n: number }).n,
      findKey: async (merchantId, zoneId, keyId) =>
        ((await s.pinKey.get(merchantId, zoneId, keyId)) as { key_sealed: string } | undefined)?.key_sealed,
    },
  };
}
