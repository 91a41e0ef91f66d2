/**
 * The back-office UI's own endpoints: staff login by password or PIN (a session cookie, never the
 * merchant's API password), the current session, logout, manager approvals, the simulated
 * terminal's configuration, staff, shops and their terminals, and the audit log.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AuditEntry } from '../../../contract/api/staff.js';
import type { TerminalConfig } from '../../../contract/api/till.js';
import { ErrorCode } from '../../../contract/codes.js';
import { DEFAULT_CVM_LIMIT } from '../../../contract/constants.js';
import { apiError } from '../../core/errors.js';
import type { Gateway } from '../../core/gateway.js';
import { TEST_PIN_KEY } from '../../core/payments/payments.js';
import { SESSION_IDLE_MS, SESSION_MAX_MS, staffLockKey } from '../../core/staff/staff.js';
import { requireStaffSession, SESSION_COOKIE, send, sessionToken } from '../api-context.js';
import { sendApiError } from '../errors.js';
import { tillOf, tillOfRequest } from './tills.js';
import { route } from '../operations.js';
import { toReply } from '../replies.js';

const tags = ['Back-office UI'];

/** The till's own settings, from the host's settings (docs/operations.md). */
export interface TillSettings {
  /** Above this amount (merchant's currency) the till asks for confirmation before the card prompt. */
  confirmAbove: number;
}

export const DEFAULT_TILL_SETTINGS: TillSettings = { confirmAbove: 1000 };

export function uiRoutes(gateway: Gateway, till: TillSettings = DEFAULT_TILL_SETTINGS): FastifyPluginAsyncTypebox {
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
    route(app, 'staff.whoami', { schema: { tags, summary: 'The current staff session, or null when nobody is logged in' } }, async (request, reply) => {
      const token = sessionToken(request);
      const principal = token ? await staff.resolve(token) : undefined;
      const info = principal?.staff ? await staff.current(principal) : undefined;
      return reply.send({ session: info ?? null });
    });

    route(app, 'staff.session', { schema: { tags, summary: 'The current staff session' }, onRequest: requireSession }, async (request, reply) => {
      const info = request.principal ? await staff.current(request.principal) : undefined;
      return info ? reply.send(info) : sendApiError(reply, apiError(ErrorCode.unauthenticated, 'Log in first'));
    });

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

    const terminal: Omit<TerminalConfig, 'terminal_id'> = {
      type: 'softpos',
      attended: true,
      capabilities: ['contactlessChip', 'contactChip', 'magstripe', 'onlinePin'],
      cvm_limit: DEFAULT_CVM_LIMIT,
      // The Test environment's published PIN key; a production terminal keeps its key in hardware.
      pin_key: { zone_id: TEST_PIN_KEY.zoneId, key_id: TEST_PIN_KEY.keyId, key_hex: TEST_PIN_KEY.keyHex },
      idle_lock_seconds: SESSION_IDLE_MS / 1000,
      // Above this the till asks "Charge …? That is above this till's usual limit" before the card prompt.
      confirm_above: till.confirmAbove,
    };
    route(
      app,
      'till.terminal',
      {
        schema: { tags, summary: "The simulated terminal of this screen's till (PUT /ui/session/till first where the shop has several)" },
        errors: [400, 409],
        onRequest: requireSession,
        preHandler: tillOfRequest(gateway),
      },
      async (request, reply) => {
        // The CVM limit of this till's payments: its shop's cardpos setting, else the merchant's, else the default (D15).
        const cvm = await gateway.paymentMethods.terminalCvmLimit(request.principal?.merchantId ?? '', tillOf(request));
        return reply.send({ ...terminal, terminal_id: tillOf(request), cvm_limit: cvm.amount });
      },
    );

    route(app, 'staff.list', { schema: { tags, summary: 'Staff of this shop (admin)' }, onRequest: requireSession }, async (request, reply) => {
      if (request.principal?.staff?.role !== 'admin') return sendApiError(reply, apiError(ErrorCode.forbidden, 'Only an admin may see staff'));
      return reply.send(await staff.list(request.principal.merchantId ?? ''));
    });

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
        if (request.principal?.staff?.role !== 'admin') return sendApiError(reply, apiError(ErrorCode.forbidden, 'Only an admin may create staff'));
        const { display_name, ...rest } = request.body;
        const input = { merchantId: request.principal.merchantId ?? '', ...rest, ...(display_name ? { displayName: display_name } : {}) };
        return send(reply, toReply(await staff.create(input, { staffId: request.principal.staff.id })));
      },
    );

    // ---- shops and terminals (the app's Settings; decisions.md D15)
    const adminOnly = (request: FastifyRequest, what: string) =>
      request.principal?.staff?.role === 'admin' ? undefined : apiError(ErrorCode.forbidden, `Only an admin may ${what}`);
    route(app, 'payment-methods.shops', { schema: { tags, summary: "This merchant's shops and their terminals" }, onRequest: requireSession }, async (request, reply) => {
      if (request.principal?.staff?.role === 'cashier') return sendApiError(reply, apiError(ErrorCode.forbidden, 'Cashiers may not manage shops'));
      return reply.send(await gateway.partners.listShops(request.principal?.merchantId ?? ''));
    });
    route(
      app,
      'payment-methods.createShop',
      { schema: { tags, summary: 'Create a shop (admin)' }, onRequest: requireSession },
      async (request, reply) => {
        const denied = adminOnly(request, 'create shops');
        if (denied) return sendApiError(reply, denied);
        return send(reply, toReply(await gateway.partners.createShop(request.principal?.merchantId ?? '', request.body.name, { staffId: request.principal?.staff?.id ?? null })));
      },
    );
    route(
      app,
      'payment-methods.assignTerminal',
      {
        schema: {
          tags,
          summary: "Assign a terminal id to a shop (admin); a terminal of another shop moves",
        },
        onRequest: requireSession,
      },
      async (request, reply) => {
        const denied = adminOnly(request, 'assign terminals');
        if (denied) return sendApiError(reply, denied);
        const merchantId = request.principal?.merchantId ?? '';
        return send(reply, toReply(await gateway.partners.assignTerminal({ shopId: request.params.shop_id, terminalId: request.body.terminal_id, merchantId }, { staffId: request.principal?.staff?.id ?? null })));
      },
    );
    route(
      app,
      'payment-methods.unassignTerminal',
      {
        schema: { tags, summary: 'Take a terminal out of its shop (admin)' },
        onRequest: requireSession,
      },
      async (request, reply) => {
        const denied = adminOnly(request, 'unassign terminals');
        if (denied) return sendApiError(reply, denied);
        const merchantId = request.principal?.merchantId ?? '';
        const outcome = await gateway.partners.unassignTerminal(merchantId, request.params.terminal_id, { staffId: request.principal?.staff?.id ?? null });
        if (!outcome.ok) return send(reply, toReply(outcome));
        return reply.send({ terminal_id: outcome.value.terminal_id, shop_id: null, merchant_id: merchantId, previous_shop_id: outcome.value.previous_shop_id });
      },
    );

    route(app, 'staff.audit', { schema: { tags, summary: 'Audit log: logins, refunds, voids, captures by staff; shops, terminals and payment-method settings with old and new values' }, onRequest: requireSession }, async (request, reply) => {
      if (request.principal?.staff?.role === 'cashier') return sendApiError(reply, apiError(ErrorCode.forbidden, 'Cashiers may not read the audit log'));
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
    });
  };
}
