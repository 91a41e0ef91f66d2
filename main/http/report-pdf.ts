/**
 * An X or Z report as an A4 PDF (pdfkit, standard Helvetica): the header facts, then the totals
 * per currency and the figures per card brand, entry mode and cashier as tables. pdfkit is loaded
 * on the first export only, so the gateway's start does not pay for it.
 */
import type { DayReport as DayReportView, FigureRow } from '../../contract/api/reports.js';
import { amountText, brandLabel, entryModeLabel, reportTitle, timeText } from '../core/reports/report-text.js';

const MARGIN = 48;
const ROW = 16;
/** Label, currency, then count and amount for approved, declined and refunded, then net (499 pt on A4). */
const COLUMNS = [111, 34, 34, 66, 34, 60, 34, 60, 66] as const;
const INK = '#1a1f2b';
const MUTED = '#5b6472';
const RULE = '#c9ced6';

type Doc = PDFKit.PDFDocument;

function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN - 24) doc.addPage();
}

function cells(doc: Doc, values: readonly string[], y: number, bold: boolean, color = INK): void {
  let x = MARGIN;
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9).fillColor(color);
  values.forEach((value, i) => {
    const width = COLUMNS[i] ?? 40;
    // Text columns left, numbers right.
    doc.text(value, x + 2, y + 4, { width: width - 4, align: i < 2 ? 'left' : 'right', lineBreak: false, ellipsis: true });
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

function table(doc: Doc, title: string, firstColumn: string, rows: Array<{ label: string; row: FigureRow }>): void {
  ensureRoom(doc, 3 * ROW + 28);
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).fillColor(INK).text(title, MARGIN, doc.y);
  let y = doc.y + 4;
  // Group header over each count + amount pair.
  const groups: Array<[string, number, number]> = [
    ['Approved', 2, 2],
    ['Declined', 4, 2],
    ['Refunded', 6, 2],
  ];
  doc.font('Helvetica-Bold').fontSize(8).fillColor(MUTED);
  for (const [label, start, span] of groups) {
    const x = MARGIN + COLUMNS.slice(0, start).reduce((a, b) => a + b, 0);
    const width = COLUMNS.slice(start, start + span).reduce((a, b) => a + b, 0);
    doc.text(label.toUpperCase(), x, y + 2, { width: width - 2, align: 'right', lineBreak: false });
  }
  y += ROW - 4;
  cells(doc, [firstColumn, 'Cur.', 'No.', 'Amount', 'No.', 'Amount', 'No.', 'Amount', 'Net'], y, true, MUTED);
  y += ROW;
  rule(doc, y, INK);
  if (rows.length === 0) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('No card sales, declines or refunds.', MARGIN + 2, y + 4);
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
        amountText(row.approved.amount, c),
        String(row.declined.count),
        amountText(row.declined.amount, c),
        String(row.refunded.count),
        amountText(row.refunded.amount, c),
        amountText(row.net, c),
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

function facts(doc: Doc, view: DayReportView): void {
  // Left: the till and the day's times; right: who, and the first and last sale.
  const left: Array<[string, string]> = [
    ['Till', view.terminal_id],
    ['Day opened', view.opened_at ? timeText(view.opened_at) : 'first day of this till'],
    view.report === 'z' ? ['Day closed', timeText(view.closed_at)] : ['Figures taken', timeText(view.generated_at)],
  ];
  const right: Array<[string, string]> = [
    ...(view.closed_by ? [['Closed by', view.closed_by.name] as [string, string]] : []),
    ...(view.approved_by ? [['Approved by', view.approved_by.name] as [string, string]] : []),
    ['First sale', timeText(view.first_sale_at)],
    ['Last sale', timeText(view.last_sale_at)],
  ];
  const top = doc.y;
  [left, right].forEach((pairs, column) => {
    pairs.forEach(([key, value], row) => {
      const x = MARGIN + column * 250;
      const y = top + row * 15;
      doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(key, x, y, { width: 80, lineBreak: false });
      doc.font('Helvetica-Bold').fontSize(9).fillColor(INK).text(value, x + 80, y, { width: 165, lineBreak: false, ellipsis: true });
    });
  });
  doc.x = MARGIN;
  doc.y = top + Math.max(left.length, right.length) * 15 + 4;
}

export async function dayReportPdf(view: DayReportView): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const title = `${reportTitle(view)} - ${view.shop_name}`;
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: title, Author: 'Tillgate', Subject: `Till ${view.terminal_id}` } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(view.shop_name, MARGIN, MARGIN);
  doc.font('Helvetica-Bold').fontSize(20).fillColor(INK).text(reportTitle(view), MARGIN, doc.y + 2);
  if (view.report === 'x') {
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#9a5b00').text('Not a closed day: running totals of the open day.', MARGIN, doc.y + 2);
  }
  doc.moveDown(0.6);
  facts(doc, view);
  table(doc, 'Totals', 'Cards', view.totals.map((row) => ({ label: 'All cards', row })));
  table(doc, 'By card brand', 'Card brand', view.by_card_brand.map((row) => ({ label: brandLabel(row.card_brand), row })));
  table(doc, 'By entry mode', 'Entry mode', view.by_entry_mode.map((row) => ({ label: entryModeLabel(row.entry_mode), row })));
  table(doc, 'By cashier', 'Cashier', view.by_cashier.map((row) => ({ label: row.name, row })));

  // Footer on every page: what this is and the page number.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    // Writing below the bottom margin would start a new page.
    doc.page.margins.bottom = 0;
    const footer =
      view.report === 'z'
        ? `${reportTitle(view)}, till ${view.terminal_id}. A closed day never changes. Ledger entries ${view.ledger.from + 1} to ${view.ledger.to}.`
        : `X report of till ${view.terminal_id}, taken ${timeText(view.generated_at)}. Running totals; the day is not closed.`;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(`${footer}   Page ${i - range.start + 1} of ${range.count}`, MARGIN, doc.page.height - MARGIN, { width: doc.page.width - 2 * MARGIN, lineBreak: false });
  }
  doc.end();
  return done;
}
