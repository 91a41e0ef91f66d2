/**
 * Payment requests (`/rest/payment`, `/rest/authorize`, `/rest/register`): the API shape, and its
 * validation into a command with integer minor units. Every bad field is reported at once.
 */
import countries from 'i18n-iso-countries';
import type { FieldError } from '../errors.js';
import { amountProblemText, currencyExponent, toMinor } from '../money.js';
import type { CardData, CardEntryMode } from '../ports.js';
import { cardFromFields, cardFromPos, entryModeOf, type PosCardInput } from './card-input.js';
import { CAPABILITIES, isPaymentType, type PaymentType } from './payment-types.js';

export type PaymentOperation = 'payment' | 'authorize' | 'register';

export const WALLET_CAPTURE_EVENTS = ['SHIPPING', 'DELIVERY', 'AVAILABILITY', 'SERVICE_FULFILMENT', 'OTHER'] as const;

export interface PosDataInput {
  type?: { terminal_entry_mode?: string; sequence?: string };
  card?: PosCardInput;
  pin_block?: { format?: string; block?: string; zone_id?: string; key_id?: string };
  terminal?: { id?: string; type?: string; attended?: boolean; capabilities?: string[] };
}

export interface PaymentRequest {
  payment_type: string;
  order_id: string;
  amount: number;
  currency: string;
  merchant_reference?: string;
  additional_transaction_data?: string;
  postback_url?: string;
  success_url?: string;
  error_url?: string;
  recurring?: number;
  original_transaction_id?: string;
  sepa_mandate?: string;
  subscription_plan_id?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  address?: string;
  city?: string;
  postal_code?: string;
  country?: string;
  card_number?: string;
  card_holder?: string;
  card_expiry_month?: string;
  card_expiry_year?: string;
  card_cvv?: string;
  threeds_wallet_cryptogram?: string;
  threeds_wallet_cryptogram_eci?: string;
  pos_data?: PosDataInput;
  wallet_capture_event?: string;
  execution_date?: string;
  iban?: string;
  bic?: string;
  account_holder?: string;
}

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
  extraDetails?: Record<string, unknown>;
}

export const MERCHANT_REFERENCE_PATTERN = /^[A-Za-z0-9/\-?():.,'+ ]{1,35}$/;
const ORDER_ID_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,98}[\x21-\x7e])?$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const COUNTRIES = new Set(Object.keys(countries.getAlpha2Codes()));

export function isCountryCode(value: string): boolean {
  return COUNTRIES.has(value);
}

export function isValidDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Amount checks shared by payments, captures, refunds, reversals and payouts. */
export function parseAmount(amount: number, exponent: number, field: string, errors: FieldError[]): number | undefined {
  const parsed = toMinor(amount, exponent);
  if (!parsed.ok) {
    errors.push({ field, message: amountProblemText(parsed.problem, exponent) });
    return undefined;
  }
  return parsed.minor;
}

export function validateCommonFields(request: Pick<PaymentRequest, 'merchant_reference' | 'postback_url' | 'success_url' | 'error_url' | 'country' | 'execution_date' | 'sepa_mandate'>, errors: FieldError[]): void {
  if (request.merchant_reference !== undefined && !MERCHANT_REFERENCE_PATTERN.test(request.merchant_reference)) {
    errors.push({ field: 'merchant_reference', message: "must be 1 to 35 characters: letters, digits, space and / - ? ( ) : . , ' +" });
  }
  for (const field of ['postback_url', 'success_url', 'error_url'] as const) {
    const value = request[field];
    if (value !== undefined && !isHttpUrl(value)) errors.push({ field, message: 'must be an http or https URL' });
  }
  if (request.country !== undefined && !isCountryCode(request.country)) errors.push({ field: 'country', message: 'must be an ISO 3166-1 alpha-2 code such as DE' });
  if (request.execution_date !== undefined && !isValidDate(request.execution_date)) errors.push({ field: 'execution_date', message: 'must be a date YYYY-MM-DD' });
  if (request.sepa_mandate !== undefined && !/^[A-Za-z0-9/\-?():.,'+ ]{1,35}$/.test(request.sepa_mandate)) {
    errors.push({ field: 'sepa_mandate', message: 'must be 1 to 35 characters of the SEPA character set' });
  }
}

export type CommandResult = { ok: true; command: PaymentCommand } | { ok: false; errors: FieldError[]; unsupported?: string };

/**
 * `followedInternally`: the payment is started by a feature of the gateway (an invoice's pay page)
 * that follows the transaction in its own unit of work, so no merchant postback URL is needed.
 */
export function validatePaymentRequest(operation: PaymentOperation, request: PaymentRequest, options: { followedInternally?: boolean } = {}): CommandResult {
  const errors: FieldError[] = [];
  if (!isPaymentType(request.payment_type)) {
    return { ok: false, errors: [{ field: 'payment_type', message: 'is not a payment type of this gateway' }], unsupported: `Unknown payment type ${request.payment_type}` };
  }
  const type = request.payment_type;
  const caps = CAPABILITIES[type];
  if (operation === 'authorize' && !caps.authorize) {
    return { ok: false, errors: [{ field: 'payment_type', message: `${type} does not support separate authorization` }], unsupported: `${type} does not support /rest/authorize` };
  }
  if (operation === 'register' && !caps.register) {
    return { ok: false, errors: [{ field: 'payment_type', message: `${type} does not support registration` }], unsupported: `${type} does not support /rest/register` };
  }

  if (!ORDER_ID_PATTERN.test(request.order_id)) errors.push({ field: 'order_id', message: 'must be 1 to 100 printable characters' });
  const exponent = currencyExponent(request.currency);
  let amountMinor: number | undefined;
  if (exponent === undefined) errors.push({ field: 'currency', message: 'must be an ISO 4217 currency code such as EUR' });
  else {
    if (caps.currencies && !caps.currencies.includes(request.currency)) {
      errors.push({ field: 'currency', message: `${type} supports ${caps.currencies.join(', ')}` });
    }
    amountMinor = parseAmount(request.amount, exponent, 'amount', errors);
    if (amountMinor === 0 && operation !== 'register' && !caps.accountCheck) {
      errors.push({ field: 'amount', message: `must be greater than 0 for ${type}` });
    }
  }
  validateCommonFields(request, errors);
  if (request.recurring !== undefined && request.recurring !== 0 && request.recurring !== 1) errors.push({ field: 'recurring', message: 'must be 0 or 1' });
  const recurring = request.recurring === 1 ? 1 : 0;
  if (recurring === 1 && !caps.recurring && !caps.accountCheck) errors.push({ field: 'recurring', message: `${type} does not support recurring payments` });

  if (request.wallet_capture_event !== undefined) {
    if (operation !== 'authorize') errors.push({ field: 'wallet_capture_event', message: 'is accepted only on /rest/authorize' });
    else if (!(WALLET_CAPTURE_EVENTS as readonly string[]).includes(request.wallet_capture_event)) {
      errors.push({ field: 'wallet_capture_event', message: `must be one of ${WALLET_CAPTURE_EVENTS.join(', ')}` });
    }
  }
  if (request.subscription_plan_id !== undefined) {
    if (type !== 'wallet') errors.push({ field: 'subscription_plan_id', message: 'is only for payment_type wallet' });
    else if (recurring !== 1) errors.push({ field: 'subscription_plan_id', message: 'needs recurring=1' });
  }
  if (request.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(request.email)) errors.push({ field: 'email', message: 'must be an e-mail address' });

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
    walletCaptureEvent: operation === 'authorize' && type === 'wallet' ? (request.wallet_capture_event ?? 'OTHER') : (request.wallet_capture_event ?? null),
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
    if (request.original_transaction_id === undefined) {
      if (request.card_number === undefined) errors.push({ field: 'card_number', message: 'is required for devicewallet (the decrypted device token)' });
      if (request.threeds_wallet_cryptogram === undefined) errors.push({ field: 'threeds_wallet_cryptogram', message: 'is required for devicewallet' });
      if (request.threeds_wallet_cryptogram_eci === undefined) errors.push({ field: 'threeds_wallet_cryptogram_eci', message: 'is required for devicewallet' });
    }
  }
  if (request.threeds_wallet_cryptogram !== undefined) {
    if (type !== 'devicewallet' && type !== 'cardecom') errors.push({ field: 'threeds_wallet_cryptogram', message: `is not accepted for payment_type ${type}` });
    if (request.threeds_wallet_cryptogram_eci !== undefined && !/^0[0-7]$/.test(request.threeds_wallet_cryptogram_eci)) {
      errors.push({ field: 'threeds_wallet_cryptogram_eci', message: 'must be a two-digit ECI such as 05 or 07' });
    }
    command.walletCryptogram = { cryptogram: request.threeds_wallet_cryptogram, eci: request.threeds_wallet_cryptogram_eci ?? '' };
  }
  if (type === 'dd' || type === 'dd_b2b') {
    // The account comes from the request, or from the mandate (sepa_mandate, or the original
    // transaction's): with a mandate, iban and account_holder may be left out (an iban sent must match it).
    const mandated = request.sepa_mandate !== undefined || request.original_transaction_id !== undefined;
    if (!mandated && request.iban === undefined) errors.push({ field: 'iban', message: `is required for ${type} without sepa_mandate` });
    if (request.account_holder !== undefined ? !request.account_holder.trim() : !mandated) {
      errors.push({ field: 'account_holder', message: `is required for ${type} without sepa_mandate` });
    }
    if (request.iban !== undefined) {
      command.sepa = { iban: request.iban, bic: request.bic ?? null, accountHolder: request.account_holder?.trim() ?? '' };
    }
  } else {
    for (const field of ['iban', 'bic', 'account_holder', 'sepa_mandate'] as const) {
      if (request[field] !== undefined) errors.push({ field, message: 'is only for payment_type dd or dd_b2b' });
    }
  }

  // The redirect integration needs somewhere to send the customer back to (interface.md).
  const redirects = caps.alwaysRedirects || operation === 'register' || (type === 'cardecom' && !command.card && !command.originalTransactionId && amountMinor !== 0);
  if (redirects) {
    for (const field of ['success_url', 'error_url', 'postback_url', 'merchant_reference'] as const) {
      if (field === 'postback_url' && options.followedInternally) continue;
      if (request[field] === undefined) errors.push({ field, message: 'is required in the redirect integration' });
    }
  }
  if (type === 'cardecom' && amountMinor === 0 && !command.card && !command.originalTransactionId && operation !== 'register') {
    errors.push({ field: 'card_number', message: 'is required for an account check (amount 0)' });
  }

  return errors.length ? { ok: false, errors } : { ok: true, command };
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
    if (pin.block === undefined || !/^[0-9A-Fa-f]{16}$/.test(pin.block)) errors.push({ field: 'pos_data.pin_block.block', message: 'must be 16 hex characters' });
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
