/** The reports feature's tables, for Kysely (db/schema.ts): the tills' ledger and their Z reports (migration 0014). */
import { integer, rowId, text, textOrNull } from '../columns.js';

export const reportTables = {
  /** Appended by a trigger on transaction_events (migration 0014); read here only. */
  till_ledger: {
    seq: rowId(),
    merchant_id: text(),
    terminal_id: text(),
    event_id: text(),
  },
  z_reports: {
    id: text(),
    merchant_id: text(),
    /** A till's id, or OTHER_TERMINALS_BOOK. */
    terminal_id: text(),
    sequence: integer(),
    from_seq: integer(),
    to_seq: integer(),
    opened_at: textOrNull(),
    closed_at: text(),
    closed_by: text(),
    approved_by: textOrNull(),
    close_key: textOrNull(),
    /** JSON of the day's figures (DayFigures). */
    figures: text(),
  },
} as const;
