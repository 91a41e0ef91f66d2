/**
 * The invoice calls of the back office: the invoice API itself (docs/api.md "Invoices"; a staff
 * session of back office or admin may call it) and the /ui routes of the screens
 * (main/http/routes/invoice-back-office.ts: channels, the form checks, payment plan or none, the
 * payments through the pay link). Typed by the contract (contract/api/invoices.ts); same transports
 * and error shape as api/client.ts: a refusal is an ApiError whose `errors` name each field at fault.
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
  PaymentPlanReply,
  PaymentPlanRequest,
} from '../../../contract/api/invoices.js';
import type { FieldError } from '../../../contract/api/common.js';
import type { InvoiceStatus } from '../../../contract/constants.js';
import { defaultTransport, expectObject, type Transport } from '../api/client.js';

export type { Invoice, InvoiceChannel, InvoiceEmail, InvoiceLastEmail, InvoicePayment, InvoiceReply, Instalment, Pagination, PaymentPlan } from '../../../contract/api/invoices.js';
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

const WRAPPER = ['invoice', 'paylink', 'qrcode'] as const;

export function createInvoicesClient(transport: Transport = defaultTransport()): InvoicesClient {
  const at = (number: string) => `/rest/invoices/${encodeURIComponent(number)}`;
  const ui = (number: string) => `/ui/invoices/${encodeURIComponent(number)}`;
  return {
    async channels() {
      return expectObject<{ channels: InvoiceChannel[] }>(await transport.send({ method: 'GET', path: '/ui/invoice-channels' }), ['channels']).channels;
    },
    async list(query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
      const search = params.toString();
      return expectObject<InvoiceList>(await transport.send({ method: 'GET', path: `/rest/invoices${search ? `?${search}` : ''}` }), ['invoices', 'pagination']);
    },
    async get(number) {
      return expectObject<InvoiceReply>(await transport.send({ method: 'GET', path: at(number) }), WRAPPER);
    },
    async checkCreate(body) {
      return expectObject<{ errors: FieldError[] }>(await transport.send({ method: 'POST', path: '/ui/invoices/check', body }), ['errors']).errors;
    },
    async create(body, idempotencyKey) {
      const response = await transport.send({ method: 'POST', path: '/rest/invoices', body, headers: { 'Idempotency-Key': idempotencyKey } });
      return expectObject<InvoiceReply>(response, WRAPPER);
    },
    async checkUpdate(number, invoice) {
      return expectObject<{ errors: FieldError[] }>(await transport.send({ method: 'POST', path: `${ui(number)}/check`, body: { invoice } }), ['errors']).errors;
    },
    async update(number, invoice) {
      return expectObject<InvoiceReply>(await transport.send({ method: 'PUT', path: at(number), body: { invoice } }), WRAPPER);
    },
    async changeStatus(number, status) {
      return expectObject<InvoiceReply>(await transport.send({ method: 'PUT', path: `${at(number)}/status_change`, body: { status } }), WRAPPER);
    },
    async remove(number) {
      const response = await transport.send({ method: 'DELETE', path: at(number) });
      if (response.status !== 204) expectObject(response, []);
    },
    async plan(number) {
      return expectObject<{ payment_plan: PaymentPlan | null }>(await transport.send({ method: 'GET', path: `${ui(number)}/payment-plan` }), ['payment_plan']).payment_plan;
    },
    async createPlan(number, request) {
      return expectObject<PaymentPlanReply>(await transport.send({ method: 'POST', path: `${at(number)}/payment_plan`, body: request }), ['payment_plan']).payment_plan;
    },
    async cancelPlan(number) {
      return expectObject<PaymentPlanReply>(await transport.send({ method: 'DELETE', path: `${at(number)}/payment_plan` }), ['payment_plan']).payment_plan;
    },
    async sendReminder(number) {
      return expectObject<InvoiceReply>(await transport.send({ method: 'POST', path: `${at(number)}/reminder` }), WRAPPER);
    },
    async emails(number) {
      const response = await transport.send({ method: 'GET', path: `/rest/emails?invoice_number=${encodeURIComponent(number)}` });
      return expectObject<{ emails: InvoiceEmail[] }>(response, ['emails']).emails;
    },
    async payments(number) {
      return expectObject<{ payments: InvoicePayment[] }>(await transport.send({ method: 'GET', path: `${ui(number)}/payments` }), ['payments']).payments;
    },
  };
}

export const invoicesClient: InvoicesClient = createInvoicesClient();
