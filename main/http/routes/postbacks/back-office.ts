/**
 * The back office's Postbacks area (docs/decisions.md "Back office: postbacks and outbox"): the
 * delivery log over transactions, tokens and checkouts with its filters, search and pages; one
 * postback with every attempt (status, duration, time, the retry it scheduled, the signed body and its headers);
 * resending one; resending every failed one since a time, as a job the screen polls for its
 * progress; the webhook key masked, its value for Copy, and its rotation (admin only; the old key
 * signs for 24 h more); and the Test environment's outbox of sent e-mails and postback attempts
 * with their previews. Resends and the rotation are audited in their own unit of work. Back office
 * and admin; a cashier gets 403.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorCode } from '../../../../contract/codes.js';
import type { PostbackLogQuery, PostbackResendRequest, TestOutboxQuery } from '../../../../contract/api/postbacks.js';
import { apiError } from '../../../core/errors.js';
import type { Gateway } from '../../../core/gateway.js';
import { requireBackOfficeSession, send, staffOf } from '../../api-context.js';
import { sendApiError } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

export function postbackBackOfficeRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const postbacks = gateway.postbackBackOffice;
  return async (app) => {
    const onRequest = requireBackOfficeSession(gateway, 'Postbacks are for back office and admin staff');

    route(
      app,
      'postbacks.environment',
      {
        schema: {
          tags,
          summary: 'Which environment this gateway runs: the Test environment (the simulator) or production (back office, admin)',
        },
        errors: [403],
        onRequest,
      },
      async (_request, reply) => reply.send(postbacks.environment()),
    );

    route(
      app,
      'postbacks.backOfficeList',
      {
        schema: {
          tags,
          summary: 'The delivery log: postbacks of transactions, tokens and checkouts, newest first (back office, admin)',
          description:
            'status: queued (no attempt yet), retrying (pending after a failed attempt), delivered or failed; kind: transaction, token or checkout; ' +
            'search: an order id, or a whole transaction, token, checkout or event id; ' +
            'created_at[min] / created_at[max] inclusive ISO 8601; page and per as GET /v2/network_tokens. Each postback has the order id its body carries.',
        },
        errors: [400, 403],
        config: { queryFieldErrors: (query) => postbacks.listQueryErrors(query as PostbackLogQuery) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await postbacks.list(staffOf(request).merchantId, request.query))),
    );

    route(
      app,
      'postbacks.backOfficeGet',
      {
        schema: {
          tags,
          summary:
            'One postback with every attempt: HTTP status, duration, time, the retry it scheduled, the signed body and headers (back office, admin)',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await postbacks.detail(staffOf(request).merchantId, request.params.event_id))),
    );

    route(
      app,
      'postbacks.backOfficeResend',
      {
        schema: {
          tags,
          summary: 'Send a postback again now (back office, admin)',
          description:
            'Queued for an immediate attempt, delivered or not; its retry window starts over and the body keeps its event_id. Audited (postback_resend).',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await postbacks.resend(staffOf(request), request.params.event_id))),
    );

    route(
      app,
      'postbacks.backOfficeResendFailed',
      {
        schema: {
          tags,
          summary: 'Send every failed postback created since a time again, as a resend whose progress can be read (back office, admin)',
          description:
            'Answers 202 with the resend: total queued again; GET /ui/postbacks/resends/{resend_id} tells how many were tried, delivered and failing again. Audited (postback_resend_failed).',
        },
        errors: [400, 403],
        config: { bodyFieldErrors: (body) => postbacks.resendErrors(body as Partial<PostbackResendRequest>) },
        onRequest,
      },
      async (request, reply) => {
        const outcome = await postbacks.resendFailed(staffOf(request), request.body);
        return outcome.ok ? reply.code(202).send(outcome.value) : send(reply, toReply(outcome));
      },
    );

    route(
      app,
      'postbacks.resendProgress',
      {
        schema: {
          tags,
          summary: 'How far a resend of failed postbacks has come (back office, admin)',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await postbacks.resendProgress(staffOf(request).merchantId, request.params.resend_id))),
    );

    route(
      app,
      'postbacks.webhookKey',
      {
        schema: {
          tags,
          summary: 'The webhook key, masked, and until when the previous one still signs (back office, admin)',
        },
        errors: [403],
        onRequest,
      },
      async (request, reply) =>
        reply.send(await postbacks.webhookKey(staffOf(request).merchantId, request.principal?.staff?.role === 'admin')),
    );

    route(
      app,
      'postbacks.revealWebhookKey',
      {
        schema: {
          tags,
          summary: 'The webhook key itself, for Copy (back office, admin)',
          description: 'Not audited (docs/decisions.md "Back office: postbacks and outbox"); answered with Cache-Control: no-store.',
        },
        errors: [403],
        onRequest,
      },
      async (request, reply) =>
        reply.header('cache-control', 'no-store').send(await postbacks.revealWebhookKey(staffOf(request).merchantId)),
    );

    route(
      app,
      'postbacks.backOfficeRotateWebhookKey',
      {
        schema: {
          tags,
          summary: 'Rotate the webhook key (admin)',
          description:
            'Answers the new key once. For 24 hours postbacks are signed with both keys (two signatures in webhook-signature); checksum uses the new key. Audited (webhook_key_rotate). Back office staff get 403.',
        },
        errors: [403],
        onRequest: async (request, reply) => {
          await onRequest(request, reply);
          if (reply.sent) return reply;
          if (request.principal?.staff?.role !== 'admin')
            return sendApiError(reply, apiError(ErrorCode.forbidden, 'Only an admin may rotate the webhook key'));
          return undefined;
        },
      },
      async (request, reply) => send(reply, toReply(await postbacks.rotateWebhookKey(staffOf(request)))),
    );

    route(
      app,
      'postbacks.testOutbox',
      {
        schema: {
          tags,
          summary: "The Test environment's outbox: every e-mail and postback attempt the gateway sent, newest first (back office, admin)",
          description: 'kind: email or postback; page and per. 404 outside the Test environment.',
        },
        errors: [400, 403, 404],
        config: { queryFieldErrors: (query) => postbacks.outboxQueryErrors(query as TestOutboxQuery) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await postbacks.outbox(staffOf(request).merchantId, request.query))),
    );

    route(
      app,
      'postbacks.testOutboxItem',
      {
        schema: {
          tags,
          summary: 'One sent e-mail (text and HTML) or postback attempt (signed body and headers) of the test outbox (back office, admin)',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await postbacks.outboxItem(staffOf(request).merchantId, request.params.item_id))),
    );
  };
}
