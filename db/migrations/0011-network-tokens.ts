/**
 * Network tokens (docs/api.md and docs/decisions.md "Network tokens"). Card and token numbers are
 * only stored sealed by the Vault (`card_sealed`, `token_sealed`); `card_fingerprint` and
 * `token_fingerprint` (keyed HMACs) find the same card, or a token by its number, for a merchant.
 * Cryptograms are stored as a keyed hash, single use (`used_at`), valid until `expires_at`.
 */
export const up = `
CREATE TABLE network_tokens (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  status TEXT NOT NULL CHECK (status IN ('requested', 'active', 'suspended', 'failed', 'archive_pending', 'archived')),
  type TEXT NOT NULL DEFAULT 'merchant',
  network TEXT NOT NULL,
  provider TEXT NOT NULL,
  card_fingerprint TEXT NOT NULL,
  card_sealed TEXT NOT NULL,
  token_fingerprint TEXT NOT NULL,
  token_sealed TEXT NOT NULL,
  payment_account_reference TEXT NOT NULL,
  billing TEXT NOT NULL DEFAULT '{}',
  postback_url TEXT,
  error_code TEXT,
  error_detail TEXT,
  last_token_refresh TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX network_tokens_merchant_created ON network_tokens(merchant_id, created_at, id);
CREATE INDEX network_tokens_merchant_card ON network_tokens(merchant_id, card_fingerprint);
CREATE INDEX network_tokens_merchant_token ON network_tokens(merchant_id, token_fingerprint);
CREATE TABLE network_token_cryptograms (
  id TEXT PRIMARY KEY,
  token_id TEXT NOT NULL REFERENCES network_tokens(id),
  type TEXT NOT NULL CHECK (type IN ('TAVV', 'DSRP')),
  hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
) STRICT;
CREATE UNIQUE INDEX network_token_cryptograms_hash ON network_token_cryptograms(token_id, hash);
`;
