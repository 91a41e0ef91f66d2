/** Response bodies and postback payloads built from a transaction record. */
import type { TransactionResponse } from '../../../contract/api/payments.js';
import { statusName, TransactionStatus } from '../../../contract/codes.js';
import { currencyExponent, minorToAmount, minorToText } from '../../../contract/money.js';
import type { ClientAction, TransactionRecord } from './ports.js';

export type { ClientAction };

export function exponentOf(t: Pick<TransactionRecord, 'currency'>): number {
  return currencyExponent(t.currency) ?? 2;
}

export function amountOf(t: TransactionRecord, minor: number): number {
  return minorToAmount(minor, exponentOf(t));
}

/** The fields a transaction response and a postback share. */
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

export type CardSummary = Pick<TransactionResponse, 'card_brand' | 'card_last_four' | 'card_expiry_month' | 'card_expiry_year'>;

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
  const action = t.details.client_action;
  const body: TransactionResponse = { ...baseFields(t), error_code: 0 };
  if (t.reasonCode) body.reason_code = t.reasonCode;
  if (action && t.statusCode === TransactionStatus.started) {
    body.client_action = action.client_action;
    body.action_data = action.action_data;
  }
  Object.assign(body, cardSummary(t));
  if (t.sepaMandate) body.sepa_mandate = t.sepaMandate;
  if (t.sepaMsgId) body.sepa_msg_id = t.sepaMsgId;
  const { details } = t;
  if (details.subscription_status !== undefined) body.subscription_status = details.subscription_status;
  if (details.wallet_capture_event !== undefined) body.wallet_capture_event = details.wallet_capture_event;
  if (details.pin_required) body.insert_card = details.pin_required.insert_card === true;
  if (details.authorization_code !== undefined) body.authorization_code = details.authorization_code;
  return body;
}

/** Postback body (docs/postbacks.md "The body"), without event_id, sequence and checksum, which the sender adds. */
export function transactionPostback(t: TransactionRecord): Record<string, unknown> {
  const body: Record<string, unknown> = baseFields(t);
  if (t.statusCode === TransactionStatus.declined || t.reasonCode) body.reason_code = t.reasonCode;
  for (const key of [
    'remittance_info',
    'wallet_activity_reference',
    'wallet_account_reference',
    'payer_location',
    'external_transaction_id',
  ] as const) {
    const value = t.details[key];
    if (value !== undefined) body[key] = value;
  }
  if (t.capturedMinor > 0) body.captured_amount = amountOf(t, t.capturedMinor);
  if (t.refundedMinor > 0) body.refunded_amount = amountOf(t, t.refundedMinor);
  // A sale a till stored while its centre was away (issue 26): which till, when; a decline is flagged.
  const stored = t.details.stored;
  if (stored) {
    body.stored_sale = { till_id: stored.till_id, stored_at: stored.stored_at };
    if (t.statusCode === TransactionStatus.declined || t.statusCode === TransactionStatus.error) body.forwarded_decline = true;
  }
  return body;
}
