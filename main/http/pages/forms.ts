/**
 * Server-side checks of what the customer typed (the page script checks the same before submit,
 * but the server never trusts it): card entry, the checkout's collect_* fields, the SEPA mandate.
 * Errors are message keys, so the page shows them in its own language.
 */
import { luhnValid } from '../../../contract/cards.js';
import { isCalendarDate } from '../../../contract/text-rules.js';
import { normalizeYear } from '../../core/payments/card-input.js';
import { ibanProblem, normalizeIban } from '../../core/mandates/mandates.js';
import { isCountryCode } from '../../core/countries.js';
import type { CardData } from '../../core/payments/ports.js';
import type { PageMessage } from './i18n.js';

export type FormBody = Record<string, unknown>;

/** A text field of a parsed form body (first value, never an object). */
export function field(body: FormBody | undefined, name: string): string | undefined {
  const value = body?.[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

export type FieldErrors = Record<string, PageMessage>;

export const HOLDER_MAX = 120;
export const TEXT_MAX = 100;

export interface CardForm {
  expiry: string;
  holder: string;
}

export function parseExpiry(text: string): { month: number; year: number } | undefined {
  const match = /^\s*(\d{1,2})\s*[/.\- ]?\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return undefined;
  const month = Number(match[1]);
  const year = normalizeYear(Number(match[2]));
  if (month < 1 || month > 12 || year < 2000 || year > 2099) return undefined;
  return { month, year };
}

/** The card page's fields: the card, or errors per field. `now` decides whether the expiry has passed (UTC month). */
export function readCardForm(body: FormBody, now: Date): { card?: CardData; errors: FieldErrors; values: CardForm } {
  const errors: FieldErrors = {};
  const panText = (field(body, 'card_number') ?? '').trim();
  const expiryText = (field(body, 'expiry') ?? '').trim();
  const cvc = (field(body, 'cvc') ?? '').trim();
  const holder = (field(body, 'holder') ?? '').trim();
  const pan = panText.replace(/[\s-]/g, '');

  if (!panText) errors.card_number = 'pages.err_pan_required';
  else if (!/^[\d\s-]+$/.test(panText) || !luhnValid(pan)) errors.card_number = 'pages.err_pan_invalid';

  const expiry = parseExpiry(expiryText);
  if (!expiryText) errors.expiry = 'pages.err_expiry_required';
  else if (!expiry) errors.expiry = 'pages.err_expiry_invalid';
  else if (expiry.year < now.getUTCFullYear() || (expiry.year === now.getUTCFullYear() && expiry.month < now.getUTCMonth() + 1)) {
    errors.expiry = 'pages.err_expiry_past';
  }

  if (!cvc) errors.cvc = 'pages.err_cvc_required';
  else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = 'pages.err_cvc_invalid';

  if (!holder) errors.holder = 'pages.err_holder_required';
  else if (holder.length > HOLDER_MAX) errors.holder = 'pages.err_too_long';

  const values = { expiry: expiryText.slice(0, 10), holder: holder.slice(0, HOLDER_MAX) };
  // The card number is never sent back: when another field was wrong, the customer types it again.
  if (Object.keys(errors).length) {
    if (!errors.card_number) errors.card_number = 'pages.err_pan_reenter';
    return { errors, values };
  }
  return {
    card: { pan, expiryMonth: (expiry as { month: number }).month, expiryYear: (expiry as { year: number }).year, cvv: cvc, holder },
    errors,
    values,
  };
}

// ---- checkout --------------------------------------------------------------------------------

export const ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'address',
  'address2',
  'postal_code',
  'city',
  'state',
  'country',
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export const OPTIONAL_ADDRESS_FIELDS: ReadonlySet<AddressField> = new Set(['company', 'address2', 'state']);
export const GENDERS = ['female', 'male', 'diverse', 'unspecified'] as const;

export interface Collect {
  dob: boolean;
  phone: boolean;
  gender: boolean;
  shipping_address: boolean;
  billing_address: boolean;
}

/** The names of the customer fields the collect flags ask for, in page order. */
export function customerFieldNames(collect: Collect): string[] {
  const names: string[] = [];
  if (collect.dob) names.push('dob');
  if (collect.phone) names.push('phone');
  if (collect.gender) names.push('gender');
  if (collect.billing_address) names.push(...ADDRESS_FIELDS);
  if (collect.shipping_address) names.push(...ADDRESS_FIELDS.map((name) => `shipping_${name}`));
  return names;
}

export function isValidDob(value: string, now: Date): boolean {
  return isCalendarDate(value) && value >= '1900-01-01' && Date.parse(`${value}T00:00:00Z`) <= now.getTime();
}

export function isValidPhone(value: string): boolean {
  return /^\+?[0-9 ()/.-]{5,25}$/.test(value) && value.replace(/\D/g, '').length >= 5;
}

export interface CustomerForm {
  values: Record<string, string>;
  /** Shipping goes to the billing address (only offered when both are collected). */
  shippingSame: boolean;
  errors: FieldErrors;
}

/** Reads and checks the collect_* fields; `customer` holds what the payment receives. */
export function readCustomerForm(body: FormBody, collect: Collect, now: Date): CustomerForm & { customer: Record<string, string> } {
  const values: Record<string, string> = {};
  const errors: FieldErrors = {};
  for (const name of customerFieldNames(collect)) values[name] = (field(body, name) ?? '').trim().slice(0, TEXT_MAX * 2);
  const shippingSame = collect.shipping_address && collect.billing_address && field(body, 'shipping_same') === '1';

  const required = (name: string) => {
    if (!values[name]) errors[name] = 'pages.err_required';
  };
  if (collect.dob) {
    required('dob');
    if (values.dob && !isValidDob(values.dob, now)) errors.dob = 'pages.err_dob_invalid';
  }
  if (collect.phone) {
    required('phone');
    if (values.phone && !isValidPhone(values.phone)) errors.phone = 'pages.err_phone_invalid';
  }
  if (collect.gender) {
    required('gender');
    if (values.gender && !(GENDERS as readonly string[]).includes(values.gender)) errors.gender = 'pages.err_required';
  }
  const address = (prefix: string) => {
    for (const name of ADDRESS_FIELDS) {
      const key = `${prefix}${name}`;
      if (!OPTIONAL_ADDRESS_FIELDS.has(name)) required(key);
      if ((values[key] ?? '').length > TEXT_MAX) errors[key] = 'pages.err_too_long';
    }
    const country = values[`${prefix}country`];
    if (country && !isCountryCode(country)) errors[`${prefix}country`] = 'pages.err_country_invalid';
  };
  if (collect.billing_address) address('');
  if (collect.shipping_address && !shippingSame) address('shipping_');

  const customer: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value) customer[name] = value;
  if (shippingSame) {
    for (const name of ADDRESS_FIELDS) {
      delete customer[`shipping_${name}`];
      const value = values[name];
      if (value) customer[`shipping_${name}`] = value;
    }
  }
  return { values, shippingSame, errors, customer };
}

export interface SepaForm {
  iban: string;
  accountHolder: string;
  accepted: boolean;
  errors: FieldErrors;
}

export function readSepaForm(body: FormBody): SepaForm {
  const iban = (field(body, 'iban') ?? '').trim().slice(0, 64);
  const accountHolder = (field(body, 'account_holder') ?? '').trim().slice(0, HOLDER_MAX + 1);
  const accepted = field(body, 'mandate_accept') === '1';
  const errors: FieldErrors = {};
  if (!accountHolder) errors.account_holder = 'pages.err_account_holder_required';
  else if (accountHolder.length > HOLDER_MAX) errors.account_holder = 'pages.err_too_long';
  if (!iban) errors.iban = 'pages.err_iban_required';
  else if (ibanProblem(iban)) errors.iban = 'pages.err_iban_invalid';
  if (!accepted) errors.mandate_accept = 'pages.err_mandate_accept';
  return { iban: errors.iban ? iban : normalizeIban(iban), accountHolder, accepted, errors };
}

/** IBAN in groups of four for reading. */
export function groupIban(iban: string): string {
  return iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}
