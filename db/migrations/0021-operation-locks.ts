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
`;
