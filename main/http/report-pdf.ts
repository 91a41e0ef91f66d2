/**
 * An X or Z report as an A4 PDF (pdfkit, DejaVu Sans Condensed embedded): the header facts, then the totals
 * per currency and the figures per card brand, entry mode and cashier as tables, in the staff
 * member's language (D21; `words`, core/reports/report-text.ts). pdfkit is loaded on the first
 * export only, so the gateway's start does not pay for it.
 *
 * The font is embedded (its subset of the letters used: a few tens of KB): PDF's standard Helvetica
 * has the Windows-1252 letters only and would lose Croatian's č, ć and đ (and staff names such as
 * Kovačević). DejaVu Sans Condensed (the dejavu-fonts-ttf package; Bitstream Vera licence) has every
 * Latin letter and is about as wide as Helvetica, so the columns keep their widths.
 */
import { createRequire } from 'node:module';
import type { DayReport as DayReportView, FigureRow } from '../../contract/api/reports.js';
import { brandLabel, cashierLabel, entryModeLabel, reportTitle, reportWords, type ReportWords } from '../core/reports/report-text.js';

const MARGIN = 48;
const ROW = 16;
/** Label, currency, then count and amount for approved, declined and refunded, then net (499 pt on A4). */
const COLUMNS = [111, 34, 34, 66, 34, 60, 34, 60, 66] as const;
const INK = '#1a1f2b';
const MUTED = '#5b6472';
const RULE = '#c9ced6';

type Doc = PDFKit.PDFDocument;

const REGULAR = 'Body';
const BOLD = 'Body-Bold';
const fontFile = (name: string) => createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`);

/** `text` as the PDF draws it: Intl's narrow and thin spaces as plain ones (a line never breaks inside an amount anyway). */
export function pdfText(text: string): string {
  return text.replace(/[\u202f\u2009]/g, ' ');
}

function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN - 24) doc.addPage();
}

function cells(doc: Doc, values: readonly string[], y: number, bold: boolean, color = INK): void {
  let x = MARGIN;
  doc
    .font(bold ? BOLD : REGULAR)
    .fontSize(9)
    .fillColor(color);
  values.forEach((value, i) => {
    const width = COLUMNS[i] ?? 40;
    // Text columns left, numbers right.
    doc.text(pdfText(value), x + 2, y + 4, { width: width - 4, align: i < 2 ? 'left' : 'right', lineBreak: false, ellipsis: true });
    x += width;
  });
}

function rule(doc: Doc, y: number, color = RULE): void {
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + COLUMNS.reduce((a, b) => a + b, 0), y)
    .lineWidth(0.6)
    .strokeColor(color)
    .stroke();
}

function table(doc: Doc, words: ReportWords, title: string, firstColumn: string, rows: Array<{ label: string; row: FigureRow }>): void {
  const { t } = words;
  ensureRoom(doc, 3 * ROW + 28);
  doc.moveDown(0.8).font(BOLD).fontSize(12).fillColor(INK).text(pdfText(title), MARGIN, doc.y);
  let y = doc.y + 4;
  // Group header over each count + amount pair.
  const groups: Array<[string, number, number]> = [
    [t('common.approved'), 2, 2],
    [t('common.declined'), 4, 2],
    [t('reports.figure.refunded'), 6, 2],
  ];
  doc.font(BOLD).fontSize(8).fillColor(MUTED);
  for (const [label, start, span] of groups) {
    const x = MARGIN + COLUMNS.slice(0, start).reduce((a, b) => a + b, 0);
    const width = COLUMNS.slice(start, start + span).reduce((a, b) => a + b, 0);
    doc.text(pdfText(words.upper(label)), x, y + 2, { width: width - 2, align: 'right', lineBreak: false });
  }
  y += ROW - 4;
  const [count, amount] = [t('reports.pdf.count'), t('reports.pdf.amount')];
  cells(
    doc,
    [firstColumn, t('reports.pdf.currency'), count, amount, count, amount, count, amount, t('reports.figure.net')],
    y,
    true,
    MUTED,
  );
  y += ROW;
  rule(doc, y, INK);
  if (rows.length === 0) {
    doc
      .font(REGULAR)
      .fontSize(9)
      .fillColor(MUTED)
      .text(pdfText(t('reports.print.empty')), MARGIN + 2, y + 4);
    y += ROW;
  }
  for (const { label, row } of rows) {
    if (y + ROW > doc.page.height - MARGIN - 24) {
      doc.addPage();
      y = MARGIN;
    }
    const c = row.currency;
    cells(
      doc,
      [
        label,
        c,
        String(row.approved.count),
        words.amount(row.approved.amount, c),
        String(row.declined.count),
        words.amount(row.declined.amount, c),
        String(row.refunded.count),
        words.amount(row.refunded.amount, c),
        words.amount(row.net, c),
      ],
      y,
      false,
    );
    y += ROW;
    rule(doc, y);
  }
  doc.x = MARGIN;
  doc.y = y + 4;
}

function facts(doc: Doc, view: DayReportView, words: ReportWords): void {
  const { t } = words;
  // Left: the till and the day's times; right: who, and the first and last sale.
  const left: Array<[string, string]> = [
    [t('reports.fact.till'), view.terminal_id],
    [t('reports.pdf.dayOpened'), view.opened_at ? words.time(view.opened_at) : t('reports.firstDayOfTill')],
    view.report === 'z'
      ? [t('reports.pdf.dayClosed'), words.time(view.closed_at)]
      : [t('reports.pdf.figuresTaken'), words.time(view.generated_at)],
  ];
  const right: Array<[string, string]> = [
    ...(view.closed_by ? [[t('reports.fact.closedBy'), view.closed_by.name] as [string, string]] : []),
    ...(view.approved_by ? [[t('reports.fact.approvedBy'), view.approved_by.name] as [string, string]] : []),
    [t('reports.fact.firstSale'), words.time(view.first_sale_at)],
    [t('reports.fact.lastSale'), words.time(view.last_sale_at)],
  ];
  // The labels' column: 80 pt, or as wide as the language's longest label (at most 120).
  doc.font(REGULAR).fontSize(9);
  const keyWidth = Math.min(120, Math.max(80, ...[...left, ...right].map(([key]) => Math.ceil(doc.widthOfString(pdfText(key))) + 6)));
  const top = doc.y;
  [left, right].forEach((pairs, column) => {
    pairs.forEach(([key, value], row) => {
      const x = MARGIN + column * 250;
      const y = top + row * 15;
      doc.font(REGULAR).fontSize(9).fillColor(MUTED).text(pdfText(key), x, y, { width: keyWidth, lineBreak: false });
      doc
        .font(BOLD)
        .fontSize(9)
        .fillColor(INK)
        .text(pdfText(value), x + keyWidth, y, { width: 245 - keyWidth, lineBreak: false, ellipsis: true });
    });
  });
  doc.x = MARGIN;
  doc.y = top + Math.max(left.length, right.length) * 15 + 4;
}

/** The report as an A4 PDF in `words`' language (English by default). */
export async function dayReportPdf(view: DayReportView, words: ReportWords = reportWords()): Promise<Buffer> {
  const { t } = words;
  const { default: PDFDocument } = await import('pdfkit');
  const reportName = reportTitle(view, t);
  // The document's properties are Unicode text (not drawn with the font): the language's own letters.
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    lang: words.language,
    info: { Title: `${reportName} - ${view.shop_name}`, Author: 'Tillgate', Subject: t('reports.print.till', { till: view.terminal_id }) },
  });
  doc.registerFont(REGULAR, fontFile('DejaVuSansCondensed'));
  doc.registerFont(BOLD, fontFile('DejaVuSansCondensed-Bold'));
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font(REGULAR).fontSize(10).fillColor(MUTED).text(pdfText(view.shop_name), MARGIN, MARGIN);
  doc
    .font(BOLD)
    .fontSize(20)
    .fillColor(INK)
    .text(pdfText(reportName), MARGIN, doc.y + 2);
  if (view.report === 'x') {
    doc
      .font(BOLD)
      .fontSize(10)
      .fillColor('#9a5b00')
      .text(pdfText(t('reports.pdf.notClosed')), MARGIN, doc.y + 2);
  }
  doc.moveDown(0.6);
  facts(doc, view, words);
  table(
    doc,
    words,
    t('reports.pdf.totals'),
    t('reports.pdf.cards'),
    view.totals.map((row) => ({ label: t('reports.pdf.allCards'), row })),
  );
  table(
    doc,
    words,
    t('reports.byBrand'),
    t('reports.brand'),
    view.by_card_brand.map((row) => ({ label: brandLabel(row.card_brand, t), row })),
  );
  table(
    doc,
    words,
    t('reports.byEntry'),
    t('reports.entry'),
    view.by_entry_mode.map((row) => ({ label: entryModeLabel(row.entry_mode, t), row })),
  );
  table(
    doc,
    words,
    t('reports.byCashier'),
    t('reports.cashier'),
    view.by_cashier.map((row) => ({ label: cashierLabel(row, t), row })),
  );

  // Footer on every page: what this is and the page number.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    // Writing below the bottom margin would start a new page.
    doc.page.margins.bottom = 0;
    const footer =
      view.report === 'z'
        ? t('reports.pdf.footerZ', { title: reportName, till: view.terminal_id, from: view.ledger.from + 1, to: view.ledger.to })
        : t('reports.pdf.footerX', { till: view.terminal_id, taken: words.time(view.generated_at) });
    const page = t('reports.pdf.page', { page: i - range.start + 1, pages: range.count });
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor(MUTED)
      .text(pdfText(`${footer}   ${page}`), MARGIN, doc.page.height - MARGIN, { width: doc.page.width - 2 * MARGIN, lineBreak: false });
  }
  doc.end();
  return done;
}
