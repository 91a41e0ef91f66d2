/** Postback delivery attempts, delivery bookkeeping on the outbox, and webhook key rotation. */
export const up = `
CREATE TABLE postback_attempts (
  id TEXT PRIMARY KEY,
  outbox_id TEXT NOT NULL REFERENCES postback_outbox(id),
  attempt INTEGER NOT NULL,
  http_status INTEGER,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed', 'refused')),
  error TEXT,
  duration_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX postback_attempts_outbox ON postback_attempts(outbox_id, id);

ALTER TABLE postback_outbox ADD COLUMN delivered_at TEXT;
ALTER TABLE postback_outbox ADD COLUMN last_error TEXT;
ALTER TABLE postback_outbox ADD COLUMN retry_from TEXT;
ALTER TABLE postback_outbox ADD COLUMN window_attempts INTEGER NOT NULL DEFAULT 0;
CREATE INDEX postback_outbox_merchant ON postback_outbox(merchant_id, state, created_at);
`;
