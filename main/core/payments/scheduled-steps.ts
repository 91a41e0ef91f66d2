/**
 * The scheduled steps of payments (run by the Scheduler): a direct debit settles or comes back, a
 * payout is paid out, and a customer step or an authorization that ran out expires.
 */
import { TransactionStatus as S } from '../../../contract/codes.js';
import type { ScheduledTask } from '../kernel.js';
import type { TransactionChange, TransactionRecord } from './ports.js';
import { PaymentEngine } from './engine.js';
import { allowedFrom, type Trigger } from './state-machine.js';

export class ScheduledSteps extends PaymentEngine {
  async settleDebit(task: ScheduledTask): Promise<void> {
    const t = await this.load(task.merchantId, task.subjectId);
    if (!t || t.statusCode !== S.pending) return;
    const mandate = t.sepaMandate
      ? await this.deps.store.read((r) => r.mandates.findByReference(t.merchantId, t.sepaMandate as string))
      : undefined;
    const iban = mandate ? this.deps.vault.open(mandate.ibanSealed) : '';
    const result = await this.deps.processor.directDebitResult({
      reference: t.id,
      iban,
      bic: mandate?.bic ?? null,
      mandateReference: t.sepaMandate ?? '',
      b2b: t.paymentType === 'dd_b2b',
      amountMinor: t.amountMinor,
      currency: t.currency,
    });
    await this.deps.store.run(async (tx) => {
      const settled = result.outcome === 'settled';
      const change: TransactionChange = settled
        ? { statusCode: S.completed, message: 'Settled', capturedMinor: t.amountMinor }
        : { statusCode: S.chargeback, message: `${result.code} ${result.text}`, reasonCode: result.code };
      if (!(await tx.transactions.transition(t.id, allowedFrom(settled ? 'settle' : 'return'), change, this.nowIso()))) return;
      const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
      await this.logAndNotify(tx, fresh, { type: settled ? 'capture' : 'return', amountMinor: t.amountMinor, executionDate: null });
    });
  }

  async settlePayout(task: ScheduledTask): Promise<void> {
    await this.deps.store.run(async (tx) => {
      const t = await tx.transactions.get(task.merchantId, task.subjectId);
      if (!t) return;
      if (
        !(await tx.transactions.transition(
          t.id,
          allowedFrom('payout_settles'),
          { statusCode: S.completed, message: 'Paid out', capturedMinor: t.amountMinor },
          this.nowIso(),
        ))
      )
        return;
      const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
      await this.logAndNotify(tx, fresh, { type: 'payout', amountMinor: t.amountMinor, executionDate: null });
    });
  }

  async expire(task: ScheduledTask, trigger: Trigger, message: string): Promise<void> {
    await this.deps.store.run(async (tx) => {
      const t = await tx.transactions.get(task.merchantId, task.subjectId);
      if (!t) return;
      // The customer's time was extended after this task was planned (card entered, 3-D Secure
      // next: a new hour): expire at the new time, not now.
      if (t.expiresAt !== null && t.expiresAt > this.nowIso()) {
        await this.deps.scheduler.schedule(tx, task.kind, t.id, t.merchantId, new Date(t.expiresAt));
        return;
      }
      const details = { ...t.details };
      delete details.awaiting;
      if (this.subscriptionOf(t) === 'approval_pending') details.subscription_status = 'cancelled';
      // An expired authorization was approved, so its saved card stays usable; a customer action that
      // ran out (e.g. a 3-D Secure challenge never finished) never approved its card.
      const keepCard = trigger === 'authorization_expiry' && t.recurring === 1;
      const change: TransactionChange = {
        statusCode: S.expired,
        message,
        details,
        cardSealed: keepCard ? t.cardSealed : null,
        expiresAt: null,
      };
      if (!(await tx.transactions.transition(t.id, allowedFrom(trigger), change, this.nowIso()))) return;
      const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
      await this.logAndNotify(tx, fresh, { type: 'expiry', amountMinor: 0, executionDate: null });
    });
  }
}
