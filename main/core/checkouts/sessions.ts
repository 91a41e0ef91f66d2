/**
 * A hosted checkout session's records and views: what the page collects and shows, the new
 * session's record, and the API's view of it (main/core/checkouts/checkouts.ts runs the sessions).
 */
import type { Checkout, CheckoutRequest } from '../../../contract/api/checkouts.js';
import { ErrorCode } from '../../../contract/codes.js';
import { MERCHANT_REFERENCE_PATTERN, type CheckoutStatus, type PaymentType } from '../../../contract/constants.js';
import { currencyExponent, minorToAmount } from '../../../contract/money.js';
import { isCountryCode } from '../countries.js';
import { apiError, failure, type Outcome } from '../errors.js';
import { CAPABILITIES } from '../payment-methods/payment-types.js';
import type { CheckoutRecord } from './ports.js';
export const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;
/** Payment types a customer can use on a hosted page (card-present and device wallets cannot). */
export const HOSTED_METHODS: readonly PaymentType[] = ['cardecom', 'dd', 'wallet', 'a2a', 'bankredirect'];

export const COLLECT_FLAGS = [
  'collect_dob',
  'collect_phone',
  'collect_gender',
  'collect_shipping_address',
  'collect_billing_address',
] as const;
export const DISPLAY_FLAGS = ['display_transaction_details', 'display_manual_payment_instruction_to_customer'] as const;
export const PREFILL_KEYS = [
  'email',
  'phone',
  'company',
  'first_name',
  'last_name',
  'address',
  'address2',
  'city',
  'state',
  'postal_code',
  'country',
] as const;

/** What the customer's page may show: nothing of the merchant's account beyond the session. */
export interface CustomerCheckout {
  id: string;
  status: CheckoutStatus;
  merchant_name: string;
  order_id: string;
  reference: string | null;
  description: string | null;
  currency: string;
  amount: number;
  amount_taxes: number;
  amount_shipping: number;
  total_amount: number;
  display_transaction_details: boolean;
  methods: PaymentType[];
  collect: { dob: boolean; phone: boolean; gender: boolean; shipping_address: boolean; billing_address: boolean };
  prefill: Record<string, string>;
  instructions: { show: boolean; account_holder: string | null; iban: string | null; bic: string | null };
  locale: string | null;
  transaction_id: string | null;
  success_url: string;
  error_url: string;
}

export interface CustomerPayment {
  method: string;
  customer: Record<string, string>;
  iban?: string;
  account_holder?: string;
}

/** A session's request as stored: a back-office session may have no postback_url. */
export type SessionRequest = Omit<CheckoutRequest, 'postback_url'> & { postback_url?: string };

/** A staff member acting in the back office: written to the audit log with what they did. */
export interface StaffActor {
  merchantId: string;
  staffId: string;
}

/** The hosted methods the catalog offers in a currency (the merchant's settings narrow them further). */
export function methodsFor(currency: string): PaymentType[] {
  return HOSTED_METHODS.filter((type) => {
    const currencies = CAPABILITIES[type].currencies;
    return !currencies || currencies.includes(currency);
  });
}

/** The prefilled customer country of a session, when it is a valid code. */
export function prefillCountry(record: CheckoutRecord): string | undefined {
  const country = (record.request as unknown as CheckoutRequest).prefill_customer_info?.country;
  return typeof country === 'string' && isCountryCode(country) ? country : undefined;
}

/** A merchant_reference the payment accepts, from the session's reference or its id. */
export function paymentReference(record: CheckoutRecord): string {
  const reference = typeof record.request.reference === 'string' ? record.request.reference.slice(0, 35) : '';
  return MERCHANT_REFERENCE_PATTERN.test(reference) ? reference : `Checkout ${record.id.slice(-12)}`;
}

/** What the page asks the customer for (the collect_* flags). */
export function collectOf(request: CheckoutRequest): CustomerCheckout['collect'] {
  return {
    dob: request.collect_dob === 1,
    phone: request.collect_phone === 1,
    gender: request.collect_gender === 1,
    shipping_address: request.collect_shipping_address === 1,
    billing_address: request.collect_billing_address === 1,
  };
}

export function notFound(id: string): Outcome<never> {
  return failure(
    apiError(ErrorCode.notFound, `Checkout ${id} not found`, [{ field: 'checkout_id', message: 'no such checkout for this merchant' }]),
  );
}

/** A new open session; without a postback_url (back office) it sends no postbacks. */
export function newSession(
  id: string,
  merchantId: string,
  request: SessionRequest,
  minor: { amount: number; taxes: number; shipping: number; total: number },
  now: Date,
): CheckoutRecord {
  return {
    id,
    merchantId,
    status: 'open',
    orderId: request.order_id,
    currency: request.currency,
    amountMinor: minor.amount,
    taxesMinor: minor.taxes,
    shippingMinor: minor.shipping,
    totalMinor: minor.total,
    transactionId: null,
    successUrl: request.success_url,
    errorUrl: request.error_url,
    postbackUrl: request.postback_url ?? null,
    locale: request.locale ?? null,
    request: { ...request },
    customer: {},
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS).toISOString(),
  };
}

/** The API's view of a session; `url` is the customer's page. */
export function sessionView(record: CheckoutRecord, methods: PaymentType[], url: string): Checkout {
  const exponent = currencyExponent(record.currency) ?? 2;
  return {
    checkout_id: record.id,
    status: record.status,
    order_id: record.orderId,
    reference: typeof record.request.reference === 'string' ? record.request.reference : null,
    currency: record.currency,
    amount: minorToAmount(record.amountMinor, exponent),
    amount_taxes: minorToAmount(record.taxesMinor, exponent),
    amount_shipping: minorToAmount(record.shippingMinor, exponent),
    total_amount: minorToAmount(record.totalMinor, exponent),
    transaction_id: record.transactionId,
    payment_methods: methods,
    customer: record.customer,
    url,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    expires_at: record.expiresAt,
    error_code: 0,
  };
}
