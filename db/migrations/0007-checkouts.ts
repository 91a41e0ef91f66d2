/** Hosted checkout sessions (decisions.md D10). */
export const up = `
CREATE TABLE checkout_sessions (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  status TEXT NOT NULL CHECK (status IN ('open', 'processing', 'completed', 'cancelled', 'expired')),
  order_id TEXT NOT NULL,
  currency TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  taxes_minor INTEGER NOT NULL,
  shipping_minor INTEGER NOT NULL,
  total_minor INTEGER NOT NULL,
  transaction_id TEXT REFERENCES transactions(id),
  success_url TEXT NOT NULL,
  error_url TEXT NOT NULL,
  postback_url TEXT NOT NULL,
  locale TEXT,
  request TEXT NOT NULL,
  customer TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;
CREATE INDEX checkout_sessions_merchant ON checkout_sessions(merchant_id, created_at);
CREATE INDEX checkout_sessions_transaction ON checkout_sessions(transaction_id);
`;
