/**
 * The payments engine: payment, authorize, register, capture, reverse, refund, payout, and the
 * customer steps of redirect flows (card entry, 3-D Secure, wallet/bank approval). Each state
 * change is one unit of work holding the transaction change, its event-log entry, the postback
 * outbox record, any scheduled follow-up and the idempotency record. Processor calls happen
 * before that unit, never inside it.
 *
 * This class is the facade the routes, checkouts and invoices use; each use case lives in its own
 * file on the shared PaymentEngine (engine.ts): creation.ts with card-payments.ts and
 * direct-debits.ts, follow-ups.ts, payouts.ts, subscriptions.ts, customer-steps.ts and
 * scheduled-steps.ts.
 */
import type {
  CaptureRequest,
  CaptureResponse,
  PaymentRequest,
  PayoutRequest,
  PayoutResponse,
  RefundRequest,
  RefundResponse,
  ReverseRequest,
  ReverseResponse,
  SubscriptionRequest,
  SubscriptionResponse,
  TransactionResponse,
} from '../../../contract/api/payments.js';
import type { Outcome } from '../errors.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { CardData, TransactionRecord } from './ports.js';
import { CardPayments } from './card-payments.js';
import { Creation, type CreationExtras } from './creation.js';
import { CustomerSteps } from './customer-steps.js';
import { DirectDebits } from './direct-debits.js';
import type { CustomerStepResult, PaymentsDeps, TransactionListener } from './engine.js';
import { FollowUps } from './follow-ups.js';
import { Payouts } from './payouts.js';
import type { PaymentOperation } from './request.js';
import { ScheduledSteps } from './scheduled-steps.js';
import { Subscriptions } from './subscriptions.js';

export { TEST_PIN_KEY } from './card-payments.js';
export {
  DEFAULT_PAYMENT_SETTINGS,
  type CustomerStepResult,
  type PaymentSettings,
  type PaymentsDeps,
  type TransactionListener,
} from './engine.js';

export class Payments {
  private readonly listeners: TransactionListener[] = [];
  private readonly cards: CardPayments;
  private readonly creation: Creation;
  private readonly followUps: FollowUps;
  private readonly payouts: Payouts;
  private readonly subscriptions: Subscriptions;
  private readonly customerSteps: CustomerSteps;

  constructor(private readonly deps: PaymentsDeps) {
    const listeners = this.listeners;
    this.cards = new CardPayments(deps, listeners);
    this.creation = new Creation(deps, listeners, this.cards, new DirectDebits(deps, listeners));
    this.followUps = new FollowUps(deps, listeners);
    this.payouts = new Payouts(deps, listeners);
    this.subscriptions = new Subscriptions(deps, listeners);
    this.customerSteps = new CustomerSteps(deps, listeners);
    const scheduled = new ScheduledSteps(deps, listeners);
    deps.scheduler.register('settle_debit', (task) => scheduled.settleDebit(task));
    deps.scheduler.register('settle_payout', (task) => scheduled.settlePayout(task));
    deps.scheduler.register('expire_customer_action', (task) =>
      scheduled.expire(task, 'customer_action_expiry', 'The customer did not finish in time'),
    );
    deps.scheduler.register('expire_authorization', (task) =>
      scheduled.expire(task, 'authorization_expiry', 'The authorization was not captured in time'),
    );
  }

  /** Listeners run inside the unit of work of every logged transaction change (e.g. checkout sessions). */
  onTransactionChange(listener: TransactionListener): void {
    this.listeners.push(listener);
  }

  // ---- creation (creation.ts, card-payments.ts, direct-debits.ts) ----------------------------

  /** A payment, authorization or registration; `extras.details` links it to the feature that started it. */
  create(
    operation: Operation,
    kind: PaymentOperation,
    request: PaymentRequest,
    extras: CreationExtras = {},
  ): Promise<Outcome<TransactionResponse>> {
    return this.creation.create(operation, kind, request, extras);
  }

  /**
   * Test environment fault injection (the lost-answer test card): the answer to this card-present
   * payment request never reaches the till. The HTTP layer drops the connection instead of answering.
   */
  dropsTerminalAnswer(body: unknown): boolean {
    return this.cards.dropsTerminalAnswer(body);
  }

  // ---- follow-ups (follow-ups.ts) and payouts (payouts.ts) ----------------------------------

  capture(operation: Operation, request: CaptureRequest): Promise<Outcome<CaptureResponse>> {
    return this.followUps.capture(operation, request);
  }

  reverse(operation: Operation, request: ReverseRequest): Promise<Outcome<ReverseResponse>> {
    return this.followUps.reverse(operation, request);
  }

  refund(operation: Operation, request: RefundRequest): Promise<Outcome<RefundResponse>> {
    return this.followUps.refund(operation, request);
  }

  payout(operation: Operation, request: PayoutRequest): Promise<Outcome<PayoutResponse>> {
    return this.payouts.payout(operation, request);
  }

  // ---- wallet subscriptions (subscriptions.ts) -----------------------------------------------

  cancelSubscription(operation: Operation, request: SubscriptionRequest): Promise<Outcome<SubscriptionResponse>> {
    return this.subscriptions.cancelSubscription(operation, request);
  }

  reviseSubscription(operation: Operation, request: SubscriptionRequest): Promise<Outcome<SubscriptionResponse>> {
    return this.subscriptions.reviseSubscription(operation, request);
  }

  // ---- customer steps on the hosted pages (customer-steps.ts) --------------------------------

  /** The customer entered card data on the hosted card page of a started cardecom payment or registration. */
  submitCard(transactionId: string, card: CardData): Promise<Outcome<CustomerStepResult>> {
    return this.customerSteps.submitCard(transactionId, card);
  }

  /** The customer finished the 3-D Secure challenge. */
  completeChallenge(transactionId: string, passed: boolean): Promise<Outcome<CustomerStepResult>> {
    return this.customerSteps.completeChallenge(transactionId, passed);
  }

  /** The customer approved, declined or cancelled on a wallet, a2a or bank page (or approved a subscription revision). */
  completeRedirect(transactionId: string, answer: 'approved' | 'cancelled'): Promise<Outcome<CustomerStepResult>> {
    return this.customerSteps.completeRedirect(transactionId, answer);
  }

  /** The customer left a started payment for a new attempt: cancelled (or expired); answers it as it now stands. */
  abandon(transactionId: string): Promise<TransactionRecord | undefined> {
    return this.customerSteps.abandon(transactionId);
  }
}
