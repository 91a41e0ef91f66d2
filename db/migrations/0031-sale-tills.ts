import { POSTGRES_WORDS, SQLITE_WORDS, type Words } from './words.js';

/**
 * One ledger, one till per sale (D19; docs/decisions.md "The shop's books").
 *
 * `transactions.till_id` is the till a card-present sale belongs to, decided once when it is created
 * (main/core/payments/sale-till.ts): a joined till's credential makes that till's sales, a till
 * screen its own till's, POS software the till its `pos_data.terminal.id` names; a sale from a
 * terminal that is no till of the shop (or from none) has none. Before this the day reports read the
 * terminal id the request sent, so a sale from an unknown terminal was in no till's day.
 *
 * The till ledger (migration 14) now books every card-present money event under the sale's till, or
 * under `*` ("other terminals", OTHER_TERMINALS_BOOK in contract/constants.ts: no till id can be
 * `*`), so every sale is in exactly one book's day. Rows written before stay where they were.
 *
 * On PostgreSQL a sequence number is taken when asked, not when its transaction commits: a close could
 * take a watermark above an entry still to commit, which then belonged to no day (seen: 2 of 2,000
 * sales under concurrent closes). The entry is now written at commit (a deferred constraint trigger)
 * under a per-book advisory lock held until the transaction is visible, so a book's numbers follow
 * commit order there too, as SQLite's single writer gives them (tests/http/day-close-race.test.ts).
 *
 * Sales made before this migration take the till of their stored sale (a forwarded sale) or the
 * till their terminal id names; the rest have none.
 *
 * `transactions.staff_id`: who took a sale (the staff session's member, or the cashier a joined till
 * named), copied by the repository from the details' `staff_id` when the row is written, so the back
 * office lists and filters by cashier through an index (and by till through `till_id`'s).

 *
 * A till joined to a centre closes its own day; the centre books that till's entries by the days the
 * till closed (main/core/centre/till-days.ts):
 * - `till_days` (at the centre): each Z report a joined till closed, as it closed it, and how far
 *   the till had applied the centre's ledger then (`centre_cursor`).
 * - `till_day_entries` (at the centre): the sales (transaction id) and refunds (refund id) each of
 *   those days counted, so that a stored sale forwarded after the close still counts in its day.
 * - `centre_link.ledger_cursor` (at the till): how far the till has applied the centre's ledger of
 *   its sales (refunds made at the centre, sales whose answer never reached it).
 */
const ledger = (bookOf: string) => `
  INSERT INTO till_ledger (merchant_id, terminal_id, event_id)
  SELECT t.merchant_id, ${bookOf}, NEW.id
  FROM transactions t
  WHERE t.id = NEW.transaction_id AND t.payment_type = 'cardpos';`;

const days = (w: Words) => `
CREATE TABLE till_days (
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  till_id TEXT NOT NULL,
  sequence ${w.integer} NOT NULL CHECK (sequence > 0),
  closed_at TEXT NOT NULL,
  centre_cursor ${w.integer} NOT NULL,
  report TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (merchant_id, till_id, sequence)
)${w.strict};
CREATE TABLE till_day_entries (
  merchant_id TEXT NOT NULL,
  till_id TEXT NOT NULL,
  entry_key TEXT NOT NULL,
  sequence ${w.integer} NOT NULL,
  PRIMARY KEY (merchant_id, till_id, entry_key)
)${w.strict};
ALTER TABLE centre_link ADD COLUMN ledger_cursor ${w.integer} NOT NULL DEFAULT 0;
`;

export const up = `
ALTER TABLE transactions ADD COLUMN till_id TEXT;
UPDATE transactions SET till_id = json_extract(details, '$.stored.till_id')
WHERE payment_type = 'cardpos' AND json_type(details, '$.stored.till_id') = 'text';
UPDATE transactions SET till_id = json_extract(details, '$.pos.terminal.id')
WHERE payment_type = 'cardpos' AND till_id IS NULL AND json_type(details, '$.pos.terminal.id') = 'text'
  AND EXISTS (SELECT 1 FROM tills WHERE tills.merchant_id = transactions.merchant_id AND tills.till_id = json_extract(transactions.details, '$.pos.terminal.id'));
CREATE INDEX transactions_merchant_till ON transactions(merchant_id, till_id, created_at, id) WHERE till_id IS NOT NULL;
ALTER TABLE transactions ADD COLUMN staff_id TEXT;
UPDATE transactions SET staff_id = json_extract(details, '$.staff_id') WHERE json_type(details, '$.staff_id') = 'text';
CREATE INDEX transactions_merchant_staff ON transactions(merchant_id, staff_id, created_at, id) WHERE staff_id IS NOT NULL;

DROP TRIGGER till_ledger_append;
CREATE TRIGGER till_ledger_append AFTER INSERT ON transaction_events
WHEN NEW.type IN ('authorization', 'reauthorization', 'capture', 'refund')
BEGIN${ledger("COALESCE(t.till_id, '*')")}
END;
${days(SQLITE_WORDS)}`;

/**
 * PostgreSQL: the same columns, indexes, ledger rule and tables, but the backfill reads the details
 * with PostgreSQL's JSON operators (SQLite's json_extract is not there), and the ledger's trigger is
 * a PL/pgSQL function run at commit under the book's advisory lock (see above).
 */
export const postgres = `
ALTER TABLE transactions ADD COLUMN till_id TEXT;
UPDATE transactions SET till_id = details::jsonb #>> '{stored,till_id}'
WHERE payment_type = 'cardpos' AND jsonb_typeof(details::jsonb #> '{stored,till_id}') = 'string';
UPDATE transactions SET till_id = details::jsonb #>> '{pos,terminal,id}'
WHERE payment_type = 'cardpos' AND till_id IS NULL AND jsonb_typeof(details::jsonb #> '{pos,terminal,id}') = 'string'
  AND EXISTS (SELECT 1 FROM tills WHERE tills.merchant_id = transactions.merchant_id AND tills.till_id = transactions.details::jsonb #>> '{pos,terminal,id}');
CREATE INDEX transactions_merchant_till ON transactions(merchant_id, till_id, created_at, id) WHERE till_id IS NOT NULL;
ALTER TABLE transactions ADD COLUMN staff_id TEXT;
UPDATE transactions SET staff_id = details::jsonb ->> 'staff_id' WHERE jsonb_typeof(details::jsonb -> 'staff_id') = 'string';
CREATE INDEX transactions_merchant_staff ON transactions(merchant_id, staff_id, created_at, id) WHERE staff_id IS NOT NULL;

DROP TRIGGER till_ledger_append ON transaction_events;
CREATE OR REPLACE FUNCTION till_ledger_append() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- At commit, one transaction of a book at a time: its number is taken under the lock, which is held
  -- until it is visible, so the book's numbers follow commit order (a close's watermark cuts cleanly).
  PERFORM pg_advisory_xact_lock(hashtextextended(t.merchant_id || '/' || COALESCE(t.till_id, '*'), 0))
  FROM transactions t WHERE t.id = NEW.transaction_id AND t.payment_type = 'cardpos';${ledger("COALESCE(t.till_id, '*')")}
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER till_ledger_append AFTER INSERT ON transaction_events DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (NEW.type IN ('authorization', 'reauthorization', 'capture', 'refund'))
EXECUTE FUNCTION till_ledger_append();
${days(POSTGRES_WORDS)}`;
