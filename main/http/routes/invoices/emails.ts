/**
 * Invoice e-mails over the API (decisions.md D11): the back office sends a reminder now, and the
 * e-mails of an invoice can be listed with their text (the local test outbox preview when no SMTP
 * server is configured). Errors use the invoice error body (`{message, error}`, "Errors" rule 5).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../../../core/gateway.js';

import { merchantOf, performAs, send } from '../../api-context.js';
import { fieldErrorsFromAjv } from '../../errors.js';
import { InvoiceErrorSchema } from '../../../../contract/api/invoices.js';
import { route } from '../../operation-route.js';
import { apiResponses } from '../../responses.js';
import { toInvoiceReply } from '../../replies.js';

function errorHandler(
  error: FastifyError & { validation?: Parameters<typeof fieldErrorsFromAjv>[0]; validationContext?: string },
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  if (!error.validation) throw error;
  const errors = fieldErrorsFromAjv(error.validation, error.validationContext).map((f) => ({
    field: f.field,
    message: `${f.field} ${f.message}.`,
  }));
  const text = errors.map((f) => f.message).join(' ');
  return reply.code(422).send({ message: text, error: text, errors });
}

export function invoiceEmailRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.setErrorHandler(errorHandler);

    route(
      app,
      'invoices.sendReminder',
      {
        schema: {
          tags: ['Invoices'],
          summary: 'Send a reminder e-mail now',
          description:
            "Queues the `reminder` template in the invoice's effective locale to its e-mail address; the answer's last_email shows it (queued, then sent or failed). 422 when the invoice is inactive or has no e-mail.",
        },
        errors: (success) => ({ ...apiResponses(success, []), 404: InvoiceErrorSchema, 422: InvoiceErrorSchema }),
      },
      async (request, reply) =>
        send(
          reply,
          await performAs(toInvoiceReply, gateway, request, (op) => gateway.invoices.sendReminder(op, request.params.invoice_number)),
        ),
    );

    route(
      app,
      'invoices.emails',
      {
        schema: {
          tags: ['Invoices'],
          summary: "List an invoice's e-mails",
          description: 'Newest first, with subject and text: the preview of the local test outbox when no SMTP server is configured.',
        },
        errors: (success) => ({ ...apiResponses(success, []), 404: InvoiceErrorSchema, 422: InvoiceErrorSchema }),
      },
      async (request, reply) =>
        send(reply, toInvoiceReply(await gateway.invoices.emails(merchantOf(request), request.query.invoice_number))),
    );
  };
}
