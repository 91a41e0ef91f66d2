/** Response bodies and postback payloads built from a transaction record (interface.md). */
import type { TransactionResponse } from '../../../contract/api/payments.js';
import { statusName, TransactionStatus } from '../../../contract/codes.js';
import { currencyExponent, minorToAmount, minorToText } from '../../../contract/money.js';
import type { TransactionRecord } from '../ports.js';

export function exponentOf(t: Pick<TransactionRecord, 'currency'>): number {
  return currencyExponent(t.currency) ?? 2;
}

export function amountOf(t: TransactionRecord, minor: number): number {
  return minorToAmount(minor, exponentOf(t));
}

/** What a transaction that waits for the customer keeps in its details: where to send them. */
export type ClientAction = Required<Pick<TransactionResponse, 'client_action' | 'action_data'>>;

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
