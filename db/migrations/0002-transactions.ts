/** Transactions, their event log and the postback outbox (written in the same unit of work). */
export const up = `
CREATE TABLE transactions (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  payment_type TEXT NOT NULL,
  operation TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  order_id TEXT,
  currency TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  authorized_minor INTEGER NOT NULL DEFAULT 0,
  captured_minor INTEGER NOT NULL DEFAULT 0,
  refunded_minor INTEGER NOT NULL DEFAULT 0,
  reversed_minor INTEGER NOT NULL DEFAULT 0,
  fees_minor INTEGER NOT NULL DEFAULT 0,
  recurring INTEGER NOT NULL DEFAULT 0 CHECK (recurring IN (0, 1)),
  parent_id TEXT,
  sepa_mandate TEXT,
  sepa_msg_id TEXT,
  message TEXT,
  reason_code TEXT,
  additional_transaction_data TEXT,
  merchant_reference TEXT,
  postback_url TEXT,
  success_url TEXT,
  error_url TEXT,
  card_brand TEXT,
  card_last_four TEXT,
  card_bin TEXT,
  card_expiry_month INTEGER,
  card_expiry_year INTEGER,
  card_sealed TEXT,
  details TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  expires_at TEXT,
  CHECK (amount_minor >= 0 AND captured_minor >= 0 AND refunded_minor >= 0 AND reversed_minor >= 0),
  CHECK (refunded_minor <= captured_minor)
) STRICT;
CREATE INDEX transactions_merchant_created ON transactions(merchant_id, created_at, id);
-- The filter indexes end in (created_at, id) like the list's ORDER BY, so a filtered list is read
-- in order from its own index; without id the planner walks the merchant's whole history instead.
CREATE INDEX transactions_merchant_order ON transactions(merchant_id, order_id, created_at, id);
CREATE INDEX transactions_merchant_status ON transactions(merchant_id, status_code, created_at, id);
CREATE INDEX transactions_merchant_currency ON transactions(merchant_id, currency, created_at, id);

CREATE TABLE transaction_events (
  id TEXT PRIMARY KEY,
  transaction_id TEXT NOT NULL REFERENCES transactions(id),
  type TEXT NOT NULL,
  status INTEGER NOT NULL,
  amount_minor INTEGER NOT NULL,
  execution_date TEXT,
  message TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX transaction_events_transaction ON transaction_events(transaction_id, id);

CREATE TABLE postback_outbox (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  subject_type TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  url TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (subject_type, subject_id, sequence)
) STRICT;
CREATE INDEX postback_outbox_due ON postback_outbox(state, next_attempt_at);
`;
