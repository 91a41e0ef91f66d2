/**
 * A shop's tills (issue 26, part 0): the list (every staff member: the till screen's "Which till
 * is this?"), create, rename and retire (admin, audited), and the screen's own till: take it (or
 * say it is still there), take it over, let it go.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../../../core/gateway.js';
import type { TillSession } from '../../../core/tills/tills.js';
import { adminOf, requireAdminSession, requireStaffSession, send } from '../../api-context.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];
/** A till on another computer: its limits and its pairing code (the centre's side, docs/operations.md). */
const centreTags = ['Tills and centre'];

declare module 'fastify' {
  interface FastifyRequest {
    /** The till a till route works on (tillOfRequest). */
    tillId?: string;
  }
}

/** The staff session of a request that passed requireStaffSession, as the tills see it. */
export function tillSessionOf(request: FastifyRequest): TillSession {
  const staff = request.principal?.staff;
  const merchantId = request.principal?.merchantId;
  if (!staff || !merchantId) throw new Error('till route reached without a staff session');
  return { merchantId, sessionId: staff.sessionId, staffId: staff.id };
}

/**
 * preHandler of the routes that work on one till (its attempt, its terminal, its day reports): the
 * till this session's screen holds (or the shop's only till), or with `byQuery` the `terminal_id`
 * the query names (a manager reading another till's report). Answers 400/409 when the screen has
 * none or another screen has it open.
 */
export function tillOfRequest(gateway: Gateway, options: { byQuery?: boolean } = {}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const named = options.byQuery ? (request.query as { terminal_id?: unknown } | undefined)?.terminal_id : undefined;
    if (typeof named === 'string') {
      request.tillId = named;
      return undefined;
    }
    const till = await gateway.tills.ofSession(tillSessionOf(request));
    if (!till.ok) return send(reply, toReply(till));
    request.tillId = till.value;
    return undefined;
  };
}

/** The till of a request that passed tillOfRequest. */
export function tillOf(request: FastifyRequest): string {
  if (request.tillId === undefined) throw new Error('till route reached without its till');
  return request.tillId;
}

export function shopTillRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const session = requireStaffSession(gateway);
    const admin = requireAdminSession(gateway, 'Only an admin changes the tills');

    route(
      app,
      'tills.list',
      { schema: { tags, summary: "The shop's tills, who has each open, and this screen's till" }, errors: [400], onRequest: session },
      async (request, reply) => {
        const own = tillSessionOf(request);
        return reply.send(await gateway.tills.list(own.merchantId, own.sessionId, { retired: request.query.retired === 'true' }));
      },
    );

    route(
      app,
      'tills.create',
      {
        schema: { tags, summary: 'Add a till (admin; audited: till_create)' },
        errors: [400, 403, 404],
        config: { bodyFieldErrors: (body) => gateway.tills.createErrors(body) },
        onRequest: admin,
      },
      async (request, reply) => {
        const actor = adminOf(request);
        return send(reply, toReply(await gateway.tills.create(actor.merchantId, request.body, { staffId: actor.staffId })));
      },
    );

    route(
      app,
      'tills.update',
      {
        schema: {
          tags,
          summary: 'Rename or retire a till (admin; audited: till_rename, till_retire)',
          description:
            'A till with a card payment of unknown outcome, or with sales of a day not closed yet, is not retired; nor is the last active till.',
        },
        errors: [400, 403, 404],
        onRequest: admin,
      },
      async (request, reply) => {
        const actor = adminOf(request);
        return send(
          reply,
          toReply(await gateway.tills.update(actor.merchantId, request.params.till_id, request.body, { staffId: actor.staffId })),
        );
      },
    );

    route(
      app,
      'tills.take',
      {
        schema: {
          tags,
          summary: 'This screen takes a till, or says it still has it open (every 15 s)',
          description:
            "Refused with 409 (4005) while another screen has the till open (seen in the last 60 s), naming who; `take_over: true` takes it anyway, and that screen gets the same 409 at its next call. The answer's `claim`, when not null, is this screen's new claim: sent with every take of the till, it gets the same screen its till back after a new login without `take_over` (a `screen_id` grants nothing). A till joined from another computer is refused (400). A screen holds one till.",
        },
        errors: [400, 404, 409],
        onRequest: session,
      },
      async (request, reply) => send(reply, toReply(await gateway.tills.take(tillSessionOf(request), request.body))),
    );

    route(
      app,
      'tills.release',
      { schema: { tags, summary: 'This screen lets go of its till' }, errors: [], onRequest: session },
      async (request, reply) => {
        await gateway.tills.release(tillSessionOf(request).sessionId);
        return reply.code(204).send();
      },
    );

    route(
      app,
      'tills.setLimits',
      {
        schema: {
          tags: centreTags,
          summary:
            'What a till on another computer may store while this gateway cannot be reached (admin; audited: till_limits); the till has them within seconds',
        },
        errors: [400, 403, 404],
        onRequest: requireAdminSession(gateway, 'Only an admin sets the limits of a till'),
      },
      async (request, reply) => {
        const admin = adminOf(request);
        return send(
          reply,
          toReply(await gateway.centre.setLimits(admin.merchantId, request.params.till_id, request.body, { staffId: admin.staffId })),
        );
      },
    );
    route(
      app,
      'tills.invite',
      {
        schema: {
          tags: centreTags,
          summary: 'A one-time pairing code for a till that joins from another computer (admin; audited: till_invite)',
        },
        errors: [400, 403, 404],
        onRequest: requireAdminSession(gateway, 'Only an admin invites tills'),
      },
      async (request, reply) => {
        const admin = adminOf(request);
        return send(reply, toReply(await gateway.centre.invite(admin.merchantId, request.params.till_id, { staffId: admin.staffId })));
      },
    );
  };
}
