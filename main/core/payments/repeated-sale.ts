/**
 * A repeated card-present sale (D19, docs/decisions.md "The shop's books"): the same order id, amount
 * and card at the same till, within REPEAT_SALE_WINDOW_MINUTES of a sale that was approved or stored,
 * sent without an Idempotency-Key and not as a PIN retry, is refused (4006) and charges nothing, as a
 * card terminal's duplicate check refuses it: it is nearly always POS software sending a sale again
 * after a lost answer. A retry after a decline or an error is not a repeat (nothing was taken); POS
 * software that means to charge the card again says so (`X-Repeat-Sale: confirmed`). The same rule
 * holds at a centre, at an ordinary gateway and at a joined till while its centre is away.
 */
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import { REPEAT_SALE_CONFIRMED, REPEAT_SALE_HEADER, REPEAT_SALE_WINDOW_MINUTES } from '../../../contract/constants.js';
import { apiError, type ApiError } from '../errors.js';
import type { TransactionRecord, TransactionRepository } from './ports.js';

/** What makes two sales the same sale. */
export interface SaleIdentity {
  orderId: string;
  amountMinor: number;
  currency: string;
  cardFingerprint: string | null;
  tillId: string | null;
  terminalId: string | null;
}

/** Taken: approved (and maybe refunded since), or stored at a till while its centre was away. */
const TAKEN: ReadonlySet<number> = new Set([S.completed, S.authorized, S.refunded, S.partly_refunded, S.stored]);

function isRepeatOf(earlier: TransactionRecord, sale: SaleIdentity): boolean {
  return (
    TAKEN.has(earlier.statusCode) &&
    earlier.paymentType === 'cardpos' &&
    earlier.amountMinor === sale.amountMinor &&
    earlier.currency === sale.currency &&
    earlier.cardFingerprint === sale.cardFingerprint &&
    earlier.tillId === sale.tillId &&
    // Sales of no till: the same terminal.
    (sale.tillId !== null || (earlier.details.pos?.terminal.id ?? null) === sale.terminalId)
  );
}

/** The sale this one repeats, if any (read by the order's index). */
export async function repeatedSale(
  r: { transactions: Pick<TransactionRepository, 'recentForOrder'> },
  merchantId: string,
  sale: SaleIdentity,
  now: Date,
): Promise<TransactionRecord | undefined> {
  if (sale.cardFingerprint === null) return undefined;
  const since = new Date(now.getTime() - REPEAT_SALE_WINDOW_MINUTES * 60_000).toISOString();
  return (await r.transactions.recentForOrder(merchantId, sale.orderId, since)).find((t) => isRepeatOf(t, sale));
}

export function repeatedSaleError(earlier: TransactionRecord): ApiError {
  return apiError(
    ErrorCode.repeatedSale,
    `This sale repeats one taken at ${earlier.createdAt} at this till (the same order, amount and card): nothing was charged. Ask how the first one ended (GET the transaction ${earlier.id}); to charge the card again, send it with the header ${REPEAT_SALE_HEADER}: ${REPEAT_SALE_CONFIRMED}.`,
    [
      {
        field: 'order_id',
        message: `repeats transaction ${earlier.id} (same amount and card at this till, within ${REPEAT_SALE_WINDOW_MINUTES} minutes)`,
      },
    ],
  );
}
