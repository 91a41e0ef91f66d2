/**
 * The back office's network tokens and checkouts (issue 16; docs/decisions.md "Back office: network
 * tokens and checkouts").
 *
 * `network_token_events`: each token's status history, one row per change, written by the token
 * repository in the unit of work that changes the status (`created` on insert, `status` on a
 * change, `refreshed` when the token service refreshed it). Tokens made before this migration get
 * their history as far as their row tells it: created, the current status, the last refresh.
 *
 * `checkout_sessions.postback_url` may now be NULL: a session the back office opens for a phone or
 * e-mail order needs no merchant postback (the back office reads its status). SQLite cannot drop a
 * NOT NULL in place, so the table is rebuilt with the same columns and checks; its indexes end in
 * the back office list's order (created_at, id), and the status filter gets its own.
 */
export const up = `
CREATE TABLE network_token_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token_id TEXT NOT NULL REFERENCES network_tokens(id),
  event TEXT NOT NULL CHECK (event IN ('created', 'status', 'refreshed')),
  status TEXT NOT NULL CHECK (status IN ('requested', 'active', 'suspended', 'failed', 'archive_pending', 'archived')),
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX network_token_events_token ON network_token_events(token_id, id);
INSERT INTO network_token_events (token_id, event, status, created_at)
  SELECT id, 'created', 'requested', created_at FROM network_tokens ORDER BY created_at, id;
INSERT INTO network_token_events (token_id, event, status, created_at)
  SELECT id, 'refreshed', status, last_token_refresh FROM network_tokens
  WHERE last_token_refresh IS NOT NULL AND last_token_refresh < updated_at ORDER BY created_at, id;
INSERT INTO network_token_events (token_id, event, status, created_at)
  SELECT id, 'status', status, updated_at FROM network_tokens WHERE status <> 'requested' ORDER BY created_at, id;

CREATE TABLE checkout_sessions_new (
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
  postback_url TEXT,
  locale TEXT,
  request TEXT NOT NULL,
  customer TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;
INSERT INTO checkout_sessions_new SELECT id, merchant_id, status, order_id, currency, amount_minor, taxes_minor, shipping_minor, total_minor,
  transaction_id, success_url, error_url, postback_url, locale, request, customer, created_at, updated_at, expires_at FROM checkout_sessions;
DROP TABLE checkout_sessions;
ALTER TABLE checkout_sessions_new RENAME TO checkout_sessions;
CREATE INDEX checkout_sessions_merchant ON checkout_sessions(merchant_id, created_at, id);
CREATE INDEX checkout_sessions_transaction ON checkout_sessions(transaction_id);
CREATE INDEX checkout_sessions_merchant_status ON checkout_sessions(merchant_id, status, created_at, id);
`;
