/**
 * A till's open day as a list: Today's sales at the till, and what a manager sees of another till or
 * of the whole shop (D19). The list and its totals come from one read: the counted entries of the
 * book's open day, the same entries by the same rule as its X report (db/reports), so the two agree
 * to the cent; the totals are rolled up by the same code as the report's (daySections).
 */
import type { DayRefund, DaySale, DaySales } from '../../../contract/api/reports.js';
import { statusName } from '../../../contract/codes.js';
import { OTHER_TERMINALS_BOOK, OTHER_TERMINALS_NAME } from '../../../contract/constants.js';
import { currencyExponent, minorToAmount } from '../../../contract/money.js';
import { daySections } from './figures.js';
import type { DayLedgerGroup, DayLedgerRange, LedgerEntryRow, RangeOptions, ReportsUnit } from './ports.js';

/** A book and its open day, as DayReports finds it. */
export interface OpenBook {
  book: string;
  name: string;
  range: DayLedgerRange;
  options: RangeOptions;
  sequence: number;
  openedAt: string | null;
}

const amountOf = (minor: number, currency: string) => minorToAmount(minor, currencyExponent(currency) ?? 2);

/** The listed entries of the open days of `books`, with their totals (`scope` shop: the whole shop's). */
export async function daySales(
  r: ReportsUnit,
  merchantId: string,
  books: readonly OpenBook[],
  scope: DaySales['scope'],
): Promise<DaySales> {
  const entries: LedgerEntryRow[] = [];
  for (const b of books) entries.push(...(await r.dayReports.dayEntries(merchantId, b.book, b.range, b.options)));
  const names = new Map((await r.staff.listByMerchant(merchantId)).map((s) => [s.id, s.displayName]));
  const groups: DayLedgerGroup[] = entries.flatMap((e) =>
    e.figure === null
      ? []
      : [
          {
            kind: e.figure,
            currency: e.currency,
            cardBrand: e.cardBrand,
            entryMode: e.entryMode,
            staffId: e.staffId,
            count: 1,
            amountMinor: e.amountMinor,
          },
        ],
  );
  const sales = new Map<string, DaySale>();
  const earlier: DayRefund[] = [];
  for (const e of entries) {
    if (e.figure === 'refunded') continue;
    const refundable = e.figure === 'approved' ? e.capturedMinor - e.refundedMinor : 0;
    sales.set(e.transactionId, {
      transaction_id: e.transactionId,
      order_id: e.orderId,
      taken_at: e.storedAt ?? e.soldAt,
      counted: e.figure === 'approved' ? 'approved' : 'declined',
      status_code: e.statusCode,
      status: statusName(e.statusCode),
      message: e.message,
      amount: amountOf(e.saleMinor, e.currency),
      currency: e.currency,
      refunded: amountOf(e.refundedMinor, e.currency),
      refundable: amountOf(Math.max(refundable, 0), e.currency),
      card_brand: e.cardBrand,
      card_last_four: e.cardLastFour,
      entry_mode: e.entryMode,
      till_id: e.tillId,
      terminal_id: e.terminalId,
      cashier: e.staffId === null ? null : { staff_id: e.staffId, name: names.get(e.staffId) ?? e.staffId },
      refunds: [],
    });
  }
  for (const e of entries) {
    if (e.figure !== 'refunded') continue;
    const refund = { refund_id: e.eventId, amount: amountOf(e.amountMinor, e.currency), created_at: e.eventAt };
    const sale = sales.get(e.transactionId);
    if (sale) sale.refunds.push(refund);
    else
      earlier.push({
        ...refund,
        transaction_id: e.transactionId,
        order_id: e.orderId,
        currency: e.currency,
        card_brand: e.cardBrand,
        card_last_four: e.cardLastFour,
        till_id: e.tillId,
      });
  }
  const byTime =
    <T>(at: (x: T) => string) =>
    (a: T, b: T) =>
      at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : 0;
  const one = books.length === 1 ? books[0] : undefined;
  return {
    scope,
    till_id: scope === 'till' && one ? one.book : null,
    name: scope === 'till' && one ? one.name : ((await r.merchants.get(merchantId))?.name ?? ''),
    sequence: scope === 'till' && one ? one.sequence : null,
    opened_at: scope === 'till' && one ? one.openedAt : null,
    totals: daySections(groups, {}).totals,
    sales: [...sales.values()].sort(byTime((s) => s.taken_at)),
    earlier_refunds: earlier.sort(byTime((x) => x.created_at)),
  };
}

/** The name a book goes by in the lists: its till's, or Other terminals. */
export function bookName(book: string, tillName: string | undefined): string {
  return book === OTHER_TERMINALS_BOOK ? OTHER_TERMINALS_NAME : (tillName ?? book);
}
