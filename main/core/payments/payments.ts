/**
 * The payments engine: payment, authorize, register, capture, reverse, refund, payout, and the
 * customer steps of redirect flows (card entry, 3-D Secure, wallet/bank approval). Each state
 * change is one unit of work holding the transaction change, its event-log entry, the postback
 * outbox record, any scheduled follow-up and the idempotency record. Processor calls happen
 * before that unit, never inside it.
 */
import type { FieldError } from '../../../contract/api/common.js';
import type {
  CaptureRequest,
  CaptureResponse,
  PaymentRequest,
  PayoutRequest,
  PayoutResponse,
  PosCard,
  RefundRequest,
  RefundResponse,
  ReverseRequest,
  ReverseResponse,
  SubscriptionRequest,
  SubscriptionResponse,
  TransactionResponse,
} from '../../../contract/api/payments.js';
import { cardBrand } from '../../../contract/cards.js';
import { ErrorCode, RefundStatus, refundStatusName, statusName, TransactionStatus as S } from '../../../contract/codes.js';
import { PIN_TRIES, type PaymentType } from '../../../contract/constants.js';
import { minorToAmount, minorToText } from '../../../contract/money.js';
import { apiError, failure, success, validationError, type ApiError, type Outcome } from '../errors.js';
import type { KeyedLock } from '../locks.js';
import { ibanProblem, normalizeIban, type Mandates } from '../mandates/mandates.js';
import type { Operation } from '../operations.js';
import type {
  CardData,
  CardDecision,
  Clock,
  EncryptedPin,
  Ids,
  Logger,
  MandateRecord,
  Processor,
  Repositories,
  ScheduledTask,
  Store,
  SubscriptionStatus,
  TransactionChange,
  TransactionDetails,
  TransactionRecord,
  Vault,
} from '../ports.js';
import type { Scheduler } from '../scheduler.js';
import type { TokenCryptograms } from '../tokens/network-tokens.js';
import { notFound } from '../transactions/queries.js';
import { cardFromPos } from './card-input.js';
import { defaultCvmLimitMinor } from '../payment-methods/catalog.js';
import type { MethodRequirement, PaymentMethods } from '../payment-methods/payment-methods.js';
import { cvmLimitMinorOf, feesMinorOf, type EffectiveMethod } from '../payment-methods/resolution.js';
import { CAPABILITIES, CARD_TYPES, isPaymentType } from './payment-types.js';
import {
  isCountryCode,
  parseAmount,
  validateCommonFields,
  validatePaymentRequest,
  validatePayoutRequest,
  type PaymentCommand,
  type PaymentOperation,
} from './request.js';
import { allowedFrom, type Trigger } from './state-machine.js';
import { cardSummary, exponentOf, transactionPostback, transactionResponse } from './views.js';

/** The decline of a token payment whose cryptogram is missing, forged, used or expired (D12). */
const INVALID_CRYPTOGRAM: CardDecision = { outcome: 'declined', code: '05', text: 'Invalid cryptogram' };

/** The published test PIN key every merchant starts with (decisions.md D3). */
export const TEST_PIN_KEY = { zoneId: 'test', keyId: '1', keyHex: '0123456789ABCDEFFEDCBA9876543210' } as const;

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export interface PaymentSettings {
  /** Duration of every simulated asynchronous step (settlement, payout). */
  simDelayMs: number;
  customerActionTtlMs: number;
  authorizationTtlMs: number;
}

export const DEFAULT_PAYMENT_SETTINGS: PaymentSettings = {
  simDelayMs: 5000,
  customerActionTtlMs: HOUR,
  authorizationTtlMs: 7 * DAY,
};

export interface PaymentsDeps {
  store: Store;
  clock: Clock;
  ids: Ids;
  vault: Vault;
  processor: Processor;
  scheduler: Scheduler;
  mandates: Mandates;
  locks: KeyedLock;
  logger: Logger;
  settings: PaymentSettings;
  /** The merchant's and shops' payment-method settings (D15): what is enabled, fees, the CVM limit. */
  methods: PaymentMethods;
  /** Network tokens (D12): a cardecom payment with a token number needs its single-use cryptogram. */
  tokenCryptograms?: TokenCryptograms;
  /** Receipts (D16): called in the unit of work of an approved card-present sale (auto-print). */
  cardPresentApproved?: (tx: Repositories, sale: TransactionRecord) => Promise<void>;
}

/** What a hosted page shows after a customer step, and where it sends the customer. */
export interface CustomerStepResult {
  transaction: TransactionResponse;
  /** Next page of the flow (3-D Secure), or the merchant's success/error URL, or null. */
  redirectTo: string | null;
}

interface Sealable {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
}

function processorDown(): ApiError {
  return apiError(ErrorCode.processor, 'The processor is unavailable; nothing was changed. Retry later with the same idempotency key.');
}

function expiredError(t: TransactionRecord): ApiError {
  return apiError(ErrorCode.invalidState, 'The time for this payment has run out', [{ field: 'transaction_id', message: `expired at ${t.expiresAt ?? ''}` }]);
}

/** What a payment request needs of its method's setting (D15): currency, the customer's country, capabilities. */
function requirementOf(kind: PaymentOperation, request: PaymentRequest): MethodRequirement {
  const capabilities: NonNullable<MethodRequirement['capabilities']> = [];
  if (kind === 'register') capabilities.push({ name: 'recurring', field: 'payment_type' });
  if (request.recurring === 1) capabilities.push({ name: 'recurring', field: 'recurring' });
  if (request.original_transaction_id !== undefined) capabilities.push({ name: 'recurring', field: 'original_transaction_id' });
  if (request.subscription_plan_id !== undefined) capabilities.push({ name: 'subscription', field: 'subscription_plan_id' });
  return {
    ...(typeof request.currency === 'string' ? { currency: request.currency } : {}),
    ...(typeof request.country === 'string' && isCountryCode(request.country) ? { country: request.country } : {}),
    capabilities,
  };
}

/** A refusal (1004) naming also the other bad fields the validation found. */
function withOtherErrors(refusal: ApiError, others: readonly FieldError[]): ApiError {
  return { ...refusal, errors: [...refusal.errors, ...others.filter((e) => !refusal.errors.some((r) => r.field === e.field))] };
}

/** The shop a stored transaction belongs to (its terminal's at the time of the payment). */
function shopOf(t: TransactionRecord): string | null {
  return t.details.shop_id ?? null;
}

function stateError(t: TransactionRecord, action: string): ApiError {
  return apiError(ErrorCode.invalidState, `Cannot ${action} a transaction that is ${statusName(t.statusCode)}`, [
    { field: 'transaction_id', message: `is ${statusName(t.statusCode)}` },
  ]);
}

export type TransactionListener = (tx: Repositories, transaction: TransactionRecord) => Promise<void>;

export class Payments {
  private readonly listeners: TransactionListener[] = [];

  constructor(private readonly deps: PaymentsDeps) {
    deps.scheduler.register('settle_debit', (task) => this.settleDebit(task));
    deps.scheduler.register('settle_payout', (task) => this.settlePayout(task));
    deps.scheduler.register('expire_customer_action', (task) => this.expire(task, 'customer_action_expiry', 'The customer did not finish in time'));
    deps.scheduler.register('expire_authorization', (task) => this.expire(task, 'authorization_expiry', 'The authorization was not captured in time'));
  }

  // ---- creation ------------------------------------------------------------------------------

  /** Listeners run inside the unit of work of every logged transaction change (e.g. checkout sessions). */
  onTransactionChange(listener: TransactionListener): void {
    this.listeners.push(listener);
  }

  async create(
    operation: Operation,
    kind: PaymentOperation,
    request: PaymentRequest,
    extras: { details?: TransactionDetails; followedInternally?: boolean } = {},
  ): Promise<Outcome<TransactionResponse>> {
    const validated = validatePaymentRequest(kind, request, { followedInternally: extras.followedInternally === true });
    const merchantId = operation.context.merchantId;
    // The merchant's (or the terminal's shop's) setting of the type: enabled, currencies, countries, capabilities (D15).
    let setting: EffectiveMethod | undefined;
    if (isPaymentType(request.payment_type)) {
      const type = request.payment_type;
      setting = await this.deps.store.read((r) => this.deps.methods.forTerminal(r, merchantId, request.pos_data?.terminal?.id, type));
      const refusal = this.deps.methods.refusal(setting, requirementOf(kind, request));
      if (refusal) return failure(withOtherErrors(refusal, validated.ok ? [] : validated.errors));
    }
    if (!validated.ok) {
      return failure(validated.unsupported ? apiError(ErrorCode.paymentType, validated.unsupported, validated.errors) : validationError(validated.errors));
    }
    const command = validated.command;
    if (extras.details) command.extraDetails = extras.details;
    if (setting?.shopId) command.extraDetails = { ...command.extraDetails, shop_id: setting.shopId };
    const effective = setting as EffectiveMethod;

    if (command.originalTransactionId) return this.createFromOriginal(operation, command, effective);
    if (command.type === 'dd' || command.type === 'dd_b2b') return this.createDirectDebit(operation, command, effective);
    if (command.card) {
      return this.createCardPayment(operation, command, effective, command.card, command.pos ? command.pos.entry : command.type === 'devicewallet' ? 'devicewallet' : 'ecommerce');
    }
    // Redirect flows: hosted card page (cardecom, register), wallet, a2a, bank redirect.
    const method = kind === 'register' ? 'register' : command.type === 'cardecom' ? 'cardecom' : command.type === 'bankredirect' ? 'bankredirect' : command.type;
    const now = this.deps.clock.now();
    const record = this.newRecord(command, merchantId, now);
    record.statusCode = S.started;
    record.message = 'Awaiting the customer';
    record.expiresAt = new Date(now.getTime() + this.deps.settings.customerActionTtlMs).toISOString();
    record.details.awaiting = method === 'cardecom' || method === 'register' ? 'card' : 'approval';
    const url = this.deps.processor.redirectUrl(method as 'cardecom' | 'register' | 'wallet' | 'a2a' | 'bankredirect', record.id);
    // Banks take the customer with a form POST: the caller builds and submits a form from action_data.
    record.details.client_action =
      command.type === 'bankredirect'
        ? {
            client_action: 'postform',
            action_data: {
              url,
              fields: {
                transaction_id: record.id,
                amount: minorToText(record.amountMinor, command.exponent),
                currency: record.currency,
                merchant_reference: record.merchantReference ?? '',
              },
            },
          }
        : { client_action: 'redirect', action_data: { url } };
    if (command.subscriptionPlanId) {
      record.details.subscription_plan_id = command.subscriptionPlanId;
      record.details.subscription_status = 'approval_pending';
    }
    const outcome = await operation.commit(async (tx) => {
      await tx.transactions.insert(record);
      await this.logAndNotify(tx, record, { type: kind === 'register' ? 'precheck' : 'authorization', amountMinor: record.amountMinor, executionDate: command.executionDate });
      await this.deps.scheduler.schedule(tx, 'expire_customer_action', record.id, merchantId, new Date(record.expiresAt as string));
      return success(transactionResponse(record));
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  private newRecord(command: PaymentCommand, merchantId: string, now: Date): TransactionRecord {
    const iso = now.toISOString();
    return {
      id: this.deps.ids.newId(),
      merchantId,
      paymentType: command.type,
      operation: command.operation,
      statusCode: S.started,
      orderId: command.orderId,
      currency: command.currency,
      amountMinor: command.amountMinor,
      authorizedMinor: 0,
      capturedMinor: 0,
      refundedMinor: 0,
      reversedMinor: 0,
      feesMinor: 0,
      // A registration exists to save the card: it is recurring from the start (the hosted card
      // page completes it later, and that change does not touch this column).
      recurring: command.operation === 'register' ? 1 : command.recurring,
      parentId: null,
      sepaMandate: command.sepaMandate,
      sepaMsgId: null,
      message: null,
      reasonCode: null,
      additionalTransactionData: command.additionalTransactionData,
      merchantReference: command.merchantReference,
      postbackUrl: command.postbackUrl,
      successUrl: command.successUrl,
      errorUrl: command.errorUrl,
      cardBrand: null,
      cardLastFour: null,
      cardBin: null,
      cardExpiryMonth: null,
      cardExpiryYear: null,
      cardSealed: null,
      cardFingerprint: null,
      details: {
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
                ...(command.pos.pinBlock ? { cvm: 'online_pin' } : {}),
              },
            }
          : {}),
      },
      createdAt: iso,
      updatedAt: iso,
      expiresAt: null,
    };
  }

  private cardFields(card: CardData, keep: boolean): Partial<TransactionRecord> {
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

  private openCard(t: TransactionRecord): CardData | undefined {
    if (!t.cardSealed) return undefined;
    const parsed = JSON.parse(this.deps.vault.open(t.cardSealed)) as Sealable;
    return { pan: parsed.pan, expiryMonth: parsed.expiryMonth, expiryYear: parsed.expiryYear };
  }

  private async resolvePin(merchantId: string, command: PaymentCommand): Promise<{ pin?: EncryptedPin; error?: FieldError }> {
    const block = command.pos?.pinBlock;
    if (!block) return {};
    const sealed = await this.deps.store.read((r) => r.pinSecurity.findKey(merchantId, block.zoneId, block.keyId));
    let keyHex: string | undefined = sealed ? this.deps.vault.open(sealed) : undefined;
    if (!keyHex && block.zoneId === TEST_PIN_KEY.zoneId && block.keyId === TEST_PIN_KEY.keyId) keyHex = TEST_PIN_KEY.keyHex;
    if (!keyHex) return { error: { field: 'pos_data.pin_block.key_id', message: `no PIN key ${block.zoneId}/${block.keyId} in the terminal key store` } };
    return { pin: { format: 'ISO-0', block: block.block, key: Buffer.from(keyHex, 'hex') } };
  }

  private async createCardPayment(
    operation: Operation,
    command: PaymentCommand,
    method: EffectiveMethod,
    card: CardData,
    entry: 'ecommerce' | 'contactless' | 'chip' | 'swipe' | 'manual' | 'stored' | 'devicewallet',
    original?: TransactionRecord,
  ): Promise<Outcome<TransactionResponse>> {
    const merchantId = operation.context.merchantId;
    const pinResolution = await this.resolvePin(merchantId, command);
    if (pinResolution.error) return failure(validationError([pinResolution.error]));
    const now = this.deps.clock.now();
    const record = this.newRecord(command, merchantId, now);
    const accountCheck = command.amountMinor === 0 || command.operation === 'register';
    const keepCard = command.recurring === 1 || command.operation === 'register';
    Object.assign(record, this.cardFields(card, keepCard));
    if (original) record.parentId = original.id;
    // Who took the sale: the till's day report (X/Z) counts it for this cashier.
    if (operation.context.staffId) record.details.staff_id = operation.context.staffId;

    // PIN retry: link to the soft-declined attempt of the same order.
    let retryOf: TransactionRecord | undefined;
    if (command.pos?.subsequent) {
      retryOf = await this.deps.store.read((r) => r.transactions.latestForOrder(merchantId, command.orderId));
      if (retryOf) record.parentId = retryOf.id;
    }
    const fingerprint = record.cardFingerprint as string;
    const since = new Date(now.getTime() - DAY).toISOString();
    const failedPins = pinResolution.pin ? await this.deps.store.read((r) => r.pinSecurity.failuresSince(merchantId, fingerprint, since)) : 0;

    // A network token number (D12) is approved only with its valid, unused, unexpired cryptogram.
    const tokenCheck = entry === 'ecommerce' && this.deps.tokenCryptograms ? await this.deps.tokenCryptograms.check(merchantId, card.pan, command.walletCryptogram) : undefined;
    if (tokenCheck?.kind === 'valid') record.details = { ...record.details, network_token_id: tokenCheck.tokenId };

    let decision: CardDecision;
    if (pinResolution.pin && failedPins >= PIN_TRIES) {
      decision = { outcome: 'declined', code: '75', text: 'PIN tries exceeded' };
    } else if (tokenCheck?.kind === 'invalid') {
      decision = INVALID_CRYPTOGRAM;
    } else {
      try {
        decision = await this.deps.processor.authorizeCard({
          reference: record.id,
          card,
          entry,
          amountMinor: accountCheck ? 0 : command.amountMinor,
          currency: command.currency,
          cvmLimitMinor: cvmLimitMinorOf(method, command.currency),
          threeDSecureAuthenticated: false,
          ...(pinResolution.pin ? { pin: pinResolution.pin } : {}),
          ...(command.walletCryptogram ? { walletCryptogram: command.walletCryptogram } : {}),
        });
      } catch {
        return failure(processorDown());
      }
    }
    let wrongPin = false;
    if (decision.outcome === 'declined' && decision.code === '55' && pinResolution.pin && failedPins < PIN_TRIES) {
      wrongPin = true;
      if (failedPins + 1 >= PIN_TRIES) decision = { outcome: 'declined', code: '75', text: 'PIN tries exceeded' };
    }
    await this.applyCardDecision(record, command.operation, decision, accountCheck, now);
    if (decision.outcome === 'challenge') {
      record.cardSealed = this.deps.vault.seal(JSON.stringify({ pan: card.pan, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear }));
    }

    const eventType = accountCheck ? 'precheck' : command.pos?.subsequent ? 'reauthorization' : 'authorization';
    const outcome = await operation.commit(async (tx) => {
      // The cryptogram is used in the payment's own unit of work; one used meanwhile declines it.
      if (tokenCheck?.kind === 'valid' && this.deps.tokenCryptograms && !(await this.deps.tokenCryptograms.consume(tx, tokenCheck.cryptogramId))) {
        await this.applyCardDecision(record, command.operation, INVALID_CRYPTOGRAM, accountCheck, now);
      }
      const charged = !accountCheck && (record.statusCode === S.completed || record.statusCode === S.authorized);
      record.feesMinor = charged ? feesMinorOf(method, command.amountMinor, command.exponent) : 0;
      await tx.transactions.insert(record);
      if (wrongPin) await tx.pinSecurity.recordFailure(merchantId, fingerprint, now.toISOString());
      await this.logCreation(tx, record, eventType, command.executionDate);
      await this.scheduleFollowUps(tx, record);
      if (charged && command.pos && this.deps.cardPresentApproved) await this.deps.cardPresentApproved(tx, record);
      return success(transactionResponse(record));
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  /** Sets status, message and amounts of a new or started transaction from a card decision. */
  private async applyCardDecision(record: TransactionRecord, kind: string, decision: CardDecision, accountCheck: boolean, now: Date): Promise<void> {
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
        record.details.client_action = { client_action: 'redirect', action_data: { url: this.deps.processor.redirectUrl('threeds', record.id) } };
        break;
      case 'error':
        record.statusCode = S.error;
        record.message = decision.text;
        record.cardSealed = null;
        break;
    }
  }

  private async logCreation(tx: Repositories, record: TransactionRecord, eventType: string, executionDate: string | null): Promise<void> {
    const oneStep = record.operation === 'payment' && record.statusCode === S.completed && record.capturedMinor > 0;
    if (oneStep) {
      await this.appendEvent(tx, record, { type: eventType, status: S.authorized, amountMinor: record.amountMinor, executionDate, message: record.message });
      await this.logAndNotify(tx, record, { type: 'capture', amountMinor: record.capturedMinor, executionDate });
    } else {
      await this.logAndNotify(tx, record, { type: eventType, amountMinor: record.amountMinor, executionDate });
    }
  }

  private async scheduleFollowUps(tx: Repositories, record: TransactionRecord): Promise<void> {
    if (record.statusCode === S.authorized && record.expiresAt) {
      await this.deps.scheduler.schedule(tx, 'expire_authorization', record.id, record.merchantId, new Date(record.expiresAt));
    } else if (record.statusCode === S.started && record.expiresAt) {
      await this.deps.scheduler.schedule(tx, 'expire_customer_action', record.id, record.merchantId, new Date(record.expiresAt));
    }
  }

  private async createFromOriginal(operation: Operation, command: PaymentCommand, method: EffectiveMethod): Promise<Outcome<TransactionResponse>> {
    const merchantId = operation.context.merchantId;
    const original = await this.deps.store.read((r) => r.transactions.get(merchantId, command.originalTransactionId as string));
    if (!original) return failure(validationError([{ field: 'original_transaction_id', message: 'no such transaction for this merchant' }]));
    const sameFamily = CARD_TYPES.includes(command.type)
      ? CARD_TYPES.includes(original.paymentType as PaymentType)
      : original.paymentType === command.type;
    if (!sameFamily) {
      return failure(validationError([{ field: 'original_transaction_id', message: `is a ${original.paymentType} transaction, not usable for ${command.type}` }]));
    }
    if (command.type === 'dd' || command.type === 'dd_b2b') {
      if (!original.sepaMandate) return failure(validationError([{ field: 'original_transaction_id', message: 'has no mandate' }]));
      return this.createDirectDebit(operation, { ...command, sepaMandate: command.sepaMandate ?? original.sepaMandate }, method, original);
    }
    const card = this.openCard(original);
    if (!card || original.recurring !== 1) {
      return failure(validationError([{ field: 'original_transaction_id', message: 'has no saved card (register it, or pay with recurring=1 first)' }]));
    }
    return this.createCardPayment(operation, command, method, card, 'stored', original);
  }

  private async createDirectDebit(operation: Operation, command: PaymentCommand, method: EffectiveMethod, original?: TransactionRecord): Promise<Outcome<TransactionResponse>> {
    const merchantId = operation.context.merchantId;
    const errors: FieldError[] = [];
    const b2b = command.type === 'dd_b2b';
    let mandate: MandateRecord | undefined;
    if (command.sepaMandate) {
      mandate = await this.deps.store.read((r) => r.mandates.findByReference(merchantId, command.sepaMandate as string));
      if (!mandate) errors.push({ field: 'sepa_mandate', message: 'no such mandate for this merchant (create one with /rest/create_mandate_reference)' });
      else if (b2b && mandate.paymentType !== 'dd_b2b') errors.push({ field: 'sepa_mandate', message: 'dd_b2b needs a B2B mandate (created with payment_type dd_b2b)' });
    } else if (b2b) {
      errors.push({ field: 'sepa_mandate', message: 'is required for dd_b2b: create a B2B mandate with /rest/create_mandate_reference' });
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
    const record = this.newRecord(command, merchantId, now);
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
    const outcome = await operation.commit(async (tx) => {
      if (!mandate && command.sepa) {
        mandate = await this.deps.mandates.createIn(
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
      record.sepaMandate = mandate?.reference ?? null;
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
        await this.deps.scheduler.schedule(tx, 'settle_debit', record.id, merchantId, new Date(now.getTime() + this.deps.settings.simDelayMs));
      }
      return success(transactionResponse(record));
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  /**
   * Test environment fault injection (the lost-answer test card): the answer to this card-present
   * payment request never reaches the till. The HTTP layer drops the connection instead of answering.
   */
  dropsTerminalAnswer(body: unknown): boolean {
    const drops = this.deps.processor.dropsTerminalAnswer;
    if (!drops || typeof body !== 'object' || body === null) return false;
    const { payment_type: type, pos_data: pos } = body as { payment_type?: unknown; pos_data?: { card?: PosCard } };
    if (type !== 'cardpos' || typeof pos?.card !== 'object' || pos.card === null) return false;
    const card = cardFromPos(pos.card, []);
    return card !== undefined && drops.call(this.deps.processor, card.card.pan);
  }

  // ---- follow-up operations ------------------------------------------------------------------

  private async load(merchantId: string, id: string): Promise<TransactionRecord | undefined> {
    return this.deps.store.read((r) => r.transactions.get(merchantId, id));
  }

  private followUpAmount(t: TransactionRecord, amount: number | undefined, fallbackMinor: number, field: string, errors: FieldError[]): number | undefined {
    if (amount === undefined) return fallbackMinor;
    const minor = parseAmount(amount, exponentOf(t), field, errors);
    if (minor === 0) errors.push({ field, message: 'must be greater than 0' });
    return minor;
  }

  async capture(operation: Operation, request: CaptureRequest): Promise<Outcome<CaptureResponse>> {
    const errors: FieldError[] = [];
    validateCommonFields({ execution_date: request.execution_date }, errors);
    const merchantId = operation.context.merchantId;
    return this.deps.locks.with(request.transaction_id, async () => {
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
        return failure(apiError(ErrorCode.amountLimit, `The capture would exceed the authorization: at most ${minorToAmount(remaining, exponentOf(t))} ${t.currency} can still be captured`, [
          { field: 'amount', message: `must not exceed ${minorToAmount(remaining, exponentOf(t))}` },
        ]));
      }
      if (vatMinor !== undefined && vatMinor > amountMinor) return failure(validationError([{ field: 'vat', message: 'must not exceed the captured amount' }]));
      const result = await this.callProcessor(() => this.deps.processor.capture({ reference: t.id, networkReference: this.networkReference(t), amountMinor, currency: t.currency }));
      if (!result.ok) return result;
      if (result.value.outcome === 'declined') return failure(apiError(ErrorCode.invalidState, `The processor refused the capture: ${result.value.code} ${result.value.text}`));
      return operation.commit(async (tx) => {
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

  /**
   * Releases reserved money: the whole or part of an uncaptured authorization, or, after partial
   * captures, the rest that will never be captured (Adyen's cancel after a partial capture). What
   * was captured stays captured and refundable.
   */
  async reverse(operation: Operation, request: ReverseRequest): Promise<Outcome<ReverseResponse>> {
    const errors: FieldError[] = [];
    validateCommonFields({ execution_date: request.execution_date }, errors);
    const merchantId = operation.context.merchantId;
    return this.deps.locks.with(request.transaction_id, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const uncaptured = t.authorizedMinor - t.capturedMinor;
      const amountMinor = this.followUpAmount(t, request.amount, uncaptured, 'amount', errors);
      if (errors.length || amountMinor === undefined) return failure(validationError(errors));
      if (t.operation !== 'authorize' || !allowedFrom('reverse').includes(t.statusCode as never)) return failure(stateError(t, 'reverse'));
      if (uncaptured <= 0) {
        return failure(apiError(ErrorCode.invalidState, 'Nothing is left to release: the whole authorization was captured; refund captured money instead'));
      }
      if (amountMinor > uncaptured) {
        return failure(apiError(ErrorCode.amountLimit, `The reversal exceeds what is still reserved: at most ${minorToAmount(uncaptured, exponentOf(t))} ${t.currency} can be released`, [
          { field: 'amount', message: `must not exceed ${minorToAmount(uncaptured, exponentOf(t))}` },
        ]));
      }
      if (amountMinor < uncaptured && !CAPABILITIES[t.paymentType as PaymentType].partialReversal) {
        return failure(apiError(ErrorCode.paymentType, `${t.paymentType} does not support partial reversal`, [{ field: 'amount', message: 'must be the whole uncaptured amount' }]));
      }
      if (amountMinor < uncaptured) {
        const refused = await this.capabilityRefusal(t, 'partial_reversal');
        if (refused) return failure(refused);
      }
      const result = await this.callProcessor(() => this.deps.processor.reverse({ reference: t.id, networkReference: this.networkReference(t), amountMinor, currency: t.currency }));
      if (!result.ok) return result;
      if (result.value.outcome === 'declined') return failure(apiError(ErrorCode.invalidState, `The processor refused the reversal: ${result.value.code} ${result.value.text}`));
      return operation.commit(async (tx) => {
        const applied = await tx.transactions.addReversal(t.id, amountMinor, this.nowIso());
        if (!applied) return failure(stateError(t, 'reverse'));
        const fresh = (await tx.transactions.get(merchantId, t.id)) as TransactionRecord;
        const remainingMinor = fresh.authorizedMinor - fresh.capturedMinor;
        await this.logAndNotify(tx, fresh, {
          type: 'reversal',
          amountMinor,
          executionDate: request.execution_date ?? null,
          ...(fresh.capturedMinor > 0 ? { message: `Released the uncaptured ${minorToText(amountMinor, exponentOf(fresh))} ${fresh.currency}; captured ${minorToText(fresh.capturedMinor, exponentOf(fresh))}` } : {}),
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
    return this.deps.locks.with(request.transaction_id, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const refundable = t.capturedMinor - t.refundedMinor;
      const amountMinor = this.followUpAmount(t, request.amount, refundable, 'amount', errors);
      if (errors.length || amountMinor === undefined) return failure(validationError(errors));
      if (!allowedFrom('refund').includes(t.statusCode as never)) return failure(stateError(t, 'refund'));
      if (amountMinor > refundable || refundable <= 0) {
        return failure(apiError(ErrorCode.amountLimit, `The refund would exceed the captured amount: at most ${minorToAmount(refundable, exponentOf(t))} ${t.currency} can still be refunded`, [
          { field: 'amount', message: `must not exceed ${minorToAmount(refundable, exponentOf(t))}` },
        ]));
      }
      if (amountMinor < refundable && !CAPABILITIES[t.paymentType as PaymentType].partialRefund) {
        return failure(apiError(ErrorCode.paymentType, `${t.paymentType} does not support partial refunds`, [{ field: 'amount', message: 'must be the whole refundable amount' }]));
      }
      if (amountMinor < refundable) {
        const refused = await this.capabilityRefusal(t, 'partial_refund');
        if (refused) return failure(refused);
      }
      const result = await this.callProcessor(() => this.deps.processor.refund({ reference: t.id, networkReference: this.networkReference(t), amountMinor, currency: t.currency }));
      if (!result.ok) return result;
      const refused = result.value.outcome === 'declined';
      const now = this.nowIso();
      return operation.commit(async (tx) => {
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
      return failure(validated.unsupported ? apiError(ErrorCode.paymentType, validated.unsupported, validated.errors) : validationError(validated.errors));
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
    const record = this.newRecord(command, merchantId, now);
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
      this.deps.processor.payout({ reference: record.id, networkReference: null, amountMinor: command.amountMinor, currency: command.currency, method: command.type }),
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
    const outcome = await operation.commit(async (tx) => {
      await tx.transactions.insert(record);
      await this.logAndNotify(tx, record, { type: 'payout', amountMinor: record.amountMinor, executionDate: null });
      if (record.statusCode === S.pending) {
        await this.deps.scheduler.schedule(tx, 'settle_payout', record.id, merchantId, new Date(now.getTime() + this.deps.settings.simDelayMs));
      }
      return success({ transaction_id: record.id, status_code: record.statusCode, status: statusName(record.statusCode), order_id: record.orderId, error_code: 0 as const });
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  // ---- wallet subscriptions ------------------------------------------------------------------

  private subscriptionOf(t: TransactionRecord): SubscriptionStatus | undefined {
    return t.details.subscription_status;
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

  async cancelSubscription(operation: Operation, request: SubscriptionRequest): Promise<Outcome<SubscriptionResponse>> {
    const merchantId = operation.context.merchantId;
    return this.deps.locks.with(request.transaction_id, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const status = this.subscriptionOf(t);
      if (!status) return failure(apiError(ErrorCode.invalidState, 'This transaction did not set up a wallet subscription', [{ field: 'transaction_id', message: 'is not a subscription setup' }]));
      if (status === 'cancelled') return failure(apiError(ErrorCode.invalidState, 'The subscription is already cancelled', [{ field: 'transaction_id', message: 'subscription is cancelled' }]));
      return operation.commit(async (tx) => {
        const details: TransactionDetails = { ...t.details, subscription_status: 'cancelled' };
        delete details.pending_revision;
        await tx.transactions.transition(t.id, [t.statusCode], { statusCode: t.statusCode, details }, this.nowIso());
        const fresh = (await tx.transactions.get(merchantId, t.id)) as TransactionRecord;
        await this.appendEvent(tx, fresh, { type: 'cancellation', status: fresh.statusCode, amountMinor: 0, executionDate: null, message: 'Subscription cancelled' });
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
    return this.deps.locks.with(request.transaction_id, async () => {
      const t = await this.load(merchantId, request.transaction_id);
      if (!t) return failure(notFound(request.transaction_id));
      const amountMinor = request.amount === undefined ? undefined : parseAmount(request.amount, exponentOf(t), 'amount', errors);
      if (amountMinor === 0) errors.push({ field: 'amount', message: 'must be greater than 0' });
      if (errors.length) return failure(validationError(errors));
      const status = this.subscriptionOf(t);
      if (status !== 'active') {
        return failure(apiError(ErrorCode.invalidState, status ? `The subscription is ${status}` : 'This transaction did not set up a wallet subscription', [{ field: 'transaction_id', message: status ? `subscription is ${status}` : 'is not a subscription setup' }]));
      }
      const currentMinor = t.details.subscription_amount_minor ?? t.amountMinor;
      const needsApproval = amountMinor !== undefined && amountMinor > currentMinor;
      const planId = request.subscription_plan_id ?? t.details.subscription_plan_id;
      return operation.commit(async (tx) => {
        const details: TransactionDetails = { ...t.details };
        if (needsApproval) {
          details.subscription_status = 'approval_pending';
          details.pending_revision = { amount_minor: amountMinor, subscription_plan_id: planId };
        } else {
          details.subscription_plan_id = planId;
          if (amountMinor !== undefined) details.subscription_amount_minor = amountMinor;
        }
        await tx.transactions.transition(t.id, [t.statusCode], { statusCode: t.statusCode, details }, this.nowIso());
        const fresh = (await tx.transactions.get(merchantId, t.id)) as TransactionRecord;
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

  // ---- customer steps (hosted pages) -----------------------------------------------------------

  /** The customer entered card data on the hosted card page of a started cardecom payment or registration. */
  async submitCard(transactionId: string, card: CardData): Promise<Outcome<CustomerStepResult>> {
    return this.deps.locks.with(transactionId, async () => {
      const t = await this.deps.store.read((r) => r.transactions.getById(transactionId));
      if (!t) return failure(notFound(transactionId));
      if (t.statusCode !== S.started || t.details.awaiting !== 'card') return failure(stateError(t, 'enter a card for'));
      if (this.pastExpiry(t)) return failure(expiredError(t));
      return this.authorizeStarted(t, card, false);
    });
  }

  /** The customer finished the 3-D Secure challenge. */
  async completeChallenge(transactionId: string, passed: boolean): Promise<Outcome<CustomerStepResult>> {
    return this.deps.locks.with(transactionId, async () => {
      const t = await this.deps.store.read((r) => r.transactions.getById(transactionId));
      if (!t) return failure(notFound(transactionId));
      if (t.statusCode !== S.started || t.details.awaiting !== '3ds') return failure(stateError(t, 'complete 3-D Secure for'));
      if (this.pastExpiry(t)) return failure(expiredError(t));
      const card = this.openCard(t);
      if (!card) return failure(stateError(t, 'complete 3-D Secure for'));
      if (!passed) {
        const accountCheck = t.operation === 'register' || t.amountMinor === 0;
        return this.finishStarted(t, { outcome: 'declined', code: '05', text: 'Authentication failed' }, card, accountCheck ? 'precheck' : 'authorization');
      }
      return this.authorizeStarted(t, card, true);
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

  private async finishStarted(t: TransactionRecord, decision: CardDecision, card: CardData, eventType: string): Promise<Outcome<CustomerStepResult>> {
    const now = this.deps.clock.now();
    const next: TransactionRecord = { ...t, ...this.cardFields(card, t.recurring === 1 || t.operation === 'register'), details: { ...t.details } };
    const accountCheck = t.operation === 'register' || t.amountMinor === 0;
    await this.applyCardDecision(next, t.operation, decision, accountCheck, now);
    if (decision.outcome === 'challenge') {
      next.cardSealed = this.deps.vault.seal(JSON.stringify({ pan: card.pan, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear }));
    }
    const outcome = await this.deps.store.run(async (tx) => {
      next.feesMinor = !accountCheck && (next.statusCode === S.completed || next.statusCode === S.authorized)
        ? feesMinorOf(await this.deps.methods.resolve(tx, t.merchantId, shopOf(t), t.paymentType as PaymentType), t.amountMinor, exponentOf(t))
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
        await this.appendEvent(tx, fresh, { type: 'authorization', status: S.started, amountMinor: fresh.amountMinor, executionDate: null, message: '3-D Secure challenge' });
      }
      return success(this.stepResult(fresh));
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  /** The customer approved, declined or cancelled on a wallet, a2a or bank page (or approved a subscription revision). */
  async completeRedirect(transactionId: string, answer: 'approved' | 'cancelled'): Promise<Outcome<CustomerStepResult>> {
    return this.deps.locks.with(transactionId, async () => {
      const t = await this.deps.store.read((r) => r.transactions.getById(transactionId));
      if (!t) return failure(notFound(transactionId));
      const now = this.nowIso();
      const revision = t.details.pending_revision;
      if (t.statusCode !== S.started && this.subscriptionOf(t) === 'approval_pending' && revision) {
        return this.deps.store.run(async (tx) => {
          const details: TransactionDetails = { ...t.details, subscription_status: 'active' };
          delete details.pending_revision;
          if (answer === 'approved') {
            details.subscription_amount_minor = revision.amount_minor;
            details.subscription_plan_id = revision.subscription_plan_id;
          }
          await tx.transactions.transition(t.id, [t.statusCode], { statusCode: t.statusCode, details }, now);
          const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
          await this.appendEvent(tx, fresh, { type: 'reauthorization', status: fresh.statusCode, amountMinor: revision.amount_minor, executionDate: null, message: answer === 'approved' ? 'Customer approved the revision' : 'Customer rejected the revision' });
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
            feesMinor: feesMinorOf(await this.deps.methods.resolve(tx, t.merchantId, shopOf(t), t.paymentType as PaymentType), t.amountMinor, exponentOf(t)),
            details,
            expiresAt: authorizeOnly ? new Date(this.deps.clock.now().getTime() + this.deps.settings.authorizationTtlMs).toISOString() : null,
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
    return this.deps.locks.with(transactionId, async () => {
      const outcome = await this.deps.store.run(async (tx) => {
        const t = await tx.transactions.getById(transactionId);
        if (!t || t.statusCode !== S.started) return t;
        const expired = this.pastExpiry(t);
        const details = { ...t.details };
        delete details.awaiting;
        if (this.subscriptionOf(t) === 'approval_pending') details.subscription_status = 'cancelled';
        const change: TransactionChange = expired
          ? { statusCode: S.expired, message: 'The customer did not finish in time', details, cardSealed: null, expiresAt: null }
          : { statusCode: S.cancelled, message: 'Cancelled by the customer: a new attempt was started', details, cardSealed: null, expiresAt: null };
        if (!(await tx.transactions.transition(t.id, allowedFrom(expired ? 'customer_action_expiry' : 'customer_cancels'), change, this.nowIso()))) {
          return tx.transactions.getById(transactionId);
        }
        const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
        await this.logAndNotify(tx, fresh, { type: expired ? 'expiry' : 'cancellation', amountMinor: expired ? 0 : fresh.amountMinor, executionDate: null });
        return fresh;
      });
      this.deps.scheduler.wake();
      return outcome;
    });
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

  // ---- scheduled steps -------------------------------------------------------------------------

  private async settleDebit(task: ScheduledTask): Promise<void> {
    const t = await this.load(task.merchantId, task.subjectId);
    if (!t || t.statusCode !== S.pending) return;
    const mandate = t.sepaMandate ? await this.deps.store.read((r) => r.mandates.findByReference(t.merchantId, t.sepaMandate as string)) : undefined;
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

  private async settlePayout(task: ScheduledTask): Promise<void> {
    await this.deps.store.run(async (tx) => {
      const t = await tx.transactions.get(task.merchantId, task.subjectId);
      if (!t) return;
      if (!(await tx.transactions.transition(t.id, allowedFrom('payout_settles'), { statusCode: S.completed, message: 'Paid out', capturedMinor: t.amountMinor }, this.nowIso()))) return;
      const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
      await this.logAndNotify(tx, fresh, { type: 'payout', amountMinor: t.amountMinor, executionDate: null });
    });
  }

  private async expire(task: ScheduledTask, trigger: Trigger, message: string): Promise<void> {
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
      const change: TransactionChange = { statusCode: S.expired, message, details, cardSealed: keepCard ? t.cardSealed : null, expiresAt: null };
      if (!(await tx.transactions.transition(t.id, allowedFrom(trigger), change, this.nowIso()))) return;
      const fresh = (await tx.transactions.get(t.merchantId, t.id)) as TransactionRecord;
      await this.logAndNotify(tx, fresh, { type: 'expiry', amountMinor: 0, executionDate: null });
    });
  }

  // ---- shared --------------------------------------------------------------------------------

  /** 1004 when the merchant's or shop's setting switched a capability of the transaction's type off (D15). */
  private async capabilityRefusal(t: TransactionRecord, name: 'partial_refund' | 'partial_reversal'): Promise<ApiError | undefined> {
    const method = await this.deps.store.read((r) => this.deps.methods.resolve(r, t.merchantId, shopOf(t), t.paymentType as PaymentType));
    return this.deps.methods.refusal(method, { capabilities: [{ name, field: 'amount' }] }, { existingTransaction: true });
  }

  /** A started transaction whose customer time ran out, before the scheduler got to it. */
  private pastExpiry(t: TransactionRecord): boolean {
    return t.expiresAt !== null && t.expiresAt <= this.nowIso();
  }

  private nowIso(): string {
    return this.deps.clock.now().toISOString();
  }

  private networkReference(t: TransactionRecord): string | null {
    return t.details.external_transaction_id ?? null;
  }

  private async callProcessor<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: ApiError }> {
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      this.deps.logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'processor call failed');
      return { ok: false, error: processorDown() };
    }
  }

  private async appendEvent(
    tx: Repositories,
    t: TransactionRecord,
    event: { type: string; status: number; amountMinor: number; executionDate: string | null; message: string | null },
  ): Promise<void> {
    await tx.events.append({
      id: this.deps.ids.newId(),
      transactionId: t.id,
      type: event.type,
      status: event.status,
      amountMinor: event.amountMinor,
      executionDate: event.executionDate,
      message: event.message,
      createdAt: this.nowIso(),
    });
  }

  /** Event-log entry plus, when the transaction has a postback URL, a postback in the outbox (D2). */
  private async logAndNotify(
    tx: Repositories,
    t: TransactionRecord,
    event: { type: string; amountMinor: number; executionDate: string | null; message?: string | null; status?: number },
  ): Promise<void> {
    await this.appendEvent(tx, t, {
      type: event.type,
      status: event.status ?? t.statusCode,
      amountMinor: event.amountMinor,
      executionDate: event.executionDate,
      message: event.message === undefined ? t.message : event.message,
    });
    for (const listener of this.listeners) await listener(tx, t);
    if (!t.postbackUrl) return;
    const now = this.nowIso();
    await tx.outbox.append({
      id: this.deps.ids.newId(),
      merchantId: t.merchantId,
      subjectType: 'transaction',
      subjectId: t.id,
      sequence: await tx.outbox.nextSequence('transaction', t.id),
      url: t.postbackUrl,
      payload: transactionPostback(t),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
  }
}
