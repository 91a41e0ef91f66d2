/**
 * Invoices (docs/api.md "Invoices", docs/decisions.md "Invoices"): the `invoice` object of create
 * and update, the invoice and its wrapper with pay link and QR code, the list with its pagination,
 * payment plans and the invoice's e-mails. Invoice errors have their own body (`{message, error}`,
 * docs/decisions.md "Invoices", error body).
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  EMAIL_STATUSES,
  EXPIRY_UNITS,
  INVOICE_EMAIL_TYPES,
  INVOICE_LOCALES,
  INVOICE_PAGE_SIZE,
  INVOICE_STATUSES,
  MAX_INSTALLMENTS,
  MIN_INSTALLMENTS,
  PLAN_INTERVALS,
  PLAN_STATUSES,
} from '../constants.js';
import { FieldErrorSchema, IdempotencyHeaders, Nullable, RefTo, StringEnum, StringIn } from './common.js';
import { TransactionSchema } from './transactions.js';
import { NoContentSchema, type SchemasOf } from './operation-schemas.js';

const Text = (description?: string) => Type.Optional(Type.Union([Type.String(), Type.Null()], description ? { description } : {}));
const Flag = (description: string) =>
  Type.Optional(Type.Union([Type.Boolean(), Type.String({ enum: ['1', '0', 'true', 'false'] }), Type.Integer()], { description }));

/** The fields of the request's `invoice` object; amounts and flags come in several forms, which the core reads. */
const invoiceFields = {
  amount: Type.Optional(
    Type.Union([Type.Number(), Type.String(), Type.Null()], {
      description: 'required on create; 10.55, "10.55" or "10,55"; the absolute value is stored; "" is 422; null counts as not supplied',
    }),
  ),
  debt_claim_number: Type.Optional(
    Type.Union([Type.String(), Type.Number(), Type.Null()], {
      description: 'invoice number; generated per channel as INV-0001, ... when omitted on create',
    }),
  ),
  first_name: Text(),
  last_name: Text(),
  company: Text(),
  email: Text('required when send_initial_email is true'),
  phone: Text(),
  tax_id: Text(),
  customer_id: Text(),
  address: Text(),
  address2: Text(),
  postal_code: Text(),
  city: Text(),
  state: Text(),
  country: Text('ISO 3166-1 alpha-2 code or English country name; answered as the English name'),
  description: Text(),
  currency: Type.Optional(Type.String({ description: '3 letters; defaults to the channel currency' })),
  print_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD; defaults to today (UTC)' })),
  redirect_after_payments: Flag('default false'),
  success_url: Text(),
  error_url: Text(),
  expires_in: Type.Optional(
    Type.Union([Type.Integer(), Type.String(), Type.Null()], { description: 'with expires_in_unit; omit both for no expiry' }),
  ),
  expires_in_unit: Type.Optional(Type.Union([Type.String({ enum: [...EXPIRY_UNITS] }), Type.String(), Type.Null()])),
  send_initial_email: Flag('on create: queue the e-mail right after creation (needs email); later changes have no effect on delivery'),
  initial_email_type: Type.Optional(
    Type.Union([Type.String({ enum: [...INVOICE_EMAIL_TYPES] }), Type.String(), Type.Null()], { description: 'blank means initial' }),
  ),
  locale: Type.Optional(
    Type.Union([Type.String({ enum: [...INVOICE_LOCALES] }), Type.String(), Type.Null()], {
      description: 'blank means the channel language',
    }),
  ),
};

export const InvoiceCreateBodySchema = Type.Object(
  {
    url_name: Type.String({ description: 'URL name of one of your channels' }),
    invoice: Type.Object(
      {
        ...invoiceFields,
        active: Type.Optional(Type.Unknown({ description: 'ignored: new invoices are always active' })),
        status: Type.Optional(Type.Unknown({ description: 'not accepted: new invoices are pending; use status_change' })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type InvoiceCreateBody = Static<typeof InvoiceCreateBodySchema>;

export const InvoiceUpdateBodySchema = Type.Object(
  {
    invoice: Type.Object(
      {
        ...invoiceFields,
        active: Flag('only while pending and without payment plan; activating needs the number free in the channel'),
        status: Type.Optional(Type.Unknown({ description: 'not accepted: use status_change' })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type InvoiceUpdateBody = Static<typeof InvoiceUpdateBodySchema>;

export const InvoiceStatusBodySchema = Type.Object({ status: Type.Optional(Type.Unknown({ description: INVOICE_STATUSES.join(', ') })) });

export const InvoiceLastEmailSchema = Type.Object(
  {
    email_type: StringEnum(INVOICE_EMAIL_TYPES),
    status: StringEnum(EMAIL_STATUSES),
    sent_at: Nullable(Type.String({ description: 'ISO 8601; null unless delivery succeeded' })),
    recipient_email: Type.String(),
    locale: StringEnum(INVOICE_LOCALES),
  },
  { description: "the invoice's most recent e-mail; null if none was ever sent" },
);
export type InvoiceLastEmail = Static<typeof InvoiceLastEmailSchema>;

export const InvoiceSchema = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String(),
    status: StringEnum(INVOICE_STATUSES),
    active: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
    debt_claim_number: Type.String(),
    print_date: Type.String(),
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    company: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    tax_id: Nullable(Type.String()),
    customer_id: Nullable(Type.String()),
    address: Nullable(Type.String()),
    address2: Nullable(Type.String()),
    postal_code: Nullable(Type.String()),
    city: Nullable(Type.String()),
    state: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'English country name' })),
    amount: Type.Number(),
    amount_cents: Type.Integer({ description: 'the amount in minor units' }),
    currency: Type.String(),
    description: Nullable(Type.String()),
    redirect_after_payments: Type.Boolean(),
    success_url: Nullable(Type.String()),
    error_url: Nullable(Type.String()),
    expires_in: Nullable(Type.Integer()),
    expires_in_unit: Nullable(Type.String()),
    expired: Type.Boolean(),
    channel_id: Type.Integer(),
    import_id: Nullable(Type.Integer()),
    locale: Nullable(Type.String()),
    effective_locale: Type.String(),
    send_initial_email: Type.Boolean(),
    initial_email_type: Nullable(Type.String()),
    effective_initial_email_type: Type.String(),
    last_email: Nullable(InvoiceLastEmailSchema),
  },
  { $id: 'Invoice', title: 'Invoice' },
);
export type Invoice = Static<typeof InvoiceSchema>;

/** An invoice as every invoice route answers it: with its pay link and the link's QR code. */
export const InvoiceReplySchema = Type.Object({
  invoice: RefTo(InvoiceSchema),
  message: Type.String(),
  error: Type.Null(),
  paylink: Type.String({ description: 'the customer pays here' }),
  qrcode: Type.String({ description: 'data:image/png;base64 QR code of the pay link, 250 px' }),
});
export type InvoiceReply = Static<typeof InvoiceReplySchema>;

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  items: Type.Integer({ description: `page size (${INVOICE_PAGE_SIZE})` }),
  count: Type.Integer({ description: 'matching invoices' }),
  pages: Type.Integer(),
  from: Type.Integer({ description: 'position of the first invoice of the page (1-based; 0 when none)' }),
  to: Type.Integer(),
  prev: Nullable(Type.Integer()),
  next: Nullable(Type.Integer()),
});
export type Pagination = Static<typeof PaginationSchema>;

export const InvoiceListSchema = Type.Object({
  invoices: Type.Array(InvoiceReplySchema),
  pagination: PaginationSchema,
  error: Type.Null(),
  message: Type.String(),
});
export type InvoiceList = Static<typeof InvoiceListSchema>;

export const InvoiceListQuerySchema = Type.Object({
  url_name: Type.Optional(Type.String()),
  status: Type.Optional(Type.String({ description: INVOICE_STATUSES.join(', ') })),
  created_at_from: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  created_at_to: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  page: Type.Optional(Type.String({ description: 'default 1' })),
});
export type InvoiceListQuery = Static<typeof InvoiceListQuerySchema>;

/**
 * The invoice error body: `message` and `error` (docs/decisions.md "Invoices", error body), and
 * `errors`, each field at fault with its own sentence (a path into the request: `invoice.currency`,
 * `url_name`, `status`; query parameters by name), so a form can show each problem next to its
 * field. Not closed: authentication and idempotency answers of the same status codes (D3 body) pass
 * through the same serializer unchanged.
 */
export const InvoiceErrorSchema = Type.Object(
  {
    message: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
    errors: Type.Optional(Type.Array(FieldErrorSchema, { description: 'each field at fault with its own sentence; `message` joins them' })),
  },
  { additionalProperties: true, description: 'invoice error: message and error, and errors field by field' },
);
export type InvoiceError = Static<typeof InvoiceErrorSchema>;

export const InvoiceNumberSchema = Type.String({ minLength: 1, maxLength: 100, description: 'debt_claim_number' });
export const InvoiceNumberParams = Type.Object({ invoice_number: InvoiceNumberSchema });

// ---- payment plans (decisions.md D11) ---------------------------------------------------------

export const PaymentPlanRequestSchema = Type.Object(
  { installments: Type.Integer({ minimum: MIN_INSTALLMENTS, maximum: MAX_INSTALLMENTS }), interval: StringIn(PLAN_INTERVALS) },
  { additionalProperties: false },
);
export type PaymentPlanRequest = Static<typeof PaymentPlanRequestSchema>;

export const InstalmentSchema = Type.Object({
  number: Type.Integer({ description: '1-based' }),
  amount: Type.Number(),
  amount_cents: Type.Integer(),
  due_date: Type.String({ description: 'YYYY-MM-DD' }),
  paid: Type.Boolean(),
});
export type Instalment = Static<typeof InstalmentSchema>;

export const PaymentPlanSchema = Type.Object(
  {
    id: Type.String(),
    status: StringEnum(PLAN_STATUSES),
    installments: Type.Integer(),
    interval: StringEnum(PLAN_INTERVALS),
    currency: Type.String(),
    amount: Type.Number(),
    amount_cents: Type.Integer(),
    paid_installments: Type.Integer(),
    schedule: Type.Array(InstalmentSchema),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { description: 'the plan and its instalment schedule (the remainder on the first instalment)' },
);
export type PaymentPlan = Static<typeof PaymentPlanSchema>;

export const PaymentPlanReplySchema = Type.Object(
  { payment_plan: PaymentPlanSchema, message: Type.String(), error: Type.Null() },
  { description: 'a payment plan with its instalment schedule' },
);
export type PaymentPlanReply = Static<typeof PaymentPlanReplySchema>;

// ---- e-mails ------------------------------------------------------------------------------------

/** One e-mail of an invoice (`GET /rest/emails`), with its text: the local test outbox's preview. */
export const InvoiceEmailSchema = Type.Object({
  id: Type.String(),
  invoice_number: Type.String(),
  email_type: StringEnum(INVOICE_EMAIL_TYPES),
  status: StringEnum(EMAIL_STATUSES),
  sent_at: Nullable(Type.String()),
  recipient_email: Type.String(),
  locale: Type.String(),
  subject: Type.String(),
  body_text: Type.String(),
  attempts: Type.Integer(),
  last_error: Nullable(Type.String()),
  test_outbox: Type.Boolean({ description: 'kept in the local test outbox (no SMTP server configured) instead of being sent' }),
  created_at: Type.String(),
});
export type InvoiceEmail = Static<typeof InvoiceEmailSchema>;

// ---- the back office (/ui, staff sessions of back office and admin) -----------------------------

/** A channel of the merchant, for the back office's channel filter and the create form. */
export const InvoiceChannelSchema = Type.Object({
  url_name: Type.String(),
  name: Type.String(),
  channel_id: Type.Integer({ description: "the invoice's channel_id" }),
  currency: Type.String({ description: 'default currency of new invoices' }),
  language: StringEnum(INVOICE_LOCALES, { description: "default locale of the channel's e-mails" }),
});
export type InvoiceChannel = Static<typeof InvoiceChannelSchema>;
export const InvoiceChannelListSchema = Type.Object({ channels: Type.Array(InvoiceChannelSchema) });
export type InvoiceChannelList = Static<typeof InvoiceChannelListSchema>;

/**
 * `POST /ui/invoices/check` and `POST /ui/invoices/:invoice_number/check`: what the API would
 * refuse in a create or update body, field by field, in the invoice error body's `errors` words;
 * empty when it would be accepted. Nothing is written.
 */
export const InvoiceCheckSchema = Type.Object({ errors: Type.Array(FieldErrorSchema) });
export type InvoiceCheck = Static<typeof InvoiceCheckSchema>;

/** A payment made through the invoice's pay link: the transaction, and which instalment it paid. */
export const InvoicePaymentSchema = Type.Object({
  instalment: Nullable(Type.Integer({ description: 'the instalment of a payment plan; null without a plan' })),
  plan_id: Nullable(Type.String()),
  transaction: RefTo(TransactionSchema),
});
export type InvoicePayment = Static<typeof InvoicePaymentSchema>;
export const InvoicePaymentListSchema = Type.Object({ payments: Type.Array(InvoicePaymentSchema, { description: 'newest first' }) });
export type InvoicePaymentList = Static<typeof InvoicePaymentListSchema>;

/** `GET /ui/invoices/:invoice_number/payment-plan`: the active plan, else the latest; null when it never had one. */
export const InvoicePlanAnswerSchema = Type.Object({ payment_plan: Nullable(PaymentPlanSchema) });
export type InvoicePlanAnswer = Static<typeof InvoicePlanAnswerSchema>;

/** `GET /rest/emails`: the e-mails of one invoice. */
export const InvoiceEmailsQuerySchema = Type.Object({ invoice_number: InvoiceNumberSchema });
export const InvoiceEmailListSchema = Type.Object({ emails: Type.Array(InvoiceEmailSchema) });

/** The invoices operations (contract/operation-table.ts). */
export const invoicesOperations = {
  'invoices.channels': { response: { 200: InvoiceChannelListSchema } },
  'invoices.checkCreate': { body: InvoiceCreateBodySchema, response: { 200: InvoiceCheckSchema } },
  'invoices.checkUpdate': { params: InvoiceNumberParams, body: InvoiceUpdateBodySchema, response: { 200: InvoiceCheckSchema } },
  'invoices.payments': { params: InvoiceNumberParams, response: { 200: InvoicePaymentListSchema } },
  'invoices.currentPlan': { params: InvoiceNumberParams, response: { 200: InvoicePlanAnswerSchema } },
  'invoices.sendReminder': { params: InvoiceNumberParams, response: { 200: InvoiceReplySchema } },
  'invoices.emails': { querystring: InvoiceEmailsQuerySchema, response: { 200: InvoiceEmailListSchema } },
  'invoices.create': { headers: IdempotencyHeaders, body: InvoiceCreateBodySchema, response: { 201: InvoiceReplySchema } },
  'invoices.list': { querystring: InvoiceListQuerySchema, response: { 200: InvoiceListSchema } },
  'invoices.get': { params: InvoiceNumberParams, response: { 200: InvoiceReplySchema } },
  'invoices.update': { params: InvoiceNumberParams, body: InvoiceUpdateBodySchema, response: { 200: InvoiceReplySchema } },
  'invoices.patch': { params: InvoiceNumberParams, body: InvoiceUpdateBodySchema, response: { 200: InvoiceReplySchema } },
  'invoices.changeStatus': { params: InvoiceNumberParams, body: InvoiceStatusBodySchema, response: { 200: InvoiceReplySchema } },
  'invoices.delete': { params: InvoiceNumberParams, response: { 204: NoContentSchema } },
  'invoices.createPlan': { params: InvoiceNumberParams, body: PaymentPlanRequestSchema, response: { 201: PaymentPlanReplySchema } },
  'invoices.getPlan': { params: InvoiceNumberParams, response: { 200: PaymentPlanReplySchema } },
  'invoices.cancelPlan': { params: InvoiceNumberParams, response: { 200: PaymentPlanReplySchema } },
} as const satisfies SchemasOf<'invoices'>;
