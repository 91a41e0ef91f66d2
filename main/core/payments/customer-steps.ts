/**
 * The customer's steps on the hosted pages of a started transaction: card entry (cardecom,
 * register), the 3-D Secure challenge, the approval or cancellation on a wallet, a2a or bank page
 * (and of a subscription revision), and leaving a started payment for a new attempt.
 */
import { TransactionStatus as S } from '../../../contract/codes.js';
import type { PaymentType } from '../../../contract/constants.js';
import { failure, success, type Outcome } from '../errors.js';
import { defaultCvmLimitMinor } from '../payment-methods/catalog.js';
import { feesMinorOf } from '../payment-methods/resolution.js';
import type { CardData, CardDecision, DetailsChange, TransactionChange, TransactionDetails, TransactionRecord } from './ports.js';
import { notFound } from './records.js';
import { PaymentEngine, type CustomerStepResult } from './engine.js';
import { expiredError, processorDown, shopOf, stateError } from './records.js';
import { allowedFrom, type Trigger } from './state-machine.js';
import { exponentOf, transactionResponse } from './views.js';

export class CustomerSteps extends PaymentEngine {
  /** The customer entered card data on the hosted card page of a started cardecom payment or registration. */
  async submitCard(transactionId: string, card: CardData): Promise<Outcome<CustomerStepResult>> {
    return this.deps.locks.outcome(`transaction:${transactionId}`, async () => {
      const t = await this.deps.store.read((r) => r.transactions.getById(transactionId));
      if (!t) return failure(notFound(transactionId));
      if (t.statusCode !== S.started || t.details.awaiting !== 'card') return failure(stateError(t, 'enter a card for'));
      if (this.pastExpiry(t)) return failure(expiredError(t));
      return this.authorizeStarted(t, card, false);
    });
  }

  /** The customer finished the 3-D Secure challenge. */
  async completeChallenge(transactionId: string, passed: boolean): Promise<Outcome<CustomerStepResult>> {
    return this.deps.locks.outcome(`transaction:${transactionId}`, async () => {
      const t = await this.deps.store.read((r) => r.transactions.getById(transactionId));
      if (!t) return failure(notFound(transactionId));
      if (t.statusCode !== S.started || t.details.awaiting !== '3ds') return failure(stateError(t, 'complete 3-D Secure for'));
      if (this.pastExpiry(t)) return failure(expiredError(t));
      const card = this.openCard(t);
      if (!card) return failure(stateError(t, 'complete 3-D Secure for'));
      if (!passed) {
        const accountCheck = t.operation === 'register' || t.amountMinor === 0;
        return this.finishStarted(
          t,
          { outcome: 'declined', code: '05', text: 'Authentication failed' },
          card,
          accountCheck ? 'precheck' : 'authorization',
        );
      }
      return this.authorizeStarted(t, card, true);
    });
  }

  /** The customer approved, declined or cancelled on a wallet, a2a or bank page (or approved a subscription revision). */
  async completeRedirect(transactionId: string, answer: 'approved' | 'cancelled'): Promise<Outcome<CustomerStepResult>> {
    return this.deps.locks.outcome(`transaction:${transactionId}`, async () => {
      const t = await this.deps.store.read((r) => r.transactions.getById(transactionId));
      if (!t) return failure(notFound(transactionId));
      const now = this.nowIso();
      const revision = t.details.pending_revision;
      if (t.statusCode !== S.started && this.subscriptionOf(t) === 'approval_pending' && revision) {
        return this.deps.store.run(async (tx) => {
          const change: DetailsChange = { subscription_status: 'active', pending_revision: null };
          if (answer === 'approved') {
            change.subscription_amount_minor = revision.amount_minor;
            change.subscription_plan_id = revision.subscription_plan_id ?? null;
          }
          // One statement, only while the revision still waits (never the details as read, written back).
          if (!(await tx.transactions.changeSubscription(t.id, ['approval_pending'], change, now)))
            return failure(stateError(t, 'approve'));
          const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
          await this.appendEvent(tx, fresh, {
            type: 'reauthorization',
            status: fresh.statusCode,
            amountMinor: revision.amount_minor,
            executionDate: null,
            message: answer === 'approved' ? 'Customer approved the revision' : 'Customer rejected the revision',
          });
          return success(this.stepResult(fresh));
        });
      }
      if (t.statusCode !== S.started || t.details.awaiting !== 'approval') return failure(stateError(t, 'approve'));
      if (this.pastExpiry(t)) return failure(expiredError(t));
      return this.deps.store.run(async (tx) => {
        const details: TransactionDetails = { ...t.details };
        delete details.awaiting;
        let change: TransactionChange;
        let trigger: Trigger;
        if (answer === 'approved') {
          trigger = 'customer_completes';
          const authorizeOnly = t.operation === 'authorize';
          if (t.paymentType === 'a2a' || t.paymentType === 'wallet') {
            details.wallet_activity_reference = `ACT-${t.id.replace(/-/g, '').slice(-16).toUpperCase()}`;
            details.wallet_account_reference = `ACC-${t.merchantId.replace(/-/g, '').slice(-8).toUpperCase()}`;
          }
          if (t.paymentType === 'a2a') details.remittance_info = t.merchantReference ?? t.orderId ?? t.id;
          if (this.subscriptionOf(t) === 'approval_pending') {
            details.subscription_status = 'active';
            details.subscription_amount_minor = t.amountMinor;
          }
          change = {
            statusCode: authorizeOnly ? S.authorized : S.completed,
            message: 'Approved by the customer',
            authorizedMinor: t.amountMinor,
            capturedMinor: authorizeOnly ? 0 : t.amountMinor,
            feesMinor: feesMinorOf(
              await this.deps.methods.resolve(tx, t.merchantId, shopOf(t), t.paymentType as PaymentType),
              t.amountMinor,
              exponentOf(t),
            ),
            details,
            expiresAt: authorizeOnly
              ? new Date(this.deps.clock.now().getTime() + this.deps.settings.authorizationTtlMs).toISOString()
              : null,
          };
        } else {
          trigger = 'customer_cancels';
          if (this.subscriptionOf(t)) details.subscription_status = 'cancelled';
          change = { statusCode: S.cancelled, message: 'Cancelled by the customer', details, expiresAt: null };
        }
        if (!(await tx.transactions.transition(t.id, allowedFrom(trigger), change, now))) return failure(stateError(t, 'approve'));
        const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
        await this.logCreation(tx, fresh, answer === 'approved' ? 'authorization' : 'cancellation', null);
        await this.scheduleFollowUps(tx, fresh);
        return success(this.stepResult(fresh));
      });
    });
  }

  /**
   * The customer left a started payment to start another one for the same thing (an invoice's pay
   * page): it is cancelled, or expired when its time had already run out. A transaction that is no
   * longer started (completed or declined meanwhile) is left as it is. Answers it as it now stands.
   */
  async abandon(transactionId: string): Promise<TransactionRecord | undefined> {
    return this.deps.locks.with(`transaction:${transactionId}`, async () => {
      const outcome = await this.deps.store.run(async (tx) => {
        const t = await tx.transactions.getById(transactionId);
        if (!t || t.statusCode !== S.started) return t;
        const expired = this.pastExpiry(t);
        const details = { ...t.details };
        delete details.awaiting;
        if (this.subscriptionOf(t) === 'approval_pending') details.subscription_status = 'cancelled';
        const change: TransactionChange = expired
          ? { statusCode: S.expired, message: 'The customer did not finish in time', details, cardSealed: null, expiresAt: null }
          : {
              statusCode: S.cancelled,
              message: 'Cancelled by the customer: a new attempt was started',
              details,
              cardSealed: null,
              expiresAt: null,
            };
        if (
          !(await tx.transactions.transition(
            t.id,
            allowedFrom(expired ? 'customer_action_expiry' : 'customer_cancels'),
            change,
            this.nowIso(),
          ))
        ) {
          return tx.transactions.getById(transactionId);
        }
        const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
        await this.logAndNotify(tx, fresh, {
          type: expired ? 'expiry' : 'cancellation',
          amountMinor: expired ? 0 : fresh.amountMinor,
          executionDate: null,
        });
        return fresh;
      });
      this.deps.scheduler.wake();
      return outcome;
    });
  }

  private async authorizeStarted(t: TransactionRecord, card: CardData, authenticated: boolean): Promise<Outcome<CustomerStepResult>> {
    const accountCheck = t.operation === 'register' || t.amountMinor === 0;
    let decision: CardDecision;
    try {
      decision = await this.deps.processor.authorizeCard({
        reference: t.id,
        card,
        entry: 'ecommerce',
        amountMinor: accountCheck ? 0 : t.amountMinor,
        currency: t.currency,
        // E-commerce: no contactless CVM; the catalog default keeps the request complete.
        cvmLimitMinor: defaultCvmLimitMinor(t.currency),
        threeDSecureAuthenticated: authenticated,
      });
    } catch {
      return failure(processorDown());
    }
    return this.finishStarted(t, decision, card, accountCheck ? 'precheck' : 'authorization');
  }

  private async finishStarted(
    t: TransactionRecord,
    decision: CardDecision,
    card: CardData,
    eventType: string,
  ): Promise<Outcome<CustomerStepResult>> {
    const now = this.deps.clock.now();
    const next: TransactionRecord = {
      ...t,
      ...this.cardFields(card, t.recurring === 1 || t.operation === 'register'),
      details: { ...t.details },
    };
    const accountCheck = t.operation === 'register' || t.amountMinor === 0;
    await this.applyCardDecision(next, t.operation, decision, accountCheck, now);
    if (decision.outcome === 'challenge') {
      next.cardSealed = this.deps.vault.seal(JSON.stringify({ pan: card.pan, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear }));
    }
    const outcome = await this.deps.store.run(async (tx) => {
      next.feesMinor =
        !accountCheck && (next.statusCode === S.completed || next.statusCode === S.authorized)
          ? feesMinorOf(
              await this.deps.methods.resolve(tx, t.merchantId, shopOf(t), t.paymentType as PaymentType),
              t.amountMinor,
              exponentOf(t),
            )
          : 0;
      const change: TransactionChange = {
        statusCode: next.statusCode,
        message: next.message,
        reasonCode: next.reasonCode,
        authorizedMinor: next.authorizedMinor,
        capturedMinor: next.capturedMinor,
        feesMinor: next.feesMinor,
        cardBrand: next.cardBrand,
        cardLastFour: next.cardLastFour,
        cardBin: next.cardBin,
        cardExpiryMonth: next.cardExpiryMonth,
        cardExpiryYear: next.cardExpiryYear,
        cardSealed: next.cardSealed,
        cardFingerprint: next.cardFingerprint,
        details: next.details,
        expiresAt: next.expiresAt,
      };
      if (next.statusCode === S.started) {
        // Card entered, 3-D Secure still to come: same status, new step.
        await tx.transactions.transition(t.id, [S.started], change, now.toISOString());
      } else if (!(await tx.transactions.transition(t.id, allowedFrom('customer_completes'), change, now.toISOString()))) {
        return failure(stateError(t, 'complete'));
      }
      const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
      if (fresh.statusCode !== S.started) {
        await this.logCreation(tx, fresh, eventType, null);
        await this.scheduleFollowUps(tx, fresh);
      } else {
        await this.appendEvent(tx, fresh, {
          type: 'authorization',
          status: S.started,
          amountMinor: fresh.amountMinor,
          executionDate: null,
          message: '3-D Secure challenge',
        });
      }
      return success(this.stepResult(fresh));
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  private stepResult(t: TransactionRecord): CustomerStepResult {
    const response = transactionResponse(t);
    if (t.statusCode === S.started) return { transaction: response, redirectTo: response.action_data?.url ?? null };
    const ok = t.statusCode === S.completed || t.statusCode === S.authorized || t.statusCode === S.pending;
    const target = ok ? t.successUrl : t.errorUrl;
    if (!target) return { transaction: response, redirectTo: null };
    const url = new URL(target);
    url.searchParams.set('transaction_id', t.id);
    // A payment started on a checkout page returns with its session, as every checkout return does.
    if (t.details.checkout_id !== undefined) url.searchParams.set('checkout_id', t.details.checkout_id);
    return { transaction: response, redirectTo: url.toString() };
  }
}
