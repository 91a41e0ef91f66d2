/**
 * What the payment use cases share without needing any dependency: a new transaction record from
 * a validated command, the shop of a stored one, and the refusals they answer with.
 */
import type { FieldError } from '../../../contract/api/common.js';
import { ErrorCode, statusName, TransactionStatus as S } from '../../../contract/codes.js';
import { apiError, type ApiError } from '../errors.js';
import type { TransactionRecord } from './ports.js';
import type { PaymentCommand } from './request.js';

/** The fields every new transaction record must be given; the rest start empty (blankRecord). */
export type RecordStart = Pick<
  TransactionRecord,
  'id' | 'merchantId' | 'paymentType' | 'operation' | 'statusCode' | 'orderId' | 'currency' | 'amountMinor'
>;

/** A transaction record with its given fields and nothing else: no money moved, no card, no links. */
export function blankRecord(start: RecordStart, now: string): TransactionRecord {
  // One object literal of a fixed shape (no spread): this runs for every payment.
  return {
    id: start.id,
    merchantId: start.merchantId,
    paymentType: start.paymentType,
    operation: start.operation,
    statusCode: start.statusCode,
    orderId: start.orderId,
    currency: start.currency,
    amountMinor: start.amountMinor,
    authorizedMinor: 0,
    capturedMinor: 0,
    refundedMinor: 0,
    reversedMinor: 0,
    feesMinor: 0,
    recurring: 0,
    parentId: null,
    sepaMandate: null,
    sepaMsgId: null,
    message: null,
    reasonCode: null,
    additionalTransactionData: null,
    merchantReference: null,
    postbackUrl: null,
    successUrl: null,
    errorUrl: null,
    cardBrand: null,
    cardLastFour: null,
    cardBin: null,
    cardExpiryMonth: null,
    cardExpiryYear: null,
    cardSealed: null,
    cardFingerprint: null,
    details: {},
    invoiceNumber: null,
    tillId: null,
    createdAt: now,
    updatedAt: now,
    expiresAt: null,
  };
}

/** A transaction as a validated command starts it: status started, no money moved, no card yet. */
export function newRecord(id: string, command: PaymentCommand, merchantId: string, now: Date): TransactionRecord {
  const record = blankRecord(
    {
      id,
      merchantId,
      paymentType: command.type,
      operation: command.operation,
      statusCode: S.started,
      orderId: command.orderId,
      currency: command.currency,
      amountMinor: command.amountMinor,
    },
    now.toISOString(),
  );
  // A registration exists to save the card: it is recurring from the start (the hosted card
  // page completes it later, and that change does not touch this column).
  record.recurring = command.operation === 'register' ? 1 : command.recurring;
  record.sepaMandate = command.sepaMandate;
  record.additionalTransactionData = command.additionalTransactionData;
  record.merchantReference = command.merchantReference;
  record.postbackUrl = command.postbackUrl;
  record.successUrl = command.successUrl;
  record.errorUrl = command.errorUrl;
  record.details = {
    ...command.extraDetails,
    ...(Object.keys(command.customer).length ? { customer: command.customer } : {}),
    ...(command.walletCaptureEvent ? { wallet_capture_event: command.walletCaptureEvent } : {}),
    ...(command.pos
      ? {
          pos: {
            entry_mode: command.pos.entry,
            terminal: command.pos.terminal,
            ...(command.pos.aid ? { aid: command.pos.aid } : {}),
            ...(command.pos.applicationLabel ? { application_label: command.pos.applicationLabel } : {}),
            // The receipt says "PIN verified": the bank checked a PIN block (a wrong one declines).
            ...(command.pos.pinBlock ? { cvm: 'online_pin' as const } : {}),
          },
        }
      : {}),
  };
  record.invoiceNumber = command.invoiceNumber ?? null;
  record.tillId = command.tillId ?? null;
  return record;
}

/** The shop a stored transaction belongs to (its terminal's at the time of the payment). */
export function shopOf(t: TransactionRecord): string | null {
  return t.details.shop_id ?? null;
}

export function processorDown(): ApiError {
  return apiError(ErrorCode.processor, 'The processor is unavailable; nothing was changed. Retry later with the same idempotency key.');
}

export function expiredError(t: TransactionRecord): ApiError {
  return apiError(ErrorCode.invalidState, 'The time for this payment has run out', [
    { field: 'transaction_id', message: `expired at ${t.expiresAt ?? ''}` },
  ]);
}

export function stateError(t: TransactionRecord, action: string): ApiError {
  return apiError(ErrorCode.invalidState, `Cannot ${action} a transaction that is ${statusName(t.statusCode)}`, [
    { field: 'transaction_id', message: `is ${statusName(t.statusCode)}` },
  ]);
}

/** A refusal (1004) naming also the other bad fields the validation found. */
export function withOtherErrors(refusal: ApiError, others: readonly FieldError[]): ApiError {
  return { ...refusal, errors: [...refusal.errors, ...others.filter((e) => !refusal.errors.some((r) => r.field === e.field))] };
}

/** The answer about a transaction id this merchant has no transaction of. */
export function notFound(transactionId: string) {
  return apiError(ErrorCode.notFound, `Transaction ${transactionId} not found`, [
    { field: 'transaction_id', message: 'no such transaction for this merchant' },
  ]);
}
