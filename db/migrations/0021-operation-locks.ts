/**
 * Coordination of gateway instances on one database (issue 19; docs/decisions.md "PostgreSQL").
 *
 * `operation_locks`: one row per money movement under way on one object (a transaction's capture,
 * reversal or refund, a customer step, an invoice being paid). The row is a lease: taken by a
 * conditional upsert that only succeeds when no live lease holds the key, released by its holder,
 * and taken over once `expires_at` has passed (its instance died). It replaces a lock kept in one
 * process's memory, so two instances never both ask the processor about the same authorization.
 *
 * `idempotency_keys.claim_id`: the id of the request that claimed a key in flight, so the end of a
 * request removes only its own claim, never a later one taken after its lease ran out.
 *
 * PostgreSQL only: the till ledger's appends for one terminal take a transaction-scoped advisory
 * lock on that terminal before they draw their `seq`, so a terminal's ledger numbers follow commit
 * order. A Z report covers the ledger up to the highest `seq` it sees; without the lock, an append
 * that drew a lower number could commit after the close and fall into a closed range, counted by no
 * report. (SQLite has one writer at a time, so its numbers always follow commit order.)
 */
export const up = `
CREATE TABLE operation_locks (
  lock_key TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;

ALTER TABLE idempotency_keys ADD COLUMN claim_id TEXT;
`;

export const postgres = `
CREATE TABLE operation_locks (
  lock_key TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

ALTER TABLE idempotency_keys ADD COLUMN claim_id TEXT;

CREATE OR REPLACE FUNCTION till_ledger_append() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shop TEXT;
  terminal TEXT;
BEGIN
  SELECT t.merchant_id, t.details::jsonb #>> '{pos,terminal,id}' INTO shop, terminal
  FROM transactions t
  WHERE t.id = NEW.transaction_id AND t.payment_type = 'cardpos' AND jsonb_typeof(t.details::jsonb #> '{pos,terminal,id}') = 'string';
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('till_ledger/' || shop || '/' || terminal, 0));
  INSERT INTO till_ledger (merchant_id, terminal_id, event_id) VALUES (shop, terminal, NEW.id);
  RETURN NULL;
END $$;
`;
