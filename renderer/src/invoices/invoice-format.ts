/** How the invoice screens name statuses, languages, e-mails and dates (English, like the rest of the back office). */
import type { EmailStatus, ExpiryUnit, InvoiceEmailType, InvoiceLocale, InvoiceStatus, PlanInterval, PlanStatus } from '../../../contract/constants.js';
import { formatDateTime } from '../ui/format.js';
import { toneClass, type Tone } from '../ui/tags.js';
import type { Invoice, InvoiceLastEmail } from './invoices-client.js';

export { formatDateTime };

export const STATUS_NAMES: Record<InvoiceStatus, string> = { pending: 'Pending', processing: 'Processing', paid: 'Paid', partly_paid: 'Partly paid' };

/** What each status means, for the status dialog. */
export const STATUS_NOTES: Record<InvoiceStatus, string> = {
  pending: 'Waiting for the customer to pay.',
  processing: 'A payment is under way (a SEPA debit before it settles, say).',
  paid: 'Paid in full, also outside Tillgate (cash, a bank transfer).',
  partly_paid: 'Some instalments of a payment plan are paid.',
};

export const LOCALE_NAMES: Record<InvoiceLocale, string> = { en: 'English', de: 'German (Deutsch)', pt: 'Portuguese (Português)' };
export const EXPIRY_UNIT_NAMES: Record<ExpiryUnit, string> = { minutes: 'minutes', hours: 'hours', days: 'days' };
export const EMAIL_TYPE_NAMES: Record<InvoiceEmailType, string> = { initial: 'Invoice e-mail', reminder: 'Reminder' };
export const EMAIL_STATUS_NAMES: Record<EmailStatus, string> = { queued: 'Queued', sent: 'Sent', failed: 'Failed' };
export const PLAN_STATUS_NAMES: Record<PlanStatus, string> = { active: 'Active', completed: 'Completed', cancelled: 'Cancelled', failed: 'Failed' };
export const INTERVAL_NAMES: Record<PlanInterval, string> = { week: 'Every week', month: 'Every month' };

const dateOnly = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A calendar day (`YYYY-MM-DD`) as `12 Mar 2026`. */
export const formatDay = (day: string) => dateOnly.format(new Date(`${day.slice(0, 10)}T00:00:00Z`));

export function customerName(invoice: Invoice): string | null {
  return [invoice.first_name, invoice.last_name].filter(Boolean).join(' ') || invoice.company || null;
}

/** `Reminder sent 12 Mar 2026, 14:05 to ada@example.com (test outbox)` and friends. */
export function emailState(email: InvoiceLastEmail): string {
  const what = EMAIL_TYPE_NAMES[email.email_type];
  if (email.status === 'sent') return `${what} sent${email.sent_at ? ` ${formatDateTime(email.sent_at)}` : ''} to ${email.recipient_email}`;
  if (email.status === 'queued') return `${what} to ${email.recipient_email} is queued`;
  return `${what} to ${email.recipient_email} failed`;
}

const STATUS_TONES: Record<InvoiceStatus, Tone> = { pending: 'wait', processing: 'info', paid: 'ok', partly_paid: 'info' };
const PLAN_TONES: Record<PlanStatus, Tone> = { active: 'info', completed: 'ok', cancelled: 'off', failed: 'off' };

/** The status tag's class: colour plus text, never colour alone (`inv-tag-<status>` names it for tests). */
export const statusClass = (status: InvoiceStatus) => `${toneClass(STATUS_TONES[status])} inv-tag-${status.replace('_', '-')}`;
export const planStatusClass = (status: PlanStatus) => toneClass(PLAN_TONES[status]);
