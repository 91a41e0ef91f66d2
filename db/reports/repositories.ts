/**
 * The tills' ledger and their closed days (migration 0014). What counts in a day's figures:
 * captures (approved, the money taken), refunds that went through (transaction status 7 or 8 on
 * the event) and declines of a sale's authorization, without the `request_pin` soft decline, which
 * is a step inside a sale. Sums are SQLite integer sums of minor units.
 */
import { dialects, type SqlDatabase } from '../sql.js';
import type { DayFigures, DayLedgerGroup, DayReportRepository, ZReportRecord } from '../../main/core/reports/ports.js';
import type { Row } from '../rows.js';

const COUNTED = `(e.type = 'capture'
  OR (e.type = 'refund' AND e.status IN (7, 8))
  OR (e.type IN ('authorization', 'reauthorization') AND e.status = 6 AND COALESCE(e.message, '') <> 'request_pin'))`;

function zFromRow(r: Row): ZReportRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    terminalId: r.terminal_id as string,
    sequence: r.sequence as number,
    fromSeq: r.from_seq as number,
    toSeq: r.to_seq as number,
    openedAt: (r.opened_at as string | null) ?? null,
    closedAt: r.closed_at as string,
    closedBy: r.closed_by as string,
    approvedBy: (r.approved_by as string | null) ?? null,
    closeKey: (r.close_key as string | null) ?? null,
    figures: JSON.parse(r.figures as string) as DayFigures,
  };
}

/** The day's figures grouped; the two fields read from the transaction's details, per engine. */
const groups = (entryMode: string, staffId: string) =>
  `SELECT CASE e.type WHEN 'capture' THEN 'approved' WHEN 'refund' THEN 'refunded' ELSE 'declined' END AS kind,
     t.currency AS currency, t.card_brand AS card_brand, ${entryMode} AS entry_mode, ${staffId} AS staff_id,
     COUNT(*) AS count, SUM(e.amount_minor) AS amount_minor
   FROM till_ledger l
   JOIN transaction_events e ON e.id = l.event_id
   JOIN transactions t ON t.id = e.transaction_id
   WHERE l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? AND l.seq <= ? AND ${COUNTED}
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5`;

/** A joined till's stored sales of a range (their capture entries), by how they ended. */
const storedSales = (isStored: string) =>
  `SELECT t.status_code AS status_code, t.currency AS currency, COUNT(*) AS count, SUM(e.amount_minor) AS amount_minor
   FROM till_ledger l
   JOIN transaction_events e ON e.id = l.event_id
   JOIN transactions t ON t.id = e.transaction_id
   WHERE l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? AND l.seq <= ? AND e.type = 'capture' AND ${isStored}
   GROUP BY t.status_code, t.currency
   ORDER BY t.status_code, t.currency`;

export function createDayReportRepository(db: SqlDatabase): DayReportRepository {
  const s = {
    watermark: db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM till_ledger WHERE merchant_id = ? AND terminal_id = ?'),
    groups: db.prepare(dialects({ sqlite: groups("json_extract(t.details, '$.pos.entry_mode')", "json_extract(t.details, '$.staff_id')"), postgres: groups("t.details::jsonb #>> '{pos,entry_mode}'", "t.details::jsonb ->> 'staff_id'") })),
    span: db.prepare(
      `SELECT MIN(e.created_at) AS first, MAX(e.created_at) AS last,
         MIN(CASE WHEN e.type = 'capture' THEN e.created_at END) AS first_sale, MAX(CASE WHEN e.type = 'capture' THEN e.created_at END) AS last_sale
       FROM till_ledger l JOIN transaction_events e ON e.id = l.event_id
       WHERE l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? AND l.seq <= ? AND ${COUNTED}`,
    ),
    storedSales: db.prepare(dialects({ sqlite: storedSales("json_type(t.details, '$.stored') = 'object'"), postgres: storedSales("(t.details::jsonb -> 'stored') IS NOT NULL") })),
    latest: db.prepare('SELECT * FROM z_reports WHERE merchant_id = ? AND terminal_id = ? ORDER BY sequence DESC LIMIT 1'),
    get: db.prepare('SELECT * FROM z_reports WHERE merchant_id = ? AND terminal_id = ? AND sequence = ?'),
    byKey: db.prepare('SELECT * FROM z_reports WHERE merchant_id = ? AND terminal_id = ? AND close_key = ?'),
    list: db.prepare('SELECT * FROM z_reports WHERE merchant_id = ? AND terminal_id = ? ORDER BY sequence DESC LIMIT ? OFFSET ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM z_reports WHERE merchant_id = ? AND terminal_id = ?'),
    insert: db.prepare(
      `INSERT INTO z_reports (id, merchant_id, terminal_id, sequence, from_seq, to_seq, opened_at, closed_at, closed_by, approved_by, close_key, figures)
       VALUES (@id, @merchantId, @terminalId, @sequence, @fromSeq, @toSeq, @openedAt, @closedAt, @closedBy, @approvedBy, @closeKey, @figures)`,
    ),
  };
  const one = (row: unknown) => (row ? zFromRow(row as Row) : undefined);
  return {
    watermark: async (merchantId, terminalId) => ((await s.watermark.get(merchantId, terminalId)) as { seq: number }).seq,
    groups: async (merchantId, terminalId, range) =>
      ((await s.groups.all(merchantId, terminalId, range.fromSeq, range.toSeq)) as Row[]).map(
        (r): DayLedgerGroup => ({
          kind: r.kind as DayLedgerGroup['kind'],
          currency: r.currency as string,
          cardBrand: (r.card_brand as string | null) ?? null,
          entryMode: typeof r.entry_mode === 'string' ? r.entry_mode : null,
          staffId: typeof r.staff_id === 'string' ? r.staff_id : null,
          count: r.count as number,
          amountMinor: r.amount_minor as number,
        }),
      ),
    span: async (merchantId, terminalId, range) => {
      const row = (await s.span.get(merchantId, terminalId, range.fromSeq, range.toSeq)) as { first: string | null; last: string | null; first_sale: string | null; last_sale: string | null };
      return { first: row.first, last: row.last, firstSale: row.first_sale, lastSale: row.last_sale };
    },
    storedSales: async (merchantId, terminalId, range) =>
      ((await s.storedSales.all(merchantId, terminalId, range.fromSeq, range.toSeq)) as Row[]).map((r) => ({
        statusCode: Number(r.status_code),
        currency: r.currency as string,
        count: Number(r.count),
        amountMinor: Number(r.amount_minor),
      })),
    latestZ: async (merchantId, terminalId) => one((await s.latest.get(merchantId, terminalId))),
    getZ: async (merchantId, terminalId, sequence) => one((await s.get.get(merchantId, terminalId, sequence))),
    findZByKey: async (merchantId, terminalId, closeKey) => one((await s.byKey.get(merchantId, terminalId, closeKey))),
    listZ: async (merchantId, terminalId, limit, offset) => ((await s.list.all(merchantId, terminalId, limit, offset)) as Row[]).map(zFromRow),
    countZ: async (merchantId, terminalId) => ((await s.count.get(merchantId, terminalId)) as { n: number }).n,
    insertZ: async (record) => void (await s.insert.run({ ...record, figures: JSON.stringify(record.figures) })),
  };
}
