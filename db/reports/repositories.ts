/**
 * The tills' ledger and their closed days (migration 0014). What counts in a day's figures:
 * captures (approved, the money taken), refunds that went through (transaction status 7 or 8 on
 * the event) and declines of a sale's authorization, without the `request_pin` soft decline, which
 * is a step inside a sale. Sums are SQLite integer sums of minor units.
 */
import { dialects, type SqlDatabase } from '../sql.js';
import type {
  DayFigures,
  DayLedgerGroup,
  DayReportRepository,
  DaySpan,
  LedgerEntryRow,
  ZReportRecord,
} from '../../main/core/reports/ports.js';
import type { Row } from '../rows.js';

/**
 * A joined till's stored sale is taken (capture, status 13) when stored; once the centre says how it
 * ended, its copy's status tells: declined (6) counts it as declined, not taken; refused there (11)
 * not at all, as the centre never made it (D19: a forwarded decline is not taken once known).
 */
const COUNTED = `((e.type = 'capture' AND NOT (e.status = 13 AND t.status_code = 11))
  OR (e.type = 'refund' AND e.status IN (7, 8))
  OR (e.type IN ('authorization', 'reauthorization') AND e.status = 6 AND COALESCE(e.message, '') <> 'request_pin'))`;
const KIND = `CASE WHEN e.type = 'refund' THEN 'refunded' WHEN e.type = 'capture' AND NOT (e.status = 13 AND t.status_code = 6) THEN 'approved' ELSE 'declined' END`;

function zFromRow(r: Row): ZReportRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    tillId: r.terminal_id as string,
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

/** What identifies a ledger entry on a centre and on its till alike: a sale by its transaction, a refund by its id (its event's). */
const ENTRY_KEY = `CASE WHEN e.type = 'refund' THEN e.id ELSE e.transaction_id END`;
/** At a centre, a joined till's entry that no day the till closed counts yet (till_days). */
const NOT_IN_A_TILL_DAY = `NOT EXISTS (SELECT 1 FROM till_day_entries d WHERE d.merchant_id = l.merchant_id AND d.till_id = l.terminal_id AND d.entry_key = ${ENTRY_KEY})`;

/** Which entries a figures query reads: a range of the ledger (a till's day), or a joined till's open day at its centre. */
const RANGE = 'l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? AND l.seq <= ?';
const OPEN_AT_CENTRE = `${RANGE} AND ${NOT_IN_A_TILL_DAY}`;

/** The day's figures grouped; the two fields read from the transaction's details, per engine. */
const groups = (entryMode: string, staffId: string, where: string) =>
  `SELECT ${KIND} AS kind,
     t.currency AS currency, t.card_brand AS card_brand, ${entryMode} AS entry_mode, ${staffId} AS staff_id,
     COUNT(*) AS count, SUM(e.amount_minor) AS amount_minor
   FROM till_ledger l
   JOIN transaction_events e ON e.id = l.event_id
   JOIN transactions t ON t.id = e.transaction_id
   WHERE ${where} AND ${COUNTED}
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5`;

/** The same figures of a day a joined till closed, at its centre: the entries the till counted in it. */
const dayGroups = (entryMode: string, staffId: string) =>
  `SELECT ${KIND} AS kind,
     t.currency AS currency, t.card_brand AS card_brand, ${entryMode} AS entry_mode, ${staffId} AS staff_id,
     COUNT(*) AS count, SUM(e.amount_minor) AS amount_minor
   FROM till_day_entries d
   JOIN transaction_events e ON e.id = d.entry_key OR (e.transaction_id = d.entry_key AND e.type <> 'refund')
   JOIN transactions t ON t.id = e.transaction_id
   WHERE d.merchant_id = ? AND d.till_id = ? AND d.sequence = ? AND t.merchant_id = d.merchant_id AND t.till_id = d.till_id AND ${COUNTED}
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5`;

const span = (where: string) =>
  `SELECT MIN(e.created_at) AS first, MAX(e.created_at) AS last,
     MIN(CASE WHEN ${KIND} = 'approved' THEN e.created_at END) AS first_sale, MAX(CASE WHEN ${KIND} = 'approved' THEN e.created_at END) AS last_sale
   FROM till_ledger l JOIN transaction_events e ON e.id = l.event_id JOIN transactions t ON t.id = e.transaction_id
   WHERE ${where} AND ${COUNTED}`;

/** The fields of a ledger entry and its sale that a till's copy and a day's list need (the details' fields per engine). */
const entryFields = (f: DetailFields) =>
  `l.seq AS seq, CASE WHEN ${COUNTED} THEN ${KIND} END AS figure, e.id AS event_id, e.amount_minor AS amount_minor, e.created_at AS event_at,
   t.id AS transaction_id, t.order_id AS order_id, t.currency AS currency, t.amount_minor AS sale_minor, t.captured_minor AS captured_minor,
   t.refunded_minor AS refunded_minor, t.status_code AS status_code, t.message AS message, t.card_brand AS card_brand, t.card_last_four AS card_last_four,
   t.till_id AS till_id, ${f.entryMode} AS entry_mode, ${f.terminal} AS terminal_id, ${f.staffId} AS staff_id, ${f.authorization} AS authorization_code,
   ${f.storedAt} AS stored_at, t.created_at AS sold_at, r.merchant_reference AS merchant_reference`;
const ENTRY_JOINS = `FROM till_ledger l
   JOIN transaction_events e ON e.id = l.event_id
   JOIN transactions t ON t.id = e.transaction_id
   LEFT JOIN refunds r ON r.id = e.id`;

/** A ledger's entries after a position (counted ones have a figure): what a centre tells its joined till. */
const entriesSince = (f: DetailFields) =>
  `SELECT ${entryFields(f)} ${ENTRY_JOINS} WHERE l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? ORDER BY l.seq LIMIT ?`;

/** The counted entries of a day, in ledger order: Today's sales, from the same entries as the X report. */
const dayEntries = (f: DetailFields, where: string) =>
  `SELECT ${entryFields(f)} ${ENTRY_JOINS} WHERE ${where} AND ${COUNTED} ORDER BY l.seq`;

/** A joined till's stored sales of a range (their capture entries), by how they ended. */
const storedSales = (isStored: string) =>
  `SELECT t.status_code AS status_code, t.currency AS currency, COUNT(*) AS count, SUM(e.amount_minor) AS amount_minor
   FROM till_ledger l
   JOIN transaction_events e ON e.id = l.event_id
   JOIN transactions t ON t.id = e.transaction_id
   WHERE l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? AND l.seq <= ? AND e.type = 'capture' AND ${isStored}
   GROUP BY t.status_code, t.currency
   ORDER BY t.status_code, t.currency`;

/** The details fields the reports read, per engine. */
interface DetailFields {
  entryMode: string;
  staffId: string;
  terminal: string;
  authorization: string;
  storedAt: string;
}
const SQLITE: DetailFields = {
  entryMode: "json_extract(t.details, '$.pos.entry_mode')",
  staffId: "json_extract(t.details, '$.staff_id')",
  terminal: "json_extract(t.details, '$.pos.terminal.id')",
  authorization: "json_extract(t.details, '$.authorization_code')",
  storedAt: "json_extract(t.details, '$.stored.stored_at')",
};
const POSTGRES: DetailFields = {
  entryMode: "t.details::jsonb #>> '{pos,entry_mode}'",
  staffId: "t.details::jsonb ->> 'staff_id'",
  terminal: "t.details::jsonb #>> '{pos,terminal,id}'",
  authorization: "t.details::jsonb ->> 'authorization_code'",
  storedAt: "t.details::jsonb #>> '{stored,stored_at}'",
};

function groupFromRow(r: Row): DayLedgerGroup {
  return {
    kind: r.kind as DayLedgerGroup['kind'],
    currency: r.currency as string,
    cardBrand: (r.card_brand as string | null) ?? null,
    entryMode: typeof r.entry_mode === 'string' ? r.entry_mode : null,
    staffId: typeof r.staff_id === 'string' ? r.staff_id : null,
    count: Number(r.count),
    amountMinor: Number(r.amount_minor),
  };
}

function spanFromRow(row: Row): DaySpan {
  const time = (value: unknown) => (typeof value === 'string' ? value : null);
  return { first: time(row.first), last: time(row.last), firstSale: time(row.first_sale), lastSale: time(row.last_sale) };
}

function entryFromRow(r: Row): LedgerEntryRow {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    seq: Number(r.seq),
    figure: r.figure === 'approved' || r.figure === 'declined' || r.figure === 'refunded' ? r.figure : null,
    eventId: r.event_id as string,
    amountMinor: Number(r.amount_minor),
    eventAt: r.event_at as string,
    transactionId: r.transaction_id as string,
    orderId: text(r.order_id),
    currency: r.currency as string,
    saleMinor: Number(r.sale_minor),
    capturedMinor: Number(r.captured_minor),
    refundedMinor: Number(r.refunded_minor),
    statusCode: Number(r.status_code),
    message: text(r.message),
    cardBrand: text(r.card_brand),
    cardLastFour: text(r.card_last_four),
    entryMode: text(r.entry_mode),
    terminalId: text(r.terminal_id),
    staffId: text(r.staff_id),
    authorizationCode: text(r.authorization_code),
    tillId: text(r.till_id),
    storedAt: text(r.stored_at),
    soldAt: r.sold_at as string,
    merchantReference: text(r.merchant_reference),
  };
}

export function createDayReportRepository(db: SqlDatabase): DayReportRepository {
  const s = {
    watermark: db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM till_ledger WHERE merchant_id = ? AND terminal_id = ?'),
    groups: db.prepare(
      dialects({ sqlite: groups(SQLITE.entryMode, SQLITE.staffId, RANGE), postgres: groups(POSTGRES.entryMode, POSTGRES.staffId, RANGE) }),
    ),
    openGroups: db.prepare(
      dialects({
        sqlite: groups(SQLITE.entryMode, SQLITE.staffId, OPEN_AT_CENTRE),
        postgres: groups(POSTGRES.entryMode, POSTGRES.staffId, OPEN_AT_CENTRE),
      }),
    ),
    dayGroups: db.prepare(
      dialects({ sqlite: dayGroups(SQLITE.entryMode, SQLITE.staffId), postgres: dayGroups(POSTGRES.entryMode, POSTGRES.staffId) }),
    ),
    span: db.prepare(span(RANGE)),
    openSpan: db.prepare(span(OPEN_AT_CENTRE)),
    entriesSince: db.prepare(dialects({ sqlite: entriesSince(SQLITE), postgres: entriesSince(POSTGRES) })),
    dayEntries: db.prepare(dialects({ sqlite: dayEntries(SQLITE, RANGE), postgres: dayEntries(POSTGRES, RANGE) })),
    openDayEntries: db.prepare(dialects({ sqlite: dayEntries(SQLITE, OPEN_AT_CENTRE), postgres: dayEntries(POSTGRES, OPEN_AT_CENTRE) })),
    entryKeys: db.prepare(
      `SELECT DISTINCT ${ENTRY_KEY} AS entry_key FROM till_ledger l JOIN transaction_events e ON e.id = l.event_id JOIN transactions t ON t.id = e.transaction_id
       WHERE ${RANGE} AND ${COUNTED} ORDER BY 1`,
    ),
    storedSales: db.prepare(
      dialects({
        sqlite: storedSales("json_type(t.details, '$.stored') = 'object'"),
        postgres: storedSales("(t.details::jsonb -> 'stored') IS NOT NULL"),
      }),
    ),
    latest: db.prepare('SELECT * FROM z_reports WHERE merchant_id = ? AND terminal_id = ? ORDER BY sequence DESC LIMIT 1'),
    get: db.prepare('SELECT * FROM z_reports WHERE merchant_id = ? AND terminal_id = ? AND sequence = ?'),
    byKey: db.prepare('SELECT * FROM z_reports WHERE merchant_id = ? AND terminal_id = ? AND close_key = ?'),
    list: db.prepare('SELECT * FROM z_reports WHERE merchant_id = ? AND terminal_id = ? ORDER BY sequence DESC LIMIT ? OFFSET ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM z_reports WHERE merchant_id = ? AND terminal_id = ?'),
    insert: db.prepare(
      `INSERT INTO z_reports (id, merchant_id, terminal_id, sequence, from_seq, to_seq, opened_at, closed_at, closed_by, approved_by, close_key, figures)
       VALUES (@id, @merchantId, @tillId, @sequence, @fromSeq, @toSeq, @openedAt, @closedAt, @closedBy, @approvedBy, @closeKey, @figures)`,
    ),
  };
  const one = (row: unknown) => (row ? zFromRow(row as Row) : undefined);
  return {
    watermark: async (merchantId, tillId) => ((await s.watermark.get(merchantId, tillId)) as { seq: number }).seq,
    groups: async (merchantId, tillId, range, options = {}) =>
      ((await (options.openAtCentre ? s.openGroups : s.groups).all(merchantId, tillId, range.fromSeq, range.toSeq)) as Row[]).map(
        groupFromRow,
      ),
    dayGroups: async (merchantId, tillId, sequence) => ((await s.dayGroups.all(merchantId, tillId, sequence)) as Row[]).map(groupFromRow),
    span: async (merchantId, tillId, range, options = {}) =>
      spanFromRow((await (options.openAtCentre ? s.openSpan : s.span).get(merchantId, tillId, range.fromSeq, range.toSeq)) as Row),
    entriesSince: async (merchantId, tillId, after, limit) =>
      ((await s.entriesSince.all(merchantId, tillId, after, limit)) as Row[]).map(entryFromRow),
    dayEntries: async (merchantId, tillId, range, options = {}) =>
      ((await (options.openAtCentre ? s.openDayEntries : s.dayEntries).all(merchantId, tillId, range.fromSeq, range.toSeq)) as Row[]).map(
        entryFromRow,
      ),
    entryKeys: async (merchantId, tillId, range) =>
      ((await s.entryKeys.all(merchantId, tillId, range.fromSeq, range.toSeq)) as Row[]).map((r) => r.entry_key as string),
    storedSales: async (merchantId, tillId, range) =>
      ((await s.storedSales.all(merchantId, tillId, range.fromSeq, range.toSeq)) as Row[]).map((r) => ({
        statusCode: Number(r.status_code),
        currency: r.currency as string,
        count: Number(r.count),
        amountMinor: Number(r.amount_minor),
      })),
    latestZ: async (merchantId, tillId) => one(await s.latest.get(merchantId, tillId)),
    getZ: async (merchantId, tillId, sequence) => one(await s.get.get(merchantId, tillId, sequence)),
    findZByKey: async (merchantId, tillId, closeKey) => one(await s.byKey.get(merchantId, tillId, closeKey)),
    listZ: async (merchantId, tillId, limit, offset) => ((await s.list.all(merchantId, tillId, limit, offset)) as Row[]).map(zFromRow),
    countZ: async (merchantId, tillId) => ((await s.count.get(merchantId, tillId)) as { n: number }).n,
    insertZ: async (record) => void (await s.insert.run({ ...record, figures: JSON.stringify(record.figures) })),
  };
}
