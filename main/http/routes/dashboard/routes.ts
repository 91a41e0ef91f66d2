/**
 * The back office's dashboard (docs/decisions.md "Dashboard"): GET /ui/dashboard?period=today|7d|month
 * answers a period's figures in the shop's time zone and what needs attention, in one read.
 * Staff sessions of back office and admin; a cashier gets 403.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorCode } from '../../../../contract/codes.js';
import type { DashboardPeriod } from '../../../../contract/constants.js';
import { apiError } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { requireStaffSession } from '../../api-context.js';
import { sendApiError } from '../../errors.js';
import { route } from '../../operation-route.js';

export function dashboardRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    route(
      app,
      'dashboard.get',
      {
        schema: {
          tags: ['Back-office UI'],
          summary:
            "Dashboard: a period's payments, approval rate, volume, refunds and payment types, and what needs attention (back office, admin)",
          description:
            "Days and hours start in the shop's time zone (setting timeZone). Payments count in the hour or day they were made, with what became of them " +
            '(approved, declined, other; the money captured on them); refunds count when they were made. Needs attention: postbacks being retried or failed, ' +
            'invoices expiring within 24 hours, invoices whose latest e-mail failed, suspended network tokens, uncaptured authorizations expiring within 24 hours, ' +
            'stored sales a till forwarded that the bank declined (until marked handled).',
        },
        errors: [400, 403],
        onRequest: requireStaffSession(gateway),
      },
      async (request, reply) => {
        const staff = request.principal?.staff;
        if (!staff || staff.role === 'cashier')
          return sendApiError(reply, apiError(ErrorCode.forbidden, 'The dashboard is for back office and admin staff'));
        const period: DashboardPeriod = (request.query.period as DashboardPeriod | undefined) ?? 'today';
        return reply.send(await gateway.dashboard.read(request.principal?.merchantId ?? '', period));
      },
    );
  };
}
