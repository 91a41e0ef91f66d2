/**
 * The invoice calls of the back office: the invoice API itself (docs/api.md "Invoices"; a staff
 * session of back office or admin may call it) and the /ui routes of the screens
 * (main/http/routes/invoices/back-office.ts: channels, the form checks, payment plan or none, the
 * payments through the pay link). Typed by the contract (contract/api/invoices.ts); same transports
 * and error shape as the other clients (api/call.ts, api/transport.ts): a refusal is an ApiError whose `errors` name each field at fault.
 */
import type {
  InvoiceChannel,
  InvoiceCreateBody,
  InvoiceEmail,
  InvoiceList,
  InvoicePayment,
  InvoiceReply,
  InvoiceUpdateBody,
  PaymentPlan,
  PaymentPlanRequest,
} from '../../../contract/api/invoices.js';
import type { FieldError } from '../../../contract/api/common.js';
import type { InvoiceStatus } from '../../../contract/constants.js';
import { caller, filled } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type {
  Invoice,
  InvoiceChannel,
  InvoiceEmail,
  InvoiceLastEmail,
  InvoicePayment,
  InvoiceReply,
  Instalment,
  Pagination,
  PaymentPlan,
} from '../../../contract/api/invoices.js';
export type { FieldError };

/** The list's filters, as `GET /rest/invoices` takes them. */
export interface InvoiceQuery {
  url_name?: string;
  status?: InvoiceStatus;
  created_at_from?: string;
  created_at_to?: string;
  page?: number;
}

/** The `invoice` object of a create or an update (only what is sent). */
export type InvoiceFieldsBody = InvoiceUpdateBody['invoice'];

export interface InvoicesClient {
  channels(): Promise<InvoiceChannel[]>;
  list(query: InvoiceQuery): Promise<InvoiceList>;
  get(number: string): Promise<InvoiceReply>;
  /** What POST /rest/invoices would refuse in this body, field by field; empty when it would create. */
  checkCreate(body: InvoiceCreateBody): Promise<FieldError[]>;
  create(body: InvoiceCreateBody, idempotencyKey: string): Promise<InvoiceReply>;
  /** What PUT /rest/invoices/:number would refuse, against the invoice as it is now. */
  checkUpdate(number: string, invoice: InvoiceFieldsBody): Promise<FieldError[]>;
  update(number: string, invoice: InvoiceFieldsBody): Promise<InvoiceReply>;
  changeStatus(number: string, status: InvoiceStatus): Promise<InvoiceReply>;
  remove(number: string): Promise<void>;
  plan(number: string): Promise<PaymentPlan | null>;
  createPlan(number: string, request: PaymentPlanRequest): Promise<PaymentPlan>;
  cancelPlan(number: string): Promise<PaymentPlan>;
  sendReminder(number: string): Promise<InvoiceReply>;
  /** The invoice's e-mails with subject and text, newest first (the test outbox's preview). */
  emails(number: string): Promise<InvoiceEmail[]>;
  payments(number: string): Promise<InvoicePayment[]>;
}

export function createInvoicesClient(transport: Transport = defaultTransport()): InvoicesClient {
  const call = caller(transport);
  const at = (number: string) => ({ params: { invoice_number: number } });
  return {
    channels: async () => (await call('invoices.channels')).channels,
    list: ({ page, ...query }) =>
      call('invoices.list', { query: filled({ ...query, ...(page !== undefined ? { page: String(page) } : {}) }) }),
    get: (number) => call('invoices.get', at(number)),
    checkCreate: async (body) => (await call('invoices.checkCreate', { body })).errors,
    create: (body, idempotencyKey) => call('invoices.create', { body, headers: { 'Idempotency-Key': idempotencyKey } }),
    checkUpdate: async (number, invoice) => (await call('invoices.checkUpdate', { ...at(number), body: { invoice } })).errors,
    update: (number, invoice) => call('invoices.update', { ...at(number), body: { invoice } }),
    changeStatus: (number, status) => call('invoices.changeStatus', { ...at(number), body: { status } }),
    async remove(number) {
      await call('invoices.delete', at(number));
    },
    plan: async (number) => (await call('invoices.currentPlan', at(number))).payment_plan,
    createPlan: async (number, request) => (await call('invoices.createPlan', { ...at(number), body: request })).payment_plan,
    cancelPlan: async (number) => (await call('invoices.cancelPlan', at(number))).payment_plan,
    sendReminder: (number) => call('invoices.sendReminder', at(number)),
    emails: async (number) => (await call('invoices.emails', { query: { invoice_number: number } })).emails,
    payments: async (number) => (await call('invoices.payments', at(number))).payments,
  };
}

export const invoicesClient: InvoicesClient = createInvoicesClient();
