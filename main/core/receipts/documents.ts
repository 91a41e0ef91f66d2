/**
 * What a receipt says, in the merchant's languages (en, de, pt; the receipt page adds hr): the
 * printed receipt laid out for the printer's width, the e-mail's plain text, and the labelled rows
 * the receipt page shows. Card data is brand and last four, plus the chip's application label and
 * AID on the printed and e-mailed receipt; the public page leaves those two out. The words are the
 * `documents` area of the shared catalogues (contract/i18n/messages/documents/, D21).
 */
import type { Receipt } from '../../../contract/api/receipts.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { formatterFor } from '../../../contract/i18n/format.js';
import { INTL_LOCALES, isStaffLanguage, STAFF_LANGUAGES, type StaffLanguage } from '../../../contract/i18n/languages.js';
import type { PrintDocument, PrintLine } from './ports.js';

/** A receipt speaks the staff languages. */
export const DOCUMENT_LANGUAGES = STAFF_LANGUAGES;
export type DocumentLanguage = StaffLanguage;

export const isDocumentLanguage = isStaffLanguage;

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };

/** How the card was read (Receipt card.entry_mode); another mode is just "Card". */
const ENTRY_MODES: Readonly<Record<string, MessageId>> = {
  contactless: 'documents.entry_contactless',
  chip: 'documents.entry_chip',
  swipe: 'documents.entry_swipe',
  manual: 'documents.entry_manual',
};

export function brandName(lang: DocumentLanguage, brand: string): string {
  return BRANDS[brand] ?? formatterFor(lang)('documents.unknown_brand');
}

export function entryName(lang: DocumentLanguage, entry: string | null): string | null {
  if (entry === null) return null;
  return formatterFor(lang)(Object.hasOwn(ENTRY_MODES, entry) ? (ENTRY_MODES[entry] as MessageId) : 'documents.entry_other');
}

/** "Visa •••• 1111": brand and last four, the only card number digits any receipt shows. */
export function maskedCard(lang: DocumentLanguage, card: { brand: string; last_four: string }): string {
  return `${brandName(lang, card.brand)} •••• ${card.last_four}`;
}

export function formatReceiptAmount(lang: DocumentLanguage, amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(INTL_LOCALES[lang], { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** Date and time in the gateway's time zone: the shop's clock, as the customer reads it at the till. */
export function formatReceiptDate(lang: DocumentLanguage, iso: string): string {
  return new Intl.DateTimeFormat(INTL_LOCALES[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** The receipt as labelled rows (print, e-mail and page share them). */
export function receiptRows(lang: DocumentLanguage, receipt: Receipt, options: { chipData: boolean }): Array<[string, string]> {
  const t = formatterFor(lang);
  const rows: Array<[string, string] | false> = [
    [t('documents.date'), formatReceiptDate(lang, receipt.created_at)],
    receipt.terminal_id !== null && [t('documents.terminal'), receipt.terminal_id],
    receipt.order_id !== null && [t('documents.order'), receipt.order_id],
    receipt.card !== null && [t('documents.card'), maskedCard(lang, receipt.card)],
    receipt.card?.entry_mode != null && [t('documents.entry'), entryName(lang, receipt.card.entry_mode) ?? ''],
    options.chipData && receipt.card?.application_label != null && [t('documents.application'), receipt.card.application_label],
    options.chipData && receipt.card?.aid != null && [t('documents.aid'), receipt.card.aid],
    receipt.kind === 'sale' &&
      receipt.card?.entry_mode != null && [
        t('documents.verification'),
        receipt.verification === 'online_pin' ? t('documents.pin_verified') : t('documents.no_pin'),
      ],
    receipt.authorization_code !== null && [t('documents.approval_code'), receipt.authorization_code],
    receipt.kind === 'refund' && [t('documents.refund_of'), receipt.transaction_id],
    receipt.reference !== null && [t('documents.reference'), receipt.reference],
  ];
  return rows.filter((row): row is [string, string] => row !== false);
}

// ---- the printed receipt ---------------------------------------------------------------------------

/** Label left, value right; a value that does not fit goes on its own line(s), right-aligned. */
function pair(label: string, value: string, width: number): PrintLine[] {
  if (label.length + 1 + value.length <= width) return [{ text: `${label}${' '.repeat(width - label.length - value.length)}${value}` }];
  const lines: PrintLine[] = [{ text: label.slice(0, width) }];
  for (let i = 0; i < value.length; i += width) {
    const part = value.slice(i, i + width);
    lines.push({ text: part.padStart(width) });
  }
  return lines;
}

/** Text folded at spaces (or hard at the width) into centred lines. */
function centred(text: string, width: number, style: Omit<PrintLine, 'text'> = {}): PrintLine[] {
  const lines: PrintLine[] = [];
  let rest = text.trim();
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    const at = cut > 0 ? cut : width;
    lines.push({ text: rest.slice(0, at), align: 'center', ...style });
    rest = rest.slice(at).trim();
  }
  lines.push({ text: rest, align: 'center', ...style });
  return lines;
}

export function printedReceipt(lang: DocumentLanguage, receipt: Receipt, width: number): PrintDocument {
  const t = formatterFor(lang);
  const rule: PrintLine = { text: '-'.repeat(width) };
  const amount = formatReceiptAmount(lang, receipt.amount, receipt.currency);
  const lines: PrintLine[] = [
    ...centred(receipt.merchant_name || 'Tillgate', width, { bold: true, tall: true }),
    ...centred(receipt.kind === 'sale' ? t('documents.sale') : t('documents.refund'), width),
    rule,
    ...receiptRows(lang, receipt, { chipData: true }).flatMap(([label, value]) => pair(label, value, width)),
    rule,
    ...pair(receipt.kind === 'sale' ? t('documents.total') : t('documents.refunded'), amount, width).map((line) => ({
      ...line,
      bold: true,
      tall: true,
    })),
    { text: '' },
    ...centred((receipt.kind === 'sale' ? t('documents.approved') : t('documents.refunded')).toUpperCase(), width, { bold: true }),
    { text: '' },
    ...pair(t('documents.transaction'), receipt.receipt_id, width),
    { text: '' },
    ...centred(t('documents.keep'), width),
    ...centred(t('documents.test_note'), width),
  ];
  return { lines };
}

export function testPrintDocument(
  lang: DocumentLanguage,
  merchantName: string,
  printer: string,
  width: number,
  nowIso: string,
): PrintDocument {
  const t = formatterFor(lang);
  const ruler = Array.from({ length: width }, (_, i) => String((i + 1) % 10)).join('');
  return {
    lines: [
      ...centred(merchantName || 'Tillgate', width, { bold: true, tall: true }),
      ...centred(t('documents.test_print'), width, { bold: true }),
      { text: '-'.repeat(width) },
      ...pair(t('documents.date'), formatReceiptDate(lang, nowIso), width),
      ...pair(t('documents.printer'), printer, width),
      ...pair(t('documents.width'), String(width), width),
      { text: ruler },
      { text: '-'.repeat(width) },
      ...centred(t('documents.test_print_ok'), width),
      ...centred(`${maskedCard(lang, { brand: 'visa', last_four: '1111' })} · ${formatReceiptAmount(lang, 12.5, 'EUR')}`, width),
    ],
  };
}

// ---- the e-mail ----------------------------------------------------------------------------------------

export function receiptMail(lang: DocumentLanguage, receipt: Receipt, link: string): { subject: string; text: string } {
  const t = formatterFor(lang);
  const amount = formatReceiptAmount(lang, receipt.amount, receipt.currency);
  const values = { merchant: receipt.merchant_name, amount };
  const rows = receiptRows(lang, receipt, { chipData: true });
  const labelWidth = Math.max(...rows.map(([label]) => label.length), t('documents.total').length, t('documents.refunded').length);
  const table = [...rows, [receipt.kind === 'sale' ? t('documents.total') : t('documents.refunded'), amount]].map(
    ([label, value]) => `${(label ?? '').padEnd(labelWidth)}  ${value ?? ''}`,
  );
  const text = [
    t('documents.mail_greeting'),
    '',
    t(receipt.kind === 'sale' ? 'documents.mail_intro_sale' : 'documents.mail_intro_refund', values),
    '',
    receipt.merchant_name,
    receipt.kind === 'sale' ? t('documents.sale') : t('documents.refund'),
    '',
    ...table,
    '',
    `${receipt.kind === 'sale' ? t('documents.approved') : t('documents.refunded')} · ${t('documents.transaction')} ${receipt.receipt_id}`,
    '',
    t('documents.mail_online'),
    link,
    '',
    t('documents.test_note'),
    '',
    t('documents.mail_closing', values),
    '',
  ].join('\n');
  return { subject: t(receipt.kind === 'sale' ? 'documents.mail_subject_sale' : 'documents.mail_subject_refund', values), text };
}
