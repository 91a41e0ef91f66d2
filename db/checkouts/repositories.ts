/** Checkout sessions (migrations 0007, 0017). */
import type { SqlDatabase, SqlStatement } from '../sql.js';
import type { CheckoutFilter, CheckoutRecord, CheckoutRepository } from '../../main/core/checkouts/ports.js';
import { listWhere } from '../list-filter.js';
import type { Row } from '../rows.js';

function fromRow(r: Row): CheckoutRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    status: r.status as CheckoutRecord['status'],
    orderId: r.order_id as string,
    currency: r.currency as string,
    amountMinor: r.amount_minor as number,
    taxesMinor: r.taxes_minor as number,
    shippingMinor: r.shipping_minor as number,
    totalMinor: r.total_minor as number,
    transactionId: (r.transaction_id as string | null) ?? null,
    successUrl: r.success_url as string,
    errorUrl: r.error_url as string,
    postbackUrl: (r.postback_url as string | null) ?? null,
    locale: (r.locale as string | null) ?? null,
    request: JSON.parse(r.request as string) as Record<string, unknown>,
    customer: JSON.parse(r.customer as string) as Record<string, string>,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    expiresAt: r.expires_at as string,
  };
}

function where(merchantId: string, filter: Omit<CheckoutFilter, 'limit' | 'offset'>): { sql: string; params: unknown[] } {
  return listWhere(merchantId, { status: filter.status }, filter);
}

export function createCheckoutRepository(db: SqlDatabase): CheckoutRepository {
  const s = {
    insert: db.prepare(
      `INSERT INTO checkout_sessions (id, merchant_id, status, order_id, currency, amount_minor, taxes_minor, shipping_minor, total_minor,
         transaction_id, success_url, error_url, postback_url, locale, request, customer, created_at, updated_at, expires_at)
       VALUES (@id, @merchantId, @status, @orderId, @currency, @amountMinor, @taxesMinor, @shippingMinor, @totalMinor,
         @transactionId, @successUrl, @errorUrl, @postbackUrl, @locale, @request, @customer, @createdAt, @updatedAt, @expiresAt)`,
    ),
    get: db.prepare('SELECT * FROM checkout_sessions WHERE id = ?'),
    byTransaction: db.prepare('SELECT * FROM checkout_sessions WHERE transaction_id = ?'),
  };
  const transitions = new Map<string, SqlStatement>();
  return {
    insert: async (record) =>
      void (await s.insert.run({ ...record, request: JSON.stringify(record.request), customer: JSON.stringify(record.customer) })),
    get: async (id) => {
      const row = (await s.get.get(id)) as Row | undefined;
      return row && fromRow(row);
    },
    byTransaction: async (transactionId) => {
      const row = (await s.byTransaction.get(transactionId)) as Row | undefined;
      return row && fromRow(row);
    },
    list: async (merchantId, filter) => {
      const { sql, params } = where(merchantId, filter);
      const rows = (await db
        .prepare(`SELECT * FROM checkout_sessions WHERE ${sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
        .all(...params, filter.limit, filter.offset)) as Row[];
      return rows.map(fromRow);
    },
    count: async (merchantId, filter) => {
      const { sql, params } = where(merchantId, filter);
      return ((await db.prepare(`SELECT COUNT(*) AS n FROM checkout_sessions WHERE ${sql}`).get(...params)) as { n: number }).n;
    },
    transition: async (id, from, status, now, change = {}) => {
      const sets = ['status = ?', 'updated_at = ?'];
      const values: unknown[] = [status, now];
      if (change.transactionId !== undefined) {
        sets.push('transaction_id = ?');
        values.push(change.transactionId);
      }
      if (change.customer !== undefined) {
        sets.push('customer = ?');
        values.push(JSON.stringify(change.customer));
      }
      const sql = `UPDATE checkout_sessions SET ${sets.join(', ')} WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`;
      let statement = transitions.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        transitions.set(sql, statement);
      }
      return (await statement.run(...values, id, ...from)).changes === 1;
    },
  };
}
