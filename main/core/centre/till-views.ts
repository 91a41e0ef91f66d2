/**
 * What a joined till shows of its sales: a stored sale, or the centre's answer, as a transaction of
 * the till's list and receipts, and a sale the centre declined when it was forwarded.
 */
import type { ForwardedDecline } from '../../../contract/api/centre.js';
import type { TransactionResponse } from '../../../contract/api/payments.js';
import type { Transaction } from '../../../contract/api/transactions.js';
import { statusName, TransactionStatus as S } from '../../../contract/codes.js';
import { currencyExponent, minorToAmount } from '../../../contract/money.js';
import type { StoredPaymentRecord } from './ports.js';

/** Statuses in which the card was charged (or the sale stored, which the till approved). */
export const CHARGED: ReadonlySet<number> = new Set([
  S.pending,
  S.completed,
  S.authorized,
  S.refunded,
  S.partly_refunded,
  S.chargeback,
  S.stored,
]);

/** A stored sale as a transaction: stored (13) until forwarded, then as it ended at the centre. */
export function storedView(p: StoredPaymentRecord): Transaction {
  const status = p.outcomeStatusCode ?? S.stored;
  const exponent = currencyExponent(p.currency) ?? 2;
  return {
    transaction_id: p.transactionId,
    created_at: p.storedAt,
    updated_at: p.forwardedAt ?? p.storedAt,
    status_code: status,
    status: statusName(status),
    amount: minorToAmount(p.amountMinor, exponent),
    currency: p.currency,
    order_id: p.orderId,
    recurring: 0,
    sepa_mandate: null,
    parent_id: null,
    payment_method: 'cardpos',
    message: p.outcomeMessage,
    sepa_msg_id: null,
    captured_amount: null,
    additional_transaction_data: null,
    ...(p.cardLastFour ? { card_brand: p.cardBrand ?? 'unknown', card_last_four: p.cardLastFour } : {}),
  };
}

/** The centre's answer to a sale as a transaction (the till keeps no copy of the centre's record). */
export function answerView(a: TransactionResponse, now: string): Transaction {
  return {
    transaction_id: a.transaction_id,
    created_at: now,
    updated_at: now,
    status_code: a.status_code,
    status: a.status,
    amount: a.amount,
    currency: a.currency,
    order_id: a.order_id,
    recurring: 0,
    sepa_mandate: a.sepa_mandate ?? null,
    parent_id: null,
    payment_method: a.payment_type,
    message: a.message,
    sepa_msg_id: a.sepa_msg_id ?? null,
    captured_amount: null,
    additional_transaction_data: a.additional_transaction_data,
    ...(a.card_last_four ? { card_brand: a.card_brand ?? 'unknown', card_last_four: a.card_last_four } : {}),
  };
}

export function declineView(p: StoredPaymentRecord): ForwardedDecline {
  return {
    transaction_id: p.transactionId,
    order_id: p.orderId,
    amount: minorToAmount(p.amountMinor, currencyExponent(p.currency) ?? 2),
    currency: p.currency,
    card_brand: p.cardBrand,
    card_last_four: p.cardLastFour,
    staff_id: p.staffId,
    stored_at: p.storedAt,
    forwarded_at: p.forwardedAt ?? p.storedAt,
    message: p.outcomeMessage,
  };
}
