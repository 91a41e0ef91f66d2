/**
 * Staff and their sessions: login by password or PIN (a session cookie, never the merchant's API
 * password), the current session, logout, one's own PIN, manager approvals, the shop's staff, and
 * the audit log.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditEntry } from '../../../../contract/api/staff.js';
import { ErrorCode } from '../../../../contract/codes.js';
import { apiError } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { SESSION_MAX_MS, staffLockKey } from '../../../core/staff/staff.js';
import { requireStaffSession, SESSION_COOKIE, send, sessionToken } from '../../api-context.js';
import { sendApiError } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

export function staffRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const staff = gateway.staff;
  return async (app) => {
    const requireSession = requireStaffSession(gateway);

    route(
      app,
      'staff.login',
      { schema: { tags, summary: 'Staff login (password or PIN); sets the session cookie' } },
      async (request, reply) => {
        const result = await staff.login(request.ip, request.body);
        if (!result.ok) {
          const locked = await gateway.auth.lockout(staffLockKey(request.body.login));
          if (locked) reply.header('Retry-After', String(locked.retryAfterSeconds));
          return send(reply, toReply(result));
        }
        reply.setCookie(SESSION_COOKIE, result.value.token, {
          httpOnly: true,
          sameSite: 'strict',
          secure: request.protocol === 'https',
          path: '/',
          maxAge: SESSION_MAX_MS / 1000,
        });
        return reply.code(200).send(result.value.session);
      },
    );

    // The app asks this at start: being logged out is an answer here, not an error (no 401 in the
    // browser's console before anyone logged in).
    route(
      app,
      'staff.whoami',
      { schema: { tags, summary: 'The current staff session, or null when nobody is logged in' } },
      async (request, reply) => {
        const token = sessionToken(request);
        const principal = token ? await staff.resolve(token) : undefined;
        const info = principal?.staff ? await staff.current(principal) : undefined;
        return reply.send({ session: info ?? null });
      },
    );

    route(
      app,
      'staff.session',
      { schema: { tags, summary: 'The current staff session' }, onRequest: requireSession },
      async (request, reply) => {
        const info = request.principal ? await staff.current(request.principal) : undefined;
        return info ? reply.send(info) : sendApiError(reply, apiError(ErrorCode.unauthenticated, 'Log in first'));
      },
    );

    route(app, 'staff.logout', { schema: { tags, summary: 'Log out' } }, async (request, reply) => {
      const token = sessionToken(request);
      if (token) await staff.logout(token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.code(204).send();
    });

    route(
      app,
      'staff.setOwnPin',
      {
        schema: {
          tags,
          summary: 'Set or change your own PIN (till login and refund approvals), confirmed with your password',
        },
        onRequest: requireSession,
      },
      async (request, reply) => send(reply, toReply(await staff.setOwnPin(request.ip, request.principal as never, request.body))),
    );

    route(
      app,
      'staff.setOwnLanguage',
      {
        schema: { tags, summary: "Choose your own language for the staff screens (en, de, pt, hr), or null for the shop's" },
        onRequest: requireSession,
      },
      async (request, reply) => send(reply, toReply(await staff.setOwnLanguage(request.principal as never, request.body))),
    );

    route(
      app,
      'staff.approve',
      {
        schema: {
          tags,
          summary: "A manager's approval of one action at the till (single use, 2 minutes)",
        },
        onRequest: requireSession,
      },
      async (request, reply) => {
        const { action, ...credentials } = request.body;
        return send(reply, toReply(await staff.approve(request.ip, request.principal as never, action, credentials)));
      },
    );

    // Managers read who works in the shop (the back office names and filters sales by cashier); only an admin changes it.
    route(
      app,
      'staff.list',
      { schema: { tags, summary: 'Staff of this shop (back office and admin)' }, onRequest: requireSession },
      async (request, reply) => {
        const role = request.principal?.staff?.role;
        if (role !== 'admin' && role !== 'back_office')
          return sendApiError(reply, apiError(ErrorCode.forbidden, 'Only the back office and admins may see the staff'));
        return reply.send(await staff.list(request.principal?.merchantId ?? ''));
      },
    );

    route(
      app,
      'staff.create',
      {
        schema: {
          tags,
          summary: 'Create a staff account (admin; audited: staff_create); the password (generated when none is given) is shown once',
        },
        config: { bodyFieldErrors: (body) => staff.createErrors(body) },
        onRequest: requireSession,
      },
      async (request, reply) => {
        if (request.principal?.staff?.role !== 'admin')
          return sendApiError(reply, apiError(ErrorCode.forbidden, 'Only an admin may create staff'));
        const { display_name, ...rest } = request.body;
        const input = { merchantId: request.principal.merchantId ?? '', ...rest, ...(display_name ? { displayName: display_name } : {}) };
        return send(reply, toReply(await staff.create(input, { staffId: request.principal.staff.id })));
      },
    );

    route(
      app,
      'staff.audit',
      {
        schema: {
          tags,
          summary:
            'Audit log: logins, refunds, voids, captures by staff; shops, terminals and payment-method settings with old and new values',
        },
        onRequest: requireSession,
      },
      async (request, reply) => {
        if (request.principal?.staff?.role === 'cashier')
          return sendApiError(reply, apiError(ErrorCode.forbidden, 'Cashiers may not read the audit log'));
        const records = await staff.audit(request.principal?.merchantId ?? '');
        const entries: AuditEntry[] = records.map((r) => ({
          created_at: r.createdAt,
          action: r.action,
          staff_id: r.staffId,
          staff_name: r.staffName,
          approved_by: r.approvedBy,
          approved_by_name: r.approvedByName,
          subject_id: r.subjectId,
          detail: r.detail,
          partner_id: r.partnerId ?? null,
          old_value: r.oldValue ?? null,
          new_value: r.newValue ?? null,
        }));
        return reply.send(entries);
      },
    );
  };
}
