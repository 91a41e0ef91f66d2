/**
 * Invoice e-mail templates (decisions.md D11): `initial` and `reminder`, plain text, in the
 * channel's or the invoice's language (en, de, pt; the catalogue has Croatian too, D21). Each names
 * the channel, the invoice number, the amount formatted for the locale, the expiry when one is set,
 * and the pay link. The words are the `mail` area of the shared catalogues
 * (contract/i18n/messages/mail/), formatted by contract/i18n/format.ts.
 */
import type { InvoiceEmailType } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { formatterFor } from '../../../contract/i18n/format.js';
import { INTL_LOCALES, type StaffLanguage } from '../../../contract/i18n/languages.js';

/** The languages an e-mail can be written in: every InvoiceLocale, and Croatian. */
export type MailLanguage = StaffLanguage;

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

export function formatAmount(locale: MailLanguage, amountMinor: number, exponent: number, currency: string): string {
  const value = amountMinor / 10 ** exponent;
  try {
    return new Intl.NumberFormat(INTL_LOCALES[locale], {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    }).format(value);
  } catch {
    return `${value.toFixed(exponent)} ${currency}`;
  }
}

function formatDate(locale: MailLanguage, iso: string): string {
  return (
    new Intl.DateTimeFormat(INTL_LOCALES[locale], { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso)) + ' UTC'
  );
}

/** The messages that differ between the first e-mail and the reminder. */
const TYPE_MESSAGES: Readonly<Record<InvoiceEmailType, { subject: MessageId; intro: MessageId }>> = {
  initial: { subject: 'mail.initial.subject', intro: 'mail.initial.intro' },
  reminder: { subject: 'mail.reminder.subject', intro: 'mail.reminder.intro' },
};

export function renderInvoiceMail(type: InvoiceEmailType, locale: MailLanguage, data: InvoiceMailData): RenderedMail {
  const t = formatterFor(locale);
  const messages = TYPE_MESSAGES[type];
  const amount = formatAmount(locale, data.amountMinor, data.exponent, data.currency);
  const values = { number: data.number, channel: data.channelName, amount };
  const greeting = data.customerName ? t('mail.greetingNamed', { name: data.customerName }) : t('mail.greeting');
  const lines = [greeting, '', t(messages.intro, values)];
  if (data.expiresAt) lines.push(t('mail.payBy', { date: formatDate(locale, data.expiresAt) }));
  const closing = t('mail.closing', { channel: data.channelName });
  lines.push(
    '',
    t('mail.payOnline'),
    data.paylink,
    '',
    type === 'reminder' ? `${t('mail.reminder.paidAlready')}\n\n${closing}` : closing,
    '',
  );
  return { subject: t(messages.subject, values), text: lines.join('\n') };
}
