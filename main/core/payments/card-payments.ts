/**
 * Card payments with the card in the request: e-commerce card data, a card-present read from a
 * terminal (contactless, chip, swipe, with a PIN block), a device wallet, a network token with its
 * cryptogram, or the saved card of an earlier transaction. The processor decides; a 3-D Secure
 * challenge leaves the payment started for the customer (customer-steps.ts).
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { PosCard, TransactionResponse } from '../../../contract/api/payments.js';
import { TransactionStatus as S } from '../../../contract/codes.js';
import { PIN_TRIES } from '../../../contract/constants.js';
import { failure, success, validationError, type Outcome } from '../errors.js';
import type { Operation } from '../idempotency/operation-runner.js';
import type { CardData, CardDecision, EncryptedPin, TransactionRecord } from './ports.js';
import { cvmLimitMinorOf, feesMinorOf, type EffectiveMethod } from '../payment-methods/resolution.js';
import { cardFromPos } from './card-input.js';
import { DAY, PaymentEngine } from './engine.js';
import { newRecord, processorDown } from './records.js';
import { repeatedSale, repeatedSaleError } from './repeated-sale.js';
import type { PaymentCommand } from './request.js';
import { transactionResponse } from './views.js';

/** The decline of a token payment whose cryptogram is missing, forged, used or expired (D12). */
const INVALID_CRYPTOGRAM: CardDecision = { outcome: 'declined', code: '05', text: 'Invalid cryptogram' };

/** The published test PIN key every merchant starts with (decisions.md D3). */
export const TEST_PIN_KEY = { zoneId: 'test', keyId: '1', keyHex: '0123456789ABCDEFFEDCBA9876543210' } as const;

export class CardPayments extends PaymentEngine {
  async createCardPayment(
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
    const record = newRecord(command.transactionId ?? this.deps.ids.newId(), command, merchantId, now);
    const accountCheck = command.amountMinor === 0 || command.operation === 'register';
    const keepCard = command.recurring === 1 || command.operation === 'register';
    Object.assign(record, this.cardFields(card, keepCard));
    if (original) record.parentId = original.id;
    // Who took the sale: the till's day report (X/Z) counts it for this cashier.
    if (operation.context.staffId) record.details.staff_id = operation.context.staffId;
    // A sale POS software sends again without a key (a lost answer) is refused, not charged twice (D19).
    if (
      command.pos &&
      command.operation === 'payment' &&
      !command.pos.subsequent &&
      operation.context.idempotency === undefined &&
      !operation.context.repeatConfirmed
    ) {
      const sale = {
        orderId: command.orderId,
        amountMinor: command.amountMinor,
        currency: command.currency,
        cardFingerprint: record.cardFingerprint,
        tillId: record.tillId,
        terminalId: command.pos.terminal.id,
      };
      const earlier = await this.deps.store.read((r) => repeatedSale(r, merchantId, sale, now));
      if (earlier) return failure(repeatedSaleError(earlier));
    }

    // PIN retry: link to the soft-declined attempt of the same order.
    let retryOf: TransactionRecord | undefined;
    if (command.pos?.subsequent) {
      retryOf = await this.deps.store.read((r) => r.transactions.latestForOrder(merchantId, command.orderId));
      if (retryOf) record.parentId = retryOf.id;
    }
    const fingerprint = record.cardFingerprint as string;
    const since = new Date(now.getTime() - DAY).toISOString();
    const failedPins = pinResolution.pin
      ? await this.deps.store.read((r) => r.pinSecurity.failuresSince(merchantId, fingerprint, since))
      : 0;

    // A network token number (D12) is approved only with its valid, unused, unexpired cryptogram.
    const tokenCheck =
      entry === 'ecommerce' && this.deps.tokenCryptograms
        ? await this.deps.tokenCryptograms.check(merchantId, card.pan, command.walletCryptogram)
        : undefined;
    if (tokenCheck?.kind === 'valid') record.details = { ...record.details, network_token_id: tokenCheck.tokenId };

    let decision: CardDecision;
    if (command.declineWith) {
      decision = { outcome: 'declined', ...command.declineWith };
    } else if (pinResolution.pin && failedPins >= PIN_TRIES) {
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
          ...(record.details.stored ? { stored: true } : {}),
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
      record.cardSealed = this.deps.vault.seal(
        JSON.stringify({ pan: card.pan, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear }),
      );
    }

    const eventType = accountCheck ? 'precheck' : command.pos?.subsequent ? 'reauthorization' : 'authorization';
    let scheduled = false;
    const outcome = await operation.commit(this.deps.store, async (tx) => {
      // The cryptogram is used in the payment's own unit of work; one used meanwhile declines it.
      if (
        tokenCheck?.kind === 'valid' &&
        this.deps.tokenCryptograms &&
        !(await this.deps.tokenCryptograms.consume(tx, tokenCheck.cryptogramId))
      ) {
        await this.applyCardDecision(record, command.operation, INVALID_CRYPTOGRAM, accountCheck, now);
      }
      const charged = !accountCheck && (record.statusCode === S.completed || record.statusCode === S.authorized);
      record.feesMinor = charged ? feesMinorOf(method, command.amountMinor, command.exponent) : 0;
      await tx.transactions.insert(record);
      if (wrongPin) await tx.pinSecurity.recordFailure(merchantId, fingerprint, now.toISOString());
      await this.logCreation(tx, record, eventType, command.executionDate);
      scheduled = await this.scheduleFollowUps(tx, record);
      if (charged && command.pos && command.autoPrint && this.deps.cardPresentApproved) await this.deps.cardPresentApproved(tx, record);
      return success(transactionResponse(record));
    });
    // A one-step sale schedules nothing: no scheduler pass (a query) after it.
    if (scheduled) this.deps.scheduler.wake();
    return outcome;
  }

  private async resolvePin(merchantId: string, command: PaymentCommand): Promise<{ pin?: EncryptedPin; error?: FieldError }> {
    const block = command.pos?.pinBlock;
    if (!block) return {};
    const sealed = await this.deps.store.read((r) => r.pinSecurity.findKey(merchantId, block.zoneId, block.keyId));
    let keyHex: string | undefined = sealed ? this.deps.vault.open(sealed) : undefined;
    if (!keyHex && block.zoneId === TEST_PIN_KEY.zoneId && block.keyId === TEST_PIN_KEY.keyId) keyHex = TEST_PIN_KEY.keyHex;
    if (!keyHex)
      return {
        error: { field: 'pos_data.pin_block.key_id', message: `no PIN key ${block.zoneId}/${block.keyId} in the terminal key store` },
      };
    return { pin: { format: 'ISO-0', block: block.block, key: Buffer.from(keyHex, 'hex') } };
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
}
