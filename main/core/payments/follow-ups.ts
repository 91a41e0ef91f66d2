/**
 * Follow-ups on an earlier transaction: capture (all or part of an authorization), reverse (release
 * what was reserved and not captured) and refund (all or part of what was captured). Each is
 * checked against the amounts read first, then applied in the unit of work by a conditional update
 * that refuses to move more than is there (captured <= authorized, refunded <= captured).
 */
import type { FieldError } from '../../../contract/api/common.js';
import type {
  CaptureRequest,
  CaptureResponse,
  RefundRequest,
  RefundResponse,
  ReverseRequest,
  ReverseResponse,
} from '../../../contract/api/payments.js';
import { ErrorCode, RefundStatus, refundStatusName, statusName, TransactionStatus as S } from '../../../contract/codes.js';
import type { PaymentType } from '../../../contract/constants.js';
import { minorToAmount, minorToText } from '../../../contract/money.js';
import { apiError, failure, success, validationError, type Outcome } from '../errors.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { TransactionRecord } from './ports.js';
import { notFound } from './records.js';
import { PaymentEngine } from './engine.js';
import { CAPABILITIES } from '../payment-methods/payment-types.js';
import { stateError } from './records.js';
import { parseAmount, validateCommonFields } from './request.js';
import { allowedFrom } from './state-machine.js';
import { cardSummary, exponentOf } from './views.js';

export class FollowUps extends PaymentEngine {
  async capture(operation: Operation, request: CaptureRequest): Promise<Outcome<CaptureResponse>> {
    const errors: FieldError[] = [];
    validateCommonFields({ execution_date: request.execution_date }, errors);
    const merchantId = operation.context.merchantId;
    return this.deps.locks.outcome(`transaction:${request.transaction_id}`, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const remaining = t.authorizedMinor - t.capturedMinor;
      const amountMinor = this.followUpAmount(t, request.amount, remaining, 'amount', errors);
      const vatMinor = request.vat === undefined ? undefined : parseAmount(request.vat, exponentOf(t), 'vat', errors);
      if (errors.length || amountMinor === undefined) return failure(validationError(errors));
      if (t.operation !== 'authorize' || !allowedFrom('capture').includes(t.statusCode as never)) {
        return failure(stateError(t, 'capture'));
      }
      if (amountMinor > remaining || remaining <= 0) {
        return failure(
          apiError(
            ErrorCode.amountLimit,
            `The capture would exceed the authorization: at most ${minorToAmount(remaining, exponentOf(t))} ${t.currency} can still be captured`,
            [{ field: 'amount', message: `must not exceed ${minorToAmount(remaining, exponentOf(t))}` }],
          ),
        );
      }
      if (vatMinor !== undefined && vatMinor > amountMinor)
        return failure(validationError([{ field: 'vat', message: 'must not exceed the captured amount' }]));
      const result = await this.callProcessor(() =>
        this.deps.processor.capture({ reference: t.id, networkReference: this.networkReference(t), amountMinor, currency: t.currency }),
      );
      if (!result.ok) return result;
      if (result.value.outcome === 'declined')
        return failure(apiError(ErrorCode.invalidState, `The processor refused the capture: ${result.value.code} ${result.value.text}`));
      return operation.commit(this.deps.store, async (tx) => {
        const applied = await tx.transactions.addCapture(t.id, amountMinor, S.completed, this.nowIso());
        if (!applied) return failure(apiError(ErrorCode.amountLimit, 'The capture would exceed the authorization'));
        const fresh = (await tx.transactions.get(merchantId, t.id)) as TransactionRecord;
        await this.logAndNotify(tx, fresh, {
          type: 'capture',
          amountMinor,
          executionDate: request.execution_date ?? null,
          message: vatMinor !== undefined ? `VAT ${minorToAmount(vatMinor, exponentOf(t))}` : null,
        });
        return success(this.captureResponse(fresh, amountMinor));
      });
    });
  }

  /**
   * Releases reserved money: the whole or part of an uncaptured authorization, or, after partial
   * captures, the rest that will never be captured (Adyen's cancel after a partial capture). What
   * was captured stays captured and refundable.
   */
  async reverse(operation: Operation, request: ReverseRequest): Promise<Outcome<ReverseResponse>> {
    const errors: FieldError[] = [];
    validateCommonFields({ execution_date: request.execution_date }, errors);
    const merchantId = operation.context.merchantId;
    return this.deps.locks.outcome(`transaction:${request.transaction_id}`, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const uncaptured = t.authorizedMinor - t.capturedMinor;
      const amountMinor = this.followUpAmount(t, request.amount, uncaptured, 'amount', errors);
      if (errors.length || amountMinor === undefined) return failure(validationError(errors));
      if (t.operation !== 'authorize' || !allowedFrom('reverse').includes(t.statusCode as never)) return failure(stateError(t, 'reverse'));
      if (uncaptured <= 0) {
        return failure(
          apiError(
            ErrorCode.invalidState,
            'Nothing is left to release: the whole authorization was captured; refund captured money instead',
          ),
        );
      }
      if (amountMinor > uncaptured) {
        return failure(
          apiError(
            ErrorCode.amountLimit,
            `The reversal exceeds what is still reserved: at most ${minorToAmount(uncaptured, exponentOf(t))} ${t.currency} can be released`,
            [{ field: 'amount', message: `must not exceed ${minorToAmount(uncaptured, exponentOf(t))}` }],
          ),
        );
      }
      if (amountMinor < uncaptured && !CAPABILITIES[t.paymentType as PaymentType].partialReversal) {
        return failure(
          apiError(ErrorCode.paymentType, `${t.paymentType} does not support partial reversal`, [
            { field: 'amount', message: 'must be the whole uncaptured amount' },
          ]),
        );
      }
      if (amountMinor < uncaptured) {
        const refused = await this.capabilityRefusal(t, 'partial_reversal');
        if (refused) return failure(refused);
      }
      const result = await this.callProcessor(() =>
        this.deps.processor.reverse({ reference: t.id, networkReference: this.networkReference(t), amountMinor, currency: t.currency }),
      );
      if (!result.ok) return result;
      if (result.value.outcome === 'declined')
        return failure(apiError(ErrorCode.invalidState, `The processor refused the reversal: ${result.value.code} ${result.value.text}`));
      return operation.commit(this.deps.store, async (tx) => {
        const applied = await tx.transactions.addReversal(t.id, amountMinor, this.nowIso());
        if (!applied) return failure(stateError(t, 'reverse'));
        const fresh = (await tx.transactions.get(merchantId, t.id)) as TransactionRecord;
        const remainingMinor = fresh.authorizedMinor - fresh.capturedMinor;
        await this.logAndNotify(tx, fresh, {
          type: 'reversal',
          amountMinor,
          executionDate: request.execution_date ?? null,
          ...(fresh.capturedMinor > 0
            ? {
                message: `Released the uncaptured ${minorToText(amountMinor, exponentOf(fresh))} ${fresh.currency}; captured ${minorToText(fresh.capturedMinor, exponentOf(fresh))}`,
              }
            : {}),
        });
        return success({
          transaction_id: fresh.id,
          status_code: fresh.statusCode,
          status: statusName(fresh.statusCode),
          amount: minorToAmount(amountMinor, exponentOf(fresh)),
          remaining_amount: minorToAmount(remainingMinor, exponentOf(fresh)),
          error_code: 0 as const,
        });
      });
    });
  }

  async refund(operation: Operation, request: RefundRequest): Promise<Outcome<RefundResponse>> {
    const errors: FieldError[] = [];
    validateCommonFields({ execution_date: request.execution_date, merchant_reference: request.merchant_reference }, errors);
    if (request.merchant_refund_id !== undefined && !/^[\x21-\x7e]{1,64}$/.test(request.merchant_refund_id)) {
      errors.push({ field: 'merchant_refund_id', message: 'must be 1 to 64 printable characters without spaces' });
    }
    const merchantId = operation.context.merchantId;
    return this.deps.locks.outcome(`transaction:${request.transaction_id}`, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const refundable = t.capturedMinor - t.refundedMinor;
      const amountMinor = this.followUpAmount(t, request.amount, refundable, 'amount', errors);
      if (errors.length || amountMinor === undefined) return failure(validationError(errors));
      if (!allowedFrom('refund').includes(t.statusCode as never)) return failure(stateError(t, 'refund'));
      if (amountMinor > refundable || refundable <= 0) {
        return failure(
          apiError(
            ErrorCode.amountLimit,
            `The refund would exceed the captured amount: at most ${minorToAmount(refundable, exponentOf(t))} ${t.currency} can still be refunded`,
            [{ field: 'amount', message: `must not exceed ${minorToAmount(refundable, exponentOf(t))}` }],
          ),
        );
      }
      if (amountMinor < refundable && !CAPABILITIES[t.paymentType as PaymentType].partialRefund) {
        return failure(
          apiError(ErrorCode.paymentType, `${t.paymentType} does not support partial refunds`, [
            { field: 'amount', message: 'must be the whole refundable amount' },
          ]),
        );
      }
      if (amountMinor < refundable) {
        const refused = await this.capabilityRefusal(t, 'partial_refund');
        if (refused) return failure(refused);
      }
      const result = await this.callProcessor(() =>
        this.deps.processor.refund({ reference: t.id, networkReference: this.networkReference(t), amountMinor, currency: t.currency }),
      );
      if (!result.ok) return result;
      const refused = result.value.outcome === 'declined';
      const now = this.nowIso();
      return operation.commit(this.deps.store, async (tx) => {
        const refundId = this.deps.ids.newId();
        const statusCode = refused ? RefundStatus.error : RefundStatus.success;
        if (!refused && !(await tx.transactions.addRefund(t.id, amountMinor, now))) {
          return failure(apiError(ErrorCode.amountLimit, 'The refund would exceed the captured amount'));
        }
        await tx.refunds.insert({
          id: refundId,
          transactionId: t.id,
          merchantId,
          amountMinor,
          statusCode,
          merchantRefundId: request.merchant_refund_id ?? null,
          merchantReference: request.merchant_reference ?? null,
          executionDate: request.execution_date ?? null,
          processorReference: result.value.outcome === 'approved' ? result.value.reference : null,
          createdAt: now,
        });
        const fresh = (await tx.transactions.get(merchantId, t.id)) as TransactionRecord;
        await this.logAndNotify(tx, fresh, {
          // The refund's event has the refund's id: a till's copy of it has the same (D19, till-link.ts).
          id: refundId,
          type: 'refund',
          amountMinor,
          executionDate: request.execution_date ?? null,
          message: result.value.outcome === 'declined' ? `Refund refused: ${result.value.code} ${result.value.text}` : `Refund ${refundId}`,
          status: refused ? S.error : fresh.statusCode,
        });
        return success({
          refund_id: refundId,
          transaction_id: t.id,
          status_code: statusCode,
          status: refundStatusName(statusCode),
          amount: minorToAmount(amountMinor, exponentOf(t)),
          currency: t.currency,
          merchant_refund_id: request.merchant_refund_id ?? null,
          merchant_reference: request.merchant_reference ?? null,
          transaction_status_code: fresh.statusCode,
          transaction_status: statusName(fresh.statusCode),
          error_code: 0 as const,
        });
      });
    });
  }

  private followUpAmount(
    t: TransactionRecord,
    amount: number | undefined,
    fallbackMinor: number,
    field: string,
    errors: FieldError[],
  ): number | undefined {
    if (amount === undefined) return fallbackMinor;
    const minor = parseAmount(amount, exponentOf(t), field, errors);
    if (minor === 0) errors.push({ field, message: 'must be greater than 0' });
    return minor;
  }

  private captureResponse(t: TransactionRecord, amountMinor: number): CaptureResponse {
    return {
      transaction_id: t.id,
      status_code: t.statusCode,
      status: statusName(t.statusCode),
      order_id: t.orderId,
      message: t.message,
      amount: minorToAmount(amountMinor, exponentOf(t)),
      captured_amount: minorToAmount(t.capturedMinor, exponentOf(t)),
      ...cardSummary(t),
      error_code: 0,
    };
  }
}
