/**
 * The dashboard's reads (docs/decisions.md "Dashboard"). A period's figures come from the hourly
 * rollup `dashboard_hours` (migration 0015, kept by triggers in the same database transaction as
 * every transaction and refund change) for every whole UTC hour of a range, and from the
 * transactions and refunds themselves for the part of an hour at a range's edge (only where the
 * shop's midnight is not a whole UTC hour). Every query searches an index; tests/db/dashboard.test.ts
 * asserts the plans, and that the rollup always equals the sums taken from the tables.
 *
 * The statements are hand-written per engine (DASHBOARD_SQL for SQLite, DASHBOARD_SQL_POSTGRES):
 * they read other features' tables only, and their SQLite texts are shaped for its planner (a
 * CROSS JOIN that keeps the ranges the outer loop, json_each, INDEXED BY) with the plans asserted
 * by tests/db/dashboard.test.ts and measured by bench/dashboard.ts, which run these very texts.
 */
import { dialects, type SqlDatabase, type SqlStatement } from '../sql.js';
import type { DashboardAttention, DashboardFigureRow, DashboardRepository, TimeRange } from '../../main/core/dashboard/ports.js';
import type { Row } from '../rows.js';

const HOUR_MS = 60 * 60 * 1000;

/** The rollup's key of an hour: `YYYY-MM-DDTHH` of its UTC start. */
const hourKey = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/** How a set of ranges is read: whole hours from the rollup, the rest from the tables (range index, from, to). */
export interface RangeSplit {
  hours: Array<[number, string, string]>;
  pieces: Array<[number, string, string]>;
}

export function splitRanges(ranges: readonly TimeRange[]): RangeSplit {
  const hours: RangeSplit['hours'] = [];
  const pieces: RangeSplit['pieces'] = [];
  ranges.forEach(({ from, to }, index) => {
    const start = Date.parse(from);
    const end = Date.parse(to);
    if (!(end > start)) return;
    const firstHour = Math.ceil(start / HOUR_MS) * HOUR_MS;
    const endHour = Math.floor(end / HOUR_MS) * HOUR_MS;
    if (firstHour >= endHour) {
      pieces.push([index, new Date(start).toISOString(), new Date(end).toISOString()]);
      return;
    }
    hours.push([index, hourKey(firstHour), hourKey(endHour)]);
    if (start < firstHour) pieces.push([index, new Date(start).toISOString(), new Date(firstHour).toISOString()]);
    if (endHour < end) pieces.push([index, new Date(endHour).toISOString(), new Date(end).toISOString()]);
  });
  return { hours, pieces };
}

const RANGES = 'WITH r(i, s, e) AS (SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?))';
const SUMS = `sum(payments) AS payments, sum(approved) AS approved, sum(declined) AS declined, sum(captured) AS captured,
  sum(captured_minor) AS captured_minor, sum(refunds) AS refunds, sum(refunded_minor) AS refunded_minor`;

/**
 * The SQL of each figure query (exported for the query-plan tests and the benchmark). CROSS JOIN
 * keeps the ranges as the outer loop, so each range is one index search; otherwise the planner may
 * walk the merchant's whole history and probe the ranges for each row.
 */
export const DASHBOARD_SQL = {
  hours: `${RANGES}
SELECT r.i AS range, h.currency, h.payment_type, ${SUMS}
FROM r CROSS JOIN dashboard_hours h ON h.merchant_id = ? AND h.hour >= r.s AND h.hour < r.e
GROUP BY r.i, h.currency, h.payment_type`,
  // The same sums as the rollup's triggers add (db/migrations/0015-dashboard.ts), from the rows.
  transactionPieces: `${RANGES}
SELECT r.i AS range, t.currency, t.payment_type, count(*) AS payments,
  sum(t.status_code IN (3, 4, 5, 7, 8, 12) OR (t.status_code = 10 AND t.authorized_minor > 0)) AS approved,
  sum(t.status_code = 6) AS declined, sum(t.captured_minor > 0) AS captured, sum(t.captured_minor) AS captured_minor,
  0 AS refunds, 0 AS refunded_minor
FROM r CROSS JOIN transactions t ON t.merchant_id = ? AND t.created_at >= r.s AND t.created_at < r.e
WHERE t.operation IN ('payment', 'authorize') AND t.amount_minor > 0 AND NOT (t.status_code = 6 AND t.reason_code IS '1A')
GROUP BY r.i, t.currency, t.payment_type`,
  refundPieces: `${RANGES}
SELECT r.i AS range, t.currency, t.payment_type, 0 AS payments, 0 AS approved, 0 AS declined, 0 AS captured, 0 AS captured_minor,
  count(*) AS refunds, sum(f.amount_minor) AS refunded_minor
FROM r CROSS JOIN refunds f ON f.merchant_id = ? AND f.created_at >= r.s AND f.created_at < r.e
JOIN transactions t ON t.id = f.transaction_id
WHERE f.status_code = 1
GROUP BY r.i, t.currency, t.payment_type`,
  // Without statistics the planner rates (merchant_id, state) as good and would walk every pending postback.
  postbacksRetrying:
    "SELECT count(*) AS n FROM postback_outbox INDEXED BY postback_outbox_retrying WHERE merchant_id = ? AND state = 'pending' AND attempts > 0",
  postbacksFailed: "SELECT count(*) AS n FROM postback_outbox WHERE merchant_id = ? AND state = 'failed'",
  invoicesExpiringCount:
    "SELECT count(*) AS n FROM invoices WHERE merchant_id = ? AND expires_at > ? AND expires_at <= ? AND active = 1 AND status <> 'paid'",
  invoicesExpiring: `SELECT debt_claim_number, expires_at, amount_minor, currency FROM invoices
WHERE merchant_id = ? AND expires_at > ? AND expires_at <= ? AND active = 1 AND status <> 'paid' ORDER BY expires_at LIMIT ?`,
  // An invoice counts when its latest e-mail failed: a later one (a reminder that went out) settles it.
  emailsFailedCount: `SELECT count(*) AS n FROM emails e WHERE e.merchant_id = ? AND e.status = 'failed'
AND NOT EXISTS (SELECT 1 FROM emails later WHERE later.invoice_id = e.invoice_id AND (later.created_at, later.id) > (e.created_at, e.id))`,
  emailsFailed: `SELECT i.debt_claim_number, e.email_type, e.created_at FROM emails e JOIN invoices i ON i.id = e.invoice_id
WHERE e.merchant_id = ? AND e.status = 'failed'
AND NOT EXISTS (SELECT 1 FROM emails later WHERE later.invoice_id = e.invoice_id AND (later.created_at, later.id) > (e.created_at, e.id))
ORDER BY e.created_at DESC LIMIT ?`,
  tokensSuspended: "SELECT count(*) AS n FROM network_tokens WHERE merchant_id = ? AND status = 'suspended'",
  forwardedDeclinesCount: 'SELECT count(*) AS n FROM forwarded_declines WHERE merchant_id = ? AND handled_at IS NULL',
  forwardedDeclines: `SELECT d.*, s.display_name AS staff_name FROM forwarded_declines d LEFT JOIN staff s ON s.id = d.staff_id
WHERE d.merchant_id = ? AND d.handled_at IS NULL ORDER BY d.forwarded_at DESC, d.transaction_id LIMIT ?`,
  // Status 4 is an authorization nothing was captured of yet. One past its expiry can no longer be
  // captured (the scheduler is about to expire it): not counted.
  authorizationsExpiringCount:
    'SELECT count(*) AS n FROM transactions WHERE merchant_id = ? AND status_code = 4 AND expires_at > ? AND expires_at <= ?',
  authorizationsExpiring: `SELECT id, order_id, expires_at, authorized_minor - captured_minor AS open_minor, currency FROM transactions
WHERE merchant_id = ? AND status_code = 4 AND expires_at > ? AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
} as const;

/**
 * PostgreSQL's texts, each written out with its `$n` parameters: the ranges from jsonb, plain joins
 * (SQLite's `CROSS JOIN ... ON` is an inner join that keeps the table order; PostgreSQL's planner
 * orders joins itself), booleans summed as integers, no INDEXED BY (it plans by its statistics).
 */
const RANGES_POSTGRES =
  'WITH r(i, s, e) AS (SELECT (value ->> 0)::int, value ->> 1, value ->> 2 FROM jsonb_array_elements($1::jsonb) AS value)';

export const DASHBOARD_SQL_POSTGRES: Record<keyof typeof DASHBOARD_SQL, string> = {
  hours: `${RANGES_POSTGRES}
SELECT r.i AS range, h.currency, h.payment_type, ${SUMS}
FROM r JOIN dashboard_hours h ON h.merchant_id = $2 AND h.hour >= r.s AND h.hour < r.e
GROUP BY r.i, h.currency, h.payment_type`,
  transactionPieces: `${RANGES_POSTGRES}
SELECT r.i AS range, t.currency, t.payment_type, count(*) AS payments,
  sum((t.status_code IN (3, 4, 5, 7, 8, 12) OR (t.status_code = 10 AND t.authorized_minor > 0))::int) AS approved,
  sum((t.status_code = 6)::int) AS declined, sum((t.captured_minor > 0)::int) AS captured, sum(t.captured_minor) AS captured_minor,
  0 AS refunds, 0 AS refunded_minor
FROM r JOIN transactions t ON t.merchant_id = $2 AND t.created_at >= r.s AND t.created_at < r.e
WHERE t.operation IN ('payment', 'authorize') AND t.amount_minor > 0 AND NOT (t.status_code = 6 AND t.reason_code IS NOT DISTINCT FROM '1A')
GROUP BY r.i, t.currency, t.payment_type`,
  refundPieces: `${RANGES_POSTGRES}
SELECT r.i AS range, t.currency, t.payment_type, 0 AS payments, 0 AS approved, 0 AS declined, 0 AS captured, 0 AS captured_minor,
  count(*) AS refunds, sum(f.amount_minor) AS refunded_minor
FROM r JOIN refunds f ON f.merchant_id = $2 AND f.created_at >= r.s AND f.created_at < r.e
JOIN transactions t ON t.id = f.transaction_id
WHERE f.status_code = 1
GROUP BY r.i, t.currency, t.payment_type`,
  postbacksRetrying: "SELECT count(*) AS n FROM postback_outbox WHERE merchant_id = $1 AND state = 'pending' AND attempts > 0",
  postbacksFailed: "SELECT count(*) AS n FROM postback_outbox WHERE merchant_id = $1 AND state = 'failed'",
  invoicesExpiringCount:
    "SELECT count(*) AS n FROM invoices WHERE merchant_id = $1 AND expires_at > $2 AND expires_at <= $3 AND active = 1 AND status <> 'paid'",
  invoicesExpiring: `SELECT debt_claim_number, expires_at, amount_minor, currency FROM invoices
WHERE merchant_id = $1 AND expires_at > $2 AND expires_at <= $3 AND active = 1 AND status <> 'paid' ORDER BY expires_at LIMIT $4`,
  emailsFailedCount: `SELECT count(*) AS n FROM emails e WHERE e.merchant_id = $1 AND e.status = 'failed'
AND NOT EXISTS (SELECT 1 FROM emails later WHERE later.invoice_id = e.invoice_id AND (later.created_at, later.id) > (e.created_at, e.id))`,
  emailsFailed: `SELECT i.debt_claim_number, e.email_type, e.created_at FROM emails e JOIN invoices i ON i.id = e.invoice_id
WHERE e.merchant_id = $1 AND e.status = 'failed'
AND NOT EXISTS (SELECT 1 FROM emails later WHERE later.invoice_id = e.invoice_id AND (later.created_at, later.id) > (e.created_at, e.id))
ORDER BY e.created_at DESC LIMIT $2`,
  tokensSuspended: "SELECT count(*) AS n FROM network_tokens WHERE merchant_id = $1 AND status = 'suspended'",
  forwardedDeclinesCount: 'SELECT count(*) AS n FROM forwarded_declines WHERE merchant_id = $1 AND handled_at IS NULL',
  forwardedDeclines: `SELECT d.*, s.display_name AS staff_name FROM forwarded_declines d LEFT JOIN staff s ON s.id = d.staff_id
WHERE d.merchant_id = $1 AND d.handled_at IS NULL ORDER BY d.forwarded_at DESC, d.transaction_id LIMIT $2`,
  authorizationsExpiringCount:
    'SELECT count(*) AS n FROM transactions WHERE merchant_id = $1 AND status_code = 4 AND expires_at > $2 AND expires_at <= $3',
  authorizationsExpiring: `SELECT id, order_id, expires_at, authorized_minor - captured_minor AS open_minor, currency FROM transactions
WHERE merchant_id = $1 AND status_code = 4 AND expires_at > $2 AND expires_at <= $3 ORDER BY expires_at LIMIT $4`,
};

function figureRow(r: Row): DashboardFigureRow {
  return {
    range: Number(r.range),
    currency: r.currency as string,
    paymentType: r.payment_type as string,
    payments: r.payments as number,
    approved: r.approved as number,
    declined: r.declined as number,
    captured: r.captured as number,
    capturedMinor: r.captured_minor as number,
    refunds: r.refunds as number,
    refundedMinor: r.refunded_minor as number,
  };
}

const isEmpty = (r: DashboardFigureRow) => r.payments === 0 && r.refunds === 0 && r.capturedMinor === 0 && r.refundedMinor === 0;

export function createDashboardRepository(db: SqlDatabase): DashboardRepository {
  const s = Object.fromEntries(
    Object.entries(DASHBOARD_SQL).map(([name, sql]) => [
      name,
      db.prepare(dialects({ sqlite: sql, postgres: DASHBOARD_SQL_POSTGRES[name as keyof typeof DASHBOARD_SQL] })),
    ]),
  ) as Record<keyof typeof DASHBOARD_SQL, SqlStatement>;
  const count = async (name: keyof typeof DASHBOARD_SQL, ...params: unknown[]) => ((await s[name].get(...params)) as { n: number }).n;

  return {
    async figures(merchantId, ranges) {
      const { hours, pieces } = splitRanges(ranges);
      const rows: DashboardFigureRow[] = [];
      if (hours.length) rows.push(...((await s.hours.all(JSON.stringify(hours), merchantId)) as Row[]).map(figureRow));
      if (pieces.length) {
        const json = JSON.stringify(pieces);
        rows.push(...((await s.transactionPieces.all(json, merchantId)) as Row[]).map(figureRow));
        rows.push(...((await s.refundPieces.all(json, merchantId)) as Row[]).map(figureRow));
      }
      // One row per range, currency and payment type.
      const merged = new Map<string, DashboardFigureRow>();
      for (const row of rows) {
        if (isEmpty(row)) continue;
        const key = `${row.range}\u0000${row.currency}\u0000${row.paymentType}`;
        const seen = merged.get(key);
        if (!seen) {
          merged.set(key, { ...row });
          continue;
        }
        seen.payments += row.payments;
        seen.approved += row.approved;
        seen.declined += row.declined;
        seen.captured += row.captured;
        seen.capturedMinor += row.capturedMinor;
        seen.refunds += row.refunds;
        seen.refundedMinor += row.refundedMinor;
      }
      return [...merged.values()];
    },

    async attention(merchantId, now, until, examples): Promise<DashboardAttention> {
      return {
        postbacksRetrying: await count('postbacksRetrying', merchantId),
        postbacksFailed: await count('postbacksFailed', merchantId),
        invoicesExpiring: {
          count: await count('invoicesExpiringCount', merchantId, now, until),
          items: ((await s.invoicesExpiring.all(merchantId, now, until, examples)) as Row[]).map((r) => ({
            debtClaimNumber: r.debt_claim_number as string,
            expiresAt: r.expires_at as string,
            amountMinor: r.amount_minor as number,
            currency: r.currency as string,
          })),
        },
        invoiceEmailsFailed: {
          count: await count('emailsFailedCount', merchantId),
          items: ((await s.emailsFailed.all(merchantId, examples)) as Row[]).map((r) => ({
            debtClaimNumber: r.debt_claim_number as string,
            emailType: r.email_type as string,
            createdAt: r.created_at as string,
          })),
        },
        tokensSuspended: await count('tokensSuspended', merchantId),
        forwardedDeclines: {
          count: await count('forwardedDeclinesCount', merchantId),
          items: ((await s.forwardedDeclines.all(merchantId, examples)) as Row[]).map((r) => ({
            transactionId: r.transaction_id as string,
            tillId: r.till_id as string,
            staffName: (r.staff_name as string | null) ?? null,
            orderId: (r.order_id as string | null) ?? null,
            amountMinor: Number(r.amount_minor),
            currency: r.currency as string,
            cardBrand: (r.card_brand as string | null) ?? null,
            cardLastFour: (r.card_last_four as string | null) ?? null,
            message: (r.message as string | null) ?? null,
            storedAt: r.stored_at as string,
            forwardedAt: r.forwarded_at as string,
          })),
        },
        authorizationsExpiring: {
          count: await count('authorizationsExpiringCount', merchantId, now, until),
          items: ((await s.authorizationsExpiring.all(merchantId, now, until, examples)) as Row[]).map((r) => ({
            transactionId: r.id as string,
            orderId: (r.order_id as string | null) ?? null,
            expiresAt: r.expires_at as string,
            amountMinor: r.open_minor as number,
            currency: r.currency as string,
          })),
        },
      };
    },
  };
}
