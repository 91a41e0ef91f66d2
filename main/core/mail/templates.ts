/**
 * Invoice e-mail templates (decisions.md D11): `initial` and `reminder` in `en`, `de` and `pt`,
 * plain text. Each names the channel, the invoice number, the amount formatted for the locale, the
 * expiry when one is set, and the pay link.
 */
import type { InvoiceEmailType, InvoiceLocale } from '../../../contract/constants.js';

export interface InvoiceMailData {
  channelName: string;
  customerName: string | null;
  number: string;
  amountMinor: number;
  exponent: number;
  currency: string;
  /** ISO 8601, or null without expiry. */
  expiresAt: string | null;
  paylink: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
}

const INTL_LOCALE: Record<InvoiceLocale, string> = { en: 'en-GB', de: 'de-DE', pt: 'pt-PT' };

export function formatAmount(locale: InvoiceLocale, amountMinor: number, exponent: number, currency: string): string {
  const value = amountMinor / 10 ** exponent;
  try {
    return new Intl.NumberFormat(INTL_LOCALE[locale], { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(value);
  } catch {
    return `${value.toFixed(exponent)} ${currency}`;
  }
}

function formatDate(locale: InvoiceLocale, iso: string): string {
  return new Intl.DateTimeFormat(INTL_LOCALE[locale], { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso)) + ' UTC';
}

interface Texts {
  subject: (d: InvoiceMailData, amount: string) => string;
  greeting: (name: string | null) => string;
  intro: (d: InvoiceMailData, amount: string) => string;
  expiry: (date: string) => string;
  pay: string;
  closing: (d: InvoiceMailData) => string;
}

const TEXTS: Record<InvoiceLocale, Record<InvoiceEmailType, Texts>> = {
  en: {
    initial: {
      subject: (d) => `Your invoice ${d.number} from ${d.channelName}`,
      greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
      intro: (d, amount) => `thank you for your order. Here is your invoice ${d.number} from ${d.channelName} for ${amount}.`,
      expiry: (date) => `Please pay by ${date}.`,
      pay: 'You can pay online here:',
      closing: (d) => `Kind regards,\n${d.channelName}`,
    },
    reminder: {
      subject: (d) => `Reminder: invoice ${d.number} from ${d.channelName}`,
      greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
      intro: (d, amount) => `this is a friendly reminder that invoice ${d.number} from ${d.channelName} for ${amount} is still open.`,
      expiry: (date) => `Please pay by ${date}.`,
      pay: 'You can pay online here:',
      closing: (d) => `If you have already paid, please ignore this message.\n\nKind regards,\n${d.channelName}`,
    },
  },
  de: {
    initial: {
      subject: (d) => `Ihre Rechnung ${d.number} von ${d.channelName}`,
      greeting: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
      intro: (d, amount) => `vielen Dank für Ihre Bestellung. Anbei erhalten Sie Ihre Rechnung ${d.number} von ${d.channelName} über ${amount}.`,
      expiry: (date) => `Bitte bezahlen Sie bis zum ${date}.`,
      pay: 'Sie können hier online bezahlen:',
      closing: (d) => `Mit freundlichen Grüßen\n${d.channelName}`,
    },
    reminder: {
      subject: (d) => `Zahlungserinnerung: Rechnung ${d.number} von ${d.channelName}`,
      greeting: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
      intro: (d, amount) => `wir möchten Sie freundlich daran erinnern, dass die Rechnung ${d.number} von ${d.channelName} über ${amount} noch offen ist.`,
      expiry: (date) => `Bitte bezahlen Sie bis zum ${date}.`,
      pay: 'Sie können hier online bezahlen:',
      closing: (d) => `Falls Sie bereits bezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.\n\nMit freundlichen Grüßen\n${d.channelName}`,
    },
  },
  pt: {
    initial: {
      subject: (d) => `A sua fatura ${d.number} de ${d.channelName}`,
      greeting: (name) => (name ? `Olá ${name},` : 'Olá,'),
      intro: (d, amount) => `obrigado pela sua encomenda. Segue a sua fatura ${d.number} de ${d.channelName} no valor de ${amount}.`,
      expiry: (date) => `Por favor, pague até ${date}.`,
      pay: 'Pode pagar online aqui:',
      closing: (d) => `Com os melhores cumprimentos,\n${d.channelName}`,
    },
    reminder: {
      subject: (d) => `Lembrete: fatura ${d.number} de ${d.channelName}`,
      greeting: (name) => (name ? `Olá ${name},` : 'Olá,'),
      intro: (d, amount) => `lembramos que a fatura ${d.number} de ${d.channelName} no valor de ${amount} ainda está por pagar.`,
      expiry: (date) => `Por favor, pague até ${date}.`,
      pay: 'Pode pagar online aqui:',
      closing: (d) => `Se já efetuou o pagamento, ignore esta mensagem.\n\nCom os melhores cumprimentos,\n${d.channelName}`,
    },
  },
};

export function renderInvoiceMail(type: InvoiceEmailType, locale: InvoiceLocale, data: InvoiceMailData): RenderedMail {
  const t = TEXTS[locale][type];
  const amount = formatAmount(locale, data.amountMinor, data.exponent, data.currency);
  const lines = [t.greeting(data.customerName), '', t.intro(data, amount)];
  if (data.expiresAt) lines.push(t.expiry(formatDate(locale, data.expiresAt)));
  lines.push('', t.pay, data.paylink, '', t.closing(data), '');
  return { subject: t.subject(data, amount), text: lines.join('\n') };
}
