/**
 * The fields of an invoice as the API takes them (docs/api.md "Invoices"): their limits, the
 * messages of the invoice error body, the problems of a request field by field, and the parsing of
 * the loosely typed fields (flags, amounts, countries).
 */
import countries from 'i18n-iso-countries';
import type { FieldError } from '../../../contract/api/common.js';
import { ErrorCode } from '../../../contract/codes.js';
import {
  EXPIRY_UNITS,
  INVOICE_EMAIL_TYPES,
  INVOICE_LOCALES,
  INVOICE_NUMBER_MAX_LENGTH,
  INVOICE_STATUSES,
  type ExpiryUnit,
  type InvoiceEmailType,
  type InvoiceLocale,
} from '../../../contract/constants.js';
import { currencyExponent, decimalText, decimalTextToMinor } from '../../../contract/money.js';
import { isCalendarDate, isEmailAddress, isHttpUrl } from '../../../contract/text-rules.js';
import { apiError, type ApiError } from '../errors.js';
import type { InvoiceRecord } from './ports.js';

export const UNIT_MS: Record<ExpiryUnit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
export const MAX_EXPIRES_IN = 1_000_000;

export const MESSAGES = {
  notFound: 'Invoice not found.',
  invalidStatus: 'Invalid status.',
  allowedStatuses: `Status must be one of: ${INVOICE_STATUSES.join(', ')}.`,
  planBlocksDelete: 'Payment plan must be stopped before deleting the invoice.',
  activePlan: 'Invoice has an active payment plan.',
  restricted: 'Amount and active can only be changed while the invoice is pending and has never had a payment plan attached.',
} as const;

/** Customer and plain text fields of the invoice object, with their column-record names and limits. */
export const TEXT_FIELDS = {
  first_name: ['firstName', 100],
  last_name: ['lastName', 100],
  company: ['company', 200],
  phone: ['phone', 40],
  tax_id: ['taxId', 50],
  customer_id: ['customerId', 100],
  address: ['address', 200],
  address2: ['address2', 200],
  postal_code: ['postalCode', 20],
  city: ['city', 100],
  state: ['state', 100],
  description: ['description', 2000],
} as const satisfies Record<string, readonly [keyof InvoiceRecord, number]>;

export type TextField = keyof typeof TEXT_FIELDS;

/** Every field of the request's `invoice` object, on create or update. */
export const CREATE_FIELDS = [
  'amount',
  'debt_claim_number',
  ...(Object.keys(TEXT_FIELDS) as TextField[]),
  'email',
  'country',
  'currency',
  'print_date',
  'redirect_after_payments',
  'success_url',
  'error_url',
  'expires_in',
  'expires_in_unit',
  'send_initial_email',
  'initial_email_type',
  'locale',
] as const;
export const UPDATE_FIELDS = [...CREATE_FIELDS, 'active'] as const;

/** The `invoice` object as it arrives: JSON values, checked here (amounts and flags come in several forms). */
export type InvoiceFields = Partial<Record<(typeof UPDATE_FIELDS)[number] | 'status', unknown>>;

// ---- errors ----------------------------------------------------------------------------------

export function invoiceProblem(code: ErrorCode, message: string, error: string = message, field = 'invoice'): ApiError {
  return apiError(code, message, [{ field, message: error }]);
}

export const notFound = (): ApiError => invoiceProblem(ErrorCode.notFound, MESSAGES.notFound, MESSAGES.notFound, 'invoice_number');

/**
 * The problems found in a request, in order, each naming its field as a path into the request
 * (`invoice.currency`, `url_name`; query parameters by name): the `errors` of the invoice error body.
 */
export class Problems {
  readonly list: FieldError[] = [];

  add(field: string, message: string): void {
    this.list.push({ field, message });
  }

  has(field: string): boolean {
    return this.list.some((p) => p.field === field);
  }

  get any(): boolean {
    return this.list.length > 0;
  }
}

/**
 * Field validation: one message naming every bad field, used as both `message` and `error` (the
 * text of each problem in order), and each field with its own sentence in `errors`.
 */
export function invalid(problems: Problems): ApiError {
  const text = problems.list.map((p) => p.message).join(' ');
  return apiError(ErrorCode.validation, text, problems.list);
}

// ---- parsing of the loosely typed fields -----------------------------------------------------

/** `true`/`false`, `"1"`/`"0"`, `"true"`/`"false"` (and 1/0); undefined when not a flag. */
export function parseFlag(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

export type AmountResult = { minor: number } | { problem: string };

/** 10.55, "10.55" or "10,55"; the absolute value is kept (docs/api.md "Invoices": stored positive). */
export function parseInvoiceAmount(value: unknown, exponent: number): AmountResult {
  if (typeof value === 'string' && value.trim() === '') return { problem: "Amount can't be blank." };
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { problem: 'Amount is not a number.' };
    text = decimalText(value);
  } else if (typeof value === 'string') {
    text = value.trim();
    if ((text.match(/,/g) ?? []).length === 1 && !text.includes('.')) text = text.replace(',', '.');
  } else {
    return { problem: 'Amount is not a number.' };
  }
  text = text.replace(/^[+-]/, '');
  const parsed = decimalTextToMinor(text, exponent);
  if (!parsed.ok) {
    if (parsed.problem === 'too_many_decimals')
      return { problem: `Amount has more than ${exponent} decimal${exponent === 1 ? '' : 's'}, the most the currency allows.` };
    if (parsed.problem === 'too_large') return { problem: 'Amount must not exceed 999999999.99.' };
    return { problem: 'Amount is not a number.' };
  }
  if (parsed.minor === 0) return { problem: 'Amount must be greater than 0.' };
  return { minor: parsed.minor };
}

/** An ISO 3166-1 alpha-2 code (any case) or an English country name, as alpha-2. */
export function countryCode(value: string): string | undefined {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text)) return countries.isValid(text.toUpperCase()) ? text.toUpperCase() : undefined;
  return countries.getAlpha2Code(text, 'en') ?? countries.getSimpleAlpha2Code(text, 'en');
}

export function countryName(code: string | null): string | null {
  if (!code) return null;
  return countries.getName(code, 'en') ?? code;
}

export function label(field: string): string {
  const text = field.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether a value counts as "blank" for an optional enumerated field (null or ""). */
export const blank = (value: unknown): boolean => value === null || (typeof value === 'string' && value.trim() === '');

export interface Checked {
  changes: Partial<InvoiceRecord>;
  /** Raw amount to parse once the currency is known. */
  amount?: unknown;
  active?: boolean;
}

/** Checks the fields that create and update share; problems are collected in order, as `{prefix}{field}`. */
export function checkInvoiceFields(fields: InvoiceFields, problems: Problems, prefix = 'invoice.'): Checked {
  const changes: Partial<InvoiceRecord> = {};
  const fail = (field: string, text: string) => problems.add(`${prefix}${field}`, text);
  const has = (field: keyof InvoiceFields) => Object.hasOwn(fields, field) && fields[field] !== undefined;

  for (const [field, [key, max]] of Object.entries(TEXT_FIELDS) as Array<[TextField, readonly [keyof InvoiceRecord, number]]>) {
    if (!has(field)) continue;
    const value = fields[field];
    if (value === null || value === '') (changes as Record<string, unknown>)[key] = null;
    else if (typeof value !== 'string') fail(field, `${label(field)} must be a string.`);
    else if (value.length > max) fail(field, `${label(field)} is too long (maximum is ${max} characters).`);
    else (changes as Record<string, unknown>)[key] = value;
  }
  if (has('email')) {
    const value = fields.email;
    if (blank(value)) changes.email = null;
    else if (typeof value !== 'string' || !isEmailAddress(value.trim())) fail('email', 'Email is not a valid e-mail address.');
    else changes.email = value.trim();
  }
  if (has('country')) {
    const value = fields.country;
    if (blank(value)) changes.country = null;
    else {
      const code = typeof value === 'string' ? countryCode(value) : undefined;
      if (!code) fail('country', 'Country is not a known country (give an ISO 3166-1 alpha-2 code or the English name).');
      else changes.country = code;
    }
  }
  if (has('currency')) {
    const value = fields.currency;
    if (typeof value !== 'string' || value.length !== 3) fail('currency', 'Currency is the wrong length (should be 3 characters).');
    else if (currencyExponent(value.toUpperCase()) === undefined) fail('currency', 'Currency is not an ISO 4217 currency code.');
    else changes.currency = value.toUpperCase();
  }
  if (has('print_date')) {
    const value = fields.print_date;
    if (typeof value !== 'string' || !isCalendarDate(value)) fail('print_date', 'Print date must be a date in the form YYYY-MM-DD.');
    else changes.printDate = value;
  }
  if (has('redirect_after_payments')) {
    const flag = parseFlag(fields.redirect_after_payments);
    if (flag === undefined) fail('redirect_after_payments', 'Redirect after payments must be true or false.');
    else changes.redirectAfterPayments = flag;
  }
  for (const [field, key] of [
    ['success_url', 'successUrl'],
    ['error_url', 'errorUrl'],
  ] as const) {
    if (!has(field)) continue;
    const value = fields[field];
    if (blank(value)) changes[key] = null;
    else if (typeof value !== 'string' || !isHttpUrl(value)) fail(field, `${label(field)} must be an http or https URL.`);
    else changes[key] = value;
  }
  if (has('expires_in') || has('expires_in_unit')) {
    const amount = fields.expires_in;
    const unit = fields.expires_in_unit;
    const bothBlank = blank(amount ?? null) && blank(unit ?? null);
    if (bothBlank) {
      changes.expiresIn = null;
      changes.expiresInUnit = null;
    } else {
      const n = typeof amount === 'string' && /^\d+$/.test(amount.trim()) ? Number(amount) : amount;
      let ok = true;
      if (blank(amount ?? null)) {
        ok = false;
        fail('expires_in', 'Expires in must be given together with expires in unit.');
      } else if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_EXPIRES_IN) {
        ok = false;
        fail('expires_in', `Expires in must be a whole number from 1 to ${MAX_EXPIRES_IN}.`);
      }
      if (blank(unit ?? null)) {
        ok = false;
        fail('expires_in_unit', 'Expires in unit must be given together with expires in.');
      } else if (typeof unit !== 'string' || !(EXPIRY_UNITS as readonly string[]).includes(unit)) {
        ok = false;
        fail('expires_in_unit', `Expires in unit is not included in the list (${EXPIRY_UNITS.join(', ')}).`);
      }
      if (ok) {
        changes.expiresIn = n as number;
        changes.expiresInUnit = unit as ExpiryUnit;
      }
    }
  }
  if (has('locale')) {
    const value = fields.locale;
    if (blank(value)) changes.locale = null;
    else if (typeof value !== 'string' || !(INVOICE_LOCALES as readonly string[]).includes(value)) {
      fail('locale', `Locale is not included in the list (${INVOICE_LOCALES.join(', ')}).`);
    } else changes.locale = value as InvoiceLocale;
  }
  if (has('initial_email_type')) {
    const value = fields.initial_email_type;
    if (blank(value)) changes.initialEmailType = null;
    else if (typeof value !== 'string' || !(INVOICE_EMAIL_TYPES as readonly string[]).includes(value)) {
      fail('initial_email_type', `Initial email type is not included in the list (${INVOICE_EMAIL_TYPES.join(', ')}).`);
    } else changes.initialEmailType = value as InvoiceEmailType;
  }
  if (has('send_initial_email')) {
    const flag = parseFlag(fields.send_initial_email);
    if (flag === undefined) fail('send_initial_email', 'Send initial email must be true or false.');
    else changes.sendInitialEmail = flag;
  }
  if (has('debt_claim_number')) {
    const value = fields.debt_claim_number;
    if (value === null) {
      // null: not supplied (create generates a number; update keeps it).
    } else if (typeof value !== 'string' && typeof value !== 'number') fail('debt_claim_number', 'Debt claim number must be a string.');
    else {
      const text = String(value).trim();
      if (text === '') fail('debt_claim_number', "Debt claim number can't be blank.");
      else if (text.length > INVOICE_NUMBER_MAX_LENGTH || text.includes('/'))
        fail('debt_claim_number', `Debt claim number must be 1 to ${INVOICE_NUMBER_MAX_LENGTH} characters without "/".`);
      else changes.debtClaimNumber = text;
    }
  }
  const checked: Checked = { changes };
  // null counts as "not supplied" (docs/decisions.md "Invoices", Amount).
  if (Object.hasOwn(fields, 'amount') && fields.amount !== null && fields.amount !== undefined) checked.amount = fields.amount;
  if (has('active')) {
    const flag = parseFlag(fields.active);
    if (flag === undefined) fail('active', 'Active must be true or false (also "1"/"0", "true"/"false").');
    else checked.active = flag;
  }
  return checked;
}

/**
 * What is wrong with the fields of an invoice body as far as the database need not be asked (not
 * the channel, not the invoice's state): each bad field with its sentence. For answers that name
 * every bad field also when the request's schema failed.
 */
export function invoiceFieldProblems(fields: InvoiceFields, creating: boolean): FieldError[] {
  const problems = new Problems();
  const named = problems.list;
  const rest: InvoiceFields = { ...fields };
  if (creating) {
    delete rest.active;
    if (Object.hasOwn(fields, 'status'))
      named.push({ field: 'status', message: "Status cannot be set here; the invoice's status change sets it." });
  }
  const checked = checkInvoiceFields(rest, problems, '');
  const has = (field: string) => problems.has(field);
  if (checked.amount !== undefined && !has('amount')) {
    // Without a currency in the body (the channel's applies) only what is wrong in any currency counts.
    const result = parseInvoiceAmount(checked.amount, currencyExponent(checked.changes.currency ?? '') ?? 4);
    if ('problem' in result) named.push({ field: 'amount', message: result.problem });
  } else if (checked.amount === undefined && creating && !has('amount')) {
    named.push({ field: 'amount', message: "Amount can't be blank." });
  }
  if (creating && checked.changes.sendInitialEmail && !checked.changes.email && !has('email')) {
    named.push({ field: 'email', message: 'Email is required when send_initial_email is true.' });
  }
  return named;
}
