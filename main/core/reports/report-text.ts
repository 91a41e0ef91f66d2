/**
 * An X or Z report as plain text lines of a fixed width (42 columns: 80 mm receipt paper in the
 * printers' font A), for a receipt printer, and the words both printed forms (text and PDF) share,
 * in the staff member's language (D21, contract/i18n): titles, brand and entry mode names, amounts
 * and times through Intl in that language's forms, times in the shop's time zone.
 */
import type { DayReport as DayReportView, FigureRow } from '../../../contract/api/reports.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { formatterFor, type Translate } from '../../../contract/i18n/format.js';
import { INTL_LOCALES, type StaffLanguage } from '../../../contract/i18n/languages.js';
import { currencyExponent } from '../../../contract/money.js';
import type { PrintDocument } from '../receipts/ports.js';

export const RECEIPT_COLUMNS = 42;

/** Card brands by their own names (data, the same in every language); `unknown` is "Other cards". */
export const BRAND_LABELS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** How cards were read (the ledger's entry_mode values), in the staff member's language. */
export const ENTRY_MODE_MESSAGES: Readonly<Record<string, MessageId>> = {
  contactless: 'reports.entry.contactless',
  chip: 'reports.entry.chip',
  swipe: 'reports.entry.swipe',
  manual: 'reports.entry.manual',
  unknown: 'reports.entry.unknown',
};

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let format = formats.get(key) as F | undefined;
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/**
 * 1234.5 EUR -> "1,234.50" in English, "1.234,50" in German and Croatian, "1234,50" in Portuguese:
 * the currency's decimals, no symbol (the currency has its own column). A minus is the ASCII one,
 * which every receipt printer and the PDF's font have.
 */
export function amountText(amount: number, currency: string, language: StaffLanguage = 'en'): string {
  const exponent = currencyExponent(currency) ?? 2;
  const format = cached(
    `amount|${language}|${exponent}`,
    () => new Intl.NumberFormat(INTL_LOCALES[language], { minimumFractionDigits: exponent, maximumFractionDigits: exponent }),
  );
  return format.format(amount).replace(/\u2212/g, '-');
}

/** ISO time -> "23/11/2026, 20:15" (English), "23.11.2026, 20:15" (German), ...: on a 24-hour clock in `timeZone` (default: this computer's). */
export function timeText(iso: string | null, language: StaffLanguage = 'en', timeZone?: string): string {
  if (!iso) return '-';
  const options: Intl.DateTimeFormatOptions = {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  const format = cached(`time|${language}|${timeZone ?? ''}`, () => {
    try {
      return new Intl.DateTimeFormat(INTL_LOCALES[language], { ...options, ...(timeZone ? { timeZone } : {}) });
    } catch {
      // A time zone this runtime does not know: the computer's own.
      return new Intl.DateTimeFormat(INTL_LOCALES[language], options);
    }
  });
  return format.format(new Date(iso));
}

/** A report's words in one staff language, its times in the shop's time zone. */
export interface ReportWords {
  readonly language: StaffLanguage;
  readonly t: Translate;
  amount(amount: number, currency: string): string;
  time(iso: string | null): string;
  /** Upper case as the language writes it (headings of the printer's lines). */
  upper(text: string): string;
}

export function reportWords(language: StaffLanguage = 'en', timeZone?: string): ReportWords {
  return {
    language,
    t: formatterFor(language),
    amount: (amount, currency) => amountText(amount, currency, language),
    time: (iso) => timeText(iso, language, timeZone),
    upper: (text) => text.toLocaleUpperCase(INTL_LOCALES[language]),
  };
}

export const brandLabel = (brand: string, t: Translate): string =>
  BRAND_LABELS[brand] ?? (brand === 'unknown' ? t('reports.brand.other') : brand);
export const entryModeLabel = (mode: string, t: Translate): string => {
  const id = ENTRY_MODE_MESSAGES[mode];
  return id ? t(id) : mode;
};
/** A cashier row's name; the API's sales (no staff login) named in the language. */
export const cashierLabel = (row: { staff_id: string | null; name: string }, t: Translate): string =>
  row.staff_id === null ? t('reports.cashier.api') : row.name;

export function reportTitle(view: DayReportView, t: Translate): string {
  return view.report === 'z' ? t('reports.title.z', { sequence: view.sequence }) : t('reports.title.x', { sequence: view.sequence });
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

interface Line {
  text: string;
  bold?: boolean;
}

function figureBlock(title: string, row: FigureRow, width: number, words: ReportWords): Line[] {
  const { t } = words;
  const c = row.currency;
  return [
    { text: title.slice(0, width), bold: true },
    { text: figureLine(`  ${t('common.approved')}`, String(row.approved.count), words.amount(row.approved.amount, c), width) },
    { text: figureLine(`  ${t('common.declined')}`, String(row.declined.count), words.amount(row.declined.amount, c), width) },
    { text: figureLine(`  ${t('reports.figure.refunded')}`, String(row.refunded.count), words.amount(row.refunded.amount, c), width) },
    { text: figureLine(`  ${t('reports.figure.net')}`, '', words.amount(row.net, c), width) },
  ];
}

/** The report's lines, the headings marked bold. */
function layout(view: DayReportView, width: number, words: ReportWords): Line[] {
  const { t } = words;
  const rule = '='.repeat(width);
  const thin = '-'.repeat(width);
  const facts: Array<[string, string] | string> = [
    [t('reports.fact.opened'), view.opened_at ? words.time(view.opened_at) : t('reports.firstDayOfTill')],
  ];
  if (view.report === 'z') {
    facts.push([t('reports.fact.closed'), words.time(view.closed_at)]);
    if (view.closed_by) facts.push([t('reports.fact.closedBy'), view.closed_by.name]);
    if (view.approved_by) facts.push([t('reports.fact.approvedBy'), view.approved_by.name]);
  } else {
    facts.push([t('reports.print.printed'), words.time(view.generated_at)], t('reports.print.notClosed'));
  }
  facts.push([t('reports.fact.firstSale'), words.time(view.first_sale_at)], [t('reports.fact.lastSale'), words.time(view.last_sale_at)]);
  // Values start in one column: 13, or after the longest label of the language (at most 20).
  const keyWidth = Math.min(20, Math.max(13, ...facts.map((fact) => (typeof fact === 'string' ? 0 : fact[0].length + 1))));

  const lines: Line[] = [
    { text: center(view.shop_name, width) },
    { text: center(words.upper(reportTitle(view, t)), width), bold: true },
    { text: center(t('reports.print.till', { till: view.terminal_id }), width), bold: true },
    { text: rule },
    ...facts.map((fact) => ({ text: (typeof fact === 'string' ? fact : `${fact[0].padEnd(keyWidth)}${fact[1]}`).slice(0, width) })),
    { text: rule },
  ];
  if (view.totals.length === 0) lines.push({ text: center(t('reports.print.empty'), width) });
  lines.push({ text: figureLine('', t('reports.print.count'), t('reports.print.amount'), width) });
  for (const row of view.totals)
    lines.push(...figureBlock(words.upper(t('reports.print.total', { currency: row.currency })), row, width, words));
  const sections: Array<[string, Array<{ label: string; row: FigureRow }>]> = [
    [t('reports.byBrand'), view.by_card_brand.map((r) => ({ label: brandLabel(r.card_brand, t), row: r }))],
    [t('reports.byEntry'), view.by_entry_mode.map((r) => ({ label: entryModeLabel(r.entry_mode, t), row: r }))],
    [t('reports.byCashier'), view.by_cashier.map((r) => ({ label: cashierLabel(r, t), row: r }))],
  ];
  for (const [title, rows] of sections) {
    if (rows.length === 0) continue;
    lines.push({ text: thin }, { text: words.upper(title).slice(0, width), bold: true });
    for (const { label, row } of rows)
      lines.push(...figureBlock(`${label} ${row.currency}`, row, width, words).map((line, i) => (i === 0 ? { text: line.text } : line)));
  }
  lines.push({ text: rule });
  lines.push({ text: center(view.report === 'z' ? t('reports.print.closedDay') : t('reports.print.stillOpen'), width) });
  return lines;
}

/** The report as the receipt printer's lines, in `words`' language (English by default). */
export function reportLines(view: DayReportView, width = RECEIPT_COLUMNS, words: ReportWords = reportWords()): string[] {
  return layout(view, width, words).map((line) => line.text);
}

/** The report for the shop's ESC/POS receipt printer: the same lines, headings in bold. */
export function reportPrintDocument(view: DayReportView, width: number, words: ReportWords = reportWords()): PrintDocument {
  return { lines: layout(view, width, words).map((line) => ({ text: line.text, ...(line.bold ? { bold: true } : {}) })) };
}
