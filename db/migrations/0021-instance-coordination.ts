import { POSTGRES_WORDS, SQLITE_WORDS, type Words } from './words.js';

/**
 * Coordination of gateway instances on one database (issue 19; docs/decisions.md "PostgreSQL").
 *
 * `operation_locks`: one row per money movement under way on one object (a transaction's capture,
 * reversal or refund, a customer step, an invoice being paid). The row is a lease: taken by a
 * conditional upsert that only succeeds when no live lease holds the key, released by its holder,
 * and taken over once `expires_at` has passed (its instance died). It replaces a lock kept in one
 * process's memory, so two instances never both ask the processor about the same authorization.
 *
 * PostgreSQL only: `dashboard_hours` rows get a `slot` per database session (see the text below).
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
const both = (w: Words) => `
CREATE TABLE operation_locks (
  lock_key TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at TEXT NOT NULL
)${w.strict};

ALTER TABLE idempotency_keys ADD COLUMN claim_id TEXT;
`;

export const up = both(SQLITE_WORDS);

/**
 * PostgreSQL: the same, then its own: the ledger's advisory lock and the dashboard's slots (see
 * above; PL/pgSQL functions, which SQLite's triggers have no counterpart of).
 */
export const postgres = `${both(POSTGRES_WORDS)}
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
-- The dashboard's hourly sums: one row per hour, currency and type FOR EACH DATABASE SESSION
-- (slot = the backend's pid). A session runs one transaction at a time, so two payments committing
-- at once never update the same row; under SERIALIZABLE they otherwise conflict on every commit
-- (40001) and retry. The reads sum the rows, so the slots add up to the same figures. A
-- correction of an earlier row goes in as a negative amount in the current session's slot.
ALTER TABLE dashboard_hours ADD COLUMN slot BIGINT NOT NULL DEFAULT 0;
ALTER TABLE dashboard_hours DROP CONSTRAINT dashboard_hours_pkey;
ALTER TABLE dashboard_hours ADD PRIMARY KEY (merchant_id, hour, currency, payment_type, slot);

CREATE OR REPLACE FUNCTION dashboard_hours_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.operation IN ('payment', 'authorize') AND OLD.amount_minor > 0 AND NOT (OLD.status_code = 6 AND OLD.reason_code IS NOT DISTINCT FROM '1A') THEN
    INSERT INTO dashboard_hours AS h (merchant_id, hour, currency, payment_type, slot, payments, approved, declined, captured, captured_minor)
    VALUES (OLD.merchant_id, substr(OLD.created_at, 1, 13), OLD.currency, OLD.payment_type, pg_backend_pid(), -1,
      -(OLD.status_code IN (3, 4, 5, 7, 8, 12) OR (OLD.status_code = 10 AND OLD.authorized_minor > 0))::int,
      -(OLD.status_code = 6)::int, -(OLD.captured_minor > 0)::int, -OLD.captured_minor)
    ON CONFLICT (merchant_id, hour, currency, payment_type, slot) DO UPDATE SET payments = h.payments + EXCLUDED.payments,
      approved = h.approved + EXCLUDED.approved, declined = h.declined + EXCLUDED.declined,
      captured = h.captured + EXCLUDED.captured, captured_minor = h.captured_minor + EXCLUDED.captured_minor;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.operation IN ('payment', 'authorize') AND NEW.amount_minor > 0 AND NOT (NEW.status_code = 6 AND NEW.reason_code IS NOT DISTINCT FROM '1A') THEN
    INSERT INTO dashboard_hours AS h (merchant_id, hour, currency, payment_type, slot, payments, approved, declined, captured, captured_minor)
    VALUES (NEW.merchant_id, substr(NEW.created_at, 1, 13), NEW.currency, NEW.payment_type, pg_backend_pid(), 1,
      (NEW.status_code IN (3, 4, 5, 7, 8, 12) OR (NEW.status_code = 10 AND NEW.authorized_minor > 0))::int,
      (NEW.status_code = 6)::int, (NEW.captured_minor > 0)::int, NEW.captured_minor)
    ON CONFLICT (merchant_id, hour, currency, payment_type, slot) DO UPDATE SET payments = h.payments + EXCLUDED.payments,
      approved = h.approved + EXCLUDED.approved, declined = h.declined + EXCLUDED.declined,
      captured = h.captured + EXCLUDED.captured, captured_minor = h.captured_minor + EXCLUDED.captured_minor;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION dashboard_hours_refund() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status_code = 1 THEN
    INSERT INTO dashboard_hours AS h (merchant_id, hour, currency, payment_type, slot, refunds, refunded_minor)
    SELECT OLD.merchant_id, substr(OLD.created_at, 1, 13), t.currency, t.payment_type, pg_backend_pid(), -1, -OLD.amount_minor
    FROM transactions t WHERE t.id = OLD.transaction_id
    ON CONFLICT (merchant_id, hour, currency, payment_type, slot) DO UPDATE SET refunds = h.refunds + EXCLUDED.refunds,
      refunded_minor = h.refunded_minor + EXCLUDED.refunded_minor;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status_code = 1 THEN
    INSERT INTO dashboard_hours AS h (merchant_id, hour, currency, payment_type, slot, refunds, refunded_minor)
    SELECT NEW.merchant_id, substr(NEW.created_at, 1, 13), t.currency, t.payment_type, pg_backend_pid(), 1, NEW.amount_minor
    FROM transactions t WHERE t.id = NEW.transaction_id
    ON CONFLICT (merchant_id, hour, currency, payment_type, slot) DO UPDATE SET refunds = h.refunds + EXCLUDED.refunds,
      refunded_minor = h.refunded_minor + EXCLUDED.refunded_minor;
  END IF;
  RETURN NULL;
END $$;
`;
