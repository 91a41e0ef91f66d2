/**
 * Closing the day at a till (docs/operations.md "Closing the day"): the open day's X report, closing
 * it with a Z report, and the till's past Z reports as JSON, A4 PDF and 42-column receipt lines.
 * Staff sessions only. Every role reads; back office and admin close, a cashier with a manager's
 * approval (POST /ui/approvals with action day_close, then X-Manager-Approval). The PDF and the
 * receipt lines speak the staff member's language (requestStaffLanguage), with times in the shop's
 * time zone.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorBodySchema, RefTo } from '../../../../contract/api/common.js';
import { ErrorCode } from '../../../../contract/codes.js';
import { CLOSE_DAY_ACTION } from '../../../../contract/constants.js';
import { apiError, validationError } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { checkIdempotencyKey } from '../../../core/idempotency/idempotency.js';
import type { Principal } from '../../../core/merchants/authenticator.js';
import { RECEIPT_COLUMNS, reportLines, reportPrintDocument, reportWords, type ReportWords } from '../../../core/reports/report-text.js';
import { requireStaffSession, send } from '../../api-context.js';
import { sendApiError } from '../../errors.js';
import { dayReportPdf } from '../../report-pdf.js';
import { requestStaffLanguage } from '../../staff-language.js';
import { tillOf, tillOfRequest, tillSessionOf } from '../tills/routes.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

const ErrorRef = RefTo(ErrorBodySchema);
function responses(success: Record<number, TSchema>, errors: number[]): Record<number, TSchema> {
  const all: Record<number, TSchema> = { ...success };
  const words: Record<number, string> = {
    400: 'Invalid request (1001)',
    401: 'No staff session (2001)',
    403: "Not allowed for this role, or a cashier without a manager's approval (2002)",
    404: 'No such Z report at this till (3001)',
  };
  for (const status of [...errors, 401]) all[status] = Type.Unsafe({ ...ErrorRef, description: words[status] ?? 'Error' });
  return all;
}

/** The shop's day across its tills (no till of its own: outside reportRoutes' till preHandler). */
export function shopDayRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const requireSession = requireStaffSession(gateway);
    route(
      app,
      'reports.shopDay',
      {
        schema: {
          tags,
          summary: "The shop's day: every till's open day and their sum (changes nothing)",
          description:
            "Each active till's figures since its own last Z report, and all of them summed per currency, card brand, entry mode and cashier. Each till closes its own day.",
        },
        errors: [],
        onRequest: requireSession,
      },
      async (request, reply) => reply.send(await gateway.dayReports.shopDay(tillSessionOf(request).merchantId)),
    );
    route(
      app,
      'reports.sales',
      {
        schema: {
          tags,
          summary: "A till's open day as a list (Today's sales), or the whole shop's (changes nothing)",
          description:
            "The card-present sales and refunds of the till's open day (since its last Z report), newest first, with totals from the same entries as its X report. Default: this screen's till (a back-office or admin screen that holds none: the whole shop); a cashier sees only that. Back office and admin may name another till (terminal_id, * for other terminals) or ask for the whole shop (scope=shop).",
        },
        errors: [400, 403, 409],
        onRequest: requireSession,
      },
      async (request, reply) => {
        const session = tillSessionOf(request);
        const role = request.principal?.staff?.role;
        const manager = role === 'back_office' || role === 'admin';
        const { terminal_id: named, scope } = request.query;
        const refused = () =>
          sendApiError(
            reply,
            apiError(ErrorCode.forbidden, "A cashier sees only the sales of their own till's day", [
              { field: named === undefined ? 'scope' : 'terminal_id', message: 'back office or admin only' },
            ]),
          );
        if (scope === 'shop') return manager ? reply.send(await gateway.dayReports.sales(session.merchantId, 'shop')) : refused();
        const own = await gateway.tills.ofSession(session);
        if (named !== undefined && (!own.ok || named !== own.value))
          return manager ? reply.send(await gateway.dayReports.sales(session.merchantId, { book: named })) : refused();
        // A manager's screen that holds no till (the back office) sees the whole shop.
        if (!own.ok) return manager ? reply.send(await gateway.dayReports.sales(session.merchantId, 'shop')) : send(reply, toReply(own));
        return reply.send(await gateway.dayReports.sales(session.merchantId, { book: own.value }));
      },
    );
  };
}

export function reportRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const reports = gateway.dayReports;
  return async (app) => {
    const requireSession = requireStaffSession(gateway);

    const merchantOf = (principal: Principal | undefined) => principal?.merchantId ?? '';
    /** The words of a printed report: the staff member's language, the shop's time zone. */
    const wordsOf = async (request: FastifyRequest): Promise<ReportWords> =>
      reportWords(await requestStaffLanguage(gateway, request), gateway.dashboard.timeZone);
    // The till named by `terminal_id`, else this screen's (its own reports, its own close).
    app.addHook('preHandler', tillOfRequest(gateway, { byQuery: true }));

    route(
      app,
      'reports.x',
      {
        schema: {
          tags,
          summary: "X report: the till's open day so far (changes nothing)",
          description:
            'Approved (captured), declined and refunded card-present figures since the last Z report, per currency, card brand, entry mode and cashier. Any staff role.',
        },
        errors: (success) => responses(success, [400]),
        onRequest: requireSession,
      },
      async (request, reply) => reply.send(await reports.x(merchantOf(request.principal), tillOf(request))),
    );

    route(
      app,
      'reports.closeDay',
      {
        schema: {
          tags,
          summary: 'Close the day: Z report (back office or admin; a cashier with a manager approval)',
          description:
            'Takes the figures of the open day up to this moment, stores them under the next sequence number of the till and writes the audit log entry, in one database transaction. ' +
            'A closed day never changes; sales and refunds committed after the close belong to the next day. ' +
            'With Idempotency-Key, a repeated request answers 200 with the day it closed before instead of closing another.',
        },
        errors: (success) => responses(success, [400, 403]),
        onRequest: requireSession,
      },
      async (request, reply) => {
        const principal = request.principal as Principal;
        const staff = principal.staff;
        if (!staff) return sendApiError(reply, apiError(ErrorCode.forbidden, 'Only staff close the day'));
        const rawKey = request.headers['idempotency-key'];
        const closeKey = typeof rawKey === 'string' ? rawKey : undefined;
        if (closeKey !== undefined) {
          const invalid = checkIdempotencyKey(closeKey, 'Idempotency-Key');
          if (invalid) return sendApiError(reply, invalid);
        }
        let approvedBy: string | null = null;
        if (staff.role === 'cashier') {
          const token = request.headers['x-manager-approval'];
          approvedBy =
            (typeof token === 'string'
              ? await gateway.staff.consumeApproval(token, merchantOf(principal), CLOSE_DAY_ACTION, closeKey)
              : undefined) ?? null;
        }
        const result = await reports.close(
          merchantOf(principal),
          tillOf(request),
          { staffId: staff.id, role: staff.role, approvedBy },
          closeKey,
        );
        if (result.ok && result.value.replayed) reply.header('Idempotent-Replayed', 'true');
        return send(reply, toReply(result.ok ? { ...result, value: result.value.report } : result));
      },
    );

    route(
      app,
      'reports.zList',
      {
        schema: {
          tags,
          summary: "The till's closed days (Z reports), newest first",
        },
        errors: (success) => responses(success, [400]),
        onRequest: requireSession,
      },
      async (request, reply) => {
        const limit = request.query.limit === undefined ? 20 : Number(request.query.limit);
        if (limit < 1 || limit > 100) return sendApiError(reply, validationError([{ field: 'limit', message: 'must be 1 to 100' }]));
        const offset = request.query.offset === undefined ? 0 : Number(request.query.offset);
        return reply.send(await reports.list(merchantOf(request.principal), tillOf(request), limit, offset));
      },
    );

    route(
      app,
      'reports.z',
      {
        schema: { tags, summary: 'One Z report, as it was written when the day was closed' },
        errors: (success) => responses(success, [400, 404]),
        onRequest: requireSession,
      },
      async (request, reply) =>
        send(reply, toReply(await reports.get(merchantOf(request.principal), tillOf(request), Number(request.params.sequence)))),
    );

    route(
      app,
      'reports.zPdf',
      {
        schema: {
          tags,
          summary: 'One Z report as an A4 PDF',
          produces: ['application/pdf'],
        },
        errors: (success) => responses(success, [400, 404]),
        onRequest: requireSession,
      },
      async (request, reply) => {
        const found = await reports.get(merchantOf(request.principal), tillOf(request), Number(request.params.sequence));
        if (!found.ok) return sendApiError(reply, found.error);
        return sendPdf(
          reply,
          await dayReportPdf(found.value, await wordsOf(request)),
          `z-report-${found.value.terminal_id}-${found.value.sequence}.pdf`,
        );
      },
    );

    route(
      app,
      'reports.xPdf',
      {
        schema: { tags, summary: 'The X report as an A4 PDF', produces: ['application/pdf'] },
        errors: (success) => responses(success, [400]),
        onRequest: requireSession,
      },
      async (request, reply) => {
        const view = await reports.x(merchantOf(request.principal), tillOf(request));
        return sendPdf(reply, await dayReportPdf(view, await wordsOf(request)), `x-report-${view.terminal_id}.pdf`);
      },
    );

    route(
      app,
      'reports.zReceipt',
      {
        schema: { tags, summary: 'One Z report as 42-column lines for a receipt printer' },
        errors: (success) => responses(success, [400, 404]),
        onRequest: requireSession,
      },
      async (request, reply) => {
        const found = await reports.get(merchantOf(request.principal), tillOf(request), Number(request.params.sequence));
        if (!found.ok) return sendApiError(reply, found.error);
        return reply.send({ columns: RECEIPT_COLUMNS, lines: reportLines(found.value, RECEIPT_COLUMNS, await wordsOf(request)) });
      },
    );

    route(
      app,
      'reports.printZ',
      {
        schema: {
          tags,
          summary: "Print one Z report on the shop's receipt printer (ESC/POS)",
          description:
            "Laid out for the printer's characters per line. A printer that does not answer is a result (printed false); no printer set up is 400 (1002).",
        },
        errors: (success) => responses(success, [400, 404]),
        onRequest: requireSession,
      },
      async (request, reply) => {
        const found = await reports.get(merchantOf(request.principal), tillOf(request), Number(request.params.sequence));
        if (!found.ok) return sendApiError(reply, found.error);
        const view = found.value;
        const words = await wordsOf(request);
        return send(
          reply,
          toReply(
            await gateway.receipts.printDocument(merchantOf(request.principal), (width) => reportPrintDocument(view, width, words), {
              z_report: view.sequence,
            }),
          ),
        );
      },
    );

    route(
      app,
      'reports.printX',
      {
        schema: { tags, summary: "Print the X report on the shop's receipt printer (ESC/POS)" },
        errors: (success) => responses(success, [400]),
        onRequest: requireSession,
      },
      async (request, reply) => {
        const view = await reports.x(merchantOf(request.principal), tillOf(request));
        const words = await wordsOf(request);
        return send(
          reply,
          toReply(
            await gateway.receipts.printDocument(merchantOf(request.principal), (width) => reportPrintDocument(view, width, words), {
              x_report: view.sequence,
            }),
          ),
        );
      },
    );

    route(
      app,
      'reports.xReceipt',
      {
        schema: { tags, summary: 'The X report as 42-column lines for a receipt printer' },
        errors: (success) => responses(success, [400]),
        onRequest: requireSession,
      },
      async (request, reply) =>
        reply.send({
          columns: RECEIPT_COLUMNS,
          lines: reportLines(await reports.x(merchantOf(request.principal), tillOf(request)), RECEIPT_COLUMNS, await wordsOf(request)),
        }),
    );
  };
}

function sendPdf(reply: FastifyReply, pdf: Buffer, filename: string): FastifyReply {
  return reply
    .code(200)
    .type('application/pdf')
    .header('Content-Disposition', `inline; filename="${filename}"`)
    .header('Cache-Control', 'no-store')
    .send(pdf);
}
