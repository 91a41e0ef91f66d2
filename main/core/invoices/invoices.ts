/**
 * Invoices (docs/api.md "Invoices"; docs/decisions.md "Invoices"). An invoice belongs to a
 * merchant's channel; its number (`debt_claim_number`) is generated per channel as INV-0001,
 * INV-0002, ... when omitted. At most one invoice per channel is active with a number: creating or
 * renumbering deactivates the other holder; activating while another holds it is refused.
 * Number-addressed calls resolve to the merchant's active invoice with that number, else the most
 * recently created one.
 *
 * Invoice errors have their own body (`{message, error}`). They travel through the core as
 * ApiErrors: `message` is the body's message and `errors[0].message` its `error`; main/http's
 * toInvoiceReply turns an outcome into the HTTP reply (404 for not found, 422 for everything else).
 */
import type { FieldError } from '../../../contract/api/common.js';
import type {
  Invoice,
  InvoiceChannel,
  InvoiceLastEmail,
  InvoiceEmail,
  InvoiceReply,
  Pagination,
  InvoiceList,
  InvoiceListQuery,
} from '../../../contract/api/invoices.js';
import { ErrorCode } from '../../../contract/codes.js';
import {
  INVOICE_PAGE_SIZE,
  INVOICE_STATUSES,
  type ExpiryUnit,
  type InvoiceEmailType,
  type InvoiceStatus,
} from '../../../contract/constants.js';
import { currencyExponent, minorToAmount } from '../../../contract/money.js';
import { isCalendarDate } from '../../../contract/text-rules.js';
import { created, failure, noContent, success, type Outcome } from '../errors.js';
import type { Operation } from '../idempotency/operation-runner.js';
import { renderInvoiceMail } from '../mail/templates.js';
import type { ChannelRecord } from '../merchants/ports.js';
import type { Clock, Ids, QrCodes } from '../kernel.js';
import type { EmailRecord } from '../mail/ports.js';
import type { InvoiceChanges, InvoiceFilter, InvoiceRecord, InvoicesUnit, InvoiceUpdateGuard, StoredInvoice } from './ports.js';
import type { Store } from '../unit-of-work.js';
import {
  checkInvoiceFields,
  type Checked,
  countryName,
  invalid,
  invoiceFieldProblems,
  type InvoiceFields,
  invoiceProblem,
  label,
  MESSAGES,
  notFound,
  parseInvoiceAmount,
  Problems,
  UNIT_MS,
} from './invoice-fields.js';

export const QR_CODE_WIDTH = 250;

export interface InvoicesDeps {
  store: Store<InvoicesUnit>;
  clock: Clock;
  ids: Ids;
  publicUrl: () => string;
  qrCodes: QrCodes;
}

// ---- the feature -----------------------------------------------------------------------------

/** A create request that passed every check. */
interface PreparedInvoice {
  channel: ChannelRecord;
  checked: Checked;
  currency: string;
  amountMinor: number;
  sendInitialEmail: boolean;
}

/** An update request checked against the invoice it changes (nothing written yet). */
interface PlannedUpdate {
  current: StoredInvoice;
  next: InvoiceRecord;
  /** The fields the update writes: those sent, the amount and active parsed, the expiry worked out. */
  changes: InvoiceChanges;
  /** Amount or active change: only while pending and never with a plan (checked again by the update). */
  restricted: boolean;
  /** The field a refusal of a restricted change names. */
  restrictedField: 'invoice.amount' | 'invoice.active';
  activeChanges: boolean;
  renumbered: boolean;
}

/** What the update statement checks again for an amount or active change (the rule planUpdate read). */
const RESTRICTED_GUARD: InvoiceUpdateGuard = { statuses: ['pending'], withoutPlans: true };

export class Invoices {
  constructor(private readonly deps: InvoicesDeps) {}

  paylink(uuid: string): string {
    return `${this.deps.publicUrl()}/pay/${uuid}`;
  }

  /**
   * What is wrong with the fields of an invoice body as far as the database need not be asked (not
   * the channel, not the invoice's state): each bad field with its sentence. For answers that name
   * every bad field also when the request's schema failed.
   */
  fieldProblems(fields: InvoiceFields, creating: boolean): FieldError[] {
    return invoiceFieldProblems(fields, creating);
  }

  private amountInto(checked: Checked, currency: string, problems: Problems): number | undefined {
    if (checked.amount === undefined) return undefined;
    const result = parseInvoiceAmount(checked.amount, currencyExponent(currency) ?? 2);
    if ('problem' in result) {
      problems.add('invoice.amount', result.problem);
      return undefined;
    }
    return result.minor;
  }

  private expiresAt(createdAt: string, expiresIn: number | null, unit: ExpiryUnit | null): string | null {
    if (expiresIn === null || unit === null) return null;
    return new Date(new Date(createdAt).getTime() + expiresIn * UNIT_MS[unit]).toISOString();
  }

  view(record: StoredInvoice, lastEmail?: EmailRecord): Invoice {
    const exponent = currencyExponent(record.currency) ?? 2;
    const now = this.deps.clock.now().getTime();
    return {
      id: record.id,
      uuid: record.uuid,
      status: record.status,
      active: record.active,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
      debt_claim_number: record.debtClaimNumber,
      print_date: record.printDate,
      first_name: record.firstName,
      last_name: record.lastName,
      company: record.company,
      email: record.email,
      phone: record.phone,
      tax_id: record.taxId,
      customer_id: record.customerId,
      address: record.address,
      address2: record.address2,
      postal_code: record.postalCode,
      city: record.city,
      state: record.state,
      country: countryName(record.country),
      amount: minorToAmount(record.amountMinor, exponent),
      amount_cents: record.amountMinor,
      currency: record.currency,
      description: record.description,
      redirect_after_payments: record.redirectAfterPayments,
      success_url: record.successUrl,
      error_url: record.errorUrl,
      expires_in: record.expiresIn,
      expires_in_unit: record.expiresInUnit,
      expired: record.expiresAt !== null && new Date(record.expiresAt).getTime() <= now,
      channel_id: record.channelPublicId,
      import_id: record.importId,
      locale: record.locale,
      effective_locale: record.locale ?? record.channelLanguage ?? 'en',
      send_initial_email: record.sendInitialEmail,
      initial_email_type: record.initialEmailType,
      effective_initial_email_type: record.initialEmailType ?? 'initial',
      last_email: lastEmail ? lastEmailView(lastEmail) : null,
    };
  }

  async wrap(record: StoredInvoice, message: string): Promise<InvoiceReply> {
    const paylink = this.paylink(record.uuid);
    const lastEmail = await this.deps.store.read((r) => r.emails.latestForInvoice(record.id));
    return {
      invoice: this.view(record, lastEmail),
      message,
      error: null,
      paylink,
      qrcode: await this.deps.qrCodes.pngDataUrl(paylink, QR_CODE_WIDTH),
    };
  }

  /** Everything create checks before it writes: the channel, rules 1, 3 and 4-6, every field. */
  private async prepareCreate(merchantId: string, urlName: unknown, fields: InvoiceFields): Promise<Outcome<PreparedInvoice>> {
    const problems = new Problems();
    let channel: ChannelRecord | undefined;
    if (typeof urlName !== 'string' || urlName.trim() === '') {
      problems.add('url_name', "Url name can't be blank.");
    } else {
      channel = await this.deps.store.read((r) => r.channels.findByUrlName(urlName));
      if (!channel || channel.merchantId !== merchantId) {
        channel = undefined;
        problems.add('url_name', 'Url name does not name a channel of this merchant.');
      }
    }
    if (Object.hasOwn(fields, 'status')) {
      problems.add('invoice.status', "Status cannot be set here; the invoice's status change sets it.");
    }
    // Rule 1: an `active` value is ignored; new invoices are always active.
    const rest: InvoiceFields = { ...fields };
    delete rest.active;
    const checked = checkInvoiceFields(rest, problems);
    const currency = checked.changes.currency ?? channel?.currency ?? 'EUR';
    if (checked.amount === undefined && !problems.has('invoice.amount')) problems.add('invoice.amount', "Amount can't be blank.");
    const amountMinor = this.amountInto(checked, currency, problems);
    const sendInitialEmail = checked.changes.sendInitialEmail ?? false;
    // Rule 3: the e-mail needs an address.
    if (sendInitialEmail && !checked.changes.email && !problems.has('invoice.email')) {
      problems.add('invoice.email', 'Email is required when send_initial_email is true.');
    }
    if (problems.any || !channel || amountMinor === undefined) return failure(invalid(problems));
    return success({ channel, checked, currency, amountMinor, sendInitialEmail });
  }

  /**
   * What `POST /rest/invoices` would refuse in this body, field by field (the same checks, nothing
   * written): the back office's form asks this before it creates.
   */
  async checkCreate(merchantId: string, urlName: unknown, fields: InvoiceFields): Promise<FieldError[]> {
    const prepared = await this.prepareCreate(merchantId, urlName, fields);
    return prepared.ok ? [] : prepared.error.errors;
  }

  /** `POST /rest/invoices`: root `url_name` and the `invoice` object (create rules 1-6). */
  async create(operation: Operation, urlName: unknown, fields: InvoiceFields): Promise<Outcome<InvoiceReply>> {
    const merchantId = operation.context.merchantId;
    const prepared = await this.prepareCreate(merchantId, urlName, fields);
    if (!prepared.ok) return prepared;
    const { channel, checked, currency, amountMinor, sendInitialEmail } = prepared.value;

    const now = this.deps.clock.now().toISOString();
    const channelId = channel.id;
    const record: Omit<InvoiceRecord, 'id'> = {
      uuid: this.deps.ids.newId(),
      merchantId,
      channelId,
      debtClaimNumber: '',
      active: true,
      status: 'pending',
      printDate: now.slice(0, 10),
      firstName: null,
      lastName: null,
      company: null,
      email: null,
      phone: null,
      taxId: null,
      customerId: null,
      address: null,
      address2: null,
      postalCode: null,
      city: null,
      state: null,
      country: null,
      amountMinor,
      currency,
      description: null,
      redirectAfterPayments: false,
      successUrl: null,
      errorUrl: null,
      expiresIn: null,
      expiresInUnit: null,
      expiresAt: null,
      locale: null,
      sendInitialEmail,
      initialEmailType: null,
      importId: null,
      ...checked.changes,
      createdAt: now,
      updatedAt: now,
    };
    record.expiresAt = this.expiresAt(now, record.expiresIn, record.expiresInUnit);
    const paylink = this.paylink(record.uuid);
    const qrcode = await this.deps.qrCodes.pngDataUrl(paylink, QR_CODE_WIDTH);
    return operation.commit(this.deps.store, async (tx) => {
      if (!checked.changes.debtClaimNumber) {
        // Generated numbers skip any number already used in the channel (given by hand, say).
        let number: string;
        do number = `INV-${String(await tx.invoices.nextNumber(channelId)).padStart(4, '0')}`;
        while (await tx.invoices.numberUsed(channelId, number));
        record.debtClaimNumber = number;
      } else {
        // Rule 2: the new invoice takes the number from the channel's active holder.
        await tx.invoices.deactivateNumber(channelId, record.debtClaimNumber, now);
      }
      const stored = await tx.invoices.insert(record);
      // Rule 3: the e-mail is queued in the same unit of work, only when asked for.
      const email = sendInitialEmail ? this.queueEmail(stored, channel, stored.initialEmailType ?? 'initial') : undefined;
      if (email) await tx.emails.insert(email);
      return created({
        invoice: this.view(stored, email),
        message: 'Invoice created.',
        error: null,
        paylink,
        qrcode,
      } satisfies InvoiceReply);
    });
  }

  async get(merchantId: string, number: string): Promise<Outcome<InvoiceReply>> {
    const record = await this.deps.store.read((r) => r.invoices.resolve(merchantId, number));
    if (!record) return failure(notFound());
    return success(await this.wrap(record, 'Invoice found.'));
  }

  /** `PUT`/`PATCH /rest/invoices/:invoice_number`: only the sent fields change (update rules). */
  async update(operation: Operation, number: string, fields: InvoiceFields): Promise<Outcome<InvoiceReply>> {
    const merchantId = operation.context.merchantId;
    const outcome = await operation.commit(this.deps.store, async (tx): Promise<Outcome<StoredInvoice>> => {
      const planned = await this.planUpdate(tx, merchantId, number, fields);
      if (!planned.ok) return planned;
      const { current, next, changes, restricted, restrictedField, activeChanges, renumbered } = planned.value;
      // An active invoice given a new number takes it from the channel's active holder: the number
      // is written once the holder is deactivated, and only after the guarded update applied.
      const takesNumber = next.active && renumbered && !activeChanges;
      const { debtClaimNumber, ...others } = changes;
      const stored = await tx.invoices.update(current.id, takesNumber ? others : changes, restricted ? RESTRICTED_GUARD : undefined);
      if (!stored) return failure(invoiceProblem(ErrorCode.invalidState, MESSAGES.restricted, MESSAGES.restricted, restrictedField));
      if (!takesNumber) return success(stored);
      await tx.invoices.deactivateNumber(next.channelId, next.debtClaimNumber, next.updatedAt, current.id);
      const renumberedInvoice = await tx.invoices.update(current.id, { debtClaimNumber, updatedAt: next.updatedAt });
      return renumberedInvoice ? success(renumberedInvoice) : failure(notFound());
    });
    if (!outcome.ok) return outcome;
    return success(await this.wrap(outcome.value, 'Invoice updated.'));
  }

  /**
   * What `PUT /rest/invoices/:invoice_number` would refuse in this body, field by field (the same
   * checks against the invoice as it is now, nothing written): the back office asks this before it
   * saves an edit or (de)activates, so a refusal is shown in the API's words without a failed call.
   */
  async checkUpdate(merchantId: string, number: string, fields: InvoiceFields): Promise<Outcome<{ errors: FieldError[] }>> {
    const planned = await this.deps.store.read((r) => this.planUpdate(r, merchantId, number, fields));
    if (planned.ok) return success({ errors: [] });
    if (planned.error.error_code === ErrorCode.notFound) return planned;
    return success({ errors: planned.error.errors });
  }

  /** The update rules, read-only: the invoice as it would be stored, or why the update is refused. */
  private async planUpdate(r: InvoicesUnit, merchantId: string, number: string, fields: InvoiceFields): Promise<Outcome<PlannedUpdate>> {
    const problems = new Problems();
    if (Object.hasOwn(fields, 'status'))
      problems.add('invoice.status', "Status cannot be changed here; the invoice's status change sets it.");
    const checked = checkInvoiceFields(fields, problems);
    const current = await r.invoices.resolve(merchantId, number);
    if (!current) return failure(notFound());
    const currency = checked.changes.currency ?? current.currency;
    const amountMinor = this.amountInto(checked, currency, problems);
    if (amountMinor === undefined && currencyExponent(currency) !== currencyExponent(current.currency) && !problems.has('invoice.amount')) {
      problems.add('invoice.amount', 'Amount must be sent again when the currency changes to one with another number of decimals.');
    }
    if (problems.any) return failure(invalid(problems));
    const amountChanges = amountMinor !== undefined && amountMinor !== current.amountMinor;
    const activeChanges = checked.active !== undefined && checked.active !== current.active;
    const restricted = amountChanges || activeChanges;
    const restrictedField = amountChanges ? 'invoice.amount' : 'invoice.active';
    if (restricted) {
      const plans = await r.invoices.plans(current.id);
      if (current.status !== 'pending' || plans.length > 0) {
        return failure(invoiceProblem(ErrorCode.invalidState, MESSAGES.restricted, MESSAGES.restricted, restrictedField));
      }
    }
    const now = this.deps.clock.now().toISOString();
    const changes: InvoiceChanges = { ...checked.changes, updatedAt: now };
    if (amountMinor !== undefined) changes.amountMinor = amountMinor;
    if (checked.active !== undefined) changes.active = checked.active;
    const next: InvoiceRecord = { ...current, ...changes };
    next.expiresAt = changes.expiresAt = this.expiresAt(next.createdAt, next.expiresIn, next.expiresInUnit);
    const renumbered = next.debtClaimNumber !== current.debtClaimNumber;
    if (next.active && activeChanges) {
      // Activation never takes a number away: the other holder must be deactivated first.
      const holder = await r.invoices.activeHolder(next.channelId, next.debtClaimNumber, current.id);
      if (holder) {
        const text = `Another active invoice in this channel has the number ${next.debtClaimNumber}; deactivate it first.`;
        return failure(invoiceProblem(ErrorCode.invalidState, text, text, 'invoice.active'));
      }
    }
    return success({ current, next, changes, restricted, restrictedField, activeChanges, renumbered });
  }

  /** `PUT /rest/invoices/:invoice_number/status_change`: the only way to set the status. */
  async changeStatus(operation: Operation, number: string, status: unknown): Promise<Outcome<InvoiceReply>> {
    const merchantId = operation.context.merchantId;
    const outcome = await operation.commit(this.deps.store, async (tx): Promise<Outcome<StoredInvoice>> => {
      const current = await tx.invoices.resolve(merchantId, number);
      if (!current) return failure(notFound());
      if (typeof status !== 'string' || !(INVOICE_STATUSES as readonly string[]).includes(status)) {
        return failure(invoiceProblem(ErrorCode.validation, MESSAGES.invalidStatus, MESSAGES.allowedStatuses, 'status'));
      }
      const stored = await tx.invoices.update(current.id, {
        status: status as InvoiceStatus,
        updatedAt: this.deps.clock.now().toISOString(),
      });
      return stored ? success(stored) : failure(notFound());
    });
    if (!outcome.ok) return outcome;
    return success(await this.wrap(outcome.value, 'Invoice status changed.'));
  }

  /** `DELETE /rest/invoices/:invoice_number`: refused while a payment plan is active. */
  async delete(operation: Operation, number: string): Promise<Outcome<null>> {
    const merchantId = operation.context.merchantId;
    return operation.commit(this.deps.store, async (tx): Promise<Outcome<null>> => {
      const current = await tx.invoices.resolve(merchantId, number);
      if (!current) return failure(notFound());
      const plans = await tx.invoices.plans(current.id);
      if (plans.some((plan) => plan.status === 'active')) {
        return failure(invoiceProblem(ErrorCode.invalidState, MESSAGES.planBlocksDelete, MESSAGES.activePlan, 'payment_plan'));
      }
      await tx.invoices.delete(current.id);
      return noContent();
    });
  }

  /** `GET /rest/invoices`: newest first, 50 a page. */
  async list(merchantId: string, query: InvoiceListQuery): Promise<Outcome<InvoiceList>> {
    const problems = new Problems();
    const filter: Omit<InvoiceFilter, 'limit' | 'offset'> = {};
    if (query.status !== undefined && query.status !== '') {
      if (!(INVOICE_STATUSES as readonly string[]).includes(query.status)) problems.add('status', MESSAGES.allowedStatuses);
      else filter.status = query.status as InvoiceStatus;
    }
    for (const [field, key] of [
      ['created_at_from', 'createdFrom'],
      ['created_at_to', 'createdBefore'],
    ] as const) {
      const value = query[field];
      if (value === undefined || value === '') continue;
      if (!isCalendarDate(value)) problems.add(field, `${label(field)} must be a date in the form YYYY-MM-DD.`);
      else if (key === 'createdFrom') filter.createdFrom = `${value}T00:00:00.000Z`;
      else filter.createdBefore = new Date(Date.parse(`${value}T00:00:00.000Z`) + UNIT_MS.days).toISOString();
    }
    let page = 1;
    if (query.page !== undefined && query.page !== '') {
      if (!/^\d{1,9}$/.test(query.page) || Number(query.page) < 1) problems.add('page', 'Page must be a whole number from 1.');
      else page = Number(query.page);
    }
    if (query.url_name !== undefined && query.url_name !== '') {
      const channel = await this.deps.store.read((r) => r.channels.findByUrlName(query.url_name ?? ''));
      if (!channel || channel.merchantId !== merchantId) problems.add('url_name', 'Url name does not name a channel of this merchant.');
      else filter.channelId = channel.id;
    }
    if (problems.any) return failure(invalid(problems));

    const { count, records } = await this.deps.store.read(async (r) => ({
      count: await r.invoices.count(merchantId, filter),
      records: await r.invoices.list(merchantId, { ...filter, limit: INVOICE_PAGE_SIZE, offset: (page - 1) * INVOICE_PAGE_SIZE }),
    }));
    const invoices = await Promise.all(records.map((record) => this.wrap(record, 'Invoice found.')));
    return success({
      invoices,
      pagination: pagination(page, count),
      error: null,
      message: count === 0 ? 'No invoices found.' : 'Invoices found.',
    });
  }

  // ---- e-mails (docs/api.md "Invoice e-mails") -----------------------------------------------

  /** A queued e-mail of the invoice, rendered in its effective locale; delivery is the mail queue's. */
  private queueEmail(invoice: StoredInvoice, channel: ChannelRecord, type: InvoiceEmailType): EmailRecord {
    const now = this.deps.clock.now().toISOString();
    const locale = invoice.locale ?? invoice.channelLanguage ?? 'en';
    const name = [invoice.firstName, invoice.lastName].filter(Boolean).join(' ') || invoice.company;
    const rendered = renderInvoiceMail(type, locale, {
      channelName: channel.name,
      customerName: name,
      number: invoice.debtClaimNumber,
      amountMinor: invoice.amountMinor,
      exponent: currencyExponent(invoice.currency) ?? 2,
      currency: invoice.currency,
      expiresAt: invoice.expiresAt,
      paylink: this.paylink(invoice.uuid),
    });
    return {
      id: this.deps.ids.newId(),
      merchantId: invoice.merchantId,
      invoiceId: invoice.id,
      emailType: type,
      locale,
      recipient: invoice.email ?? '',
      sender: channel.senderEmail,
      subject: rendered.subject,
      bodyText: rendered.text,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      sentAt: null,
      lastError: null,
      testOutbox: false,
      createdAt: now,
    };
  }

  /** `POST /rest/invoices/:invoice_number/reminder`: queues a reminder now (back office). */
  async sendReminder(operation: Operation, number: string): Promise<Outcome<InvoiceReply>> {
    const merchantId = operation.context.merchantId;
    const invoice = await this.deps.store.read((r) => r.invoices.resolve(merchantId, number));
    if (!invoice) return failure(notFound());
    const channel = await this.deps.store.read((r) => r.channels.findByUrlName(invoice.channelUrlName));
    const outcome = await operation.commit(this.deps.store, async (tx): Promise<Outcome<StoredInvoice>> => {
      const current = await tx.invoices.get(invoice.id);
      if (!current) return failure(notFound());
      if (!current.active) {
        const text = 'Inactive invoices send no e-mails.';
        return failure(invoiceProblem(ErrorCode.invalidState, text, text, 'invoice.active'));
      }
      if (!current.email) {
        const text = 'The invoice has no e-mail address.';
        return failure(invoiceProblem(ErrorCode.invalidState, text, text, 'invoice.email'));
      }
      if (!channel) return failure(notFound());
      await tx.emails.insert(this.queueEmail(current, channel, 'reminder'));
      return success(current);
    });
    if (!outcome.ok) return outcome;
    return success(await this.wrap(outcome.value, 'Reminder queued.'));
  }

  /** The merchant's channels (`GET /ui/invoice-channels`): what invoices can be created in, and the list's filter. */
  async channels(merchantId: string): Promise<InvoiceChannel[]> {
    const records = await this.deps.store.read((r) => r.channels.listByMerchant(merchantId));
    return records.map((c) => ({
      url_name: c.urlName,
      name: c.name,
      channel_id: c.publicId ?? 0,
      currency: c.currency,
      language: c.language,
    }));
  }

  /** `GET /rest/emails?invoice_number=`: the invoice's e-mails, newest first, with their text. */
  async emails(merchantId: string, number: string): Promise<Outcome<{ emails: InvoiceEmail[] }>> {
    const invoice = await this.deps.store.read((r) => r.invoices.resolve(merchantId, number));
    if (!invoice) return failure(notFound());
    const records = await this.deps.store.read((r) => r.emails.listForInvoice(invoice.id));
    return success({
      emails: records.map((e) => ({
        id: e.id,
        invoice_number: invoice.debtClaimNumber,
        ...lastEmailView(e),
        subject: e.subject,
        body_text: e.bodyText,
        attempts: e.attempts,
        last_error: e.lastError,
        test_outbox: e.testOutbox,
        created_at: e.createdAt,
      })),
    });
  }
}

/** The list's `pagination` object: page, items (page size), count, pages, from, to, prev, next. */
export function pagination(page: number, count: number, items = INVOICE_PAGE_SIZE): Pagination {
  const pages = Math.max(1, Math.ceil(count / items));
  if (page > pages) {
    // Past the last page: an empty page that points back to the last one.
    return { page, items, count, pages, from: 0, to: 0, prev: pages, next: null };
  }
  const offset = (page - 1) * items;
  return {
    page,
    items,
    count,
    pages,
    from: count === 0 ? 0 : offset + 1,
    to: Math.min(offset + items, count),
    prev: page > 1 ? page - 1 : null,
    next: page < pages ? page + 1 : null,
  };
}

export function lastEmailView(email: EmailRecord): InvoiceLastEmail {
  return {
    email_type: email.emailType,
    status: email.status,
    sent_at: email.status === 'sent' ? email.sentAt : null,
    recipient_email: email.recipient,
    locale: email.locale,
  };
}
