/**
 * A joined till's own copies of its sales and refunds (docs/decisions.md "Tills joined to a centre",
 * "The shop's books"): what its receipts, Today's sales and X/Z reports read. The record of truth is
 * the centre's; a copy is written when the till learns an outcome: the centre's answer to a sale or a
 * refund the till sent, and the entries of the centre's ledger of the till's sales that the till did
 * not send itself (a refund made at the centre's back office, a sale whose answer never came back).
 * A copy has the id of the centre's record (a refund's event too), so each is kept once, and the
 * centre can tell which of the till's days counted it (D19).
 */
import type { LedgerEntry } from '../../../contract/api/centre.js';
import { TransactionStatus as S } from '../../../contract/codes.js';
import { currencyExponent, toMinor } from '../../../contract/money.js';
import type { Clock, Ids } from '../kernel.js';
import type { CardEntryMode } from '../payments/ports.js';
import type { Repositories } from '../unit-of-work.js';
import { blankRecord } from '../payments/records.js';
import type { CentreLinkRecord } from './ports.js';

export interface RefundCopy {
  refundId: string;
  transactionId: string;
  amountMinor: number;
  merchantReference: string | null;
  merchantRefundId: string | null;
  at: string;
}

/** A refund the centre made of one of this till's sales, on the till's copy (its day counts it where it is written). */
export async function keepRefundCopy(tx: Repositories, refund: RefundCopy): Promise<void> {
  const copy = await tx.transactions.getById(refund.transactionId);
  if (!copy || (await tx.refunds.listByTransaction(copy.id)).some((r) => r.id === refund.refundId)) return;
  if (!(await tx.transactions.addRefund(copy.id, refund.amountMinor, refund.at))) return;
  const refunded = copy.refundedMinor + refund.amountMinor;
  const statusCode = refunded >= copy.capturedMinor ? S.refunded : S.partly_refunded;
  await tx.transactions.transition(copy.id, [copy.statusCode], { statusCode }, refund.at);
  await tx.refunds.insert({
    id: refund.refundId,
    transactionId: copy.id,
    merchantId: copy.merchantId,
    amountMinor: refund.amountMinor,
    statusCode: 1,
    merchantRefundId: refund.merchantRefundId,
    merchantReference: refund.merchantReference,
    executionDate: null,
    processorReference: null,
    createdAt: refund.at,
  });
  // The centre's refund event has the refund's id; so has this copy's (the ledger's key of a refund).
  await tx.events.append({ id: refund.refundId, transactionId: copy.id, type: 'refund', status: statusCode, amountMinor: refund.amountMinor, executionDate: null, message: `Refund ${refund.refundId}`, createdAt: refund.at });
}

const ENTRY_MODES: ReadonlySet<string> = new Set(['contactless', 'chip', 'swipe', 'manual']);

/** A sale of this till the centre holds and the till has no copy of (its answer never came back): its copy, as the centre recorded it. */
async function keepSaleCopy(tx: Repositories, ids: Ids, link: CentreLinkRecord, entry: LedgerEntry, now: string): Promise<void> {
  if (await tx.transactions.getById(entry.transaction_id)) return;
  const exponent = currencyExponent(entry.currency) ?? 2;
  const minor = toMinor(entry.sale_amount, exponent);
  if (!minor.ok) return;
  // The outcome of the sale itself; refunds follow as entries of their own.
  const taken = entry.status_code !== S.declined && entry.status_code !== S.error;
  const statusCode = taken ? S.completed : entry.status_code;
  const record = blankRecord({ id: entry.transaction_id, merchantId: link.merchantId, paymentType: 'cardpos', operation: 'payment', statusCode, orderId: entry.order_id, currency: entry.currency, amountMinor: minor.minor }, entry.sold_at);
  record.authorizedMinor = taken ? minor.minor : 0;
  record.capturedMinor = taken ? minor.minor : 0;
  record.message = entry.message;
  record.cardBrand = entry.card_brand;
  record.cardLastFour = entry.card_last_four;
  record.details = {
    ...(entry.entry_mode && ENTRY_MODES.has(entry.entry_mode)
      ? { pos: { entry_mode: entry.entry_mode as CardEntryMode, terminal: { id: entry.terminal_id, type: null, attended: null, capabilities: [] } } }
      : {}),
    ...(entry.staff_id ? { staff_id: entry.staff_id } : {}),
    ...(entry.authorization_code ? { authorization_code: entry.authorization_code } : {}),
  };
  record.tillId = link.tillId;
  record.updatedAt = now;
  await tx.transactions.insert(record);
  const event = (type: string, status: number) => ({ id: ids.newId(), transactionId: record.id, type, status, amountMinor: minor.minor, executionDate: null, message: entry.message, createdAt: now });
  if (taken) {
    await tx.events.append(event('authorization', S.authorized));
    await tx.events.append(event('capture', S.completed));
  } else {
    await tx.events.append(event('authorization', statusCode));
  }
}

/**
 * Applies entries of the centre's ledger of this till's sales, in order, in the caller's unit: a copy
 * of each sale and refund the till has none of yet; then how far it has applied them.
 */
export async function applyCentreLedger(tx: Repositories, deps: { ids: Ids; clock: Clock }, link: CentreLinkRecord, ledger: { cursor: number; entries: readonly LedgerEntry[] }): Promise<void> {
  const now = deps.clock.now().toISOString();
  for (const entry of ledger.entries) {
    if (entry.kind === 'sale') {
      await keepSaleCopy(tx, deps.ids, link, entry, now);
      continue;
    }
    const refund = entry.refund;
    const minor = refund ? toMinor(refund.amount, currencyExponent(entry.currency) ?? 2) : undefined;
    if (!refund || !minor?.ok) continue;
    await keepRefundCopy(tx, { refundId: refund.refund_id, transactionId: entry.transaction_id, amountMinor: minor.minor, merchantReference: refund.merchant_reference, merchantRefundId: null, at: refund.created_at });
  }
  if (ledger.cursor > link.ledgerCursor) await tx.journal.setLedgerCursor(ledger.cursor);
}
