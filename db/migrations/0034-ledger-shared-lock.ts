/**
 * PostgreSQL: sales of one till no longer wait for each other's commit (issue 38; docs/decisions.md
 * "The shop's books", docs/benchmarks.md "Issue 38, third session").
 *
 * Migration 31's trigger took the book's advisory lock exclusively at commit and held it until the
 * transaction was visible, so a book's numbers followed commit order, and every sale of one till
 * waited for the one before it to reach the disk: ~270 µs of CPU per payment when many sales share
 * a book. Now the trigger takes the lock in share mode. The units that need a clean cut of the book
 * (the Z close, the centre's ledger for a joined till) hold the same lock exclusively from before
 * their snapshot until they end (main/core/reports/ledger-cut.ts): while they hold it, no sale of
 * the book is between its number and its commit. The key is the same text, `merchant_id || '/' ||
 * book`, hashed by hashtextextended.
 *
 * The function also reads the sale's shop and book once, where it looked the sale up twice.
 *
 * SQLite: nothing (one writer at a time; its trigger is unchanged).
 */
export const up = `SELECT 1;`;

export const postgres = `
CREATE OR REPLACE FUNCTION till_ledger_append() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shop TEXT;
  book TEXT;
BEGIN
  SELECT t.merchant_id, COALESCE(t.till_id, '*') INTO shop, book
  FROM transactions t WHERE t.id = NEW.transaction_id AND t.payment_type = 'cardpos';
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  -- In share mode, held until the transaction ends: a unit holding the book exclusively (a Z close,
  -- the centre's ledger) sees every entry numbered before it, and every later one numbered after.
  PERFORM pg_advisory_xact_lock_shared(hashtextextended(shop || '/' || book, 0));
  INSERT INTO till_ledger (merchant_id, terminal_id, event_id) VALUES (shop, book, NEW.id);
  RETURN NULL;
END $$;`;
