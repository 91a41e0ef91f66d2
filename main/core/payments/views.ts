/** Response bodies and postback payloads built from a transaction record (interface.md). */
import { currencyExponent, minorToAmount, minorToText } from '../money.js';
import type { TransactionRecord } from '../ports.js';
import { statusName, TransactionStatus } from '../transactions/status.js';

export function exponentOf(t: Pick<TransactionRecord, 'currency'>): number {
  return currencyExponent(t.currency) ?? 2;
}

export function amountOf(t: TransactionRecord, minor: number): number {
  return minorToAmount(minor, exponentOf(t));
}

export interface ClientAction {
  client_action: 'redirect' | 'postform';
  action_data: { url: string; fields?: Record<string, string> };
}

export interface TransactionResponse {
  transaction_id: string;
  payment_type: string;
  status_code: number;
  status: string;
  order_id: string | null;
  message: string | null;
  reason_code?: string;
  additional_transaction_data: string | null;
  amount: number;
  currency: string;
  included_fees: string;
  error_code: 0;
  client_action?: 'redirect' | 'postform';
  action_data?: ClientAction['action_data'];
  card_brand?: string;
  card_last_four?: string;
  card_expiry_month?: number;
  card_expiry_year?: number;
  sepa_mandate?: string;
  sepa_msg_id?: string;
  subscription_status?: string;
  wallet_capture_event?: string;
  /** On `request_pin`: true when the card must be inserted for the PIN (e.g. it was swiped). */
  insert_card?: boolean;
  /** The issuer's approval code, for receipts. */
  authorization_code?: string;
}

/** The fields a transaction response and a postback share (interface.md). */
function baseFields(t: TransactionRecord) {
  return {
    transaction_id: t.id,
    payment_type: t.paymentType,
    status_code: t.statusCode,
    status: statusName(t.statusCode),
    order_id: t.orderId,
    message: t.message,
    additional_transaction_data: t.additionalTransactionData,
    amount: amountOf(t, t.amountMinor),
    currency: t.currency,
    included_fees: minorToText(t.feesMinor, exponentOf(t)),
  };
}

export interface CardSummary {
  card_brand?: string;
  card_last_four?: string;
  card_expiry_month?: number;
  card_expiry_year?: number;
}

/** Brand, last four and expiry of the transaction's card; never more of the card. */
export function cardSummary(t: TransactionRecord): CardSummary {
  if (!t.cardLastFour) return {};
  return {
    card_brand: t.cardBrand ?? 'unknown',
    card_last_four: t.cardLastFour,
    ...(t.cardExpiryMonth !== null ? { card_expiry_month: t.cardExpiryMonth } : {}),
    ...(t.cardExpiryYear !== null ? { card_expiry_year: t.cardExpiryYear } : {}),
  };
}

export function transactionResponse(t: TransactionRecord): TransactionResponse {
  const action = t.details.client_action as ClientAction | undefined;
  const body: TransactionResponse = { ...baseFields(t), error_code: 0 };
  if (t.reasonCode) body.reason_code = t.reasonCode;
  if (action && t.statusCode === TransactionStatus.started) {
    body.client_action = action.client_action;
    body.action_data = action.action_data;
  }
  Object.assign(body, cardSummary(t));
  if (t.sepaMandate) body.sepa_mandate = t.sepaMandate;
  if (t.sepaMsgId) body.sepa_msg_id = t.sepaMsgId;
  if (typeof t.details.subscription_status === 'string') body.subscription_status = t.details.subscription_status;
  if (typeof t.details.wallet_capture_event === 'string') body.wallet_capture_event = t.details.wallet_capture_event;
  const pinRequired = t.details.pin_required as { insert_card?: boolean } | undefined;
  if (pinRequired) body.insert_card = pinRequired.insert_card === true;
  if (typeof t.details.authorization_code === 'string') body.authorization_code = t.details.authorization_code;
  return body;
}

/** Postback body (interface.md "Postbacks"), without event_id, sequence and checksum, which the sender adds. */
export function transactionPostback(t: TransactionRecord): Record<string, unknown> {
  const body: Record<string, unknown> = baseFields(t);
  if (t.statusCode === TransactionStatus.declined || t.reasonCode) body.reason_code = t.reasonCode;
  for (const key of ['remittance_info', 'wallet_activity_reference', 'wallet_account_reference', 'payer_location', 'external_transaction_id'] as const) {
    if (typeof t.details[key] === 'string') body[key] = t.details[key];
  }
  if (t.capturedMinor > 0) body.captured_amount = amountOf(t, t.capturedMinor);
  if (t.refundedMinor > 0) body.refunded_amount = amountOf(t, t.refundedMinor);
  return body;
}
