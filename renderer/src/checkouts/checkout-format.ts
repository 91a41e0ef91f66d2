/** How the checkout screens name statuses, languages and what the page asks for: message ids of the checkouts catalogue (a new value fails to compile until it has one). */
import type { CheckoutLocale, CheckoutStatus } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { toneClass, type Tone } from '../ui/tags.js';

export const CHECKOUT_STATUS_NAMES: Record<CheckoutStatus, MessageId> = {
  open: 'checkouts.status.open',
  processing: 'checkouts.status.processing',
  completed: 'checkouts.status.completed',
  cancelled: 'checkouts.status.cancelled',
  expired: 'checkouts.status.expired',
};

/** What the customer finds behind the link, per status. */
export const CHECKOUT_STATUS_NOTES: Record<CheckoutStatus, MessageId> = {
  open: 'checkouts.statusNote.open',
  processing: 'checkouts.statusNote.processing',
  completed: 'checkouts.statusNote.completed',
  cancelled: 'checkouts.statusNote.cancelled',
  expired: 'checkouts.statusNote.expired',
};

const TONES: Record<CheckoutStatus, Tone> = { open: 'wait', processing: 'info', completed: 'ok', cancelled: 'off', expired: 'off' };
export const checkoutStatusClass = (status: CheckoutStatus) => toneClass(TONES[status]);

/** The languages of the customer's page: in the staff's language, with the language's own name. */
export const CHECKOUT_LOCALE_NAMES: Record<CheckoutLocale, MessageId> = {
  en: 'checkouts.locale.en',
  de: 'checkouts.locale.de',
  pt: 'checkouts.locale.pt',
  hr: 'checkouts.locale.hr',
};

export const COLLECT_NAMES = {
  dob: 'checkouts.collect.dob',
  phone: 'checkouts.collect.phone',
  gender: 'checkouts.collect.gender',
  shipping_address: 'checkouts.collect.shippingAddress',
  billing_address: 'checkouts.collect.billingAddress',
} as const satisfies Record<string, MessageId>;
