/**
 * Payment, authorize and register requests: validation, the merchant's (or shop's) method setting
 * (D15), then the flow of the type: a card in the request (card-payments.ts), a direct debit
 * (direct-debits.ts), a saved card or mandate of an earlier transaction, or a redirect flow that
 * waits for the customer (hosted card page, wallet, a2a, bank: customer-steps.ts).
 */
import type { PaymentRequest, TransactionResponse } from '../../../contract/api/payments.js';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import type { PaymentType } from '../../../contract/constants.js';
import { minorToText } from '../../../contract/money.js';
import { ConfigurationCache } from '../configuration-cache.js';
import { apiError, failure, success, validationError, type Outcome } from '../errors.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { TransactionDetails } from './ports.js';
import type { MethodRequirement } from '../payment-methods/payment-methods.js';
import type { EffectiveMethod } from '../payment-methods/resolution.js';
import type { CardPayments } from './card-payments.js';
import type { DirectDebits } from './direct-debits.js';
import { PaymentEngine, type PaymentsDeps, type TransactionListener } from './engine.js';
import { CARD_TYPES, isPaymentType } from '../payment-methods/payment-types.js';
import { newRecord, withOtherErrors } from './records.js';
import { anotherTillError, namesAnotherTill, saleTillOf } from './sale-till.js';
import { isCountryCode } from '../countries.js';
import { validatePaymentRequest, type PaymentCommand, type PaymentOperation } from './request.js';
import { transactionResponse } from './views.js';

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

/** What another feature adds to a payment it starts (an invoice, a checkout). */
export interface CreationExtras {
  /** Links the transaction to that feature (its checkout session, its invoice and instalment). */
  details?: TransactionDetails;
  /** The feature follows the transaction itself (no postback URL is needed). */
  followedInternally?: boolean;
  /** The invoice's number, searchable on the transaction. */
  invoiceNumber?: string;
  /** The id the transaction must have (a stored sale forwarded by its till keeps the id it got there). */
  transactionId?: string;
  /** Declined with this, the bank never asked (a forwarded sale its centre does not authorize, D20). */
  declineWith?: { code: string; text: string };
}

/** What a sale reads before its unit: the effective setting, its till, whether it names another till, auto-print. */
type SaleConfiguration = [EffectiveMethod, string | null, boolean, boolean];

export class Creation extends PaymentEngine {
  /** The sale's configuration reads, remembered while the store says nothing of them changed. */
  private readonly configuration: ConfigurationCache<SaleConfiguration>;

  constructor(
    deps: PaymentsDeps,
    listeners: readonly TransactionListener[],
    private readonly cards: CardPayments,
    private readonly debits: DirectDebits,
  ) {
    super(deps, listeners);
    const maxAgeMs = deps.settings.configurationCacheMs;
    this.configuration = new ConfigurationCache(() => (maxAgeMs > 0 ? deps.store.configurationGeneration?.() : undefined), { maxAgeMs });
  }

  async create(
    operation: Operation,
    kind: PaymentOperation,
    request: PaymentRequest,
    extras: CreationExtras = {},
  ): Promise<Outcome<TransactionResponse>> {
    const validated = validatePaymentRequest(kind, request, { followedInternally: extras.followedInternally === true });
    const merchantId = operation.context.merchantId;
    // The merchant's (or the terminal's shop's) setting of the type: enabled, currencies, countries, capabilities (D15).
    let setting: EffectiveMethod | undefined;
    let tillId: string | null = null;
    let autoPrint = false;
    if (isPaymentType(request.payment_type)) {
      const type = request.payment_type;
      // Lookups that need no common snapshot, sent together: on PostgreSQL each is a statement of
      // its own (no read transaction around them), pipelined on one connection, so the terminal,
      // its setting, the sale's till and the printer's auto-print cost one round trip together,
      // and none while what they read last is known unchanged (ConfigurationCache).
      // A card-present sale's till is decided here, once (D19).
      const terminalId = request.pos_data?.terminal?.id;
      const requestTill = operation.context.tillId;
      const fromJoinedTill = type === 'cardpos' && operation.context.tillCredential === true && extras.declineWith === undefined;
      let namesOther = false;
      const key = `${merchantId}\u0000${type}\u0000${terminalId ?? ''}\u0000${requestTill ?? ''}\u0000${fromJoinedTill ? 1 : 0}`;
      [setting, tillId, namesOther, autoPrint] = await this.configuration.get(key, () =>
        this.deps.store.readEach((r) =>
          Promise.all([
            this.deps.methods.forTerminal(r, merchantId, terminalId, type),
            type === 'cardpos' ? saleTillOf(r, merchantId, requestTill, terminalId) : null,
            fromJoinedTill ? namesAnotherTill(r, merchantId, requestTill, terminalId) : false,
            type === 'cardpos' && this.deps.autoPrints ? this.deps.autoPrints(r, merchantId) : false,
          ]),
        ),
      );
      const refusal = this.deps.methods.refusal(setting, requirementOf(kind, request));
      if (refusal) return failure(withOtherErrors(refusal, validated.ok ? [] : validated.errors));
      if (namesOther) return failure(validationError([anotherTillError(tillId), ...(validated.ok ? [] : validated.errors)]));
    }
    if (!validated.ok) {
      return failure(
        validated.unsupported
          ? apiError(ErrorCode.paymentType, validated.unsupported, validated.errors)
          : validationError(validated.errors),
      );
    }
    const command = validated.command;
    if (extras.details) command.extraDetails = extras.details;
    if (extras.invoiceNumber !== undefined) command.invoiceNumber = extras.invoiceNumber;
    if (extras.transactionId !== undefined) command.transactionId = extras.transactionId;
    if (extras.declineWith !== undefined) command.declineWith = extras.declineWith;
    command.tillId = tillId;
    if (autoPrint) command.autoPrint = true;
    if (setting?.shopId) command.extraDetails = { ...command.extraDetails, shop_id: setting.shopId };
    const effective = setting as EffectiveMethod;

    if (command.originalTransactionId) return this.createFromOriginal(operation, command, effective);
    if (command.type === 'dd' || command.type === 'dd_b2b') return this.debits.createDirectDebit(operation, command, effective);
    if (command.card) {
      return this.cards.createCardPayment(
        operation,
        command,
        effective,
        command.card,
        command.pos ? command.pos.entry : command.type === 'devicewallet' ? 'devicewallet' : 'ecommerce',
      );
    }
    // Redirect flows: hosted card page (cardecom, register), wallet, a2a, bank redirect.
    const method =
      kind === 'register'
        ? 'register'
        : command.type === 'cardecom'
          ? 'cardecom'
          : command.type === 'bankredirect'
            ? 'bankredirect'
            : command.type;
    const now = this.deps.clock.now();
    const record = newRecord(this.deps.ids.newId(), command, merchantId, now);
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
    const outcome = await operation.commit(this.deps.store, async (tx) => {
      await tx.transactions.insert(record);
      await this.logAndNotify(tx, record, {
        type: kind === 'register' ? 'precheck' : 'authorization',
        amountMinor: record.amountMinor,
        executionDate: command.executionDate,
      });
      await this.deps.scheduler.schedule(tx, 'expire_customer_action', record.id, merchantId, new Date(record.expiresAt as string));
      return success(transactionResponse(record));
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  private async createFromOriginal(
    operation: Operation,
    command: PaymentCommand,
    method: EffectiveMethod,
  ): Promise<Outcome<TransactionResponse>> {
    const merchantId = operation.context.merchantId;
    const original = await this.deps.store.read((r) => r.transactions.get(merchantId, command.originalTransactionId as string));
    if (!original)
      return failure(validationError([{ field: 'original_transaction_id', message: 'no such transaction for this merchant' }]));
    const sameFamily = CARD_TYPES.includes(command.type)
      ? CARD_TYPES.includes(original.paymentType as PaymentType)
      : original.paymentType === command.type;
    if (!sameFamily) {
      return failure(
        validationError([
          { field: 'original_transaction_id', message: `is a ${original.paymentType} transaction, not usable for ${command.type}` },
        ]),
      );
    }
    if (command.type === 'dd' || command.type === 'dd_b2b') {
      if (!original.sepaMandate) return failure(validationError([{ field: 'original_transaction_id', message: 'has no mandate' }]));
      return this.debits.createDirectDebit(
        operation,
        { ...command, sepaMandate: command.sepaMandate ?? original.sepaMandate },
        method,
        original,
      );
    }
    const card = this.openCard(original);
    if (!card || original.recurring !== 1) {
      return failure(
        validationError([{ field: 'original_transaction_id', message: 'has no saved card (register it, or pay with recurring=1 first)' }]),
      );
    }
    return this.cards.createCardPayment(operation, command, method, card, 'stored', original);
  }
}
