/**
 * The till's open card attempt (decisions.md D16): which sale, which idempotency key, until the
 * till knows how it ended. At most one open attempt per till; the row outlives the window, so a
 * reload or a restart resolves it before the next sale.
 */
export const up = `
CREATE TABLE till_attempts (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  terminal_id TEXT NOT NULL,
  staff_id TEXT,
  order_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  resolved_at TEXT,
  outcome TEXT CHECK (outcome IN ('approved', 'not_charged')),
  transaction_id TEXT
) STRICT;
CREATE UNIQUE INDEX till_attempts_open ON till_attempts(merchant_id, terminal_id) WHERE resolved_at IS NULL;
`;
