/**
 * Closing the day at a till (X and Z reports, decisions.md D16 "A closed day never changes").
 *
 * `till_ledger` numbers every card-present money event of a till (sale taken, decline, refund) in
 * commit order. A trigger appends the entry in the same database transaction as the event, and
 * SQLite has one writer, so an entry committed after a Z report's watermark always gets a higher
 * number: a transaction that commits late lands in the next day instead of being missed.
 * AUTOINCREMENT never reuses a number, and neither table may be updated or deleted.
 *
 * `z_reports` keeps each closed day as written: its ledger range (after `from_seq` up to and
 * including `to_seq`), who closed and who approved it, and its figures as JSON. A new Z report
 * must continue the chain: sequence = previous + 1 and from_seq = previous to_seq.
 */
export const up = `
CREATE TABLE till_ledger (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  merchant_id TEXT NOT NULL,
  terminal_id TEXT NOT NULL,
  event_id TEXT NOT NULL
) STRICT;
CREATE INDEX till_ledger_terminal ON till_ledger(merchant_id, terminal_id, seq);

CREATE TRIGGER till_ledger_append AFTER INSERT ON transaction_events
WHEN NEW.type IN ('authorization', 'reauthorization', 'capture', 'refund')
BEGIN
  INSERT INTO till_ledger (merchant_id, terminal_id, event_id)
  SELECT t.merchant_id, json_extract(t.details, '$.pos.terminal.id'), NEW.id
  FROM transactions t
  WHERE t.id = NEW.transaction_id AND t.payment_type = 'cardpos' AND json_type(t.details, '$.pos.terminal.id') = 'text';
END;

CREATE TRIGGER till_ledger_no_update BEFORE UPDATE ON till_ledger
BEGIN
  SELECT RAISE(ABORT, 'the till ledger is append-only');
END;
CREATE TRIGGER till_ledger_no_delete BEFORE DELETE ON till_ledger
BEGIN
  SELECT RAISE(ABORT, 'the till ledger is append-only');
END;

CREATE TABLE z_reports (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  terminal_id TEXT NOT NULL,
  sequence INTEGER NOT NULL CHECK (sequence > 0),
  from_seq INTEGER NOT NULL CHECK (from_seq >= 0),
  to_seq INTEGER NOT NULL,
  opened_at TEXT,
  closed_at TEXT NOT NULL,
  closed_by TEXT NOT NULL REFERENCES staff(id),
  approved_by TEXT REFERENCES staff(id),
  close_key TEXT,
  figures TEXT NOT NULL,
  CHECK (to_seq >= from_seq),
  UNIQUE (merchant_id, terminal_id, sequence)
) STRICT;
CREATE UNIQUE INDEX z_reports_close_key ON z_reports(merchant_id, terminal_id, close_key) WHERE close_key IS NOT NULL;

CREATE TRIGGER z_reports_chain BEFORE INSERT ON z_reports
WHEN NEW.sequence <> COALESCE((SELECT MAX(sequence) FROM z_reports WHERE merchant_id = NEW.merchant_id AND terminal_id = NEW.terminal_id), 0) + 1
  OR NEW.from_seq <> COALESCE((SELECT to_seq FROM z_reports WHERE merchant_id = NEW.merchant_id AND terminal_id = NEW.terminal_id ORDER BY sequence DESC LIMIT 1), 0)
BEGIN
  SELECT RAISE(ABORT, 'a Z report must follow the previous one of its till');
END;
CREATE TRIGGER z_reports_no_update BEFORE UPDATE ON z_reports
BEGIN
  SELECT RAISE(ABORT, 'a closed day (Z report) never changes');
END;
CREATE TRIGGER z_reports_no_delete BEFORE DELETE ON z_reports
BEGIN
  SELECT RAISE(ABORT, 'a closed day (Z report) never changes');
END;
`;
