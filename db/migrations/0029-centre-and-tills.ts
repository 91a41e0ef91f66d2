import { bothEngines } from './words.js';

/**
 * Tills joined to a centre, and selling on while it is away (issue 26, parts 1 and 2;
 * docs/decisions.md "Tills joined to a centre").
 *
 * On a centre:
 * - `till_invites`: one-time pairing codes (only their SHA-256 is kept), each for one till of one
 *   merchant, valid 24 hours, used once.
 * - `till_links`: the tills that joined: the API credential each got at its join (a merchant
 *   credential of its own, so revoking it cuts the till off), when it was last seen, its version and
 *   its last report (open attempts, stored payments, day), and the store-and-forward limits it holds.
 *
 * On a till (a gateway joined to a centre):
 * - `centre_link`: the one centre it is joined to: its URL, the certificate fingerprint pinned at the
 *   join, the merchant and till it is, its own credential (the password sealed by the data key), the
 *   limits the centre set.
 * - `stored_payments`: the journal of card-present sales taken while the centre could not be reached,
 *   numbered by `seq` in the order they were stored. Each keeps the request (card data sealed) until the
 *   centre has it; the centre deduplicates on the transaction id the till gave it, so a payment reaches
 *   the centre once however often it is sent.
 * - `centre_unsettled`: the idempotency keys of payments the till passed on to the centre without
 *   getting an answer. Such a payment may have been charged there, so it is never stored: a retry with
 *   its key waits until the centre answers again.
 *
 * Both engines get the same tables (a till's journal is SQLite in practice; a centre may be either).
 */
export const { up, postgres } = bothEngines(
  (w) => `
CREATE TABLE till_invites (
  code_hash TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  till_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
)${w.strict};

CREATE TABLE till_links (
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  till_id TEXT NOT NULL,
  credential_id TEXT NOT NULL REFERENCES credentials(id),
  joined_at TEXT NOT NULL,
  last_seen_at TEXT,
  last_forward_at TEXT,
  version TEXT,
  report TEXT,
  limits TEXT NOT NULL,
  PRIMARY KEY (merchant_id, till_id)
)${w.strict};
CREATE UNIQUE INDEX till_links_credential ON till_links(credential_id);

CREATE TABLE centre_link (
  id ${w.integer} PRIMARY KEY CHECK (id = 1),
  centre_url TEXT NOT NULL,
  fingerprint TEXT,
  merchant_id TEXT NOT NULL,
  till_id TEXT NOT NULL,
  api_key TEXT NOT NULL,
  api_password_sealed TEXT NOT NULL,
  limits TEXT NOT NULL,
  joined_at TEXT NOT NULL,
  replica_digest TEXT
)${w.strict};

CREATE TABLE stored_payments (
  seq ${w.integer} PRIMARY KEY,
  transaction_id TEXT NOT NULL UNIQUE,
  merchant_id TEXT NOT NULL,
  till_id TEXT NOT NULL,
  staff_id TEXT,
  order_id TEXT NOT NULL,
  amount_minor ${w.integer} NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  card_brand TEXT,
  card_last_four TEXT,
  request_sealed TEXT,
  stored_at TEXT NOT NULL,
  forwarded_at TEXT,
  outcome_status_code ${w.integer},
  outcome_message TEXT,
  seen_at TEXT
)${w.strict};
CREATE INDEX stored_payments_unforwarded ON stored_payments(seq) WHERE forwarded_at IS NULL;

CREATE TABLE centre_unsettled (
  idempotency_key TEXT PRIMARY KEY,
  sent_at TEXT NOT NULL
)${w.strict};
`,
);
