/**
 * A joined till's books at its centre (D19, docs/decisions.md "The shop's books"). The till closes its
 * own day (also while the centre is away); the centre holds the record of every sale. So that the
 * till's X and Z reports and the centre's view of that till agree to the cent, both count the same
 * entries in the same day:
 *
 * - The centre tells the till, with each heartbeat answer, the entries of its ledger of the till's
 *   sales after the position the till reported (`ledger`); the till keeps a copy of each it had none
 *   of (a refund made at the centre, a sale whose answer never came back) and reports how far it got.
 * - The till sends each day it closed (`days`): the sales and refunds it counted, and how far it had
 *   applied the centre's ledger then. The centre records them (`till_days`, `till_day_entries`).
 * - The centre's view of the till's open day is then its entries after that position that no closed
 *   day counts (db/reports: openAtCentre); a stored sale forwarded after its day was closed counts
 *   in that day on both sides.
 */
import type { ClosedTillDay, LedgerEntry, TillReport } from '../../../contract/api/centre.js';
import { currencyExponent, minorToAmount } from '../../../contract/money.js';
import type { Clock } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { LedgerEntryRow } from '../reports/ports.js';
import { zReportOf } from '../reports/day-reports.js';
import type { CentreLinkRecord, CentreUnit, TillLinkRecord } from './ports.js';

/** How many ledger entries one heartbeat answer carries, and how many days one report. */
export const LEDGER_BATCH = 200;
export const DAYS_BATCH = 10;

function entryOf(row: LedgerEntryRow): LedgerEntry | undefined {
  if (row.figure === null) return undefined;
  const kind = row.figure === 'refunded' ? 'refund' : 'sale';
  const exponent = currencyExponent(row.currency) ?? 2;
  return {
    seq: row.seq,
    kind,
    transaction_id: row.transactionId,
    order_id: row.orderId,
    currency: row.currency,
    sale_amount: minorToAmount(row.saleMinor, exponent),
    status_code: row.statusCode,
    message: row.message,
    card_brand: row.cardBrand,
    card_last_four: row.cardLastFour,
    entry_mode: row.entryMode,
    terminal_id: row.terminalId,
    staff_id: row.staffId,
    authorization_code: row.authorizationCode,
    sold_at: row.soldAt,
    ...(kind === 'refund'
      ? {
          refund: {
            refund_id: row.eventId,
            amount: minorToAmount(row.amountMinor, exponent),
            merchant_reference: row.merchantReference,
            created_at: row.eventAt,
          },
        }
      : {}),
  };
}

/** At the centre: the entries of its ledger of the till's sales after `after`, and the position they reach. */
export async function ledgerFor(
  store: Store<CentreUnit>,
  link: TillLinkRecord,
  after: number,
): Promise<{ cursor: number; entries: LedgerEntry[] }> {
  // The till keeps the position it reaches: only entries that can no longer be passed by one that commits later.
  const settled = await store.readEach((r) => r.dayReports.settled(link.merchantId, link.tillId));
  const rows = await store.read((r) => r.dayReports.entriesSince(link.merchantId, link.tillId, after, LEDGER_BATCH, settled));
  return { cursor: rows.at(-1)?.seq ?? after, entries: rows.map(entryOf).filter((e): e is LedgerEntry => e !== undefined) };
}

/**
 * At the centre: records the days the till closed, in order from the one after the last recorded
 * (a day out of order waits for its turn: the till sends again from the last one recorded). Answers
 * the last day recorded.
 */
export async function recordTillDays(
  store: Store<CentreUnit>,
  clock: Clock,
  link: TillLinkRecord,
  days: TillReport['days'],
): Promise<number> {
  if (!days?.length) return (await store.read((r) => r.centre.latestTillDay(link.merchantId, link.tillId)))?.sequence ?? 0;
  return store.run(async (tx) => {
    let last = (await tx.centre.latestTillDay(link.merchantId, link.tillId))?.sequence ?? 0;
    for (const day of [...days].sort((a, b) => a.sequence - b.sequence)) {
      if (day.sequence !== last + 1) continue;
      const report = day.report as ClosedTillDay['report'];
      const recorded = await tx.centre.recordTillDay(
        {
          merchantId: link.merchantId,
          tillId: link.tillId,
          sequence: day.sequence,
          closedAt: day.closed_at,
          centreCursor: day.centre_cursor,
          report,
          recordedAt: clock.now().toISOString(),
        },
        day.entries,
      );
      if (recorded) last = day.sequence;
    }
    return last;
  });
}

/** At the till: the days it closed after `after` (the centre's last recorded), oldest first, as the centre books them. */
export async function daysToSend(r: CentreUnit, link: CentreLinkRecord, after: number): Promise<ClosedTillDay[]> {
  const days: ClosedTillDay[] = [];
  const latest = await r.dayReports.latestZ(link.merchantId, link.tillId);
  for (let sequence = after + 1; latest && sequence <= latest.sequence && days.length < DAYS_BATCH; sequence++) {
    const record = await r.dayReports.getZ(link.merchantId, link.tillId, sequence);
    if (!record) break;
    days.push({
      sequence,
      closed_at: record.closedAt,
      centre_cursor: record.figures.centreCursor ?? 0,
      entries: await r.dayReports.entryKeys(link.merchantId, link.tillId, { fromSeq: record.fromSeq, toSeq: record.toSeq }),
      report: await zReportOf(r, record),
    });
  }
  return days;
}
