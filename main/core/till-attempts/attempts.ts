/**
 * The till's card attempts (decisions.md D16): a sale's attempt whose outcome is unknown stays that
 * sale's attempt until the gateway says how it ended, and no second charge starts before that,
 * across reloads and restarts. The till records its attempt here before it sends the payment, and
 * resolves it when it has the answer, or after a lost answer, a reload or a restart.
 *
 * Resolving fences the attempt's idempotency key (a request that has not arrived yet can never run
 * afterwards), so what the order's transactions say then is final.
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { TillAttemptInput, TillAttempt, TillResolution } from '../../../contract/api/till-attempts.js';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import { currencyExponent, minorToAmount, toMinor, amountProblemText } from '../../../contract/money.js';
import { apiError, created, failure, success, validationError, type Outcome } from '../errors.js';
import { checkIdempotencyKey, type Idempotency } from '../idempotency/idempotency.js';
import type { AttemptSettlement, TillLink } from '../centre/till-link.js';
import type { Clock, Ids } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { TillAttemptRecord, TillUnit } from './ports.js';
import type { TransactionRecord } from '../payments/ports.js';
import { transactionView } from '../transactions/queries.js';

/** Statuses in which a card was charged (or money reserved): the sale must not be charged again. */
const CHARGED: ReadonlySet<number> = new Set([S.pending, S.completed, S.authorized, S.refunded, S.partly_refunded, S.chargeback]);
const ORDER_ID = /^[\x20-\x7e]{1,100}$/;

function view(a: TillAttemptRecord): TillAttempt {
  return {
    attempt_id: a.id,
    order_id: a.orderId,
    idempotency_key: a.idempotencyKey,
    amount: minorToAmount(a.amountMinor, currencyExponent(a.currency) ?? 2),
    currency: a.currency,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
  };
}

export class TillAttempts {
  constructor(
    private readonly store: Store<TillUnit>,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly idempotency: Idempotency,
    /** A till joined to a centre: its sales' records live there (or in its journal while stored). */
    private readonly tillLink?: TillLink,
  ) {}

  async current(merchantId: string, tillId: string): Promise<TillAttempt | null> {
    const open = await this.store.read((r) => r.tillAttempts.open(merchantId, tillId));
    return open ? view(open) : null;
  }

  /**
   * The till is about to send a payment for a sale: records (or moves to) this request's key.
   * Refused while an earlier request of this till may still be charging (4001), and for a sale
   * that is already charged (1002): the till resolves first and shows what happened.
   */
  async begin(merchantId: string, tillId: string, staffId: string | null, input: TillAttemptInput): Promise<Outcome<TillAttempt>> {
    const errors: FieldError[] = [];
    if (!ORDER_ID.test(input.order_id)) errors.push({ field: 'order_id', message: 'must be 1 to 100 printable characters' });
    const keyProblem = checkIdempotencyKey(input.idempotency_key, 'idempotency_key');
    if (keyProblem) errors.push(...keyProblem.errors);
    const exponent = currencyExponent(input.currency);
    if (exponent === undefined) errors.push({ field: 'currency', message: 'must be an ISO 4217 currency code' });
    let amountMinor: number | undefined;
    if (exponent !== undefined) {
      const parsed = toMinor(input.amount, exponent);
      if (!parsed.ok) errors.push({ field: 'amount', message: amountProblemText(parsed.problem, exponent) });
      else if (parsed.minor <= 0) errors.push({ field: 'amount', message: 'must be greater than 0' });
      else amountMinor = parsed.minor;
    }
    if (errors.length || amountMinor === undefined) return failure(validationError(errors));

    const open = await this.store.read((r) => r.tillAttempts.open(merchantId, tillId));
    if (open && open.idempotencyKey === input.idempotency_key) {
      return open.orderId === input.order_id && open.amountMinor === amountMinor && open.currency === input.currency
        ? success(view(open))
        : failure(validationError([{ field: 'idempotency_key', message: 'belongs to another attempt' }]));
    }
    if (open) {
      const settled = await this.settle(open);
      if (settled.state === 'in_progress') return failure(inProgress(open));
      if (settled.state === 'approved') return failure(alreadyCharged(open.orderId, settled.transaction.transaction_id));
      // The earlier request charged nothing: this sale goes on with a new request, or it was given
      // up and a new sale starts.
      if (open.orderId === input.order_id) {
        const now = this.clock.now().toISOString();
        const moved = await this.store.run((tx) => tx.tillAttempts.rekey(open.id, input.idempotency_key, staffId, now));
        if (!moved) return failure(inProgress(open));
        return success({ ...view(open), idempotency_key: input.idempotency_key, updated_at: now });
      }
      await this.store.run((tx) =>
        tx.tillAttempts.resolve(open.id, 'not_charged', settled.transaction?.transaction_id ?? null, this.clock.now().toISOString()),
      );
    }
    const charged = this.tillLink?.linked ? undefined : await this.chargedTransaction(merchantId, input.order_id);
    if (charged) return failure(alreadyCharged(input.order_id, charged.id));
    const now = this.clock.now().toISOString();
    const record: TillAttemptRecord = {
      id: this.ids.newId(),
      merchantId,
      tillId,
      staffId,
      orderId: input.order_id,
      idempotencyKey: input.idempotency_key,
      amountMinor,
      currency: input.currency,
      createdAt: now,
      updatedAt: now,
      resolvedAt: null,
      outcome: null,
      transactionId: null,
    };
    // The unique index allows one open attempt per till: a concurrent begin loses here.
    const inserted = await this.store.run(async (tx) => {
      if (await tx.tillAttempts.open(merchantId, tillId)) return false;
      await tx.tillAttempts.insert(record);
      return true;
    });
    if (!inserted) return failure(apiError(ErrorCode.idempotencyInFlight, 'Another payment was started at this till at the same moment'));
    return created(view(record));
  }

  /** How the till's open attempt ended; closes it once that is known. */
  async resolve(merchantId: string, tillId: string): Promise<TillResolution> {
    const open = await this.store.read((r) => r.tillAttempts.open(merchantId, tillId));
    if (!open) return { state: 'none' };
    const settled = await this.settle(open);
    if (settled.state === 'in_progress') return { state: 'in_progress', attempt: view(open) };
    const now = this.clock.now().toISOString();
    await this.store.run((tx) => tx.tillAttempts.resolve(open.id, settled.state, settled.transaction?.transaction_id ?? null, now));
    const attempt = view({ ...open, resolvedAt: now });
    return settled.state === 'approved'
      ? { state: 'approved', attempt, transaction: settled.transaction }
      : { state: 'not_charged', attempt, transaction: settled.transaction };
  }

  /**
   * Fences the attempt's key; then the order's transactions tell the whole story. At a till joined
   * to a centre, the till's answer or the centre (which fences the key there) tells it.
   */
  private async settle(attempt: TillAttemptRecord): Promise<AttemptSettlement> {
    const fence = await this.idempotency.fence(attempt.merchantId, attempt.idempotencyKey);
    if (this.tillLink?.linked) return this.tillLink.settleAttempt(attempt.idempotencyKey, fence);
    if (fence.kind === 'in_flight') return { state: 'in_progress' };
    const transactions = await this.orderTransactions(attempt.merchantId, attempt.orderId);
    const charged = transactions.find((t) => CHARGED.has(t.statusCode));
    const first = transactions[0];
    return charged
      ? { state: 'approved', transaction: transactionView(charged) }
      : { state: 'not_charged', transaction: first ? transactionView(first) : null };
  }

  private orderTransactions(merchantId: string, orderId: string): Promise<TransactionRecord[]> {
    return this.store.read((r) => r.transactions.list(merchantId, { orderId, limit: 100, offset: 0 }));
  }

  private async chargedTransaction(merchantId: string, orderId: string): Promise<TransactionRecord | undefined> {
    return (await this.orderTransactions(merchantId, orderId)).find((t) => CHARGED.has(t.statusCode));
  }
}

function inProgress(open: TillAttemptRecord) {
  return apiError(ErrorCode.idempotencyInFlight, `The last payment at this till (order ${open.orderId}) is still being processed`);
}

function alreadyCharged(orderId: string, transactionId: string) {
  return apiError(
    ErrorCode.invalidState,
    `The sale ${orderId} was already charged (transaction ${transactionId}): it is not charged again`,
    [{ field: 'order_id', message: `was charged in transaction ${transactionId}` }],
  );
}
