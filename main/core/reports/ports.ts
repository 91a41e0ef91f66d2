/**
 * Closing the day at a till: the ledger's figures and the closed days (X and Z reports,
 * decisions.md D16). Adapter: db/.
 */
import type { DayReport } from '../../../contract/api/reports.js';
import type { KernelUnit } from '../unit-of-work.js';
import type { MerchantRepository } from '../merchants/ports.js';
import type { StaffRepository } from '../staff/ports.js';
import type { TillRepository } from '../tills/ports.js';
export type DayFigureKind = 'approved' | 'declined' | 'refunded';

/**
 * One group of a till's ledger entries: what was approved (captured), declined or refunded, in
 * one currency, for one card brand, entry mode and cashier of the sale. Amounts in minor units.
 */
export interface DayLedgerGroup {
  kind: DayFigureKind;
  currency: string;
  cardBrand: string | null;
  entryMode: string | null;
  /** The staff member who took the sale; null for a sale sent with API credentials. */
  staffId: string | null;
  count: number;
  amountMinor: number;
}

/** Where a day starts and ends in a till's ledger: entries after `fromSeq` up to and including `toSeq`. */
export interface DayLedgerRange {
  fromSeq: number;
  toSeq: number;
}

export interface DaySpan {
  first: string | null;
  last: string | null;
  firstSale: string | null;
  lastSale: string | null;
}

/** The figures of a closed day exactly as they were written at the close (stored as JSON). */
export interface DayFigures {
  groups: DayLedgerGroup[];
  /** Display names of the cashiers in `groups` at the close. */
  staffNames: Record<string, string>;
  /** The shop's name at the close, for the printed report. */
  shopName: string;
  firstEntryAt: string | null;
  lastEntryAt: string | null;
  /** The first and last approved sale (absent from days closed before sales were told from refunds). */
  firstSaleAt?: string | null;
  lastSaleAt?: string | null;
  /** A joined till: how far it had applied its centre's ledger when it closed (what its centre books the day by). */
  centreCursor?: number;
}

/** A closed day of one till (migration 0014); never updated or deleted. */
export interface ZReportRecord {
  id: string;
  merchantId: string;
  /** The book the day closed: a till's id, or OTHER_TERMINALS_BOOK (column `terminal_id`, migration 0014). */
  tillId: string;
  /** 1, 2, 3, ... per merchant and till. */
  sequence: number;
  fromSeq: number;
  toSeq: number;
  /** When the previous Z report closed; null for a till's first. */
  openedAt: string | null;
  closedAt: string;
  closedBy: string;
  approvedBy: string | null;
  /** The caller's idempotency key: a retried close answers with this report instead of closing again. */
  closeKey: string | null;
  figures: DayFigures;
}

/**
 * Which entries of a range a figures query reads: all (a till's day), or at a centre those of a
 * joined till that no day the till closed counts yet (its open day as the centre books it, D19).
 */
export interface RangeOptions {
  openAtCentre?: boolean;
}

/** One entry of a till's ledger with what its till needs to keep a copy of it (a centre tells its joined till). */
export interface LedgerEntryRow {
  seq: number;
  /** What the day counts it as (a sale taken or declined, a refund); null for another event (an authorization of a sale taken). */
  figure: DayFigureKind | null;
  eventId: string;
  amountMinor: number;
  eventAt: string;
  transactionId: string;
  orderId: string | null;
  currency: string;
  saleMinor: number;
  capturedMinor: number;
  refundedMinor: number;
  statusCode: number;
  message: string | null;
  cardBrand: string | null;
  cardLastFour: string | null;
  entryMode: string | null;
  /** `pos_data.terminal.id` as the POS software sent it (not necessarily a till: see `tillId`). */
  terminalId: string | null;
  staffId: string | null;
  authorizationCode: string | null;
  /** The sale's till; null: other terminals. */
  tillId: string | null;
  /** A joined till's stored sale: when the till stored it (when it was taken). */
  storedAt: string | null;
  soldAt: string;
  /** A refund's reason (its merchant_reference). */
  merchantReference: string | null;
}

/**
 * A till's ledger and closed days. `tillId` names the book: a till's id, or OTHER_TERMINALS_BOOK
 * (contract/constants.ts) for card-present sales of no till; the tables call it `terminal_id`.
 */
export interface DayReportRepository {
  /**
   * The till's newest ledger position (0 before its first entry), at most `upTo` (`settled`'s
   * answer, for a unit that cuts the book): the watermark a close ends at.
   */
  watermark(merchantId: string, tillId: string, upTo?: number): Promise<number>;
  /**
   * A ledger position at or below which no entry of the book can still commit, for a unit that cuts
   * the book (a Z close, the centre's ledger of a joined till) and cuts at most there. Run on its own
   * (`Store.readEach`), before that unit's snapshot. PostgreSQL numbers an entry before its
   * transaction commits, so a later number can commit first: this waits for the book's sales that
   * hold a number and have not ended (migration 34). SQLite has one writer: every committed entry
   * is final, and the answer cuts nothing.
   */
  settled(merchantId: string, tillId: string): Promise<number>;
  /** The ledger entries of a range, grouped for the figures (sums of minor units in SQL). */
  groups(merchantId: string, tillId: string, range: DayLedgerRange, options?: RangeOptions): Promise<DayLedgerGroup[]>;
  /** At a centre: the figures of a day a joined till closed, from the centre's records of the entries it counted. */
  dayGroups(merchantId: string, tillId: string, sequence: number): Promise<DayLedgerGroup[]>;
  /** When the range's counted entries began and ended, and its approved sales. */
  span(merchantId: string, tillId: string, range: DayLedgerRange, options?: RangeOptions): Promise<DaySpan>;
  /** The ledger's entries after `after`, oldest first, at most `limit` (counted or not: the position moves past both). */
  entriesSince(merchantId: string, tillId: string, after: number, limit: number, upTo?: number): Promise<LedgerEntryRow[]>;
  /** The counted entries of a range (or a joined till's open day at its centre), in ledger order. */
  dayEntries(merchantId: string, tillId: string, range: DayLedgerRange, options?: RangeOptions): Promise<LedgerEntryRow[]>;
  /** The keys of a range's counted entries (sales by transaction id, refunds by refund id): what a joined till's day counts. */
  entryKeys(merchantId: string, tillId: string, range: DayLedgerRange): Promise<string[]>;
  /** Sales a joined till stored in a range (its own copies), by status and currency: pending (13), forwarded, declined. */
  storedSales(
    merchantId: string,
    tillId: string,
    range: DayLedgerRange,
  ): Promise<Array<{ statusCode: number; currency: string; count: number; amountMinor: number }>>;
  latestZ(merchantId: string, tillId: string): Promise<ZReportRecord | undefined>;
  getZ(merchantId: string, tillId: string, sequence: number): Promise<ZReportRecord | undefined>;
  findZByKey(merchantId: string, tillId: string, closeKey: string): Promise<ZReportRecord | undefined>;
  /** Newest first. */
  listZ(merchantId: string, tillId: string, limit: number, offset: number): Promise<ZReportRecord[]>;
  countZ(merchantId: string, tillId: string): Promise<number>;
  insertZ(record: ZReportRecord): Promise<void>;
}

/** A day a joined till closed, as its centre keeps it (migration 31). */
export interface TillDayRecord {
  merchantId: string;
  tillId: string;
  sequence: number;
  closedAt: string;
  /** How far the till had applied the centre's ledger of its sales when it closed. */
  centreCursor: number;
  /** The Z report as the till closed it. */
  report: DayReport;
  recordedAt: string;
}

/** What the shop's day reads of the tills joined to this gateway as a centre (the centre feature keeps them). */
export interface JoinedTillDays {
  links(merchantId: string): Promise<ReadonlyArray<{ tillId: string }>>;
  latestTillDay(merchantId: string, tillId: string): Promise<TillDayRecord | undefined>;
  tillDay(merchantId: string, tillId: string, sequence: number): Promise<TillDayRecord | undefined>;
  /** Newest first. */
  tillDays(merchantId: string, tillId: string, limit: number, offset: number): Promise<TillDayRecord[]>;
  countTillDays(merchantId: string, tillId: string): Promise<number>;
}

/**
 * The reports feature's view of a unit of work: the ledger and its closed days; the shop, its staff
 * and tills by name; at a centre, the days its joined tills closed; at a joined till, how far it
 * applied its centre's ledger.
 */
export interface ReportsUnit extends KernelUnit {
  dayReports: DayReportRepository;
  merchants: Pick<MerchantRepository, 'get'>;
  staff: Pick<StaffRepository, 'listByMerchant'>;
  tills: Pick<TillRepository, 'get' | 'listByMerchant'>;
  centre: JoinedTillDays;
  journal: { link(): Promise<{ merchantId: string; tillId: string; ledgerCursor: number } | undefined> };
}
