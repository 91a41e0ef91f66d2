/**
 * What the back office's invoice screens need beside the invoice API (which staff sessions of back
 * office and admin call as it is, docs/api.md "Invoices"): the merchant's channels, the payments
 * made through an invoice's pay link, its payment plan or none (no 404 for the usual case), and the
 * checks of the create and edit forms. A check answers what `POST /rest/invoices` or
 * `PUT /rest/invoices/:invoice_number` would refuse in the same body, field by field, with the same
 * schema and the same rules and words, and writes nothing: the form shows each problem next to its
 * field before it sends (decisions.md "Back office: invoices"). A cashier gets 403.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Gateway } from '../../../core/gateway.js';
import type { InvoiceFields } from '../../../core/invoices/invoice-fields.js';
import { requireBackOfficeSession, send, staffOf } from '../../api-context.js';
import { invoiceChecks, invoiceValidationErrors, type ValidationError } from './routes.js';
import { InvoiceErrorSchema } from '../../../../contract/api/invoices.js';
import type { OperationName } from '../../../../contract/operation-table.js';
import { isCheck } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toInvoiceReply } from '../../replies.js';
import { apiResponses } from '../../responses.js';

const tags = ['Back-office UI'];

/** The check routes, whose answer to a body the schema refuses is that body's errors (200). */
const CHECKS = new Set<OperationName>(['invoices.checkCreate', 'invoices.checkUpdate']);

function merchantOfStaff(request: FastifyRequest): string {
  return staffOf(request).merchantId;
}

export function invoiceBackOfficeRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Invoices are the back office's (docs/decisions.md D9): a cashier is kept out here as on /rest/invoices.
    const onRequest = requireBackOfficeSession(gateway, 'Invoices are for back office and admin staff');

    app.setErrorHandler((error: ValidationError, request, reply) => {
      if (!error.validation) throw error;
      const errors = invoiceValidationErrors(error.validation, error.validationContext, request);
      if (isCheck(CHECKS, request) && error.validationContext === 'body') return reply.code(200).send({ errors });
      const text = errors.map((f) => f.message).join(' ');
      return reply.code(422).send({ message: text, error: text, errors });
    });

    route(
      app,
      'invoices.channels',
      {
        schema: {
          tags,
          summary: "The merchant's invoice channels (back office, admin)",
          description: 'url_name, name, channel_id (as invoices answer it), default currency and language of each channel.',
        },
        errors: [403],
        onRequest,
      },
      async (request, reply) => reply.send({ channels: await gateway.invoices.channels(merchantOfStaff(request)) }),
    );

    route(
      app,
      'invoices.checkCreate',
      {
        schema: {
          tags,
          summary: 'What POST /rest/invoices would refuse in this body, field by field (nothing is created)',
          description:
            "The create route's schema and rules; `errors` has the 422 answer's `errors`, empty when the invoice would be created.",
        },
        errors: [403],
        config: { bodyFieldErrors: invoiceChecks(gateway, true) },
        onRequest,
      },
      async (request, reply) =>
        reply.send({
          errors: await gateway.invoices.checkCreate(
            merchantOfStaff(request),
            request.body.url_name,
            request.body.invoice as InvoiceFields,
          ),
        }),
    );

    route(
      app,
      'invoices.checkUpdate',
      {
        schema: {
          tags,
          summary: 'What PUT /rest/invoices/:invoice_number would refuse in this body, field by field (nothing is changed)',
          description:
            "The update route's schema and rules against the invoice as it is now (amount and active only while pending without a payment plan, activation with the number taken); `errors` has the 422 answer's `errors`, empty when the update would be applied.",
        },
        errors: (success) => ({ ...apiResponses(success, [403]), 404: InvoiceErrorSchema }),
        config: { bodyFieldErrors: invoiceChecks(gateway, false) },
        onRequest,
      },
      async (request, reply) =>
        send(
          reply,
          toInvoiceReply(
            await gateway.invoices.checkUpdate(
              merchantOfStaff(request),
              request.params.invoice_number,
              request.body.invoice as InvoiceFields,
            ),
          ),
        ),
    );

    route(
      app,
      'invoices.payments',
      {
        schema: {
          tags,
          summary: "The payments made through an invoice's pay link (back office, admin)",
          description:
            'Newest first: each transaction the pay page started for the invoice, with the instalment it paid when the invoice has a payment plan.',
        },
        errors: (success) => ({ ...apiResponses(success, [403]), 404: InvoiceErrorSchema, 422: InvoiceErrorSchema }),
        onRequest,
      },
      async (request, reply) =>
        send(reply, toInvoiceReply(await gateway.invoicePayments.payments(merchantOfStaff(request), request.params.invoice_number))),
    );

    route(
      app,
      'invoices.currentPlan',
      {
        schema: {
          tags,
          summary: "An invoice's payment plan, or null when it never had one (back office, admin)",
          description:
            'The active plan, else the most recent one, with its instalments: GET /rest/invoices/:invoice_number/payment_plan without the 404 for an invoice that has none.',
        },
        errors: (success) => ({ ...apiResponses(success, [403]), 404: InvoiceErrorSchema, 422: InvoiceErrorSchema }),
        onRequest,
      },
      async (request, reply) =>
        send(reply, toInvoiceReply(await gateway.invoicePayments.planOrNone(merchantOfStaff(request), request.params.invoice_number))),
    );
  };
}
