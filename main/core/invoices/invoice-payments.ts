/**
 * Paying invoices (decisions.md D11): payment plans (instalments) and the customer's payments from
 * the invoice's pay page ({public_url}/pay/{uuid}). A payment is started like a hosted checkout's
 * (payments.create with details { invoice_id, instalment }) and the invoice follows its transaction
 * inside the transaction's own unit of work: started/pending -> processing; completed -> paid, or
 * partly_paid while a plan still has unpaid instalments; declined/cancelled/expired/error (and a
 * returned debit) -> back to pending (partly_paid when something was paid). This is D11's rule;
 * status_change stays the only API endpoint that sets the status by hand.
 *
 * An attempt the customer started and left (card, 3-D Secure or approval step never finished) does
 * not hold the invoice: it expires after its hour like every customer action (the invoice lapses
 * back), the pay page offers to continue it or to start again, and starting again cancels it.
 *
 * Which instalments are paid is read from the transactions themselves: every instalment has its own
 * order_id (`{plan id}-{n}`; `{invoice uuid}` without a plan), and an instalment counts as paid when
 * the latest transaction of its order is completed.
 */
import type {
  Instalment,
  InvoicePayment,
  InvoicePaymentList,
  InvoicePlanAnswer,
  PaymentPlan,
  PaymentPlanReply,
} from '../../../contract/api/invoices.js';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import {
  INVOICE_STATUSES,
  MAX_INSTALLMENTS,
  MIN_INSTALLMENTS,
  PLAN_INTERVALS,
  TRANSACTION_LIST_MAX_LIMIT,
  type InvoiceStatus,
  type PaymentType,
} from '../../../contract/constants.js';
import { currencyExponent, minorToAmount } from '../../../contract/money.js';
import { apiError, created, failure, success, validationError, type ApiError, type Outcome } from '../errors.js';
import type { OperationLocks } from '../locks.js';
import type { Operations } from '../idempotency/operation-runner.js';
import { HOSTED_METHODS } from '../checkouts/sessions.js';
import type { PaymentMethods } from '../payment-methods/payment-methods.js';
import type { Payments } from '../payments/payments.js';
import { transactionView } from '../transactions/queries.js';
import type { Clock, Ids } from '../kernel.js';
import type { InvoicesUnit, PaymentPlanRecord, StoredInvoice } from './ports.js';
import type { Store } from '../unit-of-work.js';
import type { TransactionRecord } from '../payments/ports.js';
import type { Operation } from '../idempotency/operation-runner.js';

export const PLAN_MESSAGES = {
  notFound: 'Payment plan not found.',
  alreadyActive: 'Invoice already has an active payment plan.',
  notPending: 'A payment plan can only be attached while the invoice is pending.',
  installments: `Installments must be a whole number from ${MIN_INSTALLMENTS} to ${MAX_INSTALLMENTS}.`,
  interval: `Interval is not included in the list (${PLAN_INTERVALS.join(', ')}).`,
  tooSmall: 'Amount is too small to split into that many installments.',
  notActive: 'Payment plan is not active.',
} as const;

/** What the pay page may show. */
export interface CustomerInvoice {
  uuid: string;
  merchant_name: string;
  number: string;
  description: string | null;
  customer_name: string | null;
  currency: string;
  /** Amount due now (a plan's next unpaid instalment), in major units. */
  amount_due: number;
  total: number;
  status: InvoiceStatus;
  locale: string;
  /**
   * Why no payment is taken: null when the customer can pay. `processing` only while a submitted
   * payment awaits its result (a SEPA debit before settlement); an open customer step does not block.
   */
  blocked: 'inactive' | 'expired' | 'paid' | 'processing' | null;
  instalment: { number: number; of: number; due_date: string } | null;
  methods: PaymentType[];
  /** A payment the customer started and has not finished yet (still in time): where to continue it. Paying again cancels it. */
  open_attempt: { transaction_id: string; continue_path: string } | null;
  /** The failed attempt the customer just came back from (asked for by id), when it is this invoice's latest. */
  failed_attempt: FailedAttempt | null;
  success_url: string | null;
  error_url: string | null;
}

/** How an attempt ended without payment; no card data. */
export interface FailedAttempt {
  transaction_id: string;
  payment_type: string;
  status: 'declined' | 'cancelled' | 'expired' | 'error';
  /** The decline's `"<code> <text>"` (e.g. `"51 Insufficient funds"`), for the page to put in the customer's words. */
  message: string | null;
  reason_code: string | null;
}

const FAILED: Record<number, FailedAttempt['status']> = {
  [S.declined]: 'declined',
  [S.cancelled]: 'cancelled',
  [S.expired]: 'expired',
  [S.error]: 'error',
};

export interface InvoicePaymentsDeps {
  store: Store<InvoicesUnit>;
  clock: Clock;
  ids: Ids;
  payments: Payments;
  /** What the merchant's settings enable (D15): the pay page offers only those methods. */
  methods: PaymentMethods;
  operations: Operations;
  /** One payment start at a time per invoice, across instances (key `invoice:<uuid>`). */
  locks: OperationLocks;
  publicUrl: () => string;
}

/** What a pay page may offer: card, SEPA Direct Debit and wallet, as the merchant's settings allow. */
const PAY_PAGE_METHODS: readonly PaymentType[] = HOSTED_METHODS.filter((type) => ['cardecom', 'dd', 'wallet'].includes(type));

function problem(code: ErrorCode, message: string, field = 'payment_plan'): ApiError {
  return apiError(code, message, [{ field, message }]);
}

const invoiceNotFound = (): ApiError =>
  apiError(ErrorCode.notFound, 'Invoice not found.', [{ field: 'invoice_number', message: 'Invoice not found.' }]);

/** Instalment amounts that add up exactly: the remainder goes on the first. */
export function splitAmount(totalMinor: number, installments: number): number[] {
  const base = Math.floor(totalMinor / installments);
  const rest = totalMinor - base * installments;
  return Array.from({ length: installments }, (_, i) => (i === 0 ? base + rest : base));
}

/** Due dates (YYYY-MM-DD, UTC): the first on the plan's day, then one interval apart. */
export function dueDates(start: string, installments: number, interval: PaymentPlanRecord['interval']): string[] {
  const day = new Date(`${start.slice(0, 10)}T00:00:00Z`);
  return Array.from({ length: installments }, (_, i) => {
    if (interval === 'week') return new Date(day.getTime() + i * 7 * 86_400_000).toISOString().slice(0, 10);
    const target = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + i, 1));
    const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
    target.setUTCDate(Math.min(day.getUTCDate(), last));
    return target.toISOString().slice(0, 10);
  });
}

const orderId = (invoice: StoredInvoice, plan: PaymentPlanRecord | undefined, instalment: number): string =>
  plan ? `${plan.id}-${instalment}` : invoice.uuid;

const isPaid = (t: TransactionRecord | undefined): boolean => !!t && (t.statusCode === S.completed || t.statusCode === S.authorized);

/** What the pay page shows, with the records behind it. */
interface Loaded {
  view: CustomerInvoice;
  invoice: StoredInvoice;
  plan: PaymentPlanRecord | undefined;
  /** The latest transaction of the order now due, when it is still started (open, or past its time but not yet expired). */
  started: TransactionRecord | undefined;
}

export class InvoicePayments {
  constructor(private readonly deps: InvoicePaymentsDeps) {
    deps.payments.onTransactionChange((tx, transaction) => this.follow(deps.store.viewOf(tx), transaction));
  }

  private paylink(uuid: string): string {
    return `${this.deps.publicUrl()}/pay/${uuid}`;
  }

  private async paidCount(r: InvoicesUnit, invoice: StoredInvoice, plan: PaymentPlanRecord | undefined): Promise<number> {
    const n = plan ? plan.installments : 1;
    let paid = 0;
    for (let k = 1; k <= n; k++) if (isPaid(await r.transactions.latestForOrder(invoice.merchantId, orderId(invoice, plan, k)))) paid++;
    return paid;
  }

  /** The plan payments follow: the active one, else the most recent completed one. */
  private async currentPlan(r: InvoicesUnit, invoiceId: number): Promise<PaymentPlanRecord | undefined> {
    const plans = await r.invoices.plans(invoiceId);
    return plans.find((p) => p.status === 'active') ?? plans.filter((p) => p.status === 'completed').at(-1);
  }

  private async planView(r: InvoicesUnit, invoice: StoredInvoice, plan: PaymentPlanRecord): Promise<PaymentPlan> {
    const exponent = currencyExponent(invoice.currency) ?? 2;
    const amounts = splitAmount(invoice.amountMinor, plan.installments);
    const dates = dueDates(plan.createdAt, plan.installments, plan.interval);
    const schedule: Instalment[] = [];
    let paid = 0;
    for (let k = 1; k <= plan.installments; k++) {
      const done = isPaid(await r.transactions.latestForOrder(invoice.merchantId, orderId(invoice, plan, k)));
      if (done) paid++;
      const minor = amounts[k - 1] ?? 0;
      schedule.push({ number: k, amount: minorToAmount(minor, exponent), amount_cents: minor, due_date: dates[k - 1] ?? '', paid: done });
    }
    return {
      id: plan.id,
      status: plan.status,
      installments: plan.installments,
      interval: plan.interval,
      currency: invoice.currency,
      amount: minorToAmount(invoice.amountMinor, exponent),
      amount_cents: invoice.amountMinor,
      paid_installments: paid,
      schedule,
      created_at: plan.createdAt,
      updated_at: plan.updatedAt,
    };
  }

  /** `POST /rest/invoices/:invoice_number/payment_plan`. */
  async createPlan(
    operation: Operation,
    number: string,
    body: { installments?: unknown; interval?: unknown },
  ): Promise<Outcome<PaymentPlanReply>> {
    const merchantId = operation.context.merchantId;
    return operation.commit(this.deps.store, async (tx): Promise<Outcome<PaymentPlanReply>> => {
      const invoice = await tx.invoices.resolve(merchantId, number);
      if (!invoice) return failure(invoiceNotFound());
      const installments = body.installments;
      if (
        typeof installments !== 'number' ||
        !Number.isInteger(installments) ||
        installments < MIN_INSTALLMENTS ||
        installments > MAX_INSTALLMENTS
      ) {
        return failure(problem(ErrorCode.validation, PLAN_MESSAGES.installments, 'installments'));
      }
      if (typeof body.interval !== 'string' || !(PLAN_INTERVALS as readonly string[]).includes(body.interval)) {
        return failure(problem(ErrorCode.validation, PLAN_MESSAGES.interval, 'interval'));
      }
      const plans = await tx.invoices.plans(invoice.id);
      if (plans.some((p) => p.status === 'active')) return failure(problem(ErrorCode.invalidState, PLAN_MESSAGES.alreadyActive));
      if (invoice.status !== 'pending') return failure(problem(ErrorCode.invalidState, PLAN_MESSAGES.notPending));
      if (invoice.amountMinor < installments) return failure(problem(ErrorCode.validation, PLAN_MESSAGES.tooSmall, 'installments'));
      const now = this.deps.clock.now().toISOString();
      const plan: PaymentPlanRecord = {
        id: this.deps.ids.newId(),
        invoiceId: invoice.id,
        status: 'active',
        installments,
        interval: body.interval as PaymentPlanRecord['interval'],
        createdAt: now,
        updatedAt: now,
      };
      await tx.invoices.insertPlan(plan);
      return created({ payment_plan: await this.planView(tx, invoice, plan), message: 'Payment plan created.', error: null });
    });
  }

  /** `GET`: the active plan, else the most recent one. */
  async getPlan(merchantId: string, number: string): Promise<Outcome<PaymentPlanReply>> {
    return this.deps.store.read(async (r): Promise<Outcome<PaymentPlanReply>> => {
      const invoice = await r.invoices.resolve(merchantId, number);
      if (!invoice) return failure(invoiceNotFound());
      const plans = await r.invoices.plans(invoice.id);
      const plan = plans.find((p) => p.status === 'active') ?? plans.at(-1);
      if (!plan) return failure(problem(ErrorCode.notFound, PLAN_MESSAGES.notFound));
      return success({ payment_plan: await this.planView(r, invoice, plan), message: 'Payment plan found.', error: null });
    });
  }

  /**
   * The back office's question (`GET /ui/invoices/:invoice_number/payment-plan`): the active plan,
   * else the most recent one, or null when the invoice never had one (an answer, not an error).
   */
  async planOrNone(merchantId: string, number: string): Promise<Outcome<InvoicePlanAnswer>> {
    return this.deps.store.read(async (r): Promise<Outcome<InvoicePlanAnswer>> => {
      const invoice = await r.invoices.resolve(merchantId, number);
      if (!invoice) return failure(invoiceNotFound());
      const plans = await r.invoices.plans(invoice.id);
      const plan = plans.find((p) => p.status === 'active') ?? plans.at(-1);
      return success({ payment_plan: plan ? await this.planView(r, invoice, plan) : null });
    });
  }

  /** `DELETE`: cancels the active plan. */
  async cancelPlan(operation: Operation, number: string): Promise<Outcome<PaymentPlanReply>> {
    const merchantId = operation.context.merchantId;
    return operation.commit(this.deps.store, async (tx): Promise<Outcome<PaymentPlanReply>> => {
      const invoice = await tx.invoices.resolve(merchantId, number);
      if (!invoice) return failure(invoiceNotFound());
      const plans = await tx.invoices.plans(invoice.id);
      const plan = plans.find((p) => p.status === 'active');
      if (!plan)
        return failure(
          problem(
            plans.length ? ErrorCode.invalidState : ErrorCode.notFound,
            plans.length ? PLAN_MESSAGES.notActive : PLAN_MESSAGES.notFound,
          ),
        );
      const now = this.deps.clock.now().toISOString();
      await tx.invoices.setPlanStatus(plan.id, 'cancelled', now);
      return success({
        payment_plan: await this.planView(tx, invoice, { ...plan, status: 'cancelled', updatedAt: now }),
        message: 'Payment plan cancelled.',
        error: null,
      });
    });
  }

  /**
   * The payments made through the invoice's pay link (`GET /ui/invoices/:invoice_number/payments`),
   * newest first: every transaction of its orders (the invoice's uuid, and `{plan id}-{n}` of each
   * of its plans, also cancelled ones) that the pay page started for this invoice.
   */
  async payments(merchantId: string, number: string): Promise<Outcome<InvoicePaymentList>> {
    return this.deps.store.read(async (r): Promise<Outcome<InvoicePaymentList>> => {
      const invoice = await r.invoices.resolve(merchantId, number);
      if (!invoice) return failure(invoiceNotFound());
      const orders: Array<{ orderId: string; plan: PaymentPlanRecord | undefined; instalment: number | null }> = [
        { orderId: invoice.uuid, plan: undefined, instalment: null },
      ];
      for (const plan of await r.invoices.plans(invoice.id)) {
        for (let k = 1; k <= plan.installments; k++) orders.push({ orderId: orderId(invoice, plan, k), plan, instalment: k });
      }
      const payments: InvoicePayment[] = [];
      for (const order of orders) {
        const rows = await r.transactions.list(merchantId, { orderId: order.orderId, limit: TRANSACTION_LIST_MAX_LIMIT, offset: 0 });
        for (const t of rows) {
          // The order id alone could be reused by API calls; the pay page marks its own payments.
          if (t.details.invoice_id !== invoice.id) continue;
          payments.push({ instalment: order.instalment, plan_id: order.plan?.id ?? null, transaction: transactionView(t) });
        }
      }
      payments.sort(
        (a, b) =>
          b.transaction.created_at.localeCompare(a.transaction.created_at) ||
          b.transaction.transaction_id.localeCompare(a.transaction.transaction_id),
      );
      return success({ payments });
    });
  }

  /**
   * The pay page's view of an invoice, or undefined when there is none. `attempt`: the transaction
   * id the customer came back with, explained in `failed_attempt` when it is a failed attempt of
   * this invoice and still the latest of its order.
   */
  async forCustomer(uuid: string, options: { attempt?: string } = {}): Promise<CustomerInvoice | undefined> {
    return (await this.load(uuid, options.attempt))?.view;
  }

  private async load(uuid: string, attempt?: string): Promise<Loaded | undefined> {
    return this.deps.store.read(async (r) => {
      const invoice = await r.invoices.byUuid(uuid);
      if (!invoice) return undefined;
      const channel = await r.channels.findByUrlName(invoice.channelUrlName);
      const exponent = currencyExponent(invoice.currency) ?? 2;
      const plans = await r.invoices.plans(invoice.id);
      const plan = plans.find((p) => p.status === 'active');
      const paid = await this.paidCount(r, invoice, plan);
      let dueMinor = invoice.amountMinor;
      let instalment: CustomerInvoice['instalment'] = null;
      if (plan && paid < plan.installments) {
        dueMinor = splitAmount(invoice.amountMinor, plan.installments)[paid] ?? 0;
        instalment = {
          number: paid + 1,
          of: plan.installments,
          due_date: dueDates(plan.createdAt, plan.installments, plan.interval)[paid] ?? '',
        };
      }
      const now = this.deps.clock.now().getTime();
      const latest = await r.transactions.latestForOrder(
        invoice.merchantId,
        orderId(invoice, plan, Math.min(paid + 1, plan?.installments ?? 1)),
      );
      const started = latest?.statusCode === S.started ? latest : undefined;
      const expired = invoice.expiresAt !== null && Date.parse(invoice.expiresAt) <= now;
      // processing blocks only while no started attempt explains it: a submitted debit awaiting
      // settlement, or a status set by hand. A started attempt can be continued or replaced.
      const blocked: CustomerInvoice['blocked'] = !invoice.active
        ? 'inactive'
        : invoice.status === 'paid'
          ? 'paid'
          : expired
            ? 'expired'
            : invoice.status === 'processing' && !started
              ? 'processing'
              : null;
      const name = [invoice.firstName, invoice.lastName].filter(Boolean).join(' ') || invoice.company;
      let openAttempt: CustomerInvoice['open_attempt'] = null;
      if (started && !(started.expiresAt && Date.parse(started.expiresAt) <= now)) {
        const url = started.details.client_action?.action_data.url;
        if (typeof url === 'string') openAttempt = { transaction_id: started.id, continue_path: new URL(url).pathname };
      }
      let failedAttempt: FailedAttempt | null = null;
      if (attempt) {
        const t = await r.transactions.getById(attempt);
        const status = t && FAILED[t.statusCode];
        if (t && status && t.details.invoice_id === invoice.id && t.merchantId === invoice.merchantId && t.orderId) {
          const newest = await r.transactions.latestForOrder(invoice.merchantId, t.orderId);
          if (newest?.id === t.id)
            failedAttempt = { transaction_id: t.id, payment_type: t.paymentType, status, message: t.message, reason_code: t.reasonCode };
        }
      }
      const view: CustomerInvoice = {
        uuid: invoice.uuid,
        merchant_name: channel?.name ?? invoice.channelUrlName,
        number: invoice.debtClaimNumber,
        description: invoice.description,
        customer_name: name || null,
        currency: invoice.currency,
        amount_due: minorToAmount(dueMinor, exponent),
        total: minorToAmount(invoice.amountMinor, exponent),
        status: invoice.status,
        locale: invoice.locale ?? invoice.channelLanguage ?? 'en',
        blocked,
        instalment,
        // Enabled for the merchant, in the invoice's currency, for the customer's country when the invoice has one.
        methods: await this.deps.methods.offered(r, invoice.merchantId, PAY_PAGE_METHODS, invoice.currency, invoice.country ?? undefined),
        open_attempt: openAttempt,
        failed_attempt: failedAttempt,
        success_url: invoice.successUrl,
        error_url: invoice.errorUrl,
      };
      return { view, invoice, plan, started };
    });
  }

  /**
   * The customer chose a method on the pay page: start the payment and say where to go next. An
   * attempt still started for the same instalment is cancelled first (expired, when its time had
   * run out): the customer starts afresh, as on the hosted pages of the big gateways.
   */
  async pay(
    uuid: string,
    input: { method: string; iban?: string; account_holder?: string },
  ): Promise<Outcome<{ transaction_id: string; redirectTo: string }>> {
    // One payment start at a time per invoice (on any instance), so two tabs cannot both start one.
    return this.deps.locks.outcome(`invoice:${uuid}`, () => this.payLocked(uuid, input));
  }

  private async payLocked(
    uuid: string,
    input: { method: string; iban?: string; account_holder?: string },
  ): Promise<Outcome<{ transaction_id: string; redirectTo: string }>> {
    let loaded = await this.load(uuid);
    if (!loaded) return failure(invoiceNotFound());
    const blocked = (view: CustomerInvoice) =>
      apiError(ErrorCode.invalidState, `This invoice is ${view.blocked}`, [{ field: 'invoice', message: `is ${view.blocked}` }]);
    if (loaded.view.blocked) return failure(blocked(loaded.view));
    if (!(loaded.view.methods as string[]).includes(input.method))
      return failure(validationError([{ field: 'method', message: 'choose one of the payment methods offered' }]));
    if (loaded.started) {
      const left = await this.deps.payments.abandon(loaded.started.id);
      // It ended otherwise meanwhile (paid or declined in another tab): the customer sees the invoice as it now is.
      if (left?.statusCode !== S.cancelled && left?.statusCode !== S.expired) {
        return failure(
          apiError(ErrorCode.invalidState, 'The started payment of this invoice has just ended', [
            { field: 'invoice', message: 'changed meanwhile' },
          ]),
        );
      }
      loaded = await this.load(uuid);
      if (!loaded) return failure(invoiceNotFound());
      if (loaded.view.blocked) return failure(blocked(loaded.view));
    }
    const { view, invoice, plan } = loaded;
    const instalment = view.instalment?.number ?? 1;
    const back = this.paylink(uuid);
    const outcome = await this.deps.operations.perform({ merchantId: invoice.merchantId }, (operation) =>
      this.deps.payments.create(
        operation,
        'payment',
        {
          payment_type: input.method as PaymentType,
          order_id: orderId(invoice, plan, instalment),
          amount: view.amount_due,
          currency: invoice.currency,
          merchant_reference: invoice.debtClaimNumber.replace(/[^A-Za-z0-9/\-?():.,'+ ]/g, '').slice(0, 35) || 'Invoice',
          success_url: invoice.successUrl ?? back,
          error_url: invoice.errorUrl ?? back,
          ...(invoice.description ? { additional_transaction_data: invoice.description.slice(0, 2000) } : {}),
          ...(invoice.firstName ? { first_name: invoice.firstName } : {}),
          ...(invoice.lastName ? { last_name: invoice.lastName } : {}),
          ...(invoice.email ? { email: invoice.email } : {}),
          ...(input.method === 'dd' ? { iban: input.iban ?? '', account_holder: input.account_holder ?? '' } : {}),
        },
        // The invoice follows its transaction in the transaction's unit of work: no postback needed.
        { details: { invoice_id: invoice.id, instalment }, followedInternally: true, invoiceNumber: invoice.debtClaimNumber },
      ),
    );
    if (!outcome.ok) return outcome;
    const transaction = outcome.value;
    // No customer step (SEPA): straight back to the pay page, which shows the result of this attempt.
    const result = new URL(back);
    result.searchParams.set('transaction_id', transaction.transaction_id);
    return success({ transaction_id: transaction.transaction_id, redirectTo: transaction.action_data?.url ?? result.toString() });
  }

  /** Inside a transaction's unit of work: move its invoice (and plan) along. */
  private async follow(tx: InvoicesUnit, t: TransactionRecord): Promise<void> {
    const invoiceId = t.details.invoice_id;
    if (invoiceId === undefined) return;
    const invoice = await tx.invoices.get(invoiceId);
    if (!invoice) return;
    const now = this.deps.clock.now().toISOString();
    const plan = await this.currentPlan(tx, invoice.id);
    let status: InvoiceStatus | undefined;
    if (t.statusCode === S.started || t.statusCode === S.pending) {
      status = 'processing';
    } else if (isPaid(t)) {
      const paid = await this.paidCount(tx, invoice, plan);
      const all = plan ? plan.installments : 1;
      status = paid >= all ? 'paid' : 'partly_paid';
      if (plan && plan.status === 'active' && paid >= all) await tx.invoices.setPlanStatus(plan.id, 'completed', now);
    } else if ([S.declined, S.cancelled, S.expired, S.error, S.chargeback].includes(t.statusCode as never)) {
      // An older attempt that ends while a newer one of the same order is under way changes nothing.
      const newest = t.orderId ? await tx.transactions.latestForOrder(t.merchantId, t.orderId) : undefined;
      if (newest && newest.id !== t.id && (newest.statusCode === S.started || newest.statusCode === S.pending)) return;
      status = (await this.paidCount(tx, invoice, plan)) > 0 ? 'partly_paid' : 'pending';
    }
    // A status change only, from any status but this one and paid (checked by the update itself).
    if (status && status !== invoice.status && invoice.status !== 'paid') {
      await tx.invoices.update(
        invoice.id,
        { status, updatedAt: now },
        { statuses: INVOICE_STATUSES.filter((other) => other !== status && other !== 'paid') },
      );
    }
  }
}
