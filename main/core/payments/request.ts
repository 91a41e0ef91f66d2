/**
 * Payment requests (`/rest/payment`, `/rest/authorize`, `/rest/register`): the API shape, and its
 * validation into a command with integer minor units. Every bad field is reported at once.
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { PaymentRequest, PayoutRequest } from '../../../contract/api/payments.js';
import { MERCHANT_REFERENCE_PATTERN, WALLET_CAPTURE_EVENTS, type PaymentType } from '../../../contract/constants.js';
import { amountProblemText, currencyExponent, toMinor } from '../../../contract/money.js';
import { isCalendarDate, isEmailAddress, isHttpUrl } from '../../../contract/text-rules.js';
import type { CardData, CardEntryMode, TransactionDetails } from './ports.js';
import { cardFromFields, cardFromPos, entryModeOf } from './card-input.js';
import { ibanProblem } from '../mandates/mandates.js';
import { CAPABILITIES, isPaymentType } from '../payment-methods/payment-types.js';
import { isCountryCode } from '../countries.js';

export type PaymentOperation = 'payment' | 'authorize' | 'register';

export interface PinBlockInput {
  format: 'ISO-0';
  block: string;
  zoneId: string;
  keyId: string;
}

export interface PosCommand {
  entry: CardEntryMode;
  subsequent: boolean;
  pinBlock?: PinBlockInput;
  terminal: { id: string | null; type: string | null; attended: boolean | null; capabilities: string[] };
  aid?: string;
  applicationLabel?: string;
}

export interface PaymentCommand {
  operation: PaymentOperation;
  type: PaymentType;
  orderId: string;
  currency: string;
  exponent: number;
  amountMinor: number;
  recurring: 0 | 1;
  merchantReference: string | null;
  additionalTransactionData: string | null;
  postbackUrl: string | null;
  successUrl: string | null;
  errorUrl: string | null;
  originalTransactionId: string | null;
  sepaMandate: string | null;
  subscriptionPlanId: string | null;
  executionDate: string | null;
  walletCaptureEvent: string | null;
  customer: Record<string, string>;
  card?: CardData;
  pos?: PosCommand;
  walletCryptogram?: { cryptogram: string; eci: string };
  sepa?: { iban: string; bic: string | null; accountHolder: string };
  /** Internal: details another feature links to the transaction (e.g. its checkout session). */
  extraDetails?: TransactionDetails;
  /** Internal: the number of the invoice the payment pays. */
  invoiceNumber?: string;
  /** Internal: the transaction's id, chosen by whoever stored the sale first (a till). */
  transactionId?: string;
  /** Internal: the till a card-present sale belongs to (main/core/payments/sale-till.ts); none for other payments. */
  tillId?: string | null;
  /** Internal: not authorized, with this decline, without asking the card's bank (a forwarded sale over its till's limits). */
  declineWith?: { code: string; text: string };
  /** Internal: an approved card-present sale queues its receipt on the merchant's printer (PaymentsDeps.autoPrints). */
  autoPrint?: boolean;
}

export const MERCHANT_REFUND_ID_PATTERN = /^[\x21-\x7e]{1,64}$/;
const ORDER_ID_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,98}[\x21-\x7e])?$/;

/** Amount checks shared by payments, captures, refunds, reversals and payouts. */
export function parseAmount(amount: number, exponent: number, field: string, errors: FieldError[]): number | undefined {
  const parsed = toMinor(amount, exponent);
  if (!parsed.ok) {
    errors.push({ field, message: amountProblemText(parsed.problem, exponent) });
    return undefined;
  }
  return parsed.minor;
}

export function validateCommonFields(
  request: Pick<
    PaymentRequest,
    'merchant_reference' | 'postback_url' | 'success_url' | 'error_url' | 'country' | 'execution_date' | 'sepa_mandate'
  >,
  errors: FieldError[],
): void {
  if (request.merchant_reference !== undefined && !MERCHANT_REFERENCE_PATTERN.test(request.merchant_reference)) {
    errors.push({ field: 'merchant_reference', message: "must be 1 to 35 characters: letters, digits, space and / - ? ( ) : . , ' +" });
  }
  for (const field of ['postback_url', 'success_url', 'error_url'] as const) {
    const value = request[field];
    if (value !== undefined && !isHttpUrl(value)) errors.push({ field, message: 'must be an http or https URL' });
  }
  if (request.country !== undefined && !isCountryCode(request.country))
    errors.push({ field: 'country', message: 'must be an ISO 3166-1 alpha-2 code such as DE' });
  if (request.execution_date !== undefined && !isCalendarDate(request.execution_date))
    errors.push({ field: 'execution_date', message: 'must be a date YYYY-MM-DD' });
  if (request.sepa_mandate !== undefined && !/^[A-Za-z0-9/\-?():.,'+ ]{1,35}$/.test(request.sepa_mandate)) {
    errors.push({ field: 'sepa_mandate', message: 'must be 1 to 35 characters of the SEPA character set' });
  }
}

export type CommandResult = { ok: true; command: PaymentCommand } | { ok: false; errors: FieldError[]; unsupported?: string };

/** The largest ISO 4217 exponent (CLF, UYW): an amount is judged by it while the currency is unknown. */
const MAX_EXPONENT = 4;

export interface PaymentValidationOptions {
  /**
   * The payment is started by a feature of the gateway (an invoice's pay page) that follows the
   * transaction in its own unit of work, so no merchant postback URL is needed.
   */
  followedInternally?: boolean;
  /**
   * Fields that were sent but rejected by the API's schema (and left out of `request`): named
   * already, but they still count as given for the rules that depend on them (card data given:
   * not the redirect integration).
   */
  rejected?: ReadonlySet<string>;
}

/**
 * Validates a whole payment request and names every bad field: an unknown payment type or an
 * operation the type does not support is reported (as `unsupported`) together with the other
 * fields, not instead of them.
 */
export function validatePaymentRequest(
  operation: PaymentOperation,
  request: PaymentRequest,
  options: PaymentValidationOptions = {},
): CommandResult {
  const errors: FieldError[] = [];
  const given = (field: keyof PaymentRequest) => request[field] !== undefined || options.rejected?.has(field) === true;
  let unsupported: string | undefined;
  const type = isPaymentType(request.payment_type) ? request.payment_type : undefined;
  const caps = type ? CAPABILITIES[type] : undefined;
  if (!type) {
    errors.push({ field: 'payment_type', message: 'is not a payment type of this gateway' });
    unsupported = `Unknown payment type ${request.payment_type}`;
  } else if (operation === 'authorize' && !caps?.authorize) {
    errors.push({ field: 'payment_type', message: `${type} does not support separate authorization` });
    unsupported = `${type} does not support separate authorization`;
  } else if (operation === 'register' && !caps?.register) {
    errors.push({ field: 'payment_type', message: `${type} does not support registration` });
    unsupported = `${type} does not support registration`;
  }

  if (typeof request.order_id !== 'string' || !ORDER_ID_PATTERN.test(request.order_id))
    errors.push({ field: 'order_id', message: 'must be 1 to 100 printable characters' });
  const exponent = typeof request.currency === 'string' ? currencyExponent(request.currency) : undefined;
  let amountMinor: number | undefined;
  if (exponent === undefined) {
    errors.push({ field: 'currency', message: 'must be an ISO 4217 currency code such as EUR' });
    // Negative, not a number, too large or too precise for any currency: wrong whatever the currency.
    parseAmount(request.amount, MAX_EXPONENT, 'amount', errors);
  } else {
    if (caps?.currencies && !caps.currencies.includes(request.currency)) {
      errors.push({ field: 'currency', message: `${type} supports ${caps.currencies.join(', ')}` });
    }
    amountMinor = parseAmount(request.amount, exponent, 'amount', errors);
    if (caps && amountMinor === 0 && operation !== 'register' && !caps.accountCheck) {
      errors.push({ field: 'amount', message: `must be greater than 0 for ${type}` });
    }
  }
  validateCommonFields(request, errors);
  if (request.recurring !== undefined && request.recurring !== 0 && request.recurring !== 1)
    errors.push({ field: 'recurring', message: 'must be 0 or 1' });
  const recurring = request.recurring === 1 ? 1 : 0;
  if (caps && recurring === 1 && !caps.recurring && !caps.accountCheck)
    errors.push({ field: 'recurring', message: `${type} does not support recurring payments` });

  if (request.wallet_capture_event !== undefined) {
    if (operation !== 'authorize') errors.push({ field: 'wallet_capture_event', message: 'is accepted only on an authorization' });
    else if (!(WALLET_CAPTURE_EVENTS as readonly string[]).includes(request.wallet_capture_event)) {
      errors.push({ field: 'wallet_capture_event', message: `must be one of ${WALLET_CAPTURE_EVENTS.join(', ')}` });
    }
  }
  if (request.email !== undefined && !isEmailAddress(request.email)) errors.push({ field: 'email', message: 'must be an e-mail address' });
  // Without a known payment type, the rules of the type's own fields cannot be applied.
  if (!type) return { ok: false, errors, ...(unsupported ? { unsupported } : {}) };
  if (request.subscription_plan_id !== undefined) {
    if (type !== 'wallet') errors.push({ field: 'subscription_plan_id', message: 'is only for payment_type wallet' });
    else if (recurring !== 1) errors.push({ field: 'subscription_plan_id', message: 'needs recurring=1' });
  }

  const command: PaymentCommand = {
    operation,
    type,
    orderId: request.order_id,
    currency: request.currency,
    exponent: exponent ?? 2,
    amountMinor: amountMinor ?? 0,
    recurring,
    merchantReference: request.merchant_reference ?? null,
    additionalTransactionData: request.additional_transaction_data ?? null,
    postbackUrl: request.postback_url ?? null,
    successUrl: request.success_url ?? null,
    errorUrl: request.error_url ?? null,
    originalTransactionId: request.original_transaction_id ?? null,
    sepaMandate: request.sepa_mandate ?? null,
    subscriptionPlanId: request.subscription_plan_id ?? null,
    executionDate: request.execution_date ?? null,
    walletCaptureEvent:
      operation === 'authorize' && type === 'wallet' ? (request.wallet_capture_event ?? 'OTHER') : (request.wallet_capture_event ?? null),
    customer: Object.fromEntries(
      (['first_name', 'last_name', 'email', 'address', 'city', 'postal_code', 'country'] as const)
        .filter((key) => request[key] !== undefined)
        .map((key) => [key, request[key] as string]),
    ),
  };

  // Payment-type specific blocks.
  if (type === 'cardpos') {
    validatePos(request, command, errors);
  } else if (request.pos_data !== undefined) {
    errors.push({ field: 'pos_data', message: 'is only for payment_type cardpos' });
  }
  if (type === 'cardecom' || type === 'devicewallet') {
    const card = cardFromFields(request, errors);
    if (card) command.card = card;
  } else if (request.card_number !== undefined) {
    errors.push({ field: 'card_number', message: `is not accepted for payment_type ${type}` });
  }
  if (type === 'devicewallet') {
    if (!given('original_transaction_id')) {
      if (!given('card_number'))
        errors.push({ field: 'card_number', message: 'is required for devicewallet (the decrypted device token)' });
      if (!given('threeds_wallet_cryptogram')) errors.push({ field: 'threeds_wallet_cryptogram', message: 'is required for devicewallet' });
      if (!given('threeds_wallet_cryptogram_eci'))
        errors.push({ field: 'threeds_wallet_cryptogram_eci', message: 'is required for devicewallet' });
    }
  }
  if (request.threeds_wallet_cryptogram !== undefined) {
    if (type !== 'devicewallet' && type !== 'cardecom')
      errors.push({ field: 'threeds_wallet_cryptogram', message: `is not accepted for payment_type ${type}` });
    if (request.threeds_wallet_cryptogram_eci !== undefined && !/^0[0-7]$/.test(request.threeds_wallet_cryptogram_eci)) {
      errors.push({ field: 'threeds_wallet_cryptogram_eci', message: 'must be a two-digit ECI such as 05 or 07' });
    }
    command.walletCryptogram = { cryptogram: request.threeds_wallet_cryptogram, eci: request.threeds_wallet_cryptogram_eci ?? '' };
  }
  if (type === 'dd' || type === 'dd_b2b') {
    // The account comes from the request, or from the mandate (sepa_mandate, or the original
    // transaction's): with a mandate, iban and account_holder may be left out (an iban sent must match it).
    const mandated = given('sepa_mandate') || given('original_transaction_id');
    if (!mandated && !given('iban')) errors.push({ field: 'iban', message: `is required for ${type} without sepa_mandate` });
    if (request.account_holder !== undefined ? !request.account_holder.trim() : !mandated && !given('account_holder')) {
      errors.push({ field: 'account_holder', message: `is required for ${type} without sepa_mandate` });
    }
    if (request.iban !== undefined) {
      // The account's format and check digits; whether it matches a mandate is checked with the mandate.
      const problem = ibanProblem(request.iban);
      if (problem) errors.push({ field: 'iban', message: problem });
      command.sepa = { iban: request.iban, bic: request.bic ?? null, accountHolder: request.account_holder?.trim() ?? '' };
    }
  } else {
    for (const field of ['iban', 'bic', 'account_holder', 'sepa_mandate'] as const) {
      if (request[field] !== undefined) errors.push({ field, message: 'is only for payment_type dd or dd_b2b' });
    }
  }

  // The redirect integration needs somewhere to send the customer back to (docs/decisions.md
  // "Payments engine"). Card data that was sent, even if wrong, means the server-to-server one.
  const redirects =
    caps?.alwaysRedirects ||
    operation === 'register' ||
    (type === 'cardecom' && !given('card_number') && !given('original_transaction_id') && amountMinor !== 0);
  if (redirects) {
    for (const field of ['success_url', 'error_url', 'postback_url', 'merchant_reference'] as const) {
      if (field === 'postback_url' && options.followedInternally) continue;
      if (!given(field)) errors.push({ field, message: 'is required in the redirect integration' });
    }
  }
  if (type === 'cardecom' && amountMinor === 0 && !given('card_number') && !given('original_transaction_id') && operation !== 'register') {
    errors.push({ field: 'card_number', message: 'is required for an account check (amount 0)' });
  }

  return errors.length ? { ok: false, errors, ...(unsupported ? { unsupported } : {}) } : { ok: true, command };
}

/**
 * A payout (`cardpos` card credit or `a2a` transfer), validated like a payment of its type plus its
 * own rules (an amount above 0; for a2a the recipient by e-mail, by the original a2a payment whose
 * payer is paid back, or by IBAN), every bad field at once. A type that
 * cannot pay out is `unsupported` (1004), named with the other fields' errors.
 */
export function validatePayoutRequest(request: PayoutRequest, rejected?: ReadonlySet<string>): CommandResult {
  const type = isPaymentType(request.payment_type) ? request.payment_type : undefined;
  const canPayOut = type !== undefined && CAPABILITIES[type].payout;
  const validated = validatePaymentRequest(
    'payment',
    {
      // A type that cannot pay out is judged on the common fields only: its own rules do not apply.
      payment_type: canPayOut ? request.payment_type : '',
      order_id: request.order_id,
      amount: request.amount,
      currency: request.currency,
      merchant_reference: request.merchant_reference,
      postback_url: request.postback_url,
      country: request.country,
      ...(request.pos_data ? { pos_data: request.pos_data } : {}),
      ...(request.email !== undefined ? { email: request.email } : {}),
      // a2a pays out to an account; success/error URLs are not needed for payouts.
      success_url: 'https://payout.invalid/',
      error_url: 'https://payout.invalid/',
    },
    rejected ? { rejected } : {},
  );
  const errors = validated.ok ? [] : validated.errors.filter((e) => canPayOut || e.field !== 'payment_type');
  let unsupported = validated.ok ? undefined : validated.unsupported;
  if (!canPayOut) {
    errors.unshift({ field: 'payment_type', message: type ? 'does not support payouts' : 'is not a payment type of this gateway' });
    unsupported = type ? `${type} does not support payouts (cardpos and a2a do)` : `Unknown payment type ${request.payment_type}`;
  }
  if (typeof request.amount === 'number' && request.amount <= 0 && !errors.some((e) => e.field === 'amount')) {
    errors.push({ field: 'amount', message: 'must be greater than 0' });
  }
  if (type === 'a2a') {
    // The recipient: by e-mail (the scheme's directory), the payer of an earlier a2a payment, or an IBAN.
    const named = (field: 'email' | 'original_transaction_id' | 'iban') =>
      (request[field] !== undefined && request[field] !== '') || rejected?.has(field) === true;
    if (!named('email') && !named('original_transaction_id') && !named('iban')) {
      errors.push({
        field: 'email',
        message: 'an a2a payout needs its recipient: email, original_transaction_id (pay back the payer of that a2a payment) or iban',
      });
    }
    if (request.iban !== undefined && request.iban !== '') {
      const problem = ibanProblem(request.iban);
      if (problem) errors.push({ field: 'iban', message: problem });
    } else if (request.iban === '') {
      errors.push({ field: 'iban', message: 'must not be empty (leave it out)' });
    }
    if (request.original_transaction_id !== undefined && !/^[\x21-\x7e]{1,64}$/.test(request.original_transaction_id)) {
      errors.push({ field: 'original_transaction_id', message: 'must be a transaction id' });
    }
  } else if (type !== undefined) {
    for (const field of ['iban', 'original_transaction_id'] as const) {
      if (request[field] !== undefined) errors.push({ field, message: 'is only for a2a payouts' });
    }
  }
  if (errors.length || validated.ok === false) return { ok: false, errors, ...(unsupported ? { unsupported } : {}) };
  return validated;
}

/**
 * What can be checked of a capture, reversal or refund without its transaction (the amount's
 * decimals depend on the transaction's currency): dates, references, an amount that is not above 0.
 */
export function followUpFieldErrors(request: {
  amount?: number;
  vat?: number;
  execution_date?: string;
  merchant_reference?: string;
  merchant_refund_id?: string;
}): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['amount', 'vat'] as const) {
    const value = request[field];
    if (value === undefined) continue;
    const minor = parseAmount(value, MAX_EXPONENT, field, errors);
    if (field === 'amount' && minor === 0) errors.push({ field, message: 'must be greater than 0' });
  }
  validateCommonFields({ execution_date: request.execution_date, merchant_reference: request.merchant_reference }, errors);
  if (request.merchant_refund_id !== undefined && !MERCHANT_REFUND_ID_PATTERN.test(request.merchant_refund_id)) {
    errors.push({ field: 'merchant_refund_id', message: 'must be 1 to 64 printable characters without spaces' });
  }
  return errors;
}

/** The field errors of a payment request (payment, authorize, register), for answers that name every bad field. */
export function paymentFieldErrors(operation: PaymentOperation, request: PaymentRequest, rejected?: ReadonlySet<string>): FieldError[] {
  const result = validatePaymentRequest(operation, request, rejected ? { rejected } : {});
  return result.ok ? [] : result.errors;
}

function validatePos(request: PaymentRequest, command: PaymentCommand, errors: FieldError[]): void {
  const pos = request.pos_data;
  if (!pos) {
    errors.push({ field: 'pos_data', message: 'is required for cardpos' });
    return;
  }
  const entry = entryModeOf(pos.type?.terminal_entry_mode);
  if (!entry) errors.push({ field: 'pos_data.type.terminal_entry_mode', message: 'must be contactless, chip, swipe or manual' });
  const sequence = pos.type?.sequence;
  if (sequence !== undefined && sequence !== 'initial' && sequence !== 'subsequent') {
    errors.push({ field: 'pos_data.type.sequence', message: 'must be initial or subsequent' });
  }
  const read = cardFromPos(pos.card, errors);
  let pinBlock: PinBlockInput | undefined;
  if (pos.pin_block !== undefined) {
    const pin = pos.pin_block;
    if (pin.format !== 'ISO-0') errors.push({ field: 'pos_data.pin_block.format', message: 'must be ISO-0' });
    if (pin.block === undefined || !/^[0-9A-Fa-f]{16}$/.test(pin.block))
      errors.push({ field: 'pos_data.pin_block.block', message: 'must be 16 hex characters' });
    if (!pin.zone_id) errors.push({ field: 'pos_data.pin_block.zone_id', message: 'is required with a PIN block' });
    if (!pin.key_id) errors.push({ field: 'pos_data.pin_block.key_id', message: 'is required with a PIN block' });
    if (pin.format === 'ISO-0' && pin.block && pin.zone_id && pin.key_id) {
      pinBlock = { format: 'ISO-0', block: pin.block.toUpperCase(), zoneId: pin.zone_id, keyId: pin.key_id };
    }
  } else if (sequence === 'subsequent') {
    errors.push({ field: 'pos_data.pin_block', message: 'is required when sequence is subsequent (PIN retry)' });
  }
  if (!entry || !read) return;
  command.card = read.card;
  command.pos = {
    entry,
    subsequent: sequence === 'subsequent',
    ...(pinBlock ? { pinBlock } : {}),
    terminal: {
      id: pos.terminal?.id ?? null,
      type: pos.terminal?.type ?? null,
      attended: pos.terminal?.attended ?? null,
      capabilities: pos.terminal?.capabilities ?? [],
    },
    ...(read.aid ? { aid: read.aid } : {}),
    ...(read.applicationLabel ? { applicationLabel: read.applicationLabel } : {}),
  };
}
