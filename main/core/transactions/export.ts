/**
 * CSV export of the transaction list (GET /rest/transactions/export; docs/decisions.md "Back office:
 * transactions"): the list's filters, chosen columns, timestamps in a chosen time zone. The file is
 * streamed: rows are read from SQLite a chunk at a time by keyset (the list's own index and order),
 * each chunk in its own short read, and the next chunk is read only when the previous one has gone
 * out (the caller pulls the async iterable at the pace of the socket). So a million rows are never
 * held in memory, and other requests run between the chunks (an open SQLite cursor would hold the
 * one connection for the whole download).
 *
 * The export covers the rows created up to its start (`to` is capped at now, so the count sent
 * first and the rows agree); a row whose status changes meanwhile shows its status when its chunk is
 * read. A staff member's export is in the audit log with its filters and columns.
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { TransactionExportQuery } from '../../../contract/api/transactions.js';
import { statusName } from '../../../contract/codes.js';
import { exponentOf, minorToText } from '../../../contract/money.js';
import {
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_CHUNK_ROWS,
  EXPORT_COLUMNS,
  EXPORT_PART_MAX_ROWS,
  type ExportColumn,
} from '../../../contract/transaction-list.js';
import { failure, success, validationError, type Outcome } from '../errors.js';
import type { Clock } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { TransactionsUnit } from './ports.js';
import type { TransactionFilter, TransactionRecord } from '../payments/ports.js';
import type { Staff } from '../staff/staff.js';
import { keysetPosition, parseFilters, parseStartingAfter, takenAt } from './queries.js';

export interface TransactionCsv {
  /** Suggested file name, e.g. transactions-20261121-1030.csv (in the export's time zone). */
  filename: string;
  /** Rows the whole export carries (from `starting_after` on, all parts together). */
  total: number;
  /** With `limit`: the transaction to continue after, when rows remain. */
  nextStartingAfter: string | null;
  /** The file: the header line (unless left out), then the rows, a chunk of lines at a time. */
  body: AsyncIterable<string>;
}

export interface ExportOptions {
  /** The staff member who exports (the audit log names them); none for API credentials. */
  staffId?: string;
}

const COLUMN_SET: ReadonlySet<string> = new Set(EXPORT_COLUMNS);
/** Columns of free text from the merchant or customer: guarded against spreadsheet formulas. */
const TEXT_COLUMNS: ReadonlySet<ExportColumn> = new Set([
  'order_id',
  'message',
  'merchant_reference',
  'additional_transaction_data',
  'sepa_mandate',
  'parent_id',
  'cashier',
  'till_id',
]);

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) gets a leading
 * apostrophe (OWASP "CSV injection"); the gateway's own values never start so.
 */
export function defuseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Formats instants as ISO 8601 in one IANA time zone, with its offset then (`Z` in UTC). */
export class ZonedTimestamps {
  private readonly parts: Intl.DateTimeFormat | undefined;
  /** Offset in minutes per UTC day (negative keys; NaN: the offset changes that day) and per quarter hour. */
  private readonly offsets = new Map<number, number>();

  constructor(readonly timeZone: string) {
    this.parts =
      timeZone === 'UTC'
        ? undefined
        : new Intl.DateTimeFormat('en-US', {
            timeZone,
            hourCycle: 'h23',
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
          });
  }

  /** Whether `name` is a time zone this runtime knows. */
  static isTimeZone(name: string): boolean {
    if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(name)) return false;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      return true;
    } catch {
      return false;
    }
  }

  /** The zone's offset at an instant, in minutes (Intl, the slow part). */
  private offsetAt(ms: number): number {
    const fields: Record<string, number> = {};
    for (const part of (this.parts as Intl.DateTimeFormat).formatToParts(new Date(ms))) {
      if (part.type !== 'literal') fields[part.type] = Number(part.value);
    }
    const local = Date.UTC(
      fields.year ?? 1970,
      (fields.month ?? 1) - 1,
      fields.day ?? 1,
      fields.hour ?? 0,
      fields.minute ?? 0,
      fields.second ?? 0,
    );
    return Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
  }

  /**
   * Offsets are looked up once per UTC day when the day starts and ends with the same offset (no
   * change that day), else per quarter hour (zones change offset on quarter hours).
   */
  private offsetMinutes(ms: number): number {
    if (this.offsets.size > 20_000) this.offsets.clear();
    const day = -1 - Math.floor(ms / 86_400_000);
    let offset = this.offsets.get(day);
    if (offset === undefined) {
      const start = -day - 1;
      const first = this.offsetAt(start * 86_400_000);
      offset = first === this.offsetAt(start * 86_400_000 + 86_399_000) ? first : Number.NaN;
      this.offsets.set(day, offset);
    }
    if (!Number.isNaN(offset)) return offset;
    const quarter = Math.floor(ms / 900_000);
    let exact = this.offsets.get(quarter);
    if (exact === undefined) {
      exact = this.offsetAt(quarter * 900_000);
      this.offsets.set(quarter, exact);
    }
    return exact;
  }

  format(iso: string): string {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return iso;
    if (!this.parts) return `${new Date(ms).toISOString().slice(0, 19)}Z`;
    const offset = this.offsetMinutes(ms);
    const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset);
    return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  }

  /** `20261121-1030`, for file names. */
  compact(ms: number): string {
    const text = this.format(new Date(ms).toISOString());
    return `${text.slice(0, 4)}${text.slice(5, 7)}${text.slice(8, 10)}-${text.slice(11, 13)}${text.slice(14, 16)}`;
  }
}

function entryMode(t: TransactionRecord): string {
  if (t.details.pos) return t.details.pos.entry_mode;
  return t.paymentType === 'cardecom' && t.cardLastFour ? 'ecommerce' : '';
}

/** The value of one column of a row, as text. Card data is brand and last four only. */
const exponents = new Map<string, number>();
function exponentFor(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    exponent = exponentOf(currency);
    exponents.set(currency, exponent);
  }
  return exponent;
}

/** What a row's cells may need beyond the row: the names of the staff (the cashier column). */
export interface ExportContext {
  time: ZonedTimestamps;
  staffNames: ReadonlyMap<string, string>;
}

function cell(t: TransactionRecord, column: ExportColumn, { time, staffNames }: ExportContext): string {
  const money = (minor: number) => minorToText(minor, exponentFor(t.currency));
  switch (column) {
    case 'transaction_id':
      return t.id;
    case 'created_at':
      return time.format(t.createdAt);
    case 'updated_at':
      return time.format(t.updatedAt);
    case 'status_code':
      return String(t.statusCode);
    case 'status':
      return statusName(t.statusCode);
    case 'payment_type':
      return t.paymentType;
    case 'amount':
      return money(t.amountMinor);
    case 'currency':
      return t.currency;
    case 'captured_amount':
      return money(t.capturedMinor);
    case 'refunded_amount':
      return money(t.refundedMinor);
    case 'included_fees':
      return money(t.feesMinor);
    case 'order_id':
      return t.orderId ?? '';
    case 'card_brand':
      return t.cardLastFour ? (t.cardBrand ?? 'unknown') : '';
    case 'card_last_four':
      return t.cardLastFour ?? '';
    case 'entry_mode':
      return entryMode(t);
    case 'message':
      return t.message ?? '';
    case 'merchant_reference':
      return t.merchantReference ?? '';
    case 'additional_transaction_data':
      return t.additionalTransactionData ?? '';
    case 'recurring':
      return String(t.recurring);
    case 'parent_id':
      return t.parentId ?? '';
    case 'sepa_mandate':
      return t.sepaMandate ?? '';
    case 'till_id':
      return t.tillId ?? '';
    case 'cashier': {
      const staffId = t.details.staff_id;
      return staffId ? (staffNames.get(staffId) ?? staffId) : '';
    }
    case 'taken_at':
      return t.paymentType === 'cardpos' ? time.format(takenAt(t)) : '';
    case 'forwarded_at':
      return t.details.stored?.forwarded_at ? time.format(t.details.stored.forwarded_at) : '';
  }
}

export function csvLine(t: TransactionRecord, columns: readonly ExportColumn[], context: ExportContext): string {
  return `${columns.map((column) => csvField(TEXT_COLUMNS.has(column) ? defuseFormula(cell(t, column, context)) : cell(t, column, context))).join(',')}\r\n`;
}

interface ParsedExport {
  filter: Omit<TransactionFilter, 'limit' | 'offset'>;
  columns: ExportColumn[];
  timeZone: string;
  limit: number | undefined;
  startingAfter: string | undefined;
  header: boolean;
}

export function parseExportQuery(query: TransactionExportQuery): Outcome<ParsedExport> {
  const errors: FieldError[] = [];
  const filter = parseFilters(query, errors);
  let columns: ExportColumn[] = [...DEFAULT_EXPORT_COLUMNS];
  if (query.columns !== undefined) {
    const names = query.columns.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !COLUMN_SET.has(name));
    if (names.length === 0 || names.every((name) => name === '') || unknown.length) {
      errors.push({
        field: 'columns',
        message: `must be a comma-separated list of: ${EXPORT_COLUMNS.join(', ')}${
          unknown.length
            ? ` (unknown: ${
                unknown
                  .filter((n) => n)
                  .slice(0, 5)
                  .join(', ') || 'an empty name'
              })`
            : ''
        }`,
      });
    } else {
      columns = [...new Set(names)] as ExportColumn[];
    }
  }
  const timeZone = query.time_zone ?? 'UTC';
  if (!ZonedTimestamps.isTimeZone(timeZone))
    errors.push({ field: 'time_zone', message: 'must be an IANA time zone such as Europe/Berlin, or UTC' });
  let limit: number | undefined;
  if (query.limit !== undefined) {
    limit = /^\d{1,6}$/.test(query.limit) ? Number(query.limit) : Number.NaN;
    if (!(limit >= 1 && limit <= EXPORT_PART_MAX_ROWS))
      errors.push({ field: 'limit', message: `must be a whole number from 1 to ${EXPORT_PART_MAX_ROWS}` });
  }
  const startingAfter = parseStartingAfter(query.starting_after, errors);
  if (query.header !== undefined && query.header !== '0' && query.header !== '1')
    errors.push({ field: 'header', message: 'must be 1 (a header line) or 0 (none)' });
  if (errors.length) return failure(validationError(errors));
  return success({ filter, columns, timeZone, limit, startingAfter, header: query.header !== '0' });
}

/** Every field an export query names wrongly (for one 400 also when the schema rejected some). */
export function exportQueryErrors(query: Record<string, unknown>): FieldError[] {
  const strings = Object.fromEntries(Object.entries(query).filter(([, value]) => typeof value === 'string')) as TransactionExportQuery;
  const result = parseExportQuery(strings);
  return result.ok ? [] : result.error.errors;
}

/** A short account of an export for the audit log: rows, columns, time zone and the filters given. */
function auditDetail(query: TransactionExportQuery, columns: readonly string[], timeZone: string, total: number): string {
  const filters = (
    [
      'from',
      'to',
      'status',
      'currency',
      'order_id',
      'payment_type',
      'card_last_four',
      'amount',
      'amount_min',
      'amount_max',
      'search',
    ] as const
  )
    .filter((key) => query[key] !== undefined)
    .map((key) => `${key}=${String(query[key])}`);
  return [
    `${total} rows`,
    `columns ${columns.join(',')}`,
    `time zone ${timeZone}`,
    filters.length ? `filters ${filters.join(' ')}` : 'no filters',
    ...(query.starting_after ? [`after ${query.starting_after}`] : []),
  ]
    .join('; ')
    .slice(0, 1000);
}

export class TransactionExport {
  constructor(
    private readonly store: Store<TransactionsUnit>,
    private readonly clock: Clock,
    private readonly staff: Pick<Staff, 'auditRecord' | 'recordAudit'>,
    private readonly chunkRows = EXPORT_CHUNK_ROWS,
  ) {}

  async start(merchantId: string, query: TransactionExportQuery, options: ExportOptions = {}): Promise<Outcome<TransactionCsv>> {
    const parsed = parseExportQuery(query);
    if (!parsed.ok) return parsed;
    const { columns, timeZone, limit, startingAfter, header } = parsed.value;
    const now = this.clock.now();
    // Rows created after the start are not part of this export: the count and the rows agree.
    const nowIso = now.toISOString();
    const filter: TransactionFilter = {
      ...parsed.value.filter,
      to: parsed.value.filter.to !== undefined && parsed.value.filter.to < nowIso ? parsed.value.filter.to : nowIso,
      limit: this.chunkRows,
      offset: 0,
    };
    if (startingAfter !== undefined) {
      const position = await keysetPosition(this.store, merchantId, startingAfter);
      if (!position.ok) return position;
      filter.after = position.value;
    }
    const remaining = await this.store.read((r) => r.transactions.count(merchantId, filter));
    const time = new ZonedTimestamps(timeZone);
    const staffNames = columns.includes('cashier')
      ? new Map((await this.store.read((r) => r.staff.listByMerchant(merchantId))).map((s) => [s.id, s.displayName]))
      : new Map<string, string>();
    const context: ExportContext = { time, staffNames };
    const headerLine = header ? `${columns.join(',')}\r\n` : '';

    if (options.staffId) {
      await this.staff.recordAudit(
        this.staff.auditRecord(merchantId, options.staffId, null, 'export', null, auditDetail(query, columns, timeZone, remaining)),
      );
    }
    const filename = `transactions-${time.compact(now.getTime())}.csv`;

    if (limit !== undefined) {
      // One part (the desktop app's bridge carries whole answers): at most `limit` rows, read now.
      const rows = await this.store.read((r) => r.transactions.list(merchantId, { ...filter, limit: limit + 1 }));
      const part = rows.slice(0, limit);
      const text = headerLine + part.map((t) => csvLine(t, columns, context)).join('');
      return success({
        filename,
        total: remaining,
        nextStartingAfter: rows.length > limit ? (part.at(-1)?.id ?? null) : null,
        body: single(text),
      });
    }
    return success({
      filename,
      total: remaining,
      nextStartingAfter: null,
      body: this.stream(merchantId, filter, columns, context, headerLine),
    });
  }

  private async *stream(
    merchantId: string,
    filter: TransactionFilter,
    columns: readonly ExportColumn[],
    context: ExportContext,
    headerLine: string,
  ): AsyncGenerator<string> {
    if (headerLine) yield headerLine;
    let after = filter.after;
    for (;;) {
      const rows = await this.store.read((r) => r.transactions.list(merchantId, { ...filter, ...(after ? { after } : {}) }));
      if (rows.length === 0) return;
      let text = '';
      for (const t of rows) text += csvLine(t, columns, context);
      yield text;
      if (rows.length < filter.limit) return;
      const last = rows[rows.length - 1] as TransactionRecord;
      after = { createdAt: last.createdAt, id: last.id };
      // Other requests get their turn between two chunks, however fast the reader is.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

async function* single(text: string): AsyncGenerator<string> {
  if (text) yield text;
}
