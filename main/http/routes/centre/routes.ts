/**
 * The centre's routes for joined tills (issue 26, parts 1 and 2): the join with a pairing code (no
 * credential yet: the code is the secret), and, with the till's own credential, its report, the
 * replica of staff and API credentials it keeps for when the centre is away, and the forwarding of
 * the sales it stored meanwhile. An admin makes pairing codes in the app (and `gateway till invite`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FenceAnswer } from '../../../../contract/api/centre.js';
import { ErrorCode, httpStatusOfAnswer } from '../../../../contract/codes.js';
import { apiError, success, type Outcome } from '../../../core/errors.js';
import { joinLockKey } from '../../../core/centre/centre.js';
import type { CentreFence, TillLinkRecord } from '../../../core/centre/ports.js';
import type { Gateway } from '../../../core/gateway.js';
import { requireBackOfficeSession, requireStaffSession, send, staffOf } from '../../api-context.js';
import { sendApiError } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Tills and centre'];

declare module 'fastify' {
  interface FastifyRequest {
    /** The joined till whose credential sent a /centre request. */
    tillLink?: TillLinkRecord;
  }
}

/** The joined till whose credential sent this request; 403 for any other credential. */
function requireTillLink(gateway: Gateway) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const credentialId = request.principal?.kind === 'merchant' ? request.principal.credentialId : undefined;
    const link = credentialId ? await gateway.centre.linkOf(credentialId) : undefined;
    if (!link)
      return sendApiError(
        reply,
        apiError(ErrorCode.forbidden, 'Only a till joined to this centre may call this', [
          { field: 'Authorization', message: "is not a joined till's credential" },
        ]),
      );
    request.tillLink = link;
    return undefined;
  };
}

function linkOf(request: FastifyRequest): TillLinkRecord {
  if (!request.tillLink) throw new Error('centre route reached without its till');
  return request.tillLink;
}

/** The routes a joined till calls with its own credential (inside the authenticated API scope). */
/** The wire form of a fence: a processed sale's answer with the HTTP status it was given. */
function fenceAnswerOf(outcome: Outcome<CentreFence>): Outcome<FenceAnswer> {
  if (!outcome.ok) return outcome;
  const fence = outcome.value;
  if (fence.state !== 'processed') return success({ state: fence.state });
  return success({ state: 'processed', status: httpStatusOfAnswer(fence.answer.kind, fence.answer.body), body: fence.answer.body });
}

export function centreRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    // onRequest: another credential gets 403 before its body is validated (400).
    const onRequest = requireTillLink(gateway);
    route(
      app,
      'centre.heartbeat',
      {
        schema: { tags, summary: "A joined till's report: what it holds; answers its limits and the replica's digest" },
        errors: [400, 403],
        onRequest,
      },
      async (request, reply) => reply.send(await gateway.centre.heartbeat(linkOf(request), request.body)),
    );
    route(
      app,
      'centre.replica',
      {
        schema: {
          tags,
          summary: 'What a joined till keeps to let staff log in and POS software authenticate while the centre is away (hashes only)',
        },
        errors: [403],
        onRequest,
      },
      async (request, reply) => reply.send(await gateway.centre.replica(linkOf(request).merchantId)),
    );
    route(
      app,
      'centre.fence',
      {
        schema: {
          tags,
          summary:
            'How a sale the till sent ended, when its answer was lost: the key is fenced (never runs afterwards) and the answer it got, if it ran',
        },
        errors: [400, 403],
        onRequest,
      },
      async (request, reply) =>
        send(reply, toReply(fenceAnswerOf(await gateway.centre.fence(linkOf(request), request.body.idempotency_key)))),
    );
    route(
      app,
      'centre.forward',
      {
        schema: {
          tags,
          summary: 'The sales a till stored while the centre was away, in its order: each created once, under the id the till gave it',
          description:
            'Sending a batch again (all or part of it) answers how each sale ended, and charges nothing again. A sale still being forwarded by another request is left out of the answer.',
        },
        errors: [400, 403],
        onRequest,
      },
      async (request, reply) => reply.send(await gateway.centre.forward(linkOf(request), request.body.entries)),
    );
  };
}

/** The join (no credential: the one-time code is the secret) and the admin's pairing codes. */
export function centrePairingRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    route(
      app,
      'centre.join',
      {
        schema: {
          tags,
          summary: 'A till joins this centre with a one-time pairing code; it gets its own credential (shown once)',
          security: [],
        },
        errors: [400, 404, 429],
      },
      async (request, reply) => {
        const joined = await gateway.centre.join(request.ip, request.body);
        if (!joined.ok) {
          const locked = await gateway.auth.lockout(joinLockKey(request.ip));
          if (locked) reply.header('Retry-After', String(locked.retryAfterSeconds));
        }
        return send(reply, toReply(joined));
      },
    );
    route(
      app,
      'centre.handleForwardedDecline',
      {
        schema: {
          tags,
          summary:
            'A stored sale declined when its till forwarded it was followed up: off "Needs attention" (back office, admin; audited: forwarded_decline_handled)',
        },
        errors: [403, 404],
        onRequest: requireBackOfficeSession(gateway, 'Only back-office staff mark forwarded declines handled'),
      },
      async (request, reply) => {
        const staff = staffOf(request);
        return send(
          reply,
          toReply(await gateway.centre.handleDecline(staff.merchantId, request.params.transaction_id, { staffId: staff.staffId })),
        );
      },
    );
  };
}

/** The cashier screen's view of its centre, at a till (an ordinary gateway answers joined: false). */
export function tillLinkRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const session = requireStaffSession(gateway);
    route(
      app,
      'centre.tillLink',
      {
        schema: {
          tags,
          summary:
            "This till's link to its centre: whether it answers, what is stored here and until when, the forwarded declines not seen yet",
        },
        errors: [],
        onRequest: session,
      },
      async (_request, reply) => reply.send(await gateway.tillLink.linkStatus()),
    );
    route(
      app,
      'centre.seeDecline',
      { schema: { tags, summary: 'The cashier has seen a forwarded decline' }, errors: [404], onRequest: session },
      async (request, reply) => send(reply, toReply(await gateway.tillLink.declineSeen(request.params.transaction_id))),
    );
  };
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The desktop's first start (issue 26): "this computer is the shop's gateway" creates the shop as
 * before; "join a shop's gateway" leaves it without one, and the window asks for the shop's gateway's
 * address and a pairing code. Answered without a login, and the join only while this gateway has no
 * shop and no centre, from this computer.
 */
export function setupRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    const state = async () => {
      await gateway.tillLink.ready();
      const status = await gateway.tillLink.linkStatus();
      return {
        has_shop: (await gateway.merchants.list()).length > 0,
        joined: status.joined,
        centre_url: status.centre_url,
        till_id: status.till_id,
      };
    };
    route(
      app,
      'centre.setup',
      {
        schema: { tags, summary: "Whether this gateway has a shop yet, or is a till of a shop's gateway (no login)", security: [] },
        errors: [],
      },
      async (request, reply) => {
        const now = await state();
        return reply.send({ ...now, can_join: !now.has_shop && !now.joined && LOOPBACK.test(request.ip) });
      },
    );
    route(
      app,
      'centre.joinShop',
      {
        schema: {
          tags,
          summary: "Makes this brand-new gateway a till of a shop's gateway with a pairing code (from this computer, while it has no shop)",
          security: [],
        },
        errors: [400, 403, 404, 503],
      },
      async (request, reply) => {
        if (!LOOPBACK.test(request.ip))
          return sendApiError(reply, apiError(ErrorCode.forbidden, 'A gateway is joined to a shop only from its own computer'));
        const now = await state();
        if (now.has_shop || now.joined) {
          return sendApiError(
            reply,
            apiError(
              ErrorCode.invalidState,
              now.joined
                ? `This computer is a till of ${now.centre_url ?? 'a shop'} already`
                : 'This gateway has a shop of its own: it cannot join another',
              [{ field: 'centre', message: 'this gateway is set up already' }],
            ),
          );
        }
        const joined = await gateway.tillLink.join(request.body.centre.trim().replace(/\/+$/, ''), request.body.code.trim());
        if (joined.ok) await gateway.tillLink.start();
        return send(reply, toReply(joined));
      },
    );
  };
}
