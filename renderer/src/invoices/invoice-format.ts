/**
 * How the invoice screens name statuses, languages, e-mails and plans (message ids of the invoices
 * catalogue: a new value fails to compile until it has one), and dates in the screens' language
 * (ui/format.ts: formatDateTime in the shop's time zone, formatDay for a calendar day).
 */
import type {
  EmailStatus,
  ExpiryUnit,
  InvoiceEmailType,
  InvoiceLocale,
  InvoiceStatus,
  PlanInterval,
  PlanStatus,
} from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatDateTime, formatDay } from '../ui/format.js';
import { toneClass, type Tone } from '../ui/tags.js';
import type { Invoice, InvoiceLastEmail } from './invoices-client.js';

export { formatDateTime, formatDay };

export const STATUS_NAMES: Record<InvoiceStatus, MessageId> = {
  pending: 'invoices.status.pending',
  processing: 'invoices.status.processing',
  paid: 'invoices.status.paid',
  partly_paid: 'invoices.status.partlyPaid',
};

/** What each status means, for the status dialog. */
export const STATUS_NOTES: Record<InvoiceStatus, MessageId> = {
  pending: 'invoices.statusNote.pending',
  processing: 'invoices.statusNote.processing',
  paid: 'invoices.statusNote.paid',
  partly_paid: 'invoices.statusNote.partlyPaid',
};

/** The languages of an invoice's e-mails and pay page: the checkout page's names (the same languages). */
export const LOCALE_NAMES: Record<InvoiceLocale, MessageId> = {
  en: 'checkouts.locale.en',
  de: 'checkouts.locale.de',
  pt: 'checkouts.locale.pt',
};

/** A language code of an invoice (its own, its channel's, an e-mail's) by name; a code this app does not know as it is. */
export function localeName(locale: string, t: Translate): string {
  return Object.hasOwn(LOCALE_NAMES, locale) ? t(LOCALE_NAMES[locale as InvoiceLocale]) : locale;
}

export const EXPIRY_UNIT_NAMES: Record<ExpiryUnit, MessageId> = {
  minutes: 'invoices.unit.minutes',
  hours: 'invoices.unit.hours',
  days: 'invoices.unit.days',
};
export const EMAIL_TYPE_NAMES: Record<InvoiceEmailType, MessageId> = {
  initial: 'invoices.emailType.initial',
  reminder: 'invoices.emailType.reminder',
};
export const EMAIL_STATUS_NAMES: Record<EmailStatus, MessageId> = {
  queued: 'invoices.emailStatus.queued',
  sent: 'invoices.emailStatus.sent',
  failed: 'invoices.emailStatus.failed',
};
export const PLAN_STATUS_NAMES: Record<PlanStatus, MessageId> = {
  active: 'invoices.planStatus.active',
  completed: 'invoices.planStatus.completed',
  cancelled: 'invoices.planStatus.cancelled',
  failed: 'invoices.planStatus.failed',
};
export const INTERVAL_NAMES: Record<PlanInterval, MessageId> = { week: 'invoices.interval.week', month: 'invoices.interval.month' };

/** A channel by name, its url_name beside it: `Web shop (shop)`. */
export const channelText = (channel: { name: string; url_name: string }) => `${channel.name} (${channel.url_name})`;

export function customerName(invoice: Invoice): string | null {
  return [invoice.first_name, invoice.last_name].filter(Boolean).join(' ') || invoice.company || null;
}

/** `Reminder sent 12 Mar 2026, 14:05 to ada@example.com` and friends. */
export function emailState(email: InvoiceLastEmail, t: Translate): string {
  // A sent e-mail says when; one the gateway sent without saying when (none so far) does not.
  const state = email.status === 'sent' && !email.sent_at ? 'sentUndated' : email.status;
  return t('invoices.email.state', {
    type: email.email_type,
    state,
    at: email.sent_at ? formatDateTime(email.sent_at) : '',
    recipient: email.recipient_email,
  });
}

const STATUS_TONES: Record<InvoiceStatus, Tone> = { pending: 'wait', processing: 'info', paid: 'ok', partly_paid: 'info' };
const PLAN_TONES: Record<PlanStatus, Tone> = { active: 'info', completed: 'ok', cancelled: 'off', failed: 'off' };

/** The status tag's class: colour plus text, never colour alone (`inv-tag-<status>` names it for tests). */
export const statusClass = (status: InvoiceStatus) => `${toneClass(STATUS_TONES[status])} inv-tag-${status.replace('_', '-')}`;
export const planStatusClass = (status: PlanStatus) => toneClass(PLAN_TONES[status]);
