/**
 * An X or Z report as plain text lines of a fixed width (42 columns: 80 mm receipt paper in the
 * printers' font A), for a receipt printer, and the words both printed forms (text and PDF) share:
 * brand and entry mode names, amounts with thousands separators, times in the gateway's time zone.
 */
import type { DayReport as DayReportView, FigureRow } from '../../../contract/api/reports.js';
import { currencyExponent } from '../../../contract/money.js';
import type { PrintDocument } from '../receipts/ports.js';

export const RECEIPT_COLUMNS = 42;

export const BRAND_LABELS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  unknown: 'Other cards',
};

export const ENTRY_MODE_LABELS: Record<string, string> = {
  contactless: 'Contactless',
  chip: 'Chip',
  swipe: 'Swipe',
  manual: 'Keyed in',
  unknown: 'Unknown',
};

export const brandLabel = (brand: string): string => BRAND_LABELS[brand] ?? brand;
export const entryModeLabel = (mode: string): string => ENTRY_MODE_LABELS[mode] ?? mode;

/** 1234.5 EUR -> "1,234.50" (the view's amounts are exact decimals of the currency's exponent). */
export function amountText(amount: number, currency: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  const [whole = '0', fraction] = Math.abs(amount).toFixed(exponent).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${amount < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** ISO time -> "2026-11-23 20:15" in the gateway's local time zone. */
export function timeText(iso: string | null): string {
  if (!iso) return '-';
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function reportTitle(view: DayReportView): string {
  return view.report === 'z' ? `Z report No. ${view.sequence}` : `X report (day ${view.sequence}, open)`;
}

function center(text: string, width: number): string {
  const cut = text.slice(0, width);
  return `${' '.repeat(Math.floor((width - cut.length) / 2))}${cut}`.trimEnd();
}

/** Label left, count and amount right-aligned; the label is cut so the numbers always fit. */
function figureLine(label: string, count: string, amount: string, width: number): string {
  const right = `${count.padStart(6)}${amount.padStart(14)}`;
  const room = Math.max(width - right.length - 1, 1);
  return `${label.slice(0, room).padEnd(room)} ${right}`.slice(0, width).trimEnd();
}

function figureBlock(title: string, row: FigureRow, width: number): string[] {
  const c = row.currency;
  return [
    title.slice(0, width),
    figureLine('  Approved', String(row.approved.count), amountText(row.approved.amount, c), width),
    figureLine('  Declined', String(row.declined.count), amountText(row.declined.amount, c), width),
    figureLine('  Refunded', String(row.refunded.count), amountText(row.refunded.amount, c), width),
    figureLine('  Net', '', amountText(row.net, c), width),
  ];
}

function keyValue(key: string, value: string, width: number): string {
  return `${key.padEnd(13)}${value}`.slice(0, width);
}

export function reportLines(view: DayReportView, width = RECEIPT_COLUMNS): string[] {
  const rule = '='.repeat(width);
  const thin = '-'.repeat(width);
  const lines: string[] = [center(view.shop_name, width), center(reportTitle(view).toUpperCase(), width), center(`Till ${view.terminal_id}`, width), rule];
  lines.push(keyValue('Opened', view.opened_at ? timeText(view.opened_at) : 'first day of this till', width));
  if (view.report === 'z') {
    lines.push(keyValue('Closed', timeText(view.closed_at), width));
    if (view.closed_by) lines.push(keyValue('Closed by', view.closed_by.name, width));
    if (view.approved_by) lines.push(keyValue('Approved by', view.approved_by.name, width));
  } else {
    lines.push(keyValue('Printed', timeText(view.generated_at), width));
    lines.push('NOT CLOSED: running totals only'.slice(0, width));
  }
  lines.push(keyValue('First sale', timeText(view.first_sale_at), width), keyValue('Last sale', timeText(view.last_sale_at), width), rule);
  if (view.totals.length === 0) lines.push(center('No card sales, declines or refunds.', width));
  lines.push(figureLine('', 'count', 'amount', width));
  for (const row of view.totals) lines.push(...figureBlock(`TOTAL ${row.currency}`, row, width));
  const sections: Array<[string, Array<{ label: string; row: FigureRow }>]> = [
    ['BY CARD BRAND', view.by_card_brand.map((r) => ({ label: brandLabel(r.card_brand), row: r }))],
    ['BY ENTRY MODE', view.by_entry_mode.map((r) => ({ label: entryModeLabel(r.entry_mode), row: r }))],
    ['BY CASHIER', view.by_cashier.map((r) => ({ label: r.name, row: r }))],
  ];
  for (const [title, rows] of sections) {
    if (rows.length === 0) continue;
    lines.push(thin, title);
    for (const { label, row } of rows) lines.push(...figureBlock(`${label} ${row.currency}`, row, width));
  }
  lines.push(rule);
  lines.push(view.report === 'z' ? center('Closed day: these figures never change.', width) : center('The day is still open.', width));
  return lines;
}

/** The report for the shop's ESC/POS receipt printer: the same lines, headings in bold. */
export function reportPrintDocument(view: DayReportView, width: number): PrintDocument {
  const lines = reportLines(view, width);
  const headings = new Set([1, 2]);
  return {
    lines: lines.map((text, i) => ({
      text,
      ...(headings.has(i) || /^(TOTAL |BY )/.test(text) ? { bold: true } : {}),
    })),
  };
}
