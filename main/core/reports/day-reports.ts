/**
 * Closing the day at a till (decisions.md D16, docs/operations.md "Closing the day").
 *
 * The X report shows the running figures of a till's open day at any time and changes nothing.
 * The Z report closes the day: in one unit of work it takes the till's ledger watermark, sums the
 * entries since the previous Z report, stores those figures as written under the next sequence
 * number and writes the audit entry. A closed day never changes; any sale or refund committed after
 * the watermark belongs to the next day, however late it commits (db/migrations/0014). On
 * PostgreSQL the watermark is at most the book's settled position, read just before the unit
 * (db/migrations/0034).
 *
 * Who: any staff member may read the reports; a back-office or admin account closes the day, a
 * cashier only with a manager's approval (D9, like refunds).
 */
import type { DayReport, DaySales, ShopDay, StaffRef, StoredSales, ZReportList } from '../../../contract/api/reports.js';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import { fromMinorUnits } from '../../../contract/money.js';
import { CLOSE_DAY_ACTION, OTHER_TERMINALS_BOOK, type StaffRole } from '../../../contract/constants.js';
import { apiError, created, failure, success, type Outcome } from '../errors.js';
import type { AuditRecord } from '../kernel.js';
import type { Clock, Ids } from '../kernel.js';
import type { DayFigures, DayLedgerGroup, DayLedgerRange, RangeOptions, ReportsUnit, ZReportRecord } from './ports.js';
import type { Store } from '../unit-of-work.js';
import { daySections } from './figures.js';
import { bookName, daySales, type OpenBook } from './day-sales.js';

export interface CloseActor {
  staffId: string;
  role: StaffRole;
  /** The manager whose approval a cashier brought (X-Manager-Approval). */
  approvedBy: string | null;
}

function staffRef(staffId: string | null, names: Record<string, string>): StaffRef | null {
  return staffId === null ? null : { staff_id: staffId, name: names[staffId] ?? staffId };
}

export class DayReports {
  constructor(
    private readonly store: Store<ReportsUnit>,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  /**
   * The shop's day: each active till's open day (since its own last Z report) and their sum, per
   * currency, card brand, entry mode and cashier. Reads only; closes nothing (each till closes its own).
   */
  async shopDay(merchantId: string): Promise<ShopDay> {
    const now = this.clock.now().toISOString();
    return this.store.read(async (r) => {
      const rows: ShopDay['tills'] = [];
      const groups: DayLedgerGroup[] = [];
      let staffNames: Record<string, string> = {};
      for (const day of await shopBooks(r, merchantId)) {
        const figures = await this.figures(r, merchantId, day.book, day.range, [], day.options);
        staffNames = { ...staffNames, ...figures.staffNames };
        groups.push(...figures.groups);
        rows.push({
          till_id: day.book,
          name: day.name,
          sequence: day.sequence,
          opened_at: day.openedAt,
          last_sale_at: figures.lastSaleAt ?? null,
          totals: daySections(figures.groups, figures.staffNames).totals,
        });
      }
      return { generated_at: now, tills: rows, ...daySections(groups, staffNames) };
    });
  }

  /**
   * The open day of a book as a list with its totals (Today's sales), or of every book of the shop
   * (`shop`): the same entries as the X reports (D19).
   */
  async sales(merchantId: string, of: { book: string } | 'shop'): Promise<DaySales> {
    return this.store.read(async (r) => {
      if (of === 'shop') return daySales(r, merchantId, await shopBooks(r, merchantId), 'shop');
      const till = await r.tills.get(merchantId, of.book);
      return daySales(
        r,
        merchantId,
        [{ book: of.book, name: bookName(of.book, till?.name), ...(await openDay(r, merchantId, of.book)) }],
        'till',
      );
    });
  }

  /** The open day's running figures (X report). Reads only. */
  async x(merchantId: string, tillId: string): Promise<DayReport> {
    const now = this.clock.now().toISOString();
    return this.store.read(async (r) => {
      const { range, options, sequence, openedAt } = await openDay(r, merchantId, tillId);
      const figures = await this.figures(r, merchantId, tillId, range, [], options);
      return {
        report: 'x',
        shop_name: figures.shopName,
        terminal_id: tillId,
        sequence,
        opened_at: openedAt,
        closed_at: null,
        generated_at: now,
        first_entry_at: figures.firstEntryAt,
        last_entry_at: figures.lastEntryAt,
        first_sale_at: figures.firstSaleAt ?? null,
        last_sale_at: figures.lastSaleAt ?? null,
        closed_by: null,
        approved_by: null,
        ledger: { from: range.fromSeq, to: range.toSeq },
        ...daySections(figures.groups, figures.staffNames),
        ...(await storedSalesOf(r, merchantId, tillId, range)),
      };
    });
  }

  /**
   * Closes the open day (Z report) in one unit of work. With `closeKey`, a repeated request (a
   * retry after a lost answer) gets the day it closed before, with `replayed`, and closes nothing.
   */
  async close(
    merchantId: string,
    tillId: string,
    actor: CloseActor,
    closeKey?: string,
  ): Promise<Outcome<{ report: DayReport; replayed: boolean }>> {
    if (actor.role === 'cashier' && actor.approvedBy === null) {
      return failure(
        apiError(ErrorCode.forbidden, "Closing the day at the till needs a manager's approval", [
          { field: 'X-Manager-Approval', message: 'missing, used or expired approval token' },
        ]),
      );
    }
    // The day ends at most here: nothing numbered at or below it can still commit (D19; a sale whose
    // number is higher, or that commits after, belongs to the next day).
    const settled = await this.store.readEach((r) => r.dayReports.settled(merchantId, tillId));
    const outcome = await this.store.run(async (tx): Promise<Outcome<{ record: ZReportRecord; replayed: boolean }>> => {
      if (closeKey !== undefined) {
        const earlier = await tx.dayReports.findZByKey(merchantId, tillId, closeKey);
        if (earlier) return success({ record: earlier, replayed: true });
      }
      if (await joinedElsewhere(tx, merchantId, tillId)) {
        return failure(
          apiError(ErrorCode.invalidState, `Till ${tillId} is joined from another computer: its day is closed there`, [
            { field: 'terminal_id', message: 'closes its day on its own computer' },
          ]),
        );
      }
      const previous = await tx.dayReports.latestZ(merchantId, tillId);
      const range = { fromSeq: previous?.toSeq ?? 0, toSeq: await tx.dayReports.watermark(merchantId, tillId, settled) };
      const people = [actor.staffId, ...(actor.approvedBy ? [actor.approvedBy] : [])];
      const now = this.clock.now().toISOString();
      const record: ZReportRecord = {
        id: this.ids.newId(),
        merchantId,
        tillId,
        sequence: (previous?.sequence ?? 0) + 1,
        fromSeq: range.fromSeq,
        toSeq: range.toSeq,
        openedAt: previous?.closedAt ?? null,
        closedAt: now,
        closedBy: actor.staffId,
        approvedBy: actor.approvedBy,
        closeKey: closeKey ?? null,
        figures: await this.figures(tx, merchantId, tillId, range, people),
      };
      // A joined till: how far it had applied its centre's ledger, by which the centre books this day (D19).
      const link = await tx.journal.link();
      if (link && link.merchantId === merchantId && link.tillId === tillId) record.figures.centreCursor = link.ledgerCursor;
      await tx.dayReports.insertZ(record);
      const audit: AuditRecord = {
        id: this.ids.newId(),
        merchantId,
        staffId: actor.staffId,
        approvedBy: actor.approvedBy,
        action: CLOSE_DAY_ACTION,
        subjectId: record.id,
        detail: `${tillId} Z ${record.sequence}`,
        createdAt: now,
      };
      await tx.audit.record(audit);
      return success({ record, replayed: false });
    });
    if (!outcome.ok) return outcome;
    const { record, replayed } = outcome.value;
    const report = await this.store.read((r) => zReportOf(r, record));
    return (replayed ? success : created)({ report, replayed });
  }

  async get(merchantId: string, tillId: string, sequence: number): Promise<Outcome<DayReport>> {
    const found = await this.store.read(async (r) => {
      // At a centre, a till joined from another computer: the day as that till closed it.
      const tillDay = (await joinedElsewhere(r, merchantId, tillId)) ? await r.centre.tillDay(merchantId, tillId, sequence) : undefined;
      if (tillDay)
        return { ...tillDay.report, final_totals: daySections(await r.dayReports.dayGroups(merchantId, tillId, sequence), {}).totals };
      const record = await r.dayReports.getZ(merchantId, tillId, sequence);
      return record ? zReportOf(r, record) : undefined;
    });
    if (!found) return failure(apiError(ErrorCode.notFound, `Till ${tillId} has no Z report ${sequence}`));
    return success(found);
  }

  /** The till's closed days, newest first (at a centre, a joined till's as it closed them). */
  async list(merchantId: string, tillId: string, limit: number, offset: number): Promise<ZReportList> {
    const [reports, total] = await this.store.read(async (r) => {
      if (await joinedElsewhere(r, merchantId, tillId)) {
        return [
          (await r.centre.tillDays(merchantId, tillId, limit, offset)).map((d) => d.report),
          await r.centre.countTillDays(merchantId, tillId),
        ] as const;
      }
      return [
        (await r.dayReports.listZ(merchantId, tillId, limit, offset)).map(zView),
        await r.dayReports.countZ(merchantId, tillId),
      ] as const;
    });
    return {
      terminal_id: tillId,
      total,
      items: reports.map((view) => ({
        sequence: view.sequence,
        terminal_id: view.terminal_id,
        opened_at: view.opened_at,
        closed_at: view.closed_at ?? view.generated_at,
        closed_by: view.closed_by as StaffRef,
        approved_by: view.approved_by,
        totals: view.totals,
      })),
    };
  }

  /** The range's groups and span, with the names of its cashiers (and of `people`) as they are now. */
  private async figures(
    r: ReportsUnit,
    merchantId: string,
    tillId: string,
    range: DayLedgerRange,
    people: readonly string[],
    options: RangeOptions = {},
  ): Promise<DayFigures> {
    const groups = await r.dayReports.groups(merchantId, tillId, range, options);
    const span = await r.dayReports.span(merchantId, tillId, range, options);
    const wanted = new Set<string>(people);
    for (const g of groups) if (g.staffId !== null) wanted.add(g.staffId);
    const staffNames: Record<string, string> = {};
    if (wanted.size > 0) {
      for (const s of await r.staff.listByMerchant(merchantId)) if (wanted.has(s.id)) staffNames[s.id] = s.displayName;
    }
    const shopName = (await r.merchants.get(merchantId))?.name ?? '';
    return {
      groups,
      staffNames,
      shopName,
      firstEntryAt: span.first,
      lastEntryAt: span.last,
      firstSaleAt: span.firstSale,
      lastSaleAt: span.lastSale,
    };
  }
}

/**
 * Whether the book is a till joined to this gateway (a centre) from another computer: the till closes
 * its own day, and this gateway books the till's entries by the days it closed (D19).
 */
async function joinedElsewhere(r: ReportsUnit, merchantId: string, book: string): Promise<boolean> {
  return (await r.centre.links(merchantId)).some((l) => l.tillId === book);
}

/** The shop's books with their open days: its active tills, and other terminals while their day has any entry (D19). */
async function shopBooks(r: ReportsUnit, merchantId: string): Promise<OpenBook[]> {
  const books: OpenBook[] = [];
  for (const till of (await r.tills.listByMerchant(merchantId)).filter((t) => t.retiredAt === null)) {
    books.push({ book: till.tillId, name: till.name, ...(await openDay(r, merchantId, till.tillId)) });
  }
  const other = await openDay(r, merchantId, OTHER_TERMINALS_BOOK);
  if (other.range.toSeq > other.range.fromSeq)
    books.push({ book: OTHER_TERMINALS_BOOK, name: bookName(OTHER_TERMINALS_BOOK, undefined), ...other });
  return books;
}

/**
 * A book's open day: the ledger range after its last Z report. For a till joined from another
 * computer (at its centre): the entries after the last day it closed that no day it closed counts,
 * numbered as the till numbers its days.
 */
async function openDay(
  r: ReportsUnit,
  merchantId: string,
  book: string,
): Promise<{ range: DayLedgerRange; options: RangeOptions; sequence: number; openedAt: string | null }> {
  const previous = await r.dayReports.latestZ(merchantId, book);
  const toSeq = await r.dayReports.watermark(merchantId, book);
  const own = {
    range: { fromSeq: previous?.toSeq ?? 0, toSeq },
    options: {},
    sequence: (previous?.sequence ?? 0) + 1,
    openedAt: previous?.closedAt ?? null,
  };
  if (!(await joinedElsewhere(r, merchantId, book))) return own;
  const day = await r.centre.latestTillDay(merchantId, book);
  if (!day) return { ...own, options: { openAtCentre: true }, sequence: 1 };
  return {
    range: { fromSeq: Math.max(own.range.fromSeq, day.centreCursor), toSeq },
    options: { openAtCentre: true },
    sequence: day.sequence + 1,
    openedAt: day.closedAt,
  };
}

/** A closed day's report: its figures as written, and a joined till's stored sales of it as they stand now. */
export async function zReportOf(r: ReportsUnit, record: ZReportRecord): Promise<DayReport> {
  const range = { fromSeq: record.fromSeq, toSeq: record.toSeq };
  const stored = await storedSalesOf(r, record.merchantId, record.tillId, range);
  // A day with stored sales: its figures as closed, and as they stand now that outcomes are known.
  const final = stored.stored_sales
    ? { final_totals: daySections(await r.dayReports.groups(record.merchantId, record.tillId, range), {}).totals }
    : {};
  return { ...zView(record), ...stored, ...final };
}

/** A Z report from its stored figures alone, so it reads the same for ever. */
function zView(record: ZReportRecord): DayReport {
  const { figures } = record;
  return {
    report: 'z',
    shop_name: figures.shopName,
    terminal_id: record.tillId,
    sequence: record.sequence,
    opened_at: record.openedAt,
    closed_at: record.closedAt,
    generated_at: record.closedAt,
    first_entry_at: figures.firstEntryAt,
    last_entry_at: figures.lastEntryAt,
    first_sale_at: figures.firstSaleAt ?? null,
    last_sale_at: figures.lastSaleAt ?? null,
    closed_by: staffRef(record.closedBy, figures.staffNames),
    approved_by: staffRef(record.approvedBy, figures.staffNames),
    ledger: { from: record.fromSeq, to: record.toSeq },
    ...daySections(figures.groups, figures.staffNames),
  };
}

/**
 * A joined till's stored sales of a range, read live: a Z report is provisional while any is not
 * forwarded, and final once all are (its figures, closed, stay as they were: they counted them as taken).
 */
async function storedSalesOf(
  r: ReportsUnit,
  merchantId: string,
  tillId: string,
  range: DayLedgerRange,
): Promise<{ stored_sales?: StoredSales }> {
  const rows = await r.dayReports.storedSales(merchantId, tillId, range);
  if (rows.length === 0) return {};
  const sums = (match: (status: number) => boolean) => {
    const byCurrency = new Map<string, { count: number; minor: number }>();
    for (const row of rows.filter((x) => match(x.statusCode))) {
      const sum = byCurrency.get(row.currency) ?? { count: 0, minor: 0 };
      byCurrency.set(row.currency, { count: sum.count + row.count, minor: sum.minor + row.amountMinor });
    }
    return [...byCurrency].map(([currency, sum]) => ({ currency, count: sum.count, amount: fromMinorUnits(sum.minor, currency) }));
  };
  const pending = sums((status) => status === S.stored);
  return {
    stored_sales: {
      provisional: pending.length > 0,
      pending,
      forwarded: sums((status) => status !== S.stored && status !== S.declined && status !== S.error),
      declined_when_forwarded: sums((status) => status === S.declined || status === S.error),
    },
  };
}
