/**
 * Payouts: money to a card, a bank account or a wallet (or back to the payer of an earlier a2a
 * payment), pending until the scheduled settlement (scheduled-steps.ts).
 */
import type { PayoutRequest, PayoutResponse } from '../../../contract/api/payments.js';
import { ErrorCode, statusName, TransactionStatus as S } from '../../../contract/codes.js';
import { apiError, failure, success, validationError, type Outcome } from '../errors.js';
import { normalizeIban } from '../mandates/mandates.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { TransactionRecord } from './ports.js';
import { PaymentEngine } from './engine.js';
import { CAPABILITIES, isPaymentType } from '../payment-methods/payment-types.js';
import { newRecord, withOtherErrors } from './records.js';
import { isCountryCode } from '../countries.js';
import { validatePayoutRequest } from './request.js';

export class Payouts extends PaymentEngine {
  async payout(operation: Operation, request: PayoutRequest): Promise<Outcome<PayoutResponse>> {
    const merchantId = operation.context.merchantId;
    const validated = validatePayoutRequest(request);
    const type = request.payment_type;
    let shopId: string | null = null;
    if (isPaymentType(type) && CAPABILITIES[type].payout) {
      // The merchant's (or the terminal's shop's) setting: enabled, currency, country, payouts on (D15).
      const method = await this.deps.store.read((r) => this.deps.methods.forTerminal(r, merchantId, request.pos_data?.terminal?.id, type));
      const refusal = this.deps.methods.refusal(method, {
        ...(typeof request.currency === 'string' ? { currency: request.currency } : {}),
        ...(typeof request.country === 'string' && isCountryCode(request.country) ? { country: request.country } : {}),
        capabilities: [{ name: 'payout', field: 'payment_type' }],
      });
      if (refusal) return failure(withOtherErrors(refusal, validated.ok ? [] : validated.errors));
      shopId = method.shopId;
    }
    if (!validated.ok) {
      return failure(
        validated.unsupported
          ? apiError(ErrorCode.paymentType, validated.unsupported, validated.errors)
          : validationError(validated.errors),
      );
    }
    const command = validated.command;
    // a2a: pay back the payer of an earlier a2a payment of the merchant (their account is known to the scheme).
    let original: TransactionRecord | undefined;
    if (request.original_transaction_id !== undefined) {
      original = await this.load(merchantId, request.original_transaction_id);
      const problem = !original
        ? 'no such transaction for this merchant'
        : original.paymentType !== 'a2a' || original.operation === 'payout'
          ? `is a ${original.paymentType} ${original.operation}: only the payer of an a2a payment can be paid back`
          : original.capturedMinor <= 0
            ? `is ${statusName(original.statusCode)}: nothing was paid, so there is no payer account to pay back`
            : undefined;
      if (problem) return failure(validationError([{ field: 'original_transaction_id', message: problem }]));
    }
    const now = this.deps.clock.now();
    const record = newRecord(this.deps.ids.newId(), command, merchantId, now);
    record.operation = 'payout';
    record.successUrl = null;
    record.errorUrl = null;
    if (shopId) record.details.shop_id = shopId;
    const recipient: Record<string, string> = {};
    for (const key of ['first_name', 'last_name', 'address', 'city', 'postal_code', 'email', 'account_holder'] as const) {
      const value = request[key];
      if (value !== undefined) recipient[key] = value;
    }
    if (original) {
      record.parentId = original.id;
      recipient.payer_of = original.id;
      if (original.details.wallet_account_reference !== undefined) recipient.account_reference = original.details.wallet_account_reference;
    }
    if (Object.keys(recipient).length) record.details.recipient = recipient;
    if (command.card) Object.assign(record, this.cardFields(command.card, false));
    if (request.iban) record.details.iban_last_four = normalizeIban(request.iban).slice(-4);
    const result = await this.callProcessor(() =>
      this.deps.processor.payout({
        reference: record.id,
        networkReference: null,
        amountMinor: command.amountMinor,
        currency: command.currency,
        method: command.type,
      }),
    );
    if (!result.ok) return result;
    if (result.value.outcome === 'approved') {
      record.statusCode = S.pending;
      record.message = 'Payout submitted';
      record.details.external_transaction_id = result.value.reference;
    } else {
      record.statusCode = S.declined;
      record.message = `${result.value.code} ${result.value.text}`;
      record.reasonCode = result.value.code;
    }
    const outcome = await operation.commit(this.deps.store, async (tx) => {
      await tx.transactions.insert(record);
      await this.logAndNotify(tx, record, { type: 'payout', amountMinor: record.amountMinor, executionDate: null });
      if (record.statusCode === S.pending) {
        await this.deps.scheduler.schedule(
          tx,
          'settle_payout',
          record.id,
          merchantId,
          new Date(now.getTime() + this.deps.settings.simDelayMs),
        );
      }
      return success({
        transaction_id: record.id,
        status_code: record.statusCode,
        status: statusName(record.statusCode),
        order_id: record.orderId,
        error_code: 0 as const,
      });
    });
    this.deps.scheduler.wake();
    return outcome;
  }
}
