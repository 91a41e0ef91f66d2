/**
 * The back office's dashboard (GET /ui/dashboard; docs/decisions.md "Dashboard").
 *
 * `dashboard_hours` adds up each merchant's payments per UTC hour, currency and payment type: the
 * payment attempts made in that hour (payments and authorizations above 0; not account checks,
 * payouts or PIN requests), how many of them are approved, declined and took money, the money
 * captured on them, and the refunds made in that hour. Triggers keep it in the same database
 * transaction as every change of a transaction or refund (insert, update, delete), so at every
 * commit it equals the same sums taken from `transactions` and `refunds` themselves
 * (tests/db/dashboard.test.ts checks that after every kind of change). A refund counts under its
 * transaction's currency and payment type, so those (and a transaction's merchant and creation
 * time, its hour) may not change: `transactions_keep_key` refuses it, as no use case does it. A period then reads a few
 * hundred rollup rows instead of tens of thousands of transactions (docs/benchmarks.md). Hours,
 * not days: the shop's days start at its own midnight, which is a whole UTC hour in nearly every
 * time zone; where it is not (India, Nepal, Newfoundland, ...) the repository takes the part hours
 * at a period's edges from the transactions themselves (refunds_merchant_created for refunds).
 *
 * The needs-attention counts get indexes of their own, partial where only a few rows qualify:
 * uncaptured authorizations by expiry, postbacks being retried, invoices by expiry, failed
 * e-mails, suspended network tokens.
 */

/** A transaction row (NEW or OLD) counts as a payment attempt. Must match db/dashboard-repositories.ts. */
const counted = (r: string) =>
  `(${r}.operation IN ('payment', 'authorize') AND ${r}.amount_minor > 0 AND NOT (${r}.status_code = 6 AND ${r}.reason_code IS '1A'))`;
/** What a counted row adds to its hour: payments, approved, declined, captured, captured_minor. */
const figures = (r: string) => [
  '1',
  `(${r}.status_code IN (3, 4, 5, 7, 8, 12) OR (${r}.status_code = 10 AND ${r}.authorized_minor > 0))`,
  `(${r}.status_code = 6)`,
  `(${r}.captured_minor > 0)`,
  `${r}.captured_minor`,
];
const FIGURE_COLUMNS = ['payments', 'approved', 'declined', 'captured', 'captured_minor'];
const key = (r: string) => `${r}.merchant_id, substr(${r}.created_at, 1, 13), ${r}.currency, ${r}.payment_type`;
const keyMatches = (r: string) =>
  `merchant_id = ${r}.merchant_id AND hour = substr(${r}.created_at, 1, 13) AND currency = ${r}.currency AND payment_type = ${r}.payment_type`;
/** Everything a row contributes (its hour and figures, or nothing): the update trigger runs only when it changes. */
const contribution = (r: string) => `(${counted(r)}, ${key(r)}, ${figures(r).slice(1).join(', ')})`;

const addTransaction = (r: string) => `
  INSERT INTO dashboard_hours (merchant_id, hour, currency, payment_type, ${FIGURE_COLUMNS.join(', ')})
  SELECT ${key(r)}, ${figures(r).join(', ')} WHERE ${counted(r)}
  ON CONFLICT (merchant_id, hour, currency, payment_type) DO UPDATE SET ${FIGURE_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')};`;
const removeTransaction = (r: string) => `
  UPDATE dashboard_hours SET ${FIGURE_COLUMNS.map((c, i) => `${c} = ${c} - ${figures(r)[i] ?? '0'}`).join(', ')}
  WHERE ${counted(r)} AND ${keyMatches(r)};`;
const addRefund = (r: string) => `
  INSERT INTO dashboard_hours (merchant_id, hour, currency, payment_type, refunds, refunded_minor)
  SELECT ${r}.merchant_id, substr(${r}.created_at, 1, 13), t.currency, t.payment_type, 1, ${r}.amount_minor
  FROM transactions t WHERE t.id = ${r}.transaction_id AND ${r}.status_code = 1
  ON CONFLICT (merchant_id, hour, currency, payment_type) DO UPDATE SET refunds = refunds + excluded.refunds, refunded_minor = refunded_minor + excluded.refunded_minor;`;
const removeRefund = (r: string) => `
  UPDATE dashboard_hours SET refunds = refunds - 1, refunded_minor = refunded_minor - ${r}.amount_minor
  WHERE ${r}.status_code = 1 AND merchant_id = ${r}.merchant_id AND hour = substr(${r}.created_at, 1, 13)
    AND (currency, payment_type) = (SELECT t.currency, t.payment_type FROM transactions t WHERE t.id = ${r}.transaction_id);`;

export const up = `
CREATE TABLE dashboard_hours (
  merchant_id TEXT NOT NULL,
  hour TEXT NOT NULL,
  currency TEXT NOT NULL,
  payment_type TEXT NOT NULL,
  payments INTEGER NOT NULL DEFAULT 0,
  approved INTEGER NOT NULL DEFAULT 0,
  declined INTEGER NOT NULL DEFAULT 0,
  captured INTEGER NOT NULL DEFAULT 0,
  captured_minor INTEGER NOT NULL DEFAULT 0,
  refunds INTEGER NOT NULL DEFAULT 0,
  refunded_minor INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (merchant_id, hour, currency, payment_type)
) STRICT, WITHOUT ROWID;

INSERT INTO dashboard_hours (merchant_id, hour, currency, payment_type, ${FIGURE_COLUMNS.join(', ')})
SELECT ${key('t')}, count(*), ${figures('t')
  .slice(1)
  .map((f) => `sum(${f})`)
  .join(', ')}
FROM transactions t WHERE ${counted('t')}
GROUP BY 1, 2, 3, 4;
INSERT INTO dashboard_hours (merchant_id, hour, currency, payment_type, refunds, refunded_minor)
SELECT f.merchant_id, substr(f.created_at, 1, 13), t.currency, t.payment_type, count(*), sum(f.amount_minor)
FROM refunds f JOIN transactions t ON t.id = f.transaction_id WHERE f.status_code = 1
GROUP BY 1, 2, 3, 4
ON CONFLICT (merchant_id, hour, currency, payment_type) DO UPDATE SET refunds = excluded.refunds, refunded_minor = excluded.refunded_minor;

CREATE TRIGGER dashboard_hours_transaction_insert AFTER INSERT ON transactions WHEN ${counted('NEW')}
BEGIN${addTransaction('NEW')}
END;
CREATE TRIGGER transactions_keep_key BEFORE UPDATE OF merchant_id, created_at, currency, payment_type ON transactions
WHEN OLD.merchant_id IS NOT NEW.merchant_id OR OLD.created_at IS NOT NEW.created_at OR OLD.currency IS NOT NEW.currency OR OLD.payment_type IS NOT NEW.payment_type
BEGIN
  SELECT RAISE(ABORT, 'a transaction keeps its merchant, creation time, currency and payment type');
END;
CREATE TRIGGER dashboard_hours_transaction_update
AFTER UPDATE OF operation, amount_minor, status_code, reason_code, authorized_minor, captured_minor ON transactions
WHEN ${contribution('OLD')} IS NOT ${contribution('NEW')}
BEGIN${removeTransaction('OLD')}${addTransaction('NEW')}
END;
CREATE TRIGGER dashboard_hours_transaction_delete AFTER DELETE ON transactions WHEN ${counted('OLD')}
BEGIN${removeTransaction('OLD')}
END;
CREATE TRIGGER dashboard_hours_refund_insert AFTER INSERT ON refunds WHEN NEW.status_code = 1
BEGIN${addRefund('NEW')}
END;
CREATE TRIGGER dashboard_hours_refund_update AFTER UPDATE OF merchant_id, transaction_id, created_at, status_code, amount_minor ON refunds
WHEN (OLD.status_code = 1 OR NEW.status_code = 1)
BEGIN${removeRefund('OLD')}${addRefund('NEW')}
END;
CREATE TRIGGER dashboard_hours_refund_delete AFTER DELETE ON refunds WHEN OLD.status_code = 1
BEGIN${removeRefund('OLD')}
END;

CREATE INDEX refunds_merchant_created ON refunds(merchant_id, created_at);
CREATE INDEX transactions_authorized_expiry ON transactions(merchant_id, expires_at) WHERE status_code = 4;
CREATE INDEX postback_outbox_retrying ON postback_outbox(merchant_id, state, attempts) WHERE state = 'pending' AND attempts > 0;
CREATE INDEX invoices_merchant_expiry ON invoices(merchant_id, expires_at, active, status) WHERE expires_at IS NOT NULL;
CREATE INDEX emails_merchant_status ON emails(merchant_id, status, created_at);
CREATE INDEX network_tokens_merchant_status ON network_tokens(merchant_id, status);
`;
