/**
 * A card-present sale a joined till stores while its centre is away (docs/decisions.md "Tills joined
 * to a centre"): refused beyond the limits the centre set, answered `stored`, forwarded later by
 * main/core/centre/till-link.ts.
 */
import type { PaymentRequest, TransactionResponse } from '../../../contract/api/payments.js';
import { cardBrand } from '../../../contract/cards.js';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import { DEFAULT_CVM_LIMIT } from '../../../contract/constants.js';
import { minorToText, toMinor } from '../../../contract/money.js';
import { apiError, failure, success, validationError, type Outcome } from '../errors.js';
import type { Clock, Ids, Vault } from '../kernel.js';
import { validatePaymentRequest } from '../payments/request.js';
import { repeatedSale, repeatedSaleError } from '../payments/repeated-sale.js';
import { anotherTillError } from '../payments/sale-till.js';
import type { CentreLinkRecord, CentreUnit } from './ports.js';
import { keepSaleCopy } from './till-copies.js';

const STORED_MESSAGE = 'Stored at the till: forwarded when the centre answers';

/** Runs the work in one database unit (the request's operation, which records its idempotency reply in it). */
export type UnitOfWork = <T>(work: (tx: CentreUnit) => Promise<Outcome<T>>) => Promise<Outcome<T>>;

export interface StoreSaleDeps {
  clock: Clock;
  ids: Ids;
  vault: Vault;
}

/** The centre does not answer (and what follows from it, in `message`). */
export function centreAway(message: string): ReturnType<typeof apiError> {
  return apiError(ErrorCode.centreAway, message, [{ field: 'centre', message: 'does not answer' }]);
}

/**
 * Stores a card-present sale while the centre is away, if the limits allow, in `unit` (the request's
 * own unit of work, which stores its idempotency reply too: a till killed after the commit answers a
 * retry with the same key with this stored sale).
 */
export async function storeSale(
  deps: StoreSaleDeps,
  link: CentreLinkRecord,
  request: PaymentRequest,
  staffId: string | null,
  unit: UnitOfWork,
  checkRepeat: boolean,
): Promise<Outcome<TransactionResponse>> {
  const checked = validatePaymentRequest('payment', request);
  if (!checked.ok) return failure(validationError(checked.errors));
  const command = checked.command;
  if (command.type !== 'cardpos' || !command.card || !command.pos)
    return failure(centreAway("The shop's gateway (this till's centre) does not answer; only card-present sales are stored meanwhile"));
  // The rule the centre holds online (D20): a sale here names this till, or no till.
  const terminal = command.pos.terminal.id;
  if (terminal && terminal !== link.tillId && link.shopTillIds.includes(terminal))
    return failure(validationError([anotherTillError(link.tillId)]));
  const pan = command.card.pan;
  // Contactless above the CVM limit needs the PIN, as the bank would ask for it online (after the
  // limits: a sale that cannot be stored is refused before the customer types a PIN for nothing).
  const exponent = command.exponent;
  const cvm = toMinor(DEFAULT_CVM_LIMIT, exponent);
  const needsPin = command.pos.entry === 'contactless' && !command.pos.pinBlock && cvm.ok && command.amountMinor > cvm.minor;
  const now = deps.clock.now();
  const transactionId = deps.ids.newId();
  return unit(async (tx): Promise<Outcome<TransactionResponse>> => {
    const limits = link.limits;
    const pending = await tx.journal.pending();
    const limit = (major: number) => {
      const minor = toMinor(major, exponent);
      return minor.ok ? minor.minor : 0;
    };
    const total = pending.totals.find((t) => t.currency === command.currency)?.amountMinor ?? 0;
    const problem =
      limits.per_payment === 0 || limits.total_per_currency === 0 || limits.count === 0 || limits.age_hours === 0
        ? 'storing sales is switched off for this till'
        : command.amountMinor > limit(limits.per_payment)
          ? `a stored sale may be at most ${minorToText(limit(limits.per_payment), exponent)} ${command.currency}`
          : total + command.amountMinor > limit(limits.total_per_currency)
            ? `stored sales may add up to at most ${minorToText(limit(limits.total_per_currency), exponent)} ${command.currency}`
            : pending.count >= limits.count
              ? `at most ${limits.count} sales may be stored`
              : pending.oldestAt && now.getTime() - Date.parse(pending.oldestAt) > limits.age_hours * 3_600_000
                ? `the oldest stored sale is older than ${limits.age_hours} hours`
                : undefined;
    if (problem) {
      return failure(
        apiError(
          ErrorCode.centreAway,
          `The shop's gateway (this till's centre) does not answer and this sale cannot be stored: ${problem}. Take another payment method.`,
          [{ field: 'amount', message: problem }],
        ),
      );
    }
    if (needsPin)
      return success(
        saleAnswer(deps.ids.newId(), request, pan, {
          status_code: S.declined,
          status: 'declined',
          message: 'request_pin',
          reason_code: '1A',
        }),
      );
    // The same duplicate check as at the centre, against this till's own copies (D19).
    if (checkRepeat && !command.pos?.subsequent) {
      const sale = {
        orderId: command.orderId,
        amountMinor: command.amountMinor,
        currency: command.currency,
        cardFingerprint: deps.vault.fingerprint(pan),
        tillId: link.tillId,
        terminalId: command.pos?.terminal.id ?? null,
      };
      const earlier = await repeatedSale(tx, link.merchantId, sale, now);
      if (earlier) return failure(repeatedSaleError(earlier));
    }
    const seq = await tx.journal.store({
      transactionId,
      merchantId: link.merchantId,
      tillId: link.tillId,
      staffId,
      orderId: command.orderId,
      amountMinor: command.amountMinor,
      currency: command.currency,
      cardBrand: cardBrand(pan),
      cardLastFour: pan.slice(-4),
      requestSealed: deps.vault.seal(JSON.stringify(request)),
      storedAt: now.toISOString(),
      forwardedAt: null,
      outcomeStatusCode: null,
      outcomeMessage: null,
      seenAt: null,
    });
    const answer = saleAnswer(transactionId, request, pan, { status_code: S.stored, status: 'stored', message: STORED_MESSAGE });
    await keepSaleCopy(tx, deps, link, request, { kind: 'ok', body: answer }, staffId, {
      till_id: link.tillId,
      seq,
      stored_at: now.toISOString(),
    });
    return success(answer);
  });
}

function saleAnswer(
  transactionId: string,
  request: PaymentRequest,
  pan: string,
  outcome: Pick<TransactionResponse, 'status_code' | 'status' | 'message'> & { reason_code?: string },
): TransactionResponse {
  const card = request.pos_data?.card;
  return {
    transaction_id: transactionId,
    payment_type: request.payment_type,
    order_id: request.order_id ?? null,
    additional_transaction_data: request.additional_transaction_data ?? null,
    amount: request.amount,
    currency: request.currency,
    included_fees: '0.00',
    error_code: 0,
    card_last_four: pan.slice(-4),
    ...(card?.expiry_month !== undefined ? { card_expiry_month: Number(card.expiry_month) } : {}),
    ...(card?.expiry_year !== undefined ? { card_expiry_year: Number(card.expiry_year) } : {}),
    ...outcome,
  };
}
