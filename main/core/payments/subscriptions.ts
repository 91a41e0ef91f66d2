/**
 * Wallet subscriptions set up by an approved wallet payment: cancel, and revise (a new plan or
 * amount; above the current amount only after the customer approves it on the wallet page,
 * customer-steps.ts).
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { SubscriptionRequest, SubscriptionResponse } from '../../../contract/api/payments.js';
import { ErrorCode } from '../../../contract/codes.js';
import { minorToAmount } from '../../../contract/money.js';
import { apiError, failure, success, validationError, type ApiError, type Outcome } from '../errors.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { DetailsChange, SubscriptionStatus, TransactionRecord } from './ports.js';
import { notFound } from './records.js';
import { PaymentEngine } from './engine.js';
import { parseAmount } from './request.js';
import { exponentOf } from './views.js';

/** Why a subscription cannot be cancelled or revised: none was set up, or it is not in the right status. */
function notSubscription(): ApiError {
  return apiError(ErrorCode.invalidState, 'This transaction did not set up a wallet subscription', [
    { field: 'transaction_id', message: 'is not a subscription setup' },
  ]);
}

function alreadyCancelled(): ApiError {
  return apiError(ErrorCode.invalidState, 'The subscription is already cancelled', [
    { field: 'transaction_id', message: 'subscription is cancelled' },
  ]);
}

function notActive(status: SubscriptionStatus | undefined): ApiError {
  return status
    ? apiError(ErrorCode.invalidState, `The subscription is ${status}`, [{ field: 'transaction_id', message: `subscription is ${status}` }])
    : notSubscription();
}

/**
 * Each change is one statement on the transaction's details that applies only while the
 * subscription is in the status the change starts from (never the details as read, written back).
 */
export class Subscriptions extends PaymentEngine {
  async cancelSubscription(operation: Operation, request: SubscriptionRequest): Promise<Outcome<SubscriptionResponse>> {
    const merchantId = operation.context.merchantId;
    return this.deps.locks.outcome(`transaction:${request.transaction_id}`, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const status = this.subscriptionOf(t);
      if (!status) return failure(notSubscription());
      if (status === 'cancelled') return failure(alreadyCancelled());
      return operation.commit(this.deps.store, async (tx) => {
        const change: DetailsChange = { subscription_status: 'cancelled', pending_revision: null };
        if (!(await tx.transactions.changeSubscription(t.id, ['active', 'approval_pending'], change, this.nowIso())))
          return failure(alreadyCancelled());
        const fresh = (await tx.transactions.get(merchantId, t.id)) as TransactionRecord;
        await this.appendEvent(tx, fresh, {
          type: 'cancellation',
          status: fresh.statusCode,
          amountMinor: 0,
          executionDate: null,
          message: 'Subscription cancelled',
        });
        return success(this.subscriptionResponse(fresh));
      });
    });
  }

  async reviseSubscription(operation: Operation, request: SubscriptionRequest): Promise<Outcome<SubscriptionResponse>> {
    const merchantId = operation.context.merchantId;
    const errors: FieldError[] = [];
    if (request.amount === undefined && request.subscription_plan_id === undefined) {
      errors.push({ field: 'amount', message: 'give amount, subscription_plan_id or both' });
    }
    return this.deps.locks.outcome(`transaction:${request.transaction_id}`, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const amountMinor = request.amount === undefined ? undefined : parseAmount(request.amount, exponentOf(t), 'amount', errors);
      if (amountMinor === 0) errors.push({ field: 'amount', message: 'must be greater than 0' });
      if (errors.length) return failure(validationError(errors));
      const status = this.subscriptionOf(t);
      if (status !== 'active') return failure(notActive(status));
      const currentMinor = t.details.subscription_amount_minor ?? t.amountMinor;
      const needsApproval = amountMinor !== undefined && amountMinor > currentMinor;
      const planId = request.subscription_plan_id ?? t.details.subscription_plan_id;
      return operation.commit(this.deps.store, async (tx) => {
        const change: DetailsChange = needsApproval
          ? { subscription_status: 'approval_pending', pending_revision: { amount_minor: amountMinor, subscription_plan_id: planId } }
          : { subscription_plan_id: planId ?? null, ...(amountMinor !== undefined ? { subscription_amount_minor: amountMinor } : {}) };
        const applied = await tx.transactions.changeSubscription(t.id, ['active'], change, this.nowIso());
        const fresh = (await tx.transactions.get(merchantId, t.id)) as TransactionRecord;
        if (!applied) return failure(notActive(this.subscriptionOf(fresh)));
        await this.appendEvent(tx, fresh, {
          type: 'reauthorization',
          status: fresh.statusCode,
          amountMinor: amountMinor ?? currentMinor,
          executionDate: null,
          message: needsApproval ? 'Subscription revision awaits customer approval' : 'Subscription revised',
        });
        const body = this.subscriptionResponse(fresh);
        if (needsApproval) {
          body.client_action = 'redirect';
          body.action_data = { url: `${this.deps.processor.redirectUrl('wallet', t.id)}?revision=1` };
        }
        return success(body);
      });
    });
  }

  private subscriptionResponse(t: TransactionRecord): SubscriptionResponse {
    const amountMinor = t.details.subscription_amount_minor ?? t.amountMinor;
    return {
      transaction_id: t.id,
      subscription_status: this.subscriptionOf(t) ?? 'cancelled',
      subscription_plan_id: t.details.subscription_plan_id ?? null,
      amount: minorToAmount(amountMinor, exponentOf(t)),
      error_code: 0,
    };
  }
}
