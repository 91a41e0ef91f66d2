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
import type { PaymentRequest, TransactionResponse } from '../../../contract/api/payments.js';
import { cardBrand } from '../../../contract/cards.js';
import { TransactionStatus as S } from '../../../contract/codes.js';
import { currencyExponent, toMinor } from '../../../contract/money.js';
import type { Answer } from '../errors.js';
import type { Clock, Ids, Vault } from '../kernel.js';
import type { CardEntryMode } from '../payments/ports.js';
import { blankRecord, newRecord } from '../payments/records.js';
import { validatePaymentRequest } from '../payments/request.js';
import type { CentreLinkRecord, CentreUnit } from './ports.js';

export interface RefundCopy {
  refundId: string;
  transactionId: string;
  amountMinor: number;
  merchantReference: string | null;
  merchantRefundId: string | null;
  at: string;
}

/** A refund the centre made of one of this till's sales, on the till's copy (its day counts it where it is written). */
export async function keepRefundCopy(tx: CentreUnit, refund: RefundCopy): Promise<void> {
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
  await tx.events.append({
    id: refund.refundId,
    transactionId: copy.id,
    type: 'refund',
    status: statusCode,
    amountMinor: refund.amountMinor,
    executionDate: null,
    message: `Refund ${refund.refundId}`,
    createdAt: refund.at,
  });
}

/** The sale in an answer (a transaction), or undefined for a refusal or anything else. */
export function saleOf(answer: Answer): TransactionResponse | undefined {
  const body = answer.body;
  if (answer.kind === 'refused' || typeof body !== 'object' || body === null || !('transaction_id' in body)) return undefined;
  return body as TransactionResponse;
}

/**
 * This till's own copy of one of its sales from the answer it got (the centre's, or its own stored
 * sale's), written in the unit that learns the outcome; a stored sale's copy is stored (13) until
 * forwarded, then ends as it ended there. Nothing of it goes to the outbox: the centre sends the
 * postbacks. The copy is the till's sale, whatever terminal id POS software sent: the centre books it
 * so too (D19).
 */
export async function keepSaleCopy(
  tx: CentreUnit,
  deps: { ids: Ids; clock: Clock; vault: Vault },
  link: CentreLinkRecord | undefined,
  request: PaymentRequest,
  reply: Answer,
  staffId: string | null,
  stored?: { till_id: string; seq: number; stored_at: string },
): Promise<void> {
  const answer = saleOf(reply);
  if (!answer) return;
  const checked = validatePaymentRequest('payment', request);
  if (!checked.ok || !link || (await tx.transactions.getById(answer.transaction_id))) return;
  const command = checked.command;
  const now = deps.clock.now();
  const record = newRecord(answer.transaction_id, command, link.merchantId, now);
  record.tillId = link.tillId;
  const pan = command.card?.pan;
  const taken = answer.status_code === S.completed || answer.status_code === S.stored;
  record.statusCode = answer.status_code;
  record.message = answer.message;
  record.reasonCode = answer.reason_code ?? null;
  record.postbackUrl = null;
  record.authorizedMinor = taken ? command.amountMinor : 0;
  record.capturedMinor = taken ? command.amountMinor : 0;
  if (pan) {
    record.cardBrand = cardBrand(pan);
    record.cardLastFour = pan.slice(-4);
    record.cardBin = pan.slice(0, 6);
    // This till's own fingerprint of the card: its duplicate check while the centre is away.
    record.cardFingerprint = deps.vault.fingerprint(pan);
  }
  record.details = {
    ...record.details,
    ...(staffId ? { staff_id: staffId } : {}),
    ...(answer.authorization_code ? { authorization_code: answer.authorization_code } : {}),
    ...(stored ? { stored } : {}),
  };
  await tx.transactions.insert(record);
  const event = (type: string, eventStatus: number) => ({
    id: deps.ids.newId(),
    transactionId: record.id,
    type,
    status: eventStatus,
    amountMinor: command.amountMinor,
    executionDate: null,
    message: answer.message,
    createdAt: now.toISOString(),
  });
  // As the payment engine logs a one-step sale: its authorization, then the capture (the till ledger counts it).
  await tx.events.append(
    event(command.pos?.subsequent ? 'reauthorization' : 'authorization', taken ? (stored ? S.stored : S.authorized) : answer.status_code),
  );
  if (taken) await tx.events.append(event('capture', answer.status_code));
}

const ENTRY_MODES: ReadonlySet<string> = new Set(['contactless', 'chip', 'swipe', 'manual']);

/** A sale of this till the centre holds and the till has no copy of (its answer never came back): its copy, as the centre recorded it. */
async function keepCentreSaleCopy(tx: CentreUnit, ids: Ids, link: CentreLinkRecord, entry: LedgerEntry, now: string): Promise<void> {
  if (await tx.transactions.getById(entry.transaction_id)) return;
  const exponent = currencyExponent(entry.currency) ?? 2;
  const minor = toMinor(entry.sale_amount, exponent);
  if (!minor.ok) return;
  // The outcome of the sale itself; refunds follow as entries of their own.
  const taken = entry.status_code !== S.declined && entry.status_code !== S.error;
  const statusCode = taken ? S.completed : entry.status_code;
  const record = blankRecord(
    {
      id: entry.transaction_id,
      merchantId: link.merchantId,
      paymentType: 'cardpos',
      operation: 'payment',
      statusCode,
      orderId: entry.order_id,
      currency: entry.currency,
      amountMinor: minor.minor,
    },
    entry.sold_at,
  );
  record.authorizedMinor = taken ? minor.minor : 0;
  record.capturedMinor = taken ? minor.minor : 0;
  record.message = entry.message;
  record.cardBrand = entry.card_brand;
  record.cardLastFour = entry.card_last_four;
  record.details = {
    ...(entry.entry_mode && ENTRY_MODES.has(entry.entry_mode)
      ? {
          pos: {
            entry_mode: entry.entry_mode as CardEntryMode,
            terminal: { id: entry.terminal_id, type: null, attended: null, capabilities: [] },
          },
        }
      : {}),
    ...(entry.staff_id ? { staff_id: entry.staff_id } : {}),
    ...(entry.authorization_code ? { authorization_code: entry.authorization_code } : {}),
  };
  record.tillId = link.tillId;
  record.updatedAt = now;
  await tx.transactions.insert(record);
  const event = (type: string, status: number) => ({
    id: ids.newId(),
    transactionId: record.id,
    type,
    status,
    amountMinor: minor.minor,
    executionDate: null,
    message: entry.message,
    createdAt: now,
  });
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
export async function applyCentreLedger(
  tx: CentreUnit,
  deps: { ids: Ids; clock: Clock },
  link: CentreLinkRecord,
  ledger: { cursor: number; entries: readonly LedgerEntry[] },
): Promise<void> {
  const now = deps.clock.now().toISOString();
  for (const entry of ledger.entries) {
    if (entry.kind === 'sale') {
      await keepCentreSaleCopy(tx, deps.ids, link, entry, now);
      continue;
    }
    const refund = entry.refund;
    const minor = refund ? toMinor(refund.amount, currencyExponent(entry.currency) ?? 2) : undefined;
    if (!refund || !minor?.ok) continue;
    await keepRefundCopy(tx, {
      refundId: refund.refund_id,
      transactionId: entry.transaction_id,
      amountMinor: minor.minor,
      merchantReference: refund.merchant_reference,
      merchantRefundId: null,
      at: refund.created_at,
    });
  }
  if (ledger.cursor > link.ledgerCursor) await tx.journal.setLedgerCursor(ledger.cursor);
}
