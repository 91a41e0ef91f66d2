/**
 * What every payment use case shares (creation, card payments, direct debits, follow-ups, payouts,
 * subscriptions, customer steps, scheduled steps): their dependencies and settings, and the steps
 * of a unit of work they all take (the event-log entry, the listeners, the postback in the outbox,
 * the scheduled follow-ups), the card fields they store and the processor call that answers 5001
 * instead of throwing. Each use case extends it; payments.ts is the facade the rest of the gateway uses.
 */
import type { TransactionResponse } from '../../../contract/api/payments.js';
import { cardBrand } from '../../../contract/cards.js';
import { TransactionStatus as S } from '../../../contract/codes.js';
import type { PaymentType } from '../../../contract/constants.js';
import type { ApiError } from '../errors.js';
import type { OperationLocks } from '../locks.js';
import type { Mandates } from '../mandates/mandates.js';
import type { PaymentMethods } from '../payment-methods/payment-methods.js';
import type { CardData, CardDecision, EventRecord, PaymentsUnit, Processor, SubscriptionStatus, TransactionRecord } from './ports.js';
import type { Clock, Ids, Logger, Vault } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { Scheduler } from '../scheduler.js';
import type { TokenCryptograms } from '../network-tokens/network-tokens.js';
import { processorDown, shopOf } from './records.js';
import { transactionPostback } from './views.js';

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

export interface PaymentSettings {
  /** Duration of every simulated asynchronous step (settlement, payout). */
  simDelayMs: number;
  customerActionTtlMs: number;
  authorizationTtlMs: number;
  /**
   * How long a sale's configuration reads may be used again at most, should a change never be
   * heard of (ConfigurationCache); 0: read for every sale.
   */
  configurationCacheMs: number;
}

export const DEFAULT_PAYMENT_SETTINGS: PaymentSettings = {
  simDelayMs: 5000,
  customerActionTtlMs: HOUR,
  authorizationTtlMs: 7 * DAY,
  configurationCacheMs: 1000,
};

export interface PaymentsDeps {
  store: Store<PaymentsUnit>;
  clock: Clock;
  ids: Ids;
  vault: Vault;
  processor: Processor;
  scheduler: Scheduler;
  mandates: Mandates;
  /** One money movement at a time per transaction, across instances (key `transaction:<id>`). */
  locks: OperationLocks;
  logger: Logger;
  settings: PaymentSettings;
  /** The merchant's and shops' payment-method settings (D15): what is enabled, fees, the CVM limit. */
  methods: PaymentMethods;
  /** Network tokens (D12): a cardecom payment with a token number needs its single-use cryptogram. */
  tokenCryptograms?: TokenCryptograms;
  /**
   * Receipts (D16): whether the merchant's printer prints each approved card-present sale, read with
   * the sale's other reads before its unit of work (no read inside the unit: on PostgreSQL the unit
   * then leaves in one write with its COMMIT).
   */
  autoPrints?: (repos: PaymentsUnit, merchantId: string) => Promise<boolean>;
  /** Receipts (D16): called in the unit of work of an approved card-present sale that `autoPrints` (the print job). */
  cardPresentApproved?: (tx: PaymentsUnit, sale: TransactionRecord) => Promise<void>;
}

/** What a hosted page shows after a customer step, and where it sends the customer. */
export interface CustomerStepResult {
  transaction: TransactionResponse;
  /** Next page of the flow (3-D Secure), or the merchant's success/error URL, or null. */
  redirectTo: string | null;
}

export type TransactionListener = (tx: PaymentsUnit, transaction: TransactionRecord) => Promise<void>;

interface Sealable {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
}

export abstract class PaymentEngine {
  constructor(
    protected readonly deps: PaymentsDeps,
    /** Run inside the unit of work of every logged transaction change (payments.ts adds them). */
    private readonly listeners: readonly TransactionListener[],
  ) {}

  protected async load(merchantId: string, id: string): Promise<TransactionRecord | undefined> {
    return this.deps.store.read((r) => r.transactions.get(merchantId, id));
  }

  protected nowIso(): string {
    return this.deps.clock.now().toISOString();
  }

  /** A started transaction whose customer time ran out, before the scheduler got to it. */
  protected pastExpiry(t: TransactionRecord): boolean {
    return t.expiresAt !== null && t.expiresAt <= this.nowIso();
  }

  protected subscriptionOf(t: TransactionRecord): SubscriptionStatus | undefined {
    return t.details.subscription_status;
  }

  protected networkReference(t: TransactionRecord): string | null {
    return t.details.external_transaction_id ?? null;
  }

  protected cardFields(card: CardData, keep: boolean): Partial<TransactionRecord> {
    const sealable: Sealable = { pan: card.pan, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear };
    return {
      cardBrand: cardBrand(card.pan),
      cardLastFour: card.pan.slice(-4),
      cardBin: card.pan.slice(0, 6),
      cardExpiryMonth: card.expiryMonth,
      cardExpiryYear: card.expiryYear,
      cardFingerprint: this.deps.vault.fingerprint(card.pan),
      cardSealed: keep ? this.deps.vault.seal(JSON.stringify(sealable)) : null,
    };
  }

  protected openCard(t: TransactionRecord): CardData | undefined {
    if (!t.cardSealed) return undefined;
    const parsed = JSON.parse(this.deps.vault.open(t.cardSealed)) as Sealable;
    return { pan: parsed.pan, expiryMonth: parsed.expiryMonth, expiryYear: parsed.expiryYear };
  }

  /** Sets status, message and amounts of a new or started transaction from a card decision. */
  protected async applyCardDecision(
    record: TransactionRecord,
    kind: string,
    decision: CardDecision,
    accountCheck: boolean,
    now: Date,
  ): Promise<void> {
    record.details = { ...record.details };
    delete record.details.awaiting;
    switch (decision.outcome) {
      case 'approved':
        record.message = accountCheck ? 'Account verified' : 'Approved';
        record.details.authorization_code = decision.authorizationCode;
        record.details.external_transaction_id = decision.networkReference;
        if (accountCheck) {
          record.statusCode = S.completed;
          if (kind === 'register') record.recurring = 1;
        } else if (kind === 'authorize') {
          record.statusCode = S.authorized;
          record.authorizedMinor = record.amountMinor;
          record.expiresAt = new Date(now.getTime() + this.deps.settings.authorizationTtlMs).toISOString();
        } else {
          record.statusCode = S.completed;
          record.authorizedMinor = record.amountMinor;
          record.capturedMinor = record.amountMinor;
        }
        break;
      case 'declined':
        record.statusCode = S.declined;
        record.message = `${decision.code} ${decision.text}`;
        record.reasonCode = decision.code;
        record.cardSealed = null;
        break;
      case 'pin_required':
        record.statusCode = S.declined;
        record.message = 'request_pin';
        record.reasonCode = '1A';
        record.details.pin_required = { insert_card: decision.insertCard };
        record.cardSealed = null;
        break;
      case 'challenge':
        record.statusCode = S.started;
        record.message = '3-D Secure challenge';
        record.details.awaiting = '3ds';
        record.expiresAt = new Date(now.getTime() + this.deps.settings.customerActionTtlMs).toISOString();
        record.details.client_action = {
          client_action: 'redirect',
          action_data: { url: this.deps.processor.redirectUrl('threeds', record.id) },
        };
        break;
      case 'error':
        record.statusCode = S.error;
        record.message = decision.text;
        record.cardSealed = null;
        break;
    }
  }

  /** 1004 when the merchant's or shop's setting switched a capability of the transaction's type off (D15). */
  protected async capabilityRefusal(t: TransactionRecord, name: 'partial_refund' | 'partial_reversal'): Promise<ApiError | undefined> {
    const method = await this.deps.store.read((r) => this.deps.methods.resolve(r, t.merchantId, shopOf(t), t.paymentType as PaymentType));
    return this.deps.methods.refusal(method, { capabilities: [{ name, field: 'amount' }] }, { existingTransaction: true });
  }

  protected async callProcessor<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: ApiError }> {
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      this.deps.logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'processor call failed');
      return { ok: false, error: processorDown() };
    }
  }

  protected async appendEvent(
    tx: PaymentsUnit,
    t: TransactionRecord,
    event: { id?: string; type: string; status: number; amountMinor: number; executionDate: string | null; message: string | null },
  ): Promise<void> {
    await tx.events.append(this.eventRecord(t, event));
  }

  private eventRecord(
    t: TransactionRecord,
    event: { id?: string; type: string; status: number; amountMinor: number; executionDate: string | null; message: string | null },
  ): EventRecord {
    return {
      id: event.id ?? this.deps.ids.newId(),
      transactionId: t.id,
      type: event.type,
      status: event.status,
      amountMinor: event.amountMinor,
      executionDate: event.executionDate,
      message: event.message,
      createdAt: this.nowIso(),
    };
  }

  /** Event-log entry plus, when the transaction has a postback URL, a postback in the outbox (D2). */
  protected async logAndNotify(
    tx: PaymentsUnit,
    t: TransactionRecord,
    event: { id?: string; type: string; amountMinor: number; executionDate: string | null; message?: string | null; status?: number },
  ): Promise<void> {
    await this.appendEvent(tx, t, {
      ...(event.id !== undefined ? { id: event.id } : {}),
      type: event.type,
      status: event.status ?? t.statusCode,
      amountMinor: event.amountMinor,
      executionDate: event.executionDate,
      message: event.message === undefined ? t.message : event.message,
    });
    await this.notify(tx, t);
  }

  /** The listeners and, when the transaction has a postback URL, a postback in the outbox (D2). */
  private async notify(tx: PaymentsUnit, t: TransactionRecord): Promise<void> {
    for (const listener of this.listeners) await listener(tx, t);
    if (!t.postbackUrl) return;
    const now = this.nowIso();
    await tx.outbox.append({
      id: this.deps.ids.newId(),
      merchantId: t.merchantId,
      subjectType: 'transaction',
      subjectId: t.id,
      orderId: t.orderId,
      url: t.postbackUrl,
      payload: transactionPostback(t),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
  }

  protected async logCreation(tx: PaymentsUnit, record: TransactionRecord, eventType: string, executionDate: string | null): Promise<void> {
    const oneStep = record.operation === 'payment' && record.statusCode === S.completed && record.capturedMinor > 0;
    if (oneStep) {
      // Authorization and capture in one statement (one fewer per sale, a round trip on PostgreSQL).
      await tx.events.appendPair(
        this.eventRecord(record, {
          type: eventType,
          status: S.authorized,
          amountMinor: record.amountMinor,
          executionDate,
          message: record.message,
        }),
        this.eventRecord(record, {
          type: 'capture',
          status: record.statusCode,
          amountMinor: record.capturedMinor,
          executionDate,
          message: record.message,
        }),
      );
      await this.notify(tx, record);
    } else {
      await this.logAndNotify(tx, record, { type: eventType, amountMinor: record.amountMinor, executionDate });
    }
  }

  /** Schedules the expiry of an authorization or a customer step; true when it scheduled one (wake the scheduler after the commit). */
  protected async scheduleFollowUps(tx: PaymentsUnit, record: TransactionRecord): Promise<boolean> {
    if (record.statusCode === S.authorized && record.expiresAt) {
      await this.deps.scheduler.schedule(tx, 'expire_authorization', record.id, record.merchantId, new Date(record.expiresAt));
      return true;
    }
    if (record.statusCode === S.started && record.expiresAt) {
      await this.deps.scheduler.schedule(tx, 'expire_customer_action', record.id, record.merchantId, new Date(record.expiresAt));
      return true;
    }
    return false;
  }
}
