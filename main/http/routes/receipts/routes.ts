/**
 * Receipts for the till and the back office (decisions.md D16), by staff session: a sale's or a
 * refund's receipt rebuilt from the gateway's record, its e-mails, its customer link with QR code,
 * printing it on the receipt printer; and the receipt printer setting with a test print. A cashier
 * reaches today's receipts only. Schemas come from the contract (contract/api/receipts.ts) that the
 * renderer reads too.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Gateway } from '../../../core/gateway.js';
import type { ReceiptViewer } from '../../../core/receipts/receipts.js';
import { requireStaffSession, send } from '../../api-context.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

function viewer(request: FastifyRequest): ReceiptViewer {
  const principal = request.principal;
  if (!principal?.merchantId || !principal.staff) throw new Error('receipt route reached without a staff session');
  return { merchantId: principal.merchantId, role: principal.staff.role, staffId: principal.staff.id };
}

export function receiptRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const receipts = gateway.receipts;
  return async (app) => {
    const onRequest = requireStaffSession(gateway);

    route(
      app,
      'receipts.get',
      {
        schema: {
          tags,
          summary: 'The receipt of a sale or a refund, rebuilt from the record',
          description:
            "Brand, last four, entry mode, the chip's application label and AID, approval code. A cashier gets today's receipts only (403 otherwise); a declined sale has none (400, 1002).",
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await receipts.get(viewer(request), request.params.receipt_id))),
    );

    route(
      app,
      'receipts.print',
      {
        schema: {
          tags,
          summary: 'Print the receipt on the receipt printer',
          description:
            'A printer that does not answer is an answer too: printed false with the reason. 400 (1002) when no printer is set up.',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await receipts.print(viewer(request), request.params.receipt_id))),
    );

    route(
      app,
      'receipts.email',
      {
        schema: {
          tags,
          summary: 'E-mail the receipt to the customer',
          description:
            "Queued (202) and sent by the mail queue in the merchant's language or the one asked for (en, de, pt), with the link to the receipt page.",
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await receipts.email(viewer(request), request.params.receipt_id, request.body))),
    );

    route(
      app,
      'receipts.emails',
      {
        schema: {
          tags,
          summary: "The receipt's e-mails, newest first (the local test outbox shows their text)",
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await receipts.emails(viewer(request), request.params.receipt_id))),
    );

    route(
      app,
      'receipts.link',
      {
        schema: {
          tags,
          summary: "The customer's link to the receipt page, with its QR code",
          description: 'One unguessable link per receipt (the same on every call). The page shows brand and last four, no other card data.',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await receipts.link(viewer(request), request.params.receipt_id))),
    );

    route(
      app,
      'receipts.printer',
      { schema: { tags, summary: "The shop's receipt printer" }, errors: [], onRequest },
      async (request, reply) => reply.send(await receipts.printerSetting(viewer(request).merchantId)),
    );

    route(
      app,
      'receipts.setPrinter',
      {
        schema: {
          tags,
          summary: 'Set up the receipt printer (admin)',
          description: 'ESC/POS over the network (host, port 9100 by default) or a USB device file; connection none removes it. Audited.',
        },
        errors: [400, 403],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await receipts.setPrinter(viewer(request), request.body))),
    );

    route(
      app,
      'receipts.testPrint',
      {
        schema: { tags, summary: 'Print a test page on the receipt printer' },
        errors: [400],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await receipts.testPrint(viewer(request)))),
    );
  };
}
