/**
 * Invoices (docs/api.md "Invoices"): create, read, update, status change, list and delete. The
 * routes live in their own encapsulated plugin because invoice errors have their own body
 * (`{message, error}`, docs/decisions.md "Invoices"): schema failures here answer 422 in that
 * shape, not the D3 body. Errors raised before a route runs (authentication, idempotency keys) and
 * transport errors (malformed JSON, body too large) keep the D3 body.
 */
import type { TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldError } from '../../../../contract/api/common.js';
import { InvoiceErrorSchema } from '../../../../contract/api/invoices.js';
import { INVOICE_STATUSES, MAX_INSTALLMENTS, MIN_INSTALLMENTS } from '../../../../contract/constants.js';
import type { Gateway } from '../../../core/gateway.js';
import { MESSAGES, type InvoiceFields } from '../../../core/invoices/invoice-fields.js';
import { merchantOf, performAs, send } from '../../api-context.js';
import { coreFieldErrors, fieldErrorsFromAjv, type AjvError, type BodyFieldCheck } from '../../errors.js';
import { apiResponses } from '../../responses.js';
import { route } from '../../operation-route.js';
import { toInvoiceReply } from '../../replies.js';

function responses(success: Record<number, TSchema>, errors: number[]): Record<number, TSchema> {
  const all = apiResponses(success, []);
  for (const status of errors) all[status] = InvoiceErrorSchema;
  return all;
}

export type ValidationError = FastifyError & { validation?: AjvError[]; validationContext?: string };

/**
 * What the schema found wrong in a request of an invoice route and, for a body, what the invoice
 * rules find in the rest of it (every bad field at once), each field with its own sentence.
 */
export function invoiceValidationErrors(validation: AjvError[], context: string | undefined, request: FastifyRequest): FieldError[] {
  const schemaFields = fieldErrorsFromAjv(validation, context);
  const rules = context === 'body' ? coreFieldErrors(request, validation, schemaFields) : [];
  return [...schemaFields.map((f) => ({ field: f.field, message: `${f.field} ${f.message}.` })), ...rules];
}

/**
 * Schema failures on invoice routes: 422 in the invoice error body (`{message, error, errors}`);
 * anything else goes to the D3 handler.
 */
function invoiceErrorHandler(error: ValidationError, request: FastifyRequest, reply: FastifyReply) {
  if (!error.validation) throw error;
  if ((request.routeOptions.url ?? '').endsWith('/status_change')) {
    return reply.code(422).send({
      message: MESSAGES.invalidStatus,
      error: MESSAGES.allowedStatuses,
      errors: [{ field: 'status', message: MESSAGES.allowedStatuses }],
    });
  }
  const errors = invoiceValidationErrors(error.validation, error.validationContext, request);
  const text = errors.map((f) => f.message).join(' ');
  return reply.code(422).send({ message: text, error: text, errors });
}

/** The invoice rules for the `invoice` object of a body, as `invoice.<field>` with the rule's sentence. */
export function invoiceChecks(gateway: Gateway, creating: boolean): BodyFieldCheck {
  return (body) => {
    const invoice = body.invoice;
    if (typeof invoice !== 'object' || invoice === null || Array.isArray(invoice)) return [];
    return gateway.invoices
      .fieldProblems(invoice as InvoiceFields, creating)
      .map((f) => ({ field: `invoice.${f.field}`, message: f.message }));
  };
}

export function invoiceRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.setErrorHandler(invoiceErrorHandler);

    route(
      app,
      'invoices.create',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Create an invoice',
          description:
            'Always created active; a number already active in the channel is taken over (the other invoice is deactivated). send_initial_email=true needs email. Answers 201 with the invoice wrapper.',
        },
        errors: (success) => responses(success, [409, 422]),
        config: { bodyFieldErrors: invoiceChecks(gateway, true) },
      },
      async (request, reply) =>
        send(
          reply,
          await performAs(toInvoiceReply, gateway, request, (op) =>
            gateway.invoices.create(op, request.body.url_name, request.body.invoice as InvoiceFields),
          ),
        ),
    );

    route(
      app,
      'invoices.list',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'List invoices',
          description: 'Newest first, 50 a page. created_at_from and created_at_to are inclusive days (UTC).',
        },
        errors: (success) => responses(success, [422]),
      },
      async (request, reply) => send(reply, toInvoiceReply(await gateway.invoices.list(merchantOf(request), request.query))),
    );

    route(
      app,
      'invoices.get',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Read an invoice',
          description: 'The active invoice with this number, else the most recently created one.',
        },
        errors: (success) => responses(success, [404]),
      },
      async (request, reply) => send(reply, toInvoiceReply(await gateway.invoices.get(merchantOf(request), request.params.invoice_number))),
    );

    for (const [method, name] of [
      ['PUT', 'invoices.update'],
      ['PATCH', 'invoices.patch'],
    ] as const) {
      route(
        app,
        name,
        {
          schema: {
            tags: ['Invoices'],
            summary: `Update an invoice (${method})`,
            description:
              'Only the sent fields change. amount and active only while pending and never with a payment plan; a new debt_claim_number takes the number from the active holder in the channel.',
          },
          errors: (success) => responses(success, [404, 422]),
          config: { bodyFieldErrors: invoiceChecks(gateway, false) },
        },
        async (request, reply) =>
          send(
            reply,
            await performAs(toInvoiceReply, gateway, request, (op) =>
              gateway.invoices.update(op, request.params.invoice_number, request.body.invoice as InvoiceFields),
            ),
          ),
      );
    }

    route(
      app,
      'invoices.changeStatus',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Change the status of an invoice',
          description: `The only way to set the status: ${INVOICE_STATUSES.join(', ')}.`,
        },
        errors: (success) => responses(success, [404, 422]),
      },
      async (request, reply) =>
        send(
          reply,
          await performAs(toInvoiceReply, gateway, request, (op) =>
            gateway.invoices.changeStatus(op, request.params.invoice_number, request.body.status),
          ),
        ),
    );

    route(
      app,
      'invoices.delete',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Delete an invoice',
          description: 'Answers 204 with an empty body; refused while a payment plan is active.',
        },
        errors: (success) => responses(success, [404, 422]),
      },
      async (request, reply) => {
        const result = await performAs(toInvoiceReply, gateway, request, (op) =>
          gateway.invoices.delete(op, request.params.invoice_number),
        );
        if (result.status === 204) return reply.code(204).send();
        return send(reply, result);
      },
    );

    // ---- payment plans (decisions.md D11) ----------------------------------------------------
    route(
      app,
      'invoices.createPlan',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Attach a payment plan',
          description: `Splits the amount into ${MIN_INSTALLMENTS}-${MAX_INSTALLMENTS} instalments (the remainder on the first), due one interval apart from today. One active plan per invoice; the invoice must be pending.`,
        },
        errors: (success) => responses(success, [404, 422]),
      },
      async (request, reply) =>
        send(
          reply,
          await performAs(toInvoiceReply, gateway, request, (op) =>
            gateway.invoicePayments.createPlan(op, request.params.invoice_number, request.body),
          ),
        ),
    );

    route(
      app,
      'invoices.getPlan',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Read the payment plan',
          description: 'The active plan, else the most recent one.',
        },
        errors: (success) => responses(success, [404]),
      },
      async (request, reply) =>
        send(reply, toInvoiceReply(await gateway.invoicePayments.getPlan(merchantOf(request), request.params.invoice_number))),
    );

    route(
      app,
      'invoices.cancelPlan',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Cancel the payment plan',
          description: 'The active plan becomes cancelled.',
        },
        errors: (success) => responses(success, [404, 422]),
      },
      async (request, reply) =>
        send(
          reply,
          await performAs(toInvoiceReply, gateway, request, (op) => gateway.invoicePayments.cancelPlan(op, request.params.invoice_number)),
        ),
    );
  };
}
