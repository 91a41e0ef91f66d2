/** How the checkout screens name statuses and languages. */
import type { CheckoutLocale, CheckoutStatus } from '../../../contract/constants.js';
import { toneClass, type Tone } from '../ui/tags.js';

export const CHECKOUT_STATUS_NAMES: Record<CheckoutStatus, string> = {
  open: 'Open',
  processing: 'Processing',
  completed: 'Completed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** What the customer finds behind the link, per status. */
export const CHECKOUT_STATUS_NOTES: Record<CheckoutStatus, string> = {
  open: 'Waiting for the customer: the link takes a payment.',
  processing: 'The customer started a payment that is under way.',
  completed: 'Paid: the link shows the result.',
  cancelled: 'Cancelled: the link takes no payment.',
  expired: 'Expired after 24 hours: the link takes no payment.',
};

const TONES: Record<CheckoutStatus, Tone> = { open: 'wait', processing: 'info', completed: 'ok', cancelled: 'off', expired: 'off' };
export const checkoutStatusClass = (status: CheckoutStatus) => toneClass(TONES[status]);

export const CHECKOUT_LOCALE_NAMES: Record<CheckoutLocale, string> = { en: 'English', de: 'German (Deutsch)', pt: 'Portuguese (Português)', hr: 'Croatian (Hrvatski)' };

export const COLLECT_NAMES = { dob: 'Date of birth', phone: 'Phone', gender: 'Gender', shipping_address: 'Shipping address', billing_address: 'Billing address' } as const;
