/**
 * What a receipt says, in the merchant's languages (en, de, pt; the receipt page adds hr): the
 * printed receipt laid out for the printer's width, the e-mail's plain text, and the labelled rows
 * the receipt page shows. Card data is brand and last four, plus the chip's application label and
 * AID on the printed and e-mailed receipt (ux.md 7); the public page leaves those two out.
 */
import type { Receipt } from '../../../contract/api/receipts.js';
import type { PrintDocument, PrintLine } from './ports.js';

export const DOCUMENT_LANGUAGES = ['en', 'de', 'pt', 'hr'] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number];

export function isDocumentLanguage(value: unknown): value is DocumentLanguage {
  return typeof value === 'string' && (DOCUMENT_LANGUAGES as readonly string[]).includes(value);
}

const INTL_LOCALE: Record<DocumentLanguage, string> = { en: 'en-GB', de: 'de-DE', pt: 'pt-PT', hr: 'hr-HR' };

const en = {
  sale: 'Card payment · Sale',
  refund: 'Card payment · Refund',
  date: 'Date',
  terminal: 'Terminal',
  order: 'Order',
  card: 'Card',
  entry: 'Entry',
  application: 'Application',
  aid: 'AID',
  verification: 'Verification',
  pin_verified: 'PIN verified',
  no_pin: 'No PIN needed',
  approval_code: 'Approval code',
  reference: 'Reference',
  refund_of: 'Refund of',
  total: 'Total',
  approved: 'Approved',
  refunded: 'Refunded',
  transaction: 'Transaction',
  keep: 'Please keep this receipt.',
  test_note: 'Test environment: no real money was moved.',
  entry_contactless: 'Contactless',
  entry_chip: 'Chip',
  entry_swipe: 'Swipe',
  entry_manual: 'Keyed',
  entry_other: 'Card',
  unknown_brand: 'Card',
  mail_subject_sale: 'Your receipt from {merchant}: {amount}',
  mail_subject_refund: 'Your refund receipt from {merchant}: {amount}',
  mail_greeting: 'Hello,',
  mail_intro_sale: 'thank you for your purchase. Here is your receipt.',
  mail_intro_refund: 'we have refunded {amount} to your card. Here is your receipt.',
  mail_online: 'Your receipt online:',
  mail_closing: 'Kind regards,\n{merchant}',
  page_title: 'Receipt',
  page_missing_title: 'Receipt not found',
  page_missing_text: 'This receipt link is not valid. Check the link, or ask the shop for the receipt again.',
  test_print: 'Test print',
  test_print_ok: 'The receipt printer works.',
  printer: 'Printer',
  width: 'Characters per line',
};
type Texts = typeof en;

const de: Texts = {
  sale: 'Kartenzahlung · Verkauf',
  refund: 'Kartenzahlung · Erstattung',
  date: 'Datum',
  terminal: 'Terminal',
  order: 'Bestellung',
  card: 'Karte',
  entry: 'Eingabe',
  application: 'Anwendung',
  aid: 'AID',
  verification: 'Prüfung',
  pin_verified: 'PIN geprüft',
  no_pin: 'Ohne PIN',
  approval_code: 'Genehmigungscode',
  reference: 'Referenz',
  refund_of: 'Erstattung zu',
  total: 'Gesamt',
  approved: 'Genehmigt',
  refunded: 'Erstattet',
  transaction: 'Transaktion',
  keep: 'Bitte bewahren Sie diesen Beleg auf.',
  test_note: 'Testumgebung: Es wurde kein echtes Geld bewegt.',
  entry_contactless: 'Kontaktlos',
  entry_chip: 'Chip',
  entry_swipe: 'Magnetstreifen',
  entry_manual: 'Manuell',
  entry_other: 'Karte',
  unknown_brand: 'Karte',
  mail_subject_sale: 'Ihr Beleg von {merchant}: {amount}',
  mail_subject_refund: 'Ihr Erstattungsbeleg von {merchant}: {amount}',
  mail_greeting: 'Guten Tag,',
  mail_intro_sale: 'vielen Dank für Ihren Einkauf. Hier ist Ihr Beleg.',
  mail_intro_refund: 'wir haben {amount} auf Ihre Karte erstattet. Hier ist Ihr Beleg.',
  mail_online: 'Ihr Beleg online:',
  mail_closing: 'Mit freundlichen Grüßen\n{merchant}',
  page_title: 'Beleg',
  page_missing_title: 'Beleg nicht gefunden',
  page_missing_text: 'Dieser Link zu einem Beleg ist nicht gültig. Prüfen Sie den Link oder fragen Sie im Geschäft erneut nach dem Beleg.',
  test_print: 'Testdruck',
  test_print_ok: 'Der Belegdrucker funktioniert.',
  printer: 'Drucker',
  width: 'Zeichen pro Zeile',
};

const pt: Texts = {
  sale: 'Pagamento com cartão · Venda',
  refund: 'Pagamento com cartão · Reembolso',
  date: 'Data',
  terminal: 'Terminal',
  order: 'Encomenda',
  card: 'Cartão',
  entry: 'Leitura',
  application: 'Aplicação',
  aid: 'AID',
  verification: 'Verificação',
  pin_verified: 'PIN verificado',
  no_pin: 'Sem PIN',
  approval_code: 'Código de autorização',
  reference: 'Referência',
  refund_of: 'Reembolso de',
  total: 'Total',
  approved: 'Aprovado',
  refunded: 'Reembolsado',
  transaction: 'Transação',
  keep: 'Guarde este recibo, por favor.',
  test_note: 'Ambiente de teste: não foi movimentado dinheiro real.',
  entry_contactless: 'Sem contacto',
  entry_chip: 'Chip',
  entry_swipe: 'Banda magnética',
  entry_manual: 'Manual',
  entry_other: 'Cartão',
  unknown_brand: 'Cartão',
  mail_subject_sale: 'O seu recibo de {merchant}: {amount}',
  mail_subject_refund: 'O seu recibo de reembolso de {merchant}: {amount}',
  mail_greeting: 'Olá,',
  mail_intro_sale: 'obrigado pela sua compra. Aqui está o seu recibo.',
  mail_intro_refund: 'reembolsámos {amount} para o seu cartão. Aqui está o seu recibo.',
  mail_online: 'O seu recibo online:',
  mail_closing: 'Com os melhores cumprimentos,\n{merchant}',
  page_title: 'Recibo',
  page_missing_title: 'Recibo não encontrado',
  page_missing_text: 'Este link de recibo não é válido. Verifique o link ou peça novamente o recibo na loja.',
  test_print: 'Impressão de teste',
  test_print_ok: 'A impressora de recibos funciona.',
  printer: 'Impressora',
  width: 'Caracteres por linha',
};

const hr: Texts = {
  sale: 'Plaćanje karticom · Prodaja',
  refund: 'Plaćanje karticom · Povrat',
  date: 'Datum',
  terminal: 'Terminal',
  order: 'Narudžba',
  card: 'Kartica',
  entry: 'Način unosa',
  application: 'Aplikacija',
  aid: 'AID',
  verification: 'Provjera',
  pin_verified: 'PIN provjeren',
  no_pin: 'Bez PIN-a',
  approval_code: 'Autorizacijski kod',
  reference: 'Referenca',
  refund_of: 'Povrat za',
  total: 'Ukupno',
  approved: 'Odobreno',
  refunded: 'Vraćeno',
  transaction: 'Transakcija',
  keep: 'Molimo sačuvajte ovaj račun.',
  test_note: 'Testno okruženje: nije preneseno stvarno plaćanje.',
  entry_contactless: 'Beskontaktno',
  entry_chip: 'Čip',
  entry_swipe: 'Magnetska traka',
  entry_manual: 'Ručni unos',
  entry_other: 'Kartica',
  unknown_brand: 'Kartica',
  mail_subject_sale: 'Vaš račun od {merchant}: {amount}',
  mail_subject_refund: 'Vaša potvrda o povratu od {merchant}: {amount}',
  mail_greeting: 'Pozdrav,',
  mail_intro_sale: 'hvala na kupnji. Ovo je vaš račun.',
  mail_intro_refund: 'vratili smo {amount} na vašu karticu. Ovo je vaša potvrda.',
  mail_online: 'Vaš račun na internetu:',
  mail_closing: 'Srdačan pozdrav,\n{merchant}',
  page_title: 'Račun',
  page_missing_title: 'Račun nije pronađen',
  page_missing_text: 'Ova poveznica na račun nije valjana. Provjerite poveznicu ili ponovno zatražite račun u trgovini.',
  test_print: 'Probni ispis',
  test_print_ok: 'Pisač računa radi.',
  printer: 'Pisač',
  width: 'Znakova po retku',
};

const TEXTS: Record<DocumentLanguage, Texts> = { en, de, pt, hr };
export type ReceiptTextKey = keyof Texts;

export function receiptText(lang: DocumentLanguage, key: ReceiptTextKey, values: Record<string, string> = {}): string {
  return TEXTS[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };

export function brandName(lang: DocumentLanguage, brand: string): string {
  return BRANDS[brand] ?? TEXTS[lang].unknown_brand;
}

export function entryName(lang: DocumentLanguage, entry: string | null): string | null {
  if (entry === null) return null;
  const key = `entry_${entry}`;
  return key in TEXTS[lang] ? TEXTS[lang][key as ReceiptTextKey] : TEXTS[lang].entry_other;
}

/** "Visa •••• 1111": brand and last four, the only card number digits any receipt shows. */
export function maskedCard(lang: DocumentLanguage, card: { brand: string; last_four: string }): string {
  return `${brandName(lang, card.brand)} •••• ${card.last_four}`;
}

export function formatReceiptAmount(lang: DocumentLanguage, amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(INTL_LOCALE[lang], { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** Date and time in the gateway's time zone: the shop's clock, as the customer reads it at the till. */
export function formatReceiptDate(lang: DocumentLanguage, iso: string): string {
  return new Intl.DateTimeFormat(INTL_LOCALE[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** The receipt as labelled rows (print, e-mail and page share them). */
export function receiptRows(lang: DocumentLanguage, receipt: Receipt, options: { chipData: boolean }): Array<[string, string]> {
  const t = TEXTS[lang];
  const rows: Array<[string, string] | false> = [
    [t.date, formatReceiptDate(lang, receipt.created_at)],
    receipt.terminal_id !== null && [t.terminal, receipt.terminal_id],
    receipt.order_id !== null && [t.order, receipt.order_id],
    receipt.card !== null && [t.card, maskedCard(lang, receipt.card)],
    receipt.card?.entry_mode != null && [t.entry, entryName(lang, receipt.card.entry_mode) ?? ''],
    options.chipData && receipt.card?.application_label != null && [t.application, receipt.card.application_label],
    options.chipData && receipt.card?.aid != null && [t.aid, receipt.card.aid],
    receipt.kind === 'sale' && receipt.card?.entry_mode != null && [t.verification, receipt.verification === 'online_pin' ? t.pin_verified : t.no_pin],
    receipt.authorization_code !== null && [t.approval_code, receipt.authorization_code],
    receipt.kind === 'refund' && [t.refund_of, receipt.transaction_id],
    receipt.reference !== null && [t.reference, receipt.reference],
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
  const t = TEXTS[lang];
  const rule: PrintLine = { text: '-'.repeat(width) };
  const amount = formatReceiptAmount(lang, receipt.amount, receipt.currency);
  const lines: PrintLine[] = [
    ...centred(receipt.merchant_name || 'Tillgate', width, { bold: true, tall: true }),
    ...centred(receipt.kind === 'sale' ? t.sale : t.refund, width),
    rule,
    ...receiptRows(lang, receipt, { chipData: true }).flatMap(([label, value]) => pair(label, value, width)),
    rule,
    ...pair(receipt.kind === 'sale' ? t.total : t.refunded, amount, width).map((line) => ({ ...line, bold: true, tall: true })),
    { text: '' },
    ...centred((receipt.kind === 'sale' ? t.approved : t.refunded).toUpperCase(), width, { bold: true }),
    { text: '' },
    ...pair(t.transaction, receipt.receipt_id, width),
    { text: '' },
    ...centred(t.keep, width),
    ...centred(t.test_note, width),
  ];
  return { lines };
}

export function testPrintDocument(lang: DocumentLanguage, merchantName: string, printer: string, width: number, nowIso: string): PrintDocument {
  const t = TEXTS[lang];
  const ruler = Array.from({ length: width }, (_, i) => String((i + 1) % 10)).join('');
  return {
    lines: [
      ...centred(merchantName || 'Tillgate', width, { bold: true, tall: true }),
      ...centred(t.test_print, width, { bold: true }),
      { text: '-'.repeat(width) },
      ...pair(t.date, formatReceiptDate(lang, nowIso), width),
      ...pair(t.printer, printer, width),
      ...pair(t.width, String(width), width),
      { text: ruler },
      { text: '-'.repeat(width) },
      ...centred(t.test_print_ok, width),
      ...centred(`${maskedCard(lang, { brand: 'visa', last_four: '1111' })} · ${formatReceiptAmount(lang, 12.5, 'EUR')}`, width),
    ],
  };
}

// ---- the e-mail ----------------------------------------------------------------------------------------

export function receiptMail(lang: DocumentLanguage, receipt: Receipt, link: string): { subject: string; text: string } {
  const t = TEXTS[lang];
  const amount = formatReceiptAmount(lang, receipt.amount, receipt.currency);
  const values = { merchant: receipt.merchant_name, amount };
  const rows = receiptRows(lang, receipt, { chipData: true });
  const labelWidth = Math.max(...rows.map(([label]) => label.length), t.total.length, t.refunded.length);
  const table = [...rows, [receipt.kind === 'sale' ? t.total : t.refunded, amount]].map(([label, value]) => `${(label ?? '').padEnd(labelWidth)}  ${value ?? ''}`);
  const text = [
    t.mail_greeting,
    '',
    receiptText(lang, receipt.kind === 'sale' ? 'mail_intro_sale' : 'mail_intro_refund', values),
    '',
    receipt.merchant_name,
    receipt.kind === 'sale' ? t.sale : t.refund,
    '',
    ...table,
    '',
    `${receipt.kind === 'sale' ? t.approved : t.refunded} · ${t.transaction} ${receipt.receipt_id}`,
    '',
    t.mail_online,
    link,
    '',
    t.test_note,
    '',
    receiptText(lang, 'mail_closing', values),
    '',
  ].join('\n');
  return { subject: receiptText(lang, receipt.kind === 'sale' ? 'mail_subject_sale' : 'mail_subject_refund', values), text };
}
