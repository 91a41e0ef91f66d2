/**
 * A day's figures as the reports show them: the ledger's groups (minor units, from SQL) summed per
 * currency and per card brand, entry mode and cashier, in integer arithmetic, then given as
 * decimal amounts of each currency's exponent. Net is approved minus refunded.
 */
import type { DaySections, FigureRow } from '../../../contract/api/reports.js';
import { currencyExponent, minorToAmount } from '../../../contract/money.js';
import type { DayFigureKind, DayLedgerGroup } from './ports.js';

/** The cashier column of sales that no staff session sent (POS software with API credentials). */
export const NO_STAFF_NAME = 'API (no staff login)';

interface MinorFigures {
  currency: string;
  approved: { count: number; minor: number };
  declined: { count: number; minor: number };
  refunded: { count: number; minor: number };
}

function emptyFigures(currency: string): MinorFigures {
  return { currency, approved: { count: 0, minor: 0 }, declined: { count: 0, minor: 0 }, refunded: { count: 0, minor: 0 } };
}

function add(target: MinorFigures, kind: DayFigureKind, count: number, minor: number): void {
  const figure = target[kind];
  figure.count += count;
  figure.minor += minor;
  if (!Number.isSafeInteger(figure.minor)) throw new Error('day figure outside the safe integer range');
}

function toRow(f: MinorFigures): FigureRow {
  const exponent = currencyExponent(f.currency) ?? 2;
  const amount = (minor: number) => minorToAmount(minor, exponent);
  return {
    currency: f.currency,
    approved: { count: f.approved.count, amount: amount(f.approved.minor) },
    declined: { count: f.declined.count, amount: amount(f.declined.minor) },
    refunded: { count: f.refunded.count, amount: amount(f.refunded.minor) },
    net: amount(f.approved.minor - f.refunded.minor),
  };
}

/** Sums the groups by `keyOf` and currency; rows ordered by currency, then key. */
function rollUp<K extends string>(groups: readonly DayLedgerGroup[], keyOf: (g: DayLedgerGroup) => K): Array<{ key: K; row: FigureRow }> {
  const byKey = new Map<string, { key: K; figures: MinorFigures }>();
  for (const g of groups) {
    const key = keyOf(g);
    const id = `${g.currency}\u0000${key}`;
    let entry = byKey.get(id);
    if (!entry) {
      entry = { key, figures: emptyFigures(g.currency) };
      byKey.set(id, entry);
    }
    add(entry.figures, g.kind, g.count, g.amountMinor);
  }
  return [...byKey.values()]
    .sort((a, b) => a.figures.currency.localeCompare(b.figures.currency) || a.key.localeCompare(b.key))
    .map((entry) => ({ key: entry.key, row: toRow(entry.figures) }));
}

export function daySections(groups: readonly DayLedgerGroup[], staffNames: Record<string, string>): DaySections {
  const nameOf = (staffId: string | null) => (staffId === null ? NO_STAFF_NAME : (staffNames[staffId] ?? staffId));
  return {
    totals: rollUp(groups, () => '').map(({ row }) => row),
    by_card_brand: rollUp(groups, (g) => g.cardBrand ?? 'unknown').map(({ key, row }) => ({ card_brand: key, ...row })),
    by_entry_mode: rollUp(groups, (g) => g.entryMode ?? 'unknown').map(({ key, row }) => ({ entry_mode: key, ...row })),
    by_cashier: rollUp(groups, (g) => g.staffId ?? '')
      .map(({ key, row }) => ({ staff_id: key === '' ? null : key, name: nameOf(key === '' ? null : key), ...row }))
      .sort((a, b) => a.currency.localeCompare(b.currency) || a.name.localeCompare(b.name)),
  };
}
