/** Refunds, durable scheduled tasks (settlement, expiry), wrong-PIN counters, terminal PIN keys, fee schedules. */
export const up = `
CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  transaction_id TEXT NOT NULL REFERENCES transactions(id),
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  status_code INTEGER NOT NULL CHECK (status_code IN (0, 1, 2)),
  merchant_refund_id TEXT,
  merchant_reference TEXT,
  execution_date TEXT,
  processor_reference TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX refunds_transaction ON refunds(transaction_id, id);

CREATE TABLE scheduled_tasks (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  merchant_id TEXT NOT NULL,
  due_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX scheduled_tasks_due ON scheduled_tasks(state, due_at);
CREATE INDEX scheduled_tasks_subject ON scheduled_tasks(subject_id, kind);

CREATE TABLE pin_failures (
  merchant_id TEXT NOT NULL,
  card_fingerprint TEXT NOT NULL,
  failed_at TEXT NOT NULL
) STRICT;
CREATE INDEX pin_failures_card ON pin_failures(merchant_id, card_fingerprint, failed_at);

CREATE TABLE pin_keys (
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  zone_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_sealed TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (merchant_id, zone_id, key_id)
) STRICT;

CREATE TABLE fee_schedules (
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  payment_type TEXT NOT NULL,
  percent_basis_points INTEGER NOT NULL CHECK (percent_basis_points BETWEEN 0 AND 10000),
  fixed_minor INTEGER NOT NULL CHECK (fixed_minor >= 0),
  PRIMARY KEY (merchant_id, payment_type)
) STRICT;

ALTER TABLE transactions ADD COLUMN card_fingerprint TEXT;
`;
