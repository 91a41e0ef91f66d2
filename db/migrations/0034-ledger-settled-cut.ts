/**
 * PostgreSQL: sales of one till no longer wait for each other's commit; the units that cut a book
 * wait for the sales in flight instead (issue 38; docs/decisions.md "The shop's books").
 *
 * Migration 31's trigger took the book's advisory lock exclusively at commit and held it until the
 * transaction was visible, so a book's numbers followed commit order and every sale of one till
 * waited for the one before it to reach the disk (~270 µs of CPU per payment when the sales share a
 * book, bench/postgres-parts.ts). Now:
 *
 * - the trigger takes the book's lock in share mode, before it draws the entry's number, held until
 *   its transaction ends: sales of one book never wait for each other. It also reads the sale's shop
 *   and book once, where it looked the sale up twice.
 * - `till_ledger_settled(merchant, book)` takes the same lock exclusively, so it waits for the sales
 *   of the book that hold a number and have not ended, and answers the ledger's last number drawn.
 *   No entry of the book numbered at or below it can still commit: a sale that drew a lower number
 *   drew it before the read, under its share lock, and had ended before the exclusive lock was
 *   granted. It runs as a statement on its own, before the unit that cuts (the Z close, the centre's
 *   ledger for a joined till), and that unit cuts at most there. Its lock ends with its statement, so
 *   nothing is held across statements: the cut is safe behind a transaction pooler (PgBouncer),
 *   where a session-level lock was not (docs/benchmarks.md, "Tried and not kept").
 *
 * The key is the same text as migration 31's, `merchant_id || '/' || book`, hashed by hashtextextended.
 *
 * SQLite: nothing (one writer at a time: a book's numbers follow commit order by construction, and
 * every committed entry is final).
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
  -- In share mode, before the number is drawn and until the transaction ends (till_ledger_settled).
  PERFORM pg_advisory_xact_lock_shared(hashtextextended(shop || '/' || book, 0));
  INSERT INTO till_ledger (merchant_id, terminal_id, event_id) VALUES (shop, book, NEW.id);
  RETURN NULL;
END $$;
CREATE FUNCTION till_ledger_settled(shop TEXT, book TEXT) RETURNS BIGINT LANGUAGE plpgsql AS $$
BEGIN
  -- Exclusively: granted once no sale of the book is between drawing its number and its end.
  PERFORM pg_advisory_xact_lock(hashtextextended(shop || '/' || book, 0));
  RETURN COALESCE(pg_sequence_last_value(pg_get_serial_sequence('till_ledger', 'seq')::regclass), 0);
END $$;`;
