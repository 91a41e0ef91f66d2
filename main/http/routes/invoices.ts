/**
 * Invoices (interface.md "Invoices"): create, read, update, status change, list and delete. The
 * routes live in their own encapsulated plugin because invoice errors have their own body
 * (`{message, error}`, "Errors" rule 5): schema failures here answer 422 in that shape, not the
 * D3 body. Errors raised before a route runs (authentication, idempotency keys) and transport errors
 * (malformed JSON, body too large) keep the D3 body.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../../core/gateway.js';
import {
  EXPIRY_UNITS,
  INVOICE_EMAIL_TYPES,
  INVOICE_LOCALES,
  INVOICE_STATUSES,
  MESSAGES,
  toInvoiceReply,
  type InvoiceFields,
} from '../../core/invoices/invoices.js';
import { MAX_INSTALLMENTS, MIN_INSTALLMENTS, PLAN_INTERVALS } from '../../core/invoices/invoice-payments.js';
import { merchantOf, send } from '../api-context.js';
import { coreFieldErrors, fieldErrorsFromAjv, type AjvError, type BodyFieldCheck } from '../errors.js';
import { apiResponses, IdempotencyHeaders } from '../schemas.js';

const Text = (description?: string) => Type.Optional(Type.Union([Type.String(), Type.Null()], description ? { description } : {}));
const Flag = (description: string) =>
  Type.Optional(Type.Union([Type.Boolean(), Type.String({ enum: ['1', '0', 'true', 'false'] }), Type.Integer()], { description }));

const invoiceFields = {
  amount: Type.Optional(
    Type.Union([Type.Number(), Type.String(), Type.Null()], {
      description: 'required on create; 10.55, "10.55" or "10,55"; the absolute value is stored; "" is 422; null counts as not supplied',
    }),
  ),
  debt_claim_number: Type.Optional(
    Type.Union([Type.String(), Type.Number(), Type.Null()], { description: 'invoice number; generated per channel as INV-0001, ... when omitted on create' }),
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
  expires_in: Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Null()], { description: 'with expires_in_unit; omit both for no expiry' })),
  expires_in_unit: Type.Optional(Type.Union([Type.String({ enum: [...EXPIRY_UNITS] }), Type.String(), Type.Null()])),
  send_initial_email: Flag('on create: queue the e-mail right after creation (needs email); later changes have no effect on delivery'),
  initial_email_type: Type.Optional(Type.Union([Type.String({ enum: [...INVOICE_EMAIL_TYPES] }), Type.String(), Type.Null()], { description: 'blank means initial' })),
  locale: Type.Optional(Type.Union([Type.String({ enum: [...INVOICE_LOCALES] }), Type.String(), Type.Null()], { description: 'blank means the channel language' })),
};

const CreateBody = Type.Object(
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

const UpdateBody = Type.Object(
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

const StatusBody = Type.Object({ status: Type.Optional(Type.Unknown({ description: INVOICE_STATUSES.join(', ') })) });

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

export const InvoiceSchema = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String(),
    status: Type.String({ enum: [...INVOICE_STATUSES] }),
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
    last_email: Nullable(
      Type.Object(
        {
          email_type: Type.String({ enum: [...INVOICE_EMAIL_TYPES] }),
          status: Type.String({ enum: ['queued', 'sent', 'failed'] }),
          sent_at: Nullable(Type.String({ description: 'ISO 8601; null unless delivery succeeded' })),
          recipient_email: Type.String(),
          locale: Type.String({ enum: [...INVOICE_LOCALES] }),
        },
        { description: "the invoice's most recent e-mail; null if none was ever sent" },
      ),
    ),
  },
  { $id: 'Invoice', title: 'Invoice' },
);

const Wrapper = Type.Object({
  invoice: Type.Ref('Invoice'),
  message: Type.String(),
  error: Type.Null(),
  paylink: Type.String({ description: 'the customer pays here' }),
  qrcode: Type.String({ description: 'data:image/png;base64 QR code of the pay link, 250 px' }),
});

const PaginationSchema = Type.Object({
  page: Type.Integer(),
  items: Type.Integer({ description: 'page size (50)' }),
  count: Type.Integer({ description: 'matching invoices' }),
  pages: Type.Integer(),
  from: Type.Integer({ description: 'position of the first invoice of the page (1-based; 0 when none)' }),
  to: Type.Integer(),
  prev: Nullable(Type.Integer()),
  next: Nullable(Type.Integer()),
});

/**
 * The invoice error body. Not closed: authentication and idempotency answers of the same status
 * codes (D3 body) pass through the same serializer unchanged.
 */
const InvoiceError = Type.Object(
  { message: Type.Optional(Type.String()), error: Type.Optional(Type.String()) },
  { additionalProperties: true, description: 'invoice error: message and error' },
);

function responses(success: Record<number, TSchema>, errors: number[]): Record<number, TSchema> {
  const all = apiResponses(success, []);
  for (const status of errors) all[status] = InvoiceError;
  return all;
}

const NumberParams = Type.Object({ invoice_number: Type.String({ minLength: 1, maxLength: 100, description: 'debt_claim_number' }) });

/**
 * Schema failures on invoice routes: 422 `{message, error}` naming what the schema found and, for a
 * body, what the invoice rules find in the rest of it (every bad field at once); anything else goes
 * to the D3 handler.
 */
function invoiceErrorHandler(error: FastifyError & { validation?: AjvError[]; validationContext?: string }, request: FastifyRequest, reply: FastifyReply) {
  if (!error.validation) throw error;
  if ((request.routeOptions.url ?? '').endsWith('/status_change')) {
    return reply.code(422).send({ message: MESSAGES.invalidStatus, error: MESSAGES.allowedStatuses });
  }
  const schemaFields = fieldErrorsFromAjv(error.validation, error.validationContext);
  const rules = error.validationContext === 'body' ? coreFieldErrors(request, error.validation, schemaFields) : [];
  const text = [...schemaFields.map((f) => `${f.field} ${f.message}.`), ...rules.map((f) => f.message)].join(' ');
  return reply.code(422).send({ message: text, error: text });
}

/** The invoice rules for the `invoice` object of a body, as `invoice.<field>` with the rule's sentence. */
function invoiceChecks(gateway: Gateway, creating: boolean): BodyFieldCheck {
  return (body) => {
    const invoice = body.invoice;
    if (typeof invoice !== 'object' || invoice === null || Array.isArray(invoice)) return [];
    return gateway.invoices.fieldProblems(invoice as InvoiceFields, creating).map((f) => ({ field: `invoice.${f.field}`, message: f.message }));
  };
}

export function invoiceRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.setErrorHandler(invoiceErrorHandler);

    app.post(
      '/rest/invoices',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Create an invoice',
          description:
            'Always created active; a number already active in the channel is taken over (the other invoice is deactivated). send_initial_email=true needs email. Answers 201 with the invoice wrapper.',
          headers: IdempotencyHeaders,
          body: CreateBody,
          response: responses({ 201: Wrapper }, [409, 422]),
        },
        config: { bodyFieldErrors: invoiceChecks(gateway, true) },
      },
      async (request, reply) => {
        try {
          const context = { merchantId: merchantOf(request), ...(request.idempotency ? { idempotency: request.idempotency.scope } : {}) };
          const outcome = await gateway.operations.perform(context, (op) => gateway.invoices.create(op, request.body.url_name, request.body.invoice as InvoiceFields));
          return send(reply, toInvoiceReply(outcome));
        } finally {
          request.idempotency?.release();
        }
      },
    );

    app.get(
      '/rest/invoices',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'List invoices',
          description: 'Newest first, 50 a page. created_at_from and created_at_to are inclusive days (UTC).',
          querystring: Type.Object({
            url_name: Type.Optional(Type.String()),
            status: Type.Optional(Type.String({ description: INVOICE_STATUSES.join(', ') })),
            created_at_from: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
            created_at_to: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
            page: Type.Optional(Type.String({ description: 'default 1' })),
          }),
          response: responses(
            { 200: Type.Object({ invoices: Type.Array(Wrapper), pagination: PaginationSchema, error: Type.Null(), message: Type.String() }) },
            [422],
          ),
        },
      },
      async (request, reply) => send(reply, toInvoiceReply(await gateway.invoices.list(merchantOf(request), request.query))),
    );

    app.get(
      '/rest/invoices/:invoice_number',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Read an invoice',
          description: 'The active invoice with this number, else the most recently created one.',
          params: NumberParams,
          response: responses({ 200: Wrapper }, [404]),
        },
      },
      async (request, reply) => send(reply, toInvoiceReply(await gateway.invoices.get(merchantOf(request), request.params.invoice_number))),
    );

    for (const method of ['PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: '/rest/invoices/:invoice_number',
        schema: {
          tags: ['Invoices'],
          summary: `Update an invoice (${method})`,
          description:
            'Only the sent fields change. amount and active only while pending and never with a payment plan; a new debt_claim_number takes the number from the active holder in the channel.',
          params: NumberParams,
          body: UpdateBody,
          response: responses({ 200: Wrapper }, [404, 422]),
        },
        config: { bodyFieldErrors: invoiceChecks(gateway, false) },
        handler: async (request, reply) =>
          send(reply, toInvoiceReply(await gateway.invoices.update(merchantOf(request), request.params.invoice_number, request.body.invoice as InvoiceFields))),
      });
    }

    app.put(
      '/rest/invoices/:invoice_number/status_change',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Change the status of an invoice',
          description: `The only way to set the status: ${INVOICE_STATUSES.join(', ')}.`,
          params: NumberParams,
          body: StatusBody,
          response: responses({ 200: Wrapper }, [404, 422]),
        },
      },
      async (request, reply) =>
        send(reply, toInvoiceReply(await gateway.invoices.changeStatus(merchantOf(request), request.params.invoice_number, request.body.status))),
    );

    app.delete(
      '/rest/invoices/:invoice_number',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Delete an invoice',
          description: 'Answers 204 with an empty body; refused while a payment plan is active.',
          params: NumberParams,
          response: responses({ 204: Type.Null({ description: 'empty body' }) }, [404, 422]),
        },
      },
      async (request, reply) => {
        const result = toInvoiceReply(await gateway.invoices.delete(merchantOf(request), request.params.invoice_number));
        if (result.status === 204) return reply.code(204).send();
        return send(reply, result);
      },
    );

    // ---- payment plans (decisions.md D11) ----------------------------------------------------
    const PlanReply = Type.Object(
      { payment_plan: Type.Unknown({ description: 'id, status, installments, interval, currency, amount, amount_cents, paid_installments, schedule, created_at, updated_at' }), message: Type.String(), error: Type.Null() },
      { description: 'a payment plan with its instalment schedule' },
    );

    app.post(
      '/rest/invoices/:invoice_number/payment_plan',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Attach a payment plan',
          description: `Splits the amount into ${MIN_INSTALLMENTS}-${MAX_INSTALLMENTS} instalments (the remainder on the first), due one interval apart from today. One active plan per invoice; the invoice must be pending.`,
          params: NumberParams,
          body: Type.Object(
            { installments: Type.Integer({ minimum: MIN_INSTALLMENTS, maximum: MAX_INSTALLMENTS }), interval: Type.String({ enum: [...PLAN_INTERVALS] }) },
            { additionalProperties: false },
          ),
          response: responses({ 201: PlanReply }, [404, 422]),
        },
      },
      async (request, reply) =>
        send(reply, toInvoiceReply(await gateway.invoicePayments.createPlan(merchantOf(request), request.params.invoice_number, request.body))),
    );

    app.get(
      '/rest/invoices/:invoice_number/payment_plan',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Read the payment plan',
          description: 'The active plan, else the most recent one.',
          params: NumberParams,
          response: responses({ 200: PlanReply }, [404]),
        },
      },
      async (request, reply) => send(reply, toInvoiceReply(await gateway.invoicePayments.getPlan(merchantOf(request), request.params.invoice_number))),
    );

    app.delete(
      '/rest/invoices/:invoice_number/payment_plan',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Cancel the payment plan',
          description: 'The active plan becomes cancelled.',
          params: NumberParams,
          response: responses({ 200: PlanReply }, [404, 422]),
        },
      },
      async (request, reply) => send(reply, toInvoiceReply(await gateway.invoicePayments.cancelPlan(merchantOf(request), request.params.invoice_number))),
    );
  };
}
