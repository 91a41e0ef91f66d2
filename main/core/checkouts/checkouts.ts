/**
 * Hosted checkout sessions (docs/api.md "Hosted checkout"). The merchant creates a session; the
 * customer chooses one of the merchant's payment types on the gateway's page and pays. The session
 * follows its transaction inside the transaction's own unit of work: open -> processing (payment
 * started) -> completed, back to open when a payment fails (the customer may try again), cancelled
 * by the customer, or expired after 24 hours. Each status change queues a postback to the session's
 * postback_url.
 */
import type {
  BackOfficeCheckout,
  BackOfficeCheckoutDetail,
  BackOfficeCheckoutList,
  BackOfficeCheckoutRequest,
  CheckoutRequest,
  CheckoutCreated,
  Checkout,
  CheckoutListQuery,
} from '../../../contract/api/checkouts.js';
import type { FieldError } from '../../../contract/api/common.js';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import {
  CHECKOUT_LOCALES,
  CHECKOUT_STATUSES,
  CHECKOUTS_DEFAULT_PER_PAGE,
  CHECKOUTS_MAX_PER_PAGE,
  type CheckoutLocale,
  type PaymentType,
} from '../../../contract/constants.js';
import { currencyExponent, minorToAmount, toMinor } from '../../../contract/money.js';
import { isEmailAddress } from '../../../contract/text-rules.js';
import { apiError, created, failure, success, validationError, type Outcome } from '../errors.js';
import { ibanProblem } from '../mandates/mandates.js';
import type { Operation, Operations } from '../idempotency/operation-runner.js';
import type { PaymentMethods } from '../payment-methods/payment-methods.js';
import type { Payments } from '../payments/payments.js';
import { isCountryCode } from '../countries.js';
import { parseAmount, validateCommonFields } from '../payments/request.js';
import { oneOf, pageMetadata, readPageQuery } from '../paging.js';
import type { CheckoutFilter, CheckoutRecord, CheckoutsUnit } from './ports.js';
import {
  COLLECT_FLAGS,
  collectOf,
  DISPLAY_FLAGS,
  HOSTED_METHODS,
  methodsFor,
  newSession,
  notFound,
  paymentReference,
  PREFILL_KEYS,
  prefillCountry,
  sessionView,
  type CustomerCheckout,
  type CustomerPayment,
  type SessionRequest,
  type StaffActor,
} from './sessions.js';

import type { Clock, Ids, QrCodes, ScheduledTask } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { TransactionRecord } from '../payments/ports.js';
import type { Scheduler } from '../scheduler.js';
import { transactionView } from '../transactions/queries.js';

export interface CheckoutsDeps {
  store: Store<CheckoutsUnit>;
  clock: Clock;
  ids: Ids;
  payments: Payments;
  /** What the merchant's settings enable (D15): the page offers only those methods. */
  methods: PaymentMethods;
  operations: Operations;
  scheduler: Scheduler;
  publicUrl: () => string;
  /** The customer link's QR code on the back office's detail. */
  qrCodes: QrCodes;
}

/** The QR code of a session's link on the back office's detail, as wide as the invoices' (D11). */
const QR_CODE_WIDTH = 250;

export class Checkouts {
  constructor(private readonly deps: CheckoutsDeps) {
    deps.payments.onTransactionChange((tx, transaction) => this.follow(deps.store.viewOf(tx), transaction));
    deps.scheduler.register('expire_checkout', (task) => this.expire(task));
  }

  /** The methods the session's page offers: enabled for the merchant, in its currency and the prefilled country. */
  private offered(repos: CheckoutsUnit, record: CheckoutRecord, country = prefillCountry(record)): Promise<PaymentType[]> {
    return this.deps.methods.offered(repos, record.merchantId, HOSTED_METHODS, record.currency, country);
  }

  private url(id: string): string {
    return `${this.deps.publicUrl()}/checkout/${id}`;
  }

  validate(request: CheckoutRequest): {
    errors: FieldError[];
    minor?: { amount: number; taxes: number; shipping: number; total: number; exponent: number };
  } {
    const errors: FieldError[] = [];
    if (typeof request.merchant_name !== 'string' || !request.merchant_name.trim())
      errors.push({ field: 'merchant_name', message: 'must not be blank' });
    if (typeof request.order_id !== 'string' || !/^[\x21-\x7e](?:[\x20-\x7e]{0,98}[\x21-\x7e])?$/.test(request.order_id))
      errors.push({ field: 'order_id', message: 'must be 1 to 100 printable characters' });
    validateCommonFields({ success_url: request.success_url, error_url: request.error_url, postback_url: request.postback_url }, errors);
    for (const flag of [...COLLECT_FLAGS, ...DISPLAY_FLAGS]) {
      const value = request[flag];
      if (value !== undefined && value !== 0 && value !== 1) errors.push({ field: flag, message: 'must be 0 or 1' });
    }
    if (request.payment_instruction_merchant_iban !== undefined) {
      const problem = ibanProblem(request.payment_instruction_merchant_iban);
      if (problem) errors.push({ field: 'payment_instruction_merchant_iban', message: problem });
    }
    if (request.display_manual_payment_instruction_to_customer === 1 && request.payment_instruction_merchant_iban === undefined) {
      errors.push({
        field: 'payment_instruction_merchant_iban',
        message: 'is required when display_manual_payment_instruction_to_customer is 1',
      });
    }
    const country = request.prefill_customer_info?.country;
    if (country !== undefined && !isCountryCode(country))
      errors.push({ field: 'prefill_customer_info.country', message: 'must be an ISO 3166-1 alpha-2 code' });
    const email = request.prefill_customer_info?.email;
    if (email !== undefined && !isEmailAddress(email))
      errors.push({ field: 'prefill_customer_info.email', message: 'must be an e-mail address' });
    if (request.locale !== undefined && !(CHECKOUT_LOCALES as readonly string[]).includes(request.locale)) {
      errors.push({ field: 'locale', message: `must be one of ${CHECKOUT_LOCALES.join(', ')}` });
    }
    const exponent = currencyExponent(request.currency);
    if (exponent === undefined) {
      errors.push({ field: 'currency', message: 'must be an ISO 4217 currency code such as EUR' });
      return { errors };
    }
    if (methodsFor(request.currency).length === 0)
      errors.push({ field: 'currency', message: 'no hosted payment method supports this currency' });
    const amount = parseAmount(request.amount, exponent, 'amount', errors);
    const taxes = request.amount_taxes === undefined ? 0 : parseAmount(request.amount_taxes, exponent, 'amount_taxes', errors);
    const shipping = request.amount_shipping === undefined ? 0 : parseAmount(request.amount_shipping, exponent, 'amount_shipping', errors);
    const total = parseAmount(request.total_amount, exponent, 'total_amount', errors);
    if (amount === undefined || taxes === undefined || shipping === undefined || total === undefined) return { errors };
    if (total === 0) errors.push({ field: 'total_amount', message: 'must be greater than 0' });
    if (amount + taxes + shipping !== total) {
      errors.push({
        field: 'total_amount',
        message: `must equal amount + amount_taxes + amount_shipping (${minorToAmount(amount + taxes + shipping, exponent)})`,
      });
    }
    return { errors, minor: { amount, taxes, shipping, total, exponent } };
  }

  async create(operation: Operation, request: CheckoutRequest): Promise<Outcome<CheckoutCreated>> {
    const { errors, minor } = this.validate(request);
    if (errors.length || !minor) return failure(validationError(errors));
    const refusal = await this.unoffered(operation.context.merchantId, request);
    if (refusal) return refusal;
    const record = newSession(this.deps.ids.newId(), operation.context.merchantId, request, minor, this.deps.clock.now());
    const outcome = await operation.commit(this.deps.store, async (tx) => {
      await this.insert(tx, record);
      return success({
        checkout_id: record.id,
        error_code: 0 as const,
        status: record.status,
        client_action: 'redirect' as const,
        action_data: { url: this.url(record.id) },
      });
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  /** The refusal when no hosted payment method the merchant has enabled takes this currency (and country). */
  private async unoffered(merchantId: string, request: SessionRequest): Promise<Outcome<never> | null> {
    const country = request.prefill_customer_info?.country;
    const offered = await this.deps.store.read((r) =>
      this.deps.methods.offered(
        r,
        merchantId,
        HOSTED_METHODS,
        request.currency,
        country !== undefined && isCountryCode(country) ? country : undefined,
      ),
    );
    if (offered.length > 0) return null;
    return failure(
      apiError(
        ErrorCode.paymentType,
        `No payment method enabled for this merchant takes ${request.currency}${country ? ` from customers in ${country}` : ''} on a hosted page`,
        [{ field: 'currency', message: `no enabled hosted payment method (${HOSTED_METHODS.join(', ')}) takes it` }],
      ),
    );
  }

  private async insert(tx: CheckoutsUnit, record: CheckoutRecord): Promise<void> {
    await tx.checkouts.insert(record);
    await this.deps.scheduler.schedule(tx, 'expire_checkout', record.id, record.merchantId, new Date(record.expiresAt));
  }

  async read(merchantId: string, id: string): Promise<Outcome<Checkout>> {
    const record = await this.deps.store.read((r) => r.checkouts.get(id));
    if (!record || record.merchantId !== merchantId) return notFound(id);
    const methods = await this.deps.store.read((r) => this.offered(r, record));
    return success(sessionView(record, methods, this.url(record.id)));
  }

  async forCustomer(id: string): Promise<CustomerCheckout | undefined> {
    const record = await this.deps.store.read((r) => r.checkouts.get(id));
    if (!record) return undefined;
    const request = record.request as unknown as CheckoutRequest;
    const exponent = currencyExponent(record.currency) ?? 2;
    const methods = await this.deps.store.read((r) => this.offered(r, record));
    const prefill: Record<string, string> = {};
    for (const key of PREFILL_KEYS) {
      const value = request.prefill_customer_info?.[key];
      if (typeof value === 'string') prefill[key] = value;
    }
    return {
      id: record.id,
      status: record.status,
      merchant_name: request.merchant_name,
      order_id: record.orderId,
      reference: request.reference ?? null,
      description: request.description ?? null,
      currency: record.currency,
      amount: minorToAmount(record.amountMinor, exponent),
      amount_taxes: minorToAmount(record.taxesMinor, exponent),
      amount_shipping: minorToAmount(record.shippingMinor, exponent),
      total_amount: minorToAmount(record.totalMinor, exponent),
      display_transaction_details: request.display_transaction_details === 1,
      methods,
      collect: collectOf(request),
      prefill: { ...prefill, ...record.customer },
      instructions: {
        show: request.display_manual_payment_instruction_to_customer === 1,
        account_holder: request.payment_instruction_merchant_account_holder ?? null,
        iban: request.payment_instruction_merchant_iban ?? null,
        bic: request.payment_instruction_merchant_bic ?? null,
      },
      locale: record.locale,
      transaction_id: record.transactionId,
      success_url: record.successUrl,
      error_url: record.errorUrl,
    };
  }

  /** The customer chose a payment type on the page: start that payment and say where to go next. */
  async pay(id: string, input: CustomerPayment): Promise<Outcome<{ transaction_id: string; redirectTo: string }>> {
    const record = await this.deps.store.read((r) => r.checkouts.get(id));
    if (!record) return failure(apiError(ErrorCode.notFound, `Checkout ${id} not found`));
    if (record.status !== 'open') {
      return failure(
        apiError(ErrorCode.invalidState, `This checkout is ${record.status}`, [{ field: 'checkout_id', message: `is ${record.status}` }]),
      );
    }
    // What the merchant prefilled counts unless the customer changed it on the page.
    const prefill = (record.request as unknown as CheckoutRequest).prefill_customer_info ?? {};
    const entered = Object.fromEntries(
      Object.entries(input.customer)
        .filter(([, value]) => value.trim() !== '')
        .map(([key, value]) => [key, value.trim()]),
    );
    const customer: Record<string, string> = { ...(prefill as Record<string, string>), ...entered };
    // Offered: enabled for the merchant, in the currency, and serving the customer's country as now entered.
    const country = customer.country && isCountryCode(customer.country) ? customer.country : undefined;
    const offered = await this.deps.store.read((r) => this.offered(r, record, country));
    if (!(offered as string[]).includes(input.method)) {
      return failure(validationError([{ field: 'method', message: 'choose one of the payment methods offered' }]));
    }
    const exponent = currencyExponent(record.currency) ?? 2;
    const outcome = await this.deps.operations.perform({ merchantId: record.merchantId }, (operation) =>
      this.deps.payments.create(
        operation,
        'payment',
        {
          payment_type: input.method,
          order_id: record.orderId,
          amount: minorToAmount(record.totalMinor, exponent),
          currency: record.currency,
          merchant_reference: paymentReference(record),
          success_url: record.successUrl,
          error_url: record.errorUrl,
          ...(record.postbackUrl !== null ? { postback_url: record.postbackUrl } : {}),
          ...(typeof record.request.description === 'string'
            ? { additional_transaction_data: record.request.description.slice(0, 2000) }
            : {}),
          ...(customer.first_name ? { first_name: customer.first_name } : {}),
          ...(customer.last_name ? { last_name: customer.last_name } : {}),
          ...(customer.email ? { email: customer.email } : {}),
          ...(customer.address ? { address: customer.address } : {}),
          ...(customer.city ? { city: customer.city } : {}),
          ...(customer.postal_code ? { postal_code: customer.postal_code } : {}),
          ...(customer.country && isCountryCode(customer.country) ? { country: customer.country } : {}),
          ...(input.method === 'dd' ? { iban: input.iban ?? '', account_holder: input.account_holder ?? '' } : {}),
        },
        // A session without a postback URL (opened in the back office) follows its payment itself.
        { details: { checkout_id: record.id, checkout_customer: customer }, followedInternally: record.postbackUrl === null },
      ),
    );
    if (!outcome.ok) return outcome;
    const transaction = outcome.value;
    const redirectTo = transaction.action_data?.url ?? this.resultTarget(transaction.status_code, record, transaction.transaction_id);
    return success({ transaction_id: transaction.transaction_id, redirectTo });
  }

  private resultTarget(statusCode: number, record: CheckoutRecord, transactionId: string): string {
    const ok = statusCode === S.completed || statusCode === S.pending || statusCode === S.authorized;
    const url = new URL(ok ? record.successUrl : record.errorUrl);
    url.searchParams.set('transaction_id', transactionId);
    url.searchParams.set('checkout_id', record.id);
    return url.toString();
  }

  async cancel(id: string): Promise<Outcome<{ redirectTo: string | null }>> {
    const record = await this.deps.store.read((r) => r.checkouts.get(id));
    if (!record) return failure(apiError(ErrorCode.notFound, `Checkout ${id} not found`));
    const changed = await this.deps.store.run((tx) => this.cancelIn(tx, id));
    if (!changed) return failure(apiError(ErrorCode.invalidState, `This checkout is ${record.status}`));
    const url = new URL(record.errorUrl);
    url.searchParams.set('checkout_id', id);
    return success({ redirectTo: url.toString() });
  }

  /** open -> cancelled with its postback, in the caller's unit of work; false when it was not open. */
  private async cancelIn(tx: CheckoutsUnit, id: string): Promise<boolean> {
    if (!(await tx.checkouts.transition(id, ['open'], 'cancelled', this.deps.clock.now().toISOString()))) return false;
    await this.notify(tx, id);
    return true;
  }

  /** Inside a transaction's unit of work: move its checkout along. */
  private async follow(tx: CheckoutsUnit, t: TransactionRecord): Promise<void> {
    const checkoutId = t.details.checkout_id;
    if (checkoutId === undefined) return;
    const now = this.deps.clock.now().toISOString();
    let moved = false;
    if (t.statusCode === S.started || t.statusCode === S.pending) {
      const customer = t.details.checkout_customer ?? {};
      moved = await tx.checkouts.transition(checkoutId, ['open'], 'processing', now, { transactionId: t.id, customer });
    } else if (t.statusCode === S.completed || t.statusCode === S.authorized) {
      moved = await tx.checkouts.transition(checkoutId, ['open', 'processing'], 'completed', now, { transactionId: t.id });
    } else if ([S.declined, S.cancelled, S.expired, S.error].includes(t.statusCode as never)) {
      // The customer may try again (another card, another method).
      moved = await tx.checkouts.transition(checkoutId, ['processing'], 'open', now, { transactionId: t.id });
    }
    if (moved) await this.notify(tx, checkoutId);
  }

  private async notify(tx: CheckoutsUnit, id: string): Promise<void> {
    const record = await tx.checkouts.get(id);
    if (!record?.postbackUrl) return;
    const now = this.deps.clock.now().toISOString();
    await tx.outbox.append({
      id: this.deps.ids.newId(),
      merchantId: record.merchantId,
      subjectType: 'checkout',
      subjectId: record.id,
      orderId: record.orderId,
      url: record.postbackUrl,
      payload: {
        checkout_id: record.id,
        status: record.status,
        transaction_id: record.transactionId,
        order_id: record.orderId,
        amount: minorToAmount(record.totalMinor, currencyExponent(record.currency) ?? 2),
        currency: record.currency,
      },
      state: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
  }

  // ---- the back office ----

  /**
   * A back-office session as a checkout request: the merchant's name and (by default) currency,
   * the total of its parts, and the session's own page as success and error URL (it shows the
   * result). Amount parts that are not amounts are left for validate() to name.
   */
  private backOfficeRequest(body: BackOfficeCheckoutRequest, merchantName: string, pageUrl: string): SessionRequest {
    const exponent = currencyExponent(body.currency) ?? 2;
    const parts = [body.amount, body.amount_taxes ?? 0, body.amount_shipping ?? 0].map((part) => toMinor(part, exponent));
    const total = parts.every((p) => p.ok)
      ? minorToAmount(
          parts.reduce((sum, p) => sum + (p.ok ? p.minor : 0), 0),
          exponent,
        )
      : body.amount;
    return { ...body, merchant_name: merchantName, total_amount: total, success_url: pageUrl, error_url: pageUrl };
  }

  /**
   * What POST /ui/checkouts refuses in a body, field by field, in the words of POST /rest/checkouts;
   * the total is the back office's sum, so a total that is 0 is named on `amount`. Reads nothing.
   */
  validateBackOffice(body: BackOfficeCheckoutRequest): ReturnType<Checkouts['validate']> {
    const request = this.backOfficeRequest(body, 'back office', this.url('back-office'));
    // Without a postback_url the session sends none: the placeholder only lets the rest be checked.
    const validation = this.validate({ ...request, postback_url: request.postback_url ?? request.success_url });
    const errors = validation.errors.map((e) =>
      e.field === 'total_amount' ? { field: 'amount', message: `the total (amount, taxes and shipping) ${e.message}` } : e,
    );
    return { errors, ...(validation.minor ? { minor: validation.minor } : {}) };
  }

  /** A session for a phone or e-mail order, opened by staff; audited in its unit of work. */
  async backOfficeCreate(
    operation: Operation,
    staffId: string,
    body: BackOfficeCheckoutRequest,
  ): Promise<Outcome<BackOfficeCheckoutDetail>> {
    const merchantId = operation.context.merchantId;
    const merchant = await this.deps.store.read((r) => r.merchants.get(merchantId));
    if (!merchant) return failure(apiError(ErrorCode.notFound, 'Merchant not found'));
    const { errors, minor } = this.validateBackOffice(body);
    if (errors.length || !minor) return failure(validationError(errors));
    const id = this.deps.ids.newId();
    const request = this.backOfficeRequest(body, merchant.name, this.url(id));
    const refusal = await this.unoffered(merchantId, request);
    if (refusal) return refusal;
    const record = newSession(id, merchantId, request, minor, this.deps.clock.now());
    // Made before the unit of work: no I/O or timers inside one (ports.ts).
    const qrCode = await this.qrCodeOf(id);
    const outcome = await operation.commit(this.deps.store, async (tx) => {
      await this.insert(tx, record);
      const detail = `order ${record.orderId}, ${minorToAmount(record.totalMinor, minor.exponent)} ${record.currency}`;
      await tx.audit.record({
        id: this.deps.ids.newId(),
        merchantId,
        staffId,
        approvedBy: null,
        action: 'checkout_create',
        subjectId: id,
        detail,
        createdAt: record.createdAt,
      });
      return created(await this.detailOf(tx, record, qrCode));
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  /** Staff cancel an open session (its link stops taking payments); audited in the same unit of work. */
  async backOfficeCancel(actor: StaffActor, id: string): Promise<Outcome<BackOfficeCheckoutDetail>> {
    const qrCode = await this.qrCodeOf(id);
    return this.deps.store.run(async (tx) => {
      const record = await tx.checkouts.get(id);
      if (!record || record.merchantId !== actor.merchantId) return notFound(id);
      if (!(await this.cancelIn(tx, id))) {
        return failure(
          apiError(ErrorCode.invalidState, `Only an open checkout can be cancelled; this one is ${record.status}`, [
            { field: 'checkout_id', message: `is ${record.status}` },
          ]),
        );
      }
      const now = this.deps.clock.now().toISOString();
      await tx.audit.record({
        id: this.deps.ids.newId(),
        merchantId: actor.merchantId,
        staffId: actor.staffId,
        approvedBy: null,
        action: 'checkout_cancel',
        subjectId: id,
        detail: `order ${record.orderId}`,
        createdAt: now,
      });
      const cancelled = await tx.checkouts.get(id);
      return success(await this.detailOf(tx, cancelled ?? record, qrCode));
    });
  }

  private async backOfficeView(r: CheckoutsUnit, record: CheckoutRecord): Promise<BackOfficeCheckout> {
    const request = record.request as unknown as CheckoutRequest;
    return {
      ...sessionView(record, await this.offered(r, record), this.url(record.id)),
      description: request.description ?? null,
      locale: (CHECKOUT_LOCALES as readonly string[]).includes(record.locale ?? '') ? (record.locale as CheckoutLocale) : null,
      postback_url: record.postbackUrl,
    };
  }

  /** The QR code of a session's link; made outside any unit of work or read (it is not a query). */
  private qrCodeOf(id: string): Promise<string> {
    return this.deps.qrCodes.pngDataUrl(this.url(id), QR_CODE_WIDTH);
  }

  private async detailOf(r: CheckoutsUnit, record: CheckoutRecord, qrCode: string): Promise<BackOfficeCheckoutDetail> {
    const request = record.request as unknown as CheckoutRequest;
    const transaction = record.transactionId ? await r.transactions.getById(record.transactionId) : undefined;
    return {
      checkout: await this.backOfficeView(r, record),
      merchant_name: request.merchant_name,
      collect: collectOf(request),
      display_transaction_details: request.display_transaction_details === 1,
      qr_code: qrCode,
      transaction: transaction ? transactionView(transaction) : null,
    };
  }

  async backOfficeDetail(merchantId: string, id: string): Promise<Outcome<BackOfficeCheckoutDetail>> {
    const qrCode = await this.qrCodeOf(id);
    return this.deps.store.read(async (r) => {
      const record = await r.checkouts.get(id);
      if (!record || record.merchantId !== merchantId) return notFound(id);
      return success(await this.detailOf(r, record, qrCode));
    });
  }

  private listQuery(query: CheckoutListQuery): Outcome<{ filter: Omit<CheckoutFilter, 'limit' | 'offset'>; page: number; per: number }> {
    const errors: FieldError[] = [];
    const status = oneOf('status', query.status, CHECKOUT_STATUSES, errors);
    const { page, per, createdFrom, createdTo } = readPageQuery(query, CHECKOUTS_DEFAULT_PER_PAGE, CHECKOUTS_MAX_PER_PAGE, errors);
    if (errors.length) return failure(validationError(errors));
    return success({
      filter: { ...(status ? { status } : {}), ...(createdFrom ? { createdFrom } : {}), ...(createdTo ? { createdTo } : {}) },
      page,
      per,
    });
  }

  /** Every bad parameter of a list query (none: the query is good). Reads nothing. */
  listQueryErrors(query: CheckoutListQuery): FieldError[] {
    const parsed = this.listQuery(query);
    return parsed.ok ? [] : parsed.error.errors;
  }

  /** The merchant's sessions, newest first, by status and created range, a page at a time. */
  async backOfficeList(merchantId: string, query: CheckoutListQuery): Promise<Outcome<BackOfficeCheckoutList>> {
    const parsed = this.listQuery(query);
    if (!parsed.ok) return parsed;
    const { filter, page, per } = parsed.value;
    const { views, total } = await this.deps.store.read(async (r) => {
      const records = await r.checkouts.list(merchantId, { ...filter, limit: per, offset: (page - 1) * per });
      const listed: BackOfficeCheckout[] = [];
      for (const record of records) listed.push(await this.backOfficeView(r, record));
      return { views: listed, total: await r.checkouts.count(merchantId, filter) };
    });
    return success({ data_set: views, metadata: pageMetadata(total, page, per) });
  }

  private async expire(task: ScheduledTask): Promise<void> {
    await this.deps.store.run(async (tx) => {
      if (await tx.checkouts.transition(task.subjectId, ['open', 'processing'], 'expired', this.deps.clock.now().toISOString())) {
        await this.notify(tx, task.subjectId);
      }
    });
  }
}
