/**
 * The tills' ledger and their closed days (migration 0014). What counts in a day's figures:
 * captures (approved, the money taken), refunds that went through (transaction status 7 or 8 on
 * the event) and declines of a sale's authorization, without the `request_pin` soft decline, which
 * is a step inside a sale. Sums are SQLite integer sums of minor units.
 *
 * The Z reports and the ledger's watermark are built with Kysely (db/typed-sql.ts), rows typed by
 * db/schema.ts. The figures are hand-written per engine (each text below has a SQLite and a
 * PostgreSQL form, `?` and `$n`): every figure query joins other features' tables
 * (transaction_events, transactions, refunds, till_day_entries) and shares the one COUNTED / KIND
 * text, so that the X and Z reports, a day's list and a joined till's copy count the same entries to
 * the cent; a builder would spread that text over expression callbacks.
 */
import { sql, type Selectable } from 'kysely';
import { dialects, type DialectSql, type SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, rowPlaces } from '../typed-sql.js';
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

function zFromRow(r: Selectable<Database['z_reports']>): ZReportRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    tillId: r.terminal_id,
    sequence: r.sequence,
    fromSeq: r.from_seq,
    toSeq: r.to_seq,
    openedAt: r.opened_at ?? null,
    closedAt: r.closed_at,
    closedBy: r.closed_by,
    approvedBy: r.approved_by ?? null,
    closeKey: r.close_key ?? null,
    figures: JSON.parse(r.figures) as DayFigures,
  };
}

/** No cut: every entry (the highest ledger number a cut can name). */
const SETTLED_ANYWHERE = Number.MAX_SAFE_INTEGER;

/** What identifies a ledger entry on a centre and on its till alike: a sale by its transaction, a refund by its id (its event's). */
const ENTRY_KEY = `CASE WHEN e.type = 'refund' THEN e.id ELSE e.transaction_id END`;
/** At a centre, a joined till's entry that no day the till closed counts yet (till_days). */
const NOT_IN_A_TILL_DAY = `NOT EXISTS (SELECT 1 FROM till_day_entries d WHERE d.merchant_id = l.merchant_id AND d.till_id = l.terminal_id AND d.entry_key = ${ENTRY_KEY})`;

/** Which entries a figures query reads: a range of the ledger (a till's day), or a joined till's open day at its centre. */
const RANGE: DialectSql = {
  sqlite: 'l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? AND l.seq <= ?',
  postgres: 'l.merchant_id = $1 AND l.terminal_id = $2 AND l.seq > $3 AND l.seq <= $4',
};
const OPEN_AT_CENTRE: DialectSql = {
  sqlite: `${RANGE.sqlite} AND ${NOT_IN_A_TILL_DAY}`,
  postgres: `${RANGE.postgres} AND ${NOT_IN_A_TILL_DAY}`,
};

/** The day's figures grouped; the two fields read from the transaction's details, per engine. */
const groups = (f: EngineSql, where: string) =>
  `SELECT ${KIND} AS kind,
     t.currency AS currency, t.card_brand AS card_brand, ${f.entryMode} AS entry_mode, ${f.staffId} AS staff_id,
     COUNT(*) AS count, SUM(e.amount_minor) AS amount_minor
   FROM till_ledger l
   JOIN transaction_events e ON e.id = l.event_id
   JOIN transactions t ON t.id = e.transaction_id
   WHERE ${where} AND ${COUNTED}
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5`;

/** The same figures of a day a joined till closed, at its centre: the entries the till counted in it. */
const dayGroups = (f: EngineSql) =>
  `SELECT ${KIND} AS kind,
     t.currency AS currency, t.card_brand AS card_brand, ${f.entryMode} AS entry_mode, ${f.staffId} AS staff_id,
     COUNT(*) AS count, SUM(e.amount_minor) AS amount_minor
   FROM till_day_entries d
   JOIN transaction_events e ON e.id = d.entry_key OR (e.transaction_id = d.entry_key AND e.type <> 'refund')
   JOIN transactions t ON t.id = e.transaction_id
   WHERE ${f.daySequence} AND t.merchant_id = d.merchant_id AND t.till_id = d.till_id AND ${COUNTED}
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5`;

const span = (where: string) =>
  `SELECT MIN(e.created_at) AS first, MAX(e.created_at) AS last,
     MIN(CASE WHEN ${KIND} = 'approved' THEN e.created_at END) AS first_sale, MAX(CASE WHEN ${KIND} = 'approved' THEN e.created_at END) AS last_sale
   FROM till_ledger l JOIN transaction_events e ON e.id = l.event_id JOIN transactions t ON t.id = e.transaction_id
   WHERE ${where} AND ${COUNTED}`;

/** The fields of a ledger entry and its sale that a till's copy and a day's list need (the details' fields per engine). */
const entryFields = (f: EngineSql) =>
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
const entriesSince = (f: EngineSql) => `SELECT ${entryFields(f)} ${ENTRY_JOINS} WHERE ${f.since} ORDER BY l.seq LIMIT ${f.sinceLimit}`;

/** The counted entries of a day, in ledger order: Today's sales, from the same entries as the X report. */
const dayEntries = (f: EngineSql, where: string) => `SELECT ${entryFields(f)} ${ENTRY_JOINS} WHERE ${where} AND ${COUNTED} ORDER BY l.seq`;

/** A joined till's stored sales of a range (their capture entries), by how they ended. */
const storedSales = (f: EngineSql) =>
  `SELECT t.status_code AS status_code, t.currency AS currency, COUNT(*) AS count, SUM(e.amount_minor) AS amount_minor
   FROM till_ledger l
   JOIN transaction_events e ON e.id = l.event_id
   JOIN transactions t ON t.id = e.transaction_id
   WHERE ${f.range} AND e.type = 'capture' AND ${f.isStored}
   GROUP BY t.status_code, t.currency
   ORDER BY t.status_code, t.currency`;

/** What differs per engine in the texts above: the details fields the reports read, and the parameters. */
interface EngineSql {
  entryMode: string;
  staffId: string;
  terminal: string;
  authorization: string;
  storedAt: string;
  /** Whether a sale was stored by a joined till (its details' `stored` object). */
  isStored: string;
  range: string;
  openAtCentre: string;
  /** A till's entries after a position (the limit is the fourth parameter). */
  since: string;
  sinceLimit: string;
  /** A closed day of a joined till, at its centre. */
  daySequence: string;
}
const SQLITE: EngineSql = {
  entryMode: "json_extract(t.details, '$.pos.entry_mode')",
  staffId: "json_extract(t.details, '$.staff_id')",
  terminal: "json_extract(t.details, '$.pos.terminal.id')",
  authorization: "json_extract(t.details, '$.authorization_code')",
  storedAt: "json_extract(t.details, '$.stored.stored_at')",
  isStored: "json_type(t.details, '$.stored') = 'object'",
  range: RANGE.sqlite,
  openAtCentre: OPEN_AT_CENTRE.sqlite,
  since: 'l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? AND l.seq <= ?',
  sinceLimit: '?',
  daySequence: 'd.merchant_id = ? AND d.till_id = ? AND d.sequence = ?',
};
const POSTGRES: EngineSql = {
  entryMode: "t.details::jsonb #>> '{pos,entry_mode}'",
  staffId: "t.details::jsonb ->> 'staff_id'",
  terminal: "t.details::jsonb #>> '{pos,terminal,id}'",
  authorization: "t.details::jsonb ->> 'authorization_code'",
  storedAt: "t.details::jsonb #>> '{stored,stored_at}'",
  isStored: "(t.details::jsonb -> 'stored') IS NOT NULL",
  range: RANGE.postgres,
  openAtCentre: OPEN_AT_CENTRE.postgres,
  since: 'l.merchant_id = $1 AND l.terminal_id = $2 AND l.seq > $3 AND l.seq <= $4',
  sinceLimit: '$5',
  daySequence: 'd.merchant_id = $1 AND d.till_id = $2 AND d.sequence = $3',
};

/** A figures text written for each engine. */
const perEngine = (text: (f: EngineSql) => string): DialectSql => dialects({ sqlite: text(SQLITE), postgres: text(POSTGRES) });

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

/**
 * The book's settled position (DayReportRepository.settled). PostgreSQL: migration 34's function,
 * which holds the book's lock exclusively for its one statement. SQLite: one writer, so every
 * committed entry is final and nothing is asked of the database.
 */
function settledOn(db: SqlDatabase): DayReportRepository['settled'] {
  if (db.dialect !== 'postgres') return async () => SETTLED_ANYWHERE;
  const statement = db.prepare({ compiled: 'postgres', sql: 'SELECT till_ledger_settled($1, $2) AS seq' });
  return async (merchantId, tillId) => Number(((await statement.get(merchantId, tillId)) as Row).seq);
}

export function createDayReportRepository(db: SqlDatabase): DayReportRepository {
  const s = {
    watermark: typed<{ merchantId: string; tillId: string; upTo: number }>()(db, (k, p) =>
      k
        .selectFrom('till_ledger')
        .select((eb) => eb.fn.coalesce(eb.fn.max('seq'), sql.lit(0)).as('seq'))
        .where('merchant_id', '=', p('merchantId'))
        .where('terminal_id', '=', p('tillId'))
        .where('seq', '<=', p('upTo')),
    ),
    // Hand-written per engine (the figures: see the file's comment).
    groups: db.prepare(perEngine((f) => groups(f, f.range))),
    openGroups: db.prepare(perEngine((f) => groups(f, f.openAtCentre))),
    dayGroups: db.prepare(perEngine(dayGroups)),
    span: db.prepare(perEngine((f) => span(f.range))),
    openSpan: db.prepare(perEngine((f) => span(f.openAtCentre))),
    entriesSince: db.prepare(perEngine(entriesSince)),
    dayEntries: db.prepare(perEngine((f) => dayEntries(f, f.range))),
    openDayEntries: db.prepare(perEngine((f) => dayEntries(f, f.openAtCentre))),
    entryKeys: db.prepare(
      perEngine(
        (
          f,
        ) => `SELECT DISTINCT ${ENTRY_KEY} AS entry_key FROM till_ledger l JOIN transaction_events e ON e.id = l.event_id JOIN transactions t ON t.id = e.transaction_id
       WHERE ${f.range} AND ${COUNTED} ORDER BY 1`,
      ),
    ),
    storedSales: db.prepare(perEngine(storedSales)),
    latest: typed<{ merchantId: string; tillId: string }>()(db, (k, p) =>
      k
        .selectFrom('z_reports')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('terminal_id', '=', p('tillId'))
        .orderBy('sequence', 'desc')
        .limit(1),
    ),
    get: typed<{ merchantId: string; tillId: string; sequence: number }>()(db, (k, p) =>
      k
        .selectFrom('z_reports')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('terminal_id', '=', p('tillId'))
        .where('sequence', '=', p('sequence')),
    ),
    byKey: typed<{ merchantId: string; tillId: string; closeKey: string }>()(db, (k, p) =>
      k
        .selectFrom('z_reports')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('terminal_id', '=', p('tillId'))
        .where('close_key', '=', p('closeKey')),
    ),
    list: typed<{ merchantId: string; tillId: string; limit: number; offset: number }>()(db, (k, p) =>
      k
        .selectFrom('z_reports')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('terminal_id', '=', p('tillId'))
        .orderBy('sequence', 'desc')
        .limit(p('limit'))
        .offset(p('offset')),
    ),
    count: typed<{ merchantId: string; tillId: string }>()(db, (k, p) =>
      k
        .selectFrom('z_reports')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('merchant_id', '=', p('merchantId'))
        .where('terminal_id', '=', p('tillId')),
    ),
    insert: typed<Database['z_reports']>()(db, (k, p) => k.insertInto('z_reports').values(rowPlaces('z_reports', p))),
  };
  const one = (row: Selectable<Database['z_reports']> | undefined) => (row ? zFromRow(row) : undefined);
  return {
    watermark: async (merchantId, tillId, upTo = SETTLED_ANYWHERE) =>
      Number((await s.watermark.get({ merchantId, tillId, upTo }))?.seq ?? 0),
    settled: settledOn(db),
    groups: async (merchantId, tillId, range, options = {}) =>
      ((await (options.openAtCentre ? s.openGroups : s.groups).all(merchantId, tillId, range.fromSeq, range.toSeq)) as Row[]).map(
        groupFromRow,
      ),
    dayGroups: async (merchantId, tillId, sequence) => ((await s.dayGroups.all(merchantId, tillId, sequence)) as Row[]).map(groupFromRow),
    span: async (merchantId, tillId, range, options = {}) =>
      spanFromRow((await (options.openAtCentre ? s.openSpan : s.span).get(merchantId, tillId, range.fromSeq, range.toSeq)) as Row),
    entriesSince: async (merchantId, tillId, after, limit, upTo = SETTLED_ANYWHERE) =>
      ((await s.entriesSince.all(merchantId, tillId, after, upTo, limit)) as Row[]).map(entryFromRow),
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
    latestZ: async (merchantId, tillId) => one(await s.latest.get({ merchantId, tillId })),
    getZ: async (merchantId, tillId, sequence) => one(await s.get.get({ merchantId, tillId, sequence })),
    findZByKey: async (merchantId, tillId, closeKey) => one(await s.byKey.get({ merchantId, tillId, closeKey })),
    listZ: async (merchantId, tillId, limit, offset) => (await s.list.all({ merchantId, tillId, limit, offset })).map(zFromRow),
    countZ: async (merchantId, tillId) => Number((await s.count.get({ merchantId, tillId }))?.n ?? 0),
    insertZ: async (record) =>
      void (await s.insert.run({
        id: record.id,
        merchant_id: record.merchantId,
        terminal_id: record.tillId,
        sequence: record.sequence,
        from_seq: record.fromSeq,
        to_seq: record.toSeq,
        opened_at: record.openedAt,
        closed_at: record.closedAt,
        closed_by: record.closedBy,
        approved_by: record.approvedBy,
        close_key: record.closeKey,
        figures: JSON.stringify(record.figures),
      })),
  };
}
