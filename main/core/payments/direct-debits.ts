/**
 * SEPA direct debits (dd, dd_b2b): with a stored mandate or a new one from the request's IBAN,
 * submitted to the processor, pending until the scheduled settlement (scheduled-steps.ts).
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { TransactionResponse } from '../../../contract/api/payments.js';
import { TransactionStatus as S } from '../../../contract/codes.js';
import { failure, success, validationError, type Outcome } from '../errors.js';
import { ibanProblem, normalizeIban } from '../mandates/mandates.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { MandateRecord } from '../mandates/ports.js';
import type { TransactionRecord } from './ports.js';
import { feesMinorOf, type EffectiveMethod } from '../payment-methods/resolution.js';
import { PaymentEngine } from './engine.js';
import { newRecord, processorDown } from './records.js';
import type { PaymentCommand } from './request.js';
import { transactionResponse } from './views.js';

export class DirectDebits extends PaymentEngine {
  async createDirectDebit(
    operation: Operation,
    command: PaymentCommand,
    method: EffectiveMethod,
    original?: TransactionRecord,
  ): Promise<Outcome<TransactionResponse>> {
    const merchantId = operation.context.merchantId;
    const errors: FieldError[] = [];
    const b2b = command.type === 'dd_b2b';
    let mandate: MandateRecord | undefined;
    if (command.sepaMandate) {
      mandate = await this.deps.store.read((r) => r.mandates.findByReference(merchantId, command.sepaMandate as string));
      if (!mandate) errors.push({ field: 'sepa_mandate', message: 'no such mandate for this merchant (create a mandate reference first)' });
      else if (b2b && mandate.paymentType !== 'dd_b2b')
        errors.push({ field: 'sepa_mandate', message: 'dd_b2b needs a B2B mandate (created with payment_type dd_b2b)' });
    } else if (b2b) {
      errors.push({ field: 'sepa_mandate', message: 'is required for dd_b2b: create a B2B mandate reference first' });
    }
    let iban: string | undefined;
    if (command.sepa) {
      const problem = ibanProblem(command.sepa.iban);
      if (problem) errors.push({ field: 'iban', message: problem });
      else iban = normalizeIban(command.sepa.iban);
    }
    if (mandate && iban && this.deps.vault.open(mandate.ibanSealed) !== iban) {
      errors.push({ field: 'iban', message: 'differs from the IBAN of the mandate' });
    }
    if (errors.length) return failure(validationError(errors));
    iban ??= mandate ? this.deps.vault.open(mandate.ibanSealed) : undefined;
    if (!iban) return failure(validationError([{ field: 'iban', message: 'is required' }]));

    const now = this.deps.clock.now();
    const record = newRecord(this.deps.ids.newId(), command, merchantId, now);
    if (original) record.parentId = original.id;
    const bic = command.sepa?.bic ?? mandate?.bic ?? null;
    const plannedReference = mandate?.reference ?? '(new)';
    let submission;
    try {
      submission = await this.deps.processor.submitDirectDebit({
        reference: record.id,
        iban,
        bic,
        mandateReference: plannedReference,
        b2b,
        amountMinor: command.amountMinor,
        currency: command.currency,
      });
    } catch {
      return failure(processorDown());
    }
    record.details.iban_last_four = iban.slice(-4);
    const outcome = await operation.commit(this.deps.store, async (tx) => {
      // A unit may run again (a serialization retry on PostgreSQL): the mandate it creates is its own.
      let used = mandate;
      if (!used && command.sepa) {
        used = await this.deps.mandates.createIn(
          tx,
          merchantId,
          {
            payment_type: 'dd',
            account_holder: command.sepa.accountHolder,
            iban,
            ...(bic ? { bic } : {}),
            recurring: command.recurring,
            ...(command.customer.first_name ? { first_name: command.customer.first_name } : {}),
            ...(command.customer.last_name ? { last_name: command.customer.last_name } : {}),
            ...(command.customer.email ? { email: command.customer.email } : {}),
          },
          now,
        );
      }
      record.sepaMandate = used?.reference ?? null;
      if (submission.outcome === 'accepted') {
        record.statusCode = S.pending;
        record.message = 'Submitted; settles after the debit date';
        record.sepaMsgId = submission.messageId;
        record.authorizedMinor = record.amountMinor;
        record.feesMinor = feesMinorOf(method, command.amountMinor, command.exponent);
      } else {
        record.statusCode = S.declined;
        record.message = `${submission.code} ${submission.text}`;
        record.reasonCode = submission.code;
      }
      await tx.transactions.insert(record);
      await this.logAndNotify(tx, record, { type: 'authorization', amountMinor: record.amountMinor, executionDate: command.executionDate });
      if (record.statusCode === S.pending) {
        await this.deps.scheduler.schedule(
          tx,
          'settle_debit',
          record.id,
          merchantId,
          new Date(now.getTime() + this.deps.settings.simDelayMs),
        );
      }
      return success(transactionResponse(record));
    });
    this.deps.scheduler.wake();
    return outcome;
  }
}
