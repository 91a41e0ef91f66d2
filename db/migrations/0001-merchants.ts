/** Merchants, API credentials, invoice channels, idempotency records and SEPA mandates. */
export const up = `
CREATE TABLE merchants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  currency TEXT NOT NULL,
  webhook_key_sealed TEXT NOT NULL,
  previous_webhook_key_sealed TEXT,
  previous_webhook_key_until TEXT,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE credentials (
  id TEXT PRIMARY KEY,
  merchant_id TEXT REFERENCES merchants(id),
  kind TEXT NOT NULL CHECK (kind IN ('merchant', 'partner')),
  api_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;
CREATE INDEX credentials_merchant ON credentials(merchant_id);

CREATE TABLE channels (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  url_name TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  currency TEXT NOT NULL,
  language TEXT NOT NULL CHECK (language IN ('en', 'de', 'pt')),
  sender_email TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX channels_merchant ON channels(merchant_id);

CREATE TABLE idempotency_keys (
  merchant_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (merchant_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);

CREATE TABLE mandates (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  reference TEXT NOT NULL,
  payment_type TEXT NOT NULL CHECK (payment_type IN ('dd', 'dd_b2b')),
  recurring INTEGER NOT NULL CHECK (recurring IN (0, 1)),
  first_name TEXT,
  last_name TEXT,
  account_holder TEXT NOT NULL,
  iban_sealed TEXT NOT NULL,
  iban_last_four TEXT NOT NULL,
  bic TEXT,
  email TEXT,
  mandate_date TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (merchant_id, reference)
) STRICT;
`;
