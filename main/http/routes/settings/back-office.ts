/**
 * The back office's Settings and staff (admin only; issue 16, 4; docs/decisions.md "Back office:
 * settings, staff and audit"): the merchant's profile, channels, API credentials for POS software,
 * staff accounts' resets and disabling, the SMTP server and its test e-mail, and the audit log's
 * paged, filtered view. Back office and cashier sessions get 403 before anything is read. Every
 * change is audited by the core in its own unit of work; secrets are answered once or never.
 * (Listing and creating staff stay at GET/POST /ui/staff in staff/routes.ts, admin only as before.)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditLogQuery } from '../../../../contract/api/settings.js';
import type { Gateway } from '../../../core/gateway.js';
import { adminOf, requireAdminSession, send } from '../../api-context.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Back-office UI'];

export function settingsBackOfficeRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const settings = gateway.settings;
  return async (app) => {
    const onRequest = requireAdminSession(gateway, 'Settings are for admins');

    // ---- merchant profile
    route(
      app,
      'settings.profile',
      { schema: { tags, summary: "The merchant's profile: name, default currency and language (admin)" }, errors: [403, 404], onRequest },
      async (request, reply) => send(reply, toReply(await settings.profile(adminOf(request).merchantId))),
    );
    route(
      app,
      'settings.setProfile',
      {
        schema: { tags, summary: "Change the merchant's profile (admin; audited: profile_update)" },
        errors: [400, 403, 404],
        config: { bodyFieldErrors: (body) => settings.profileErrors(body) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await settings.updateProfile(adminOf(request), request.body))),
    );

    // ---- channels
    route(
      app,
      'settings.channels',
      { schema: { tags, summary: "The merchant's channels, oldest first (admin)" }, errors: [403], onRequest },
      async (request, reply) => reply.send(await settings.channels(adminOf(request).merchantId)),
    );
    route(
      app,
      'settings.createChannel',
      {
        schema: {
          tags,
          summary: 'Create a channel (admin; audited: channel_create)',
          description: 'url_name is unique across the gateway and fixed once created.',
        },
        errors: [400, 403],
        config: { bodyFieldErrors: (body) => settings.channelErrors(body) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await settings.createChannel(adminOf(request), request.body))),
    );
    route(
      app,
      'settings.updateChannel',
      {
        schema: {
          tags,
          summary: "Change a channel's name, currency, language and sender (admin; audited: channel_update)",
        },
        errors: [400, 403, 404],
        config: { bodyFieldErrors: (body) => settings.channelErrors(body) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await settings.updateChannel(adminOf(request), request.params.url_name, request.body))),
    );

    // ---- API credentials for POS software
    route(
      app,
      'settings.credentials',
      { schema: { tags, summary: "The merchant's API credentials, revoked ones too; never a password (admin)" }, errors: [403], onRequest },
      async (request, reply) => reply.send(await settings.credentials(adminOf(request).merchantId)),
    );
    route(
      app,
      'settings.createCredential',
      {
        schema: {
          tags,
          summary: 'New API credentials for POS software; the password is answered once (admin; audited: credential_create)',
        },
        errors: [403],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await settings.createCredential(adminOf(request)))),
    );
    route(
      app,
      'settings.revokeCredential',
      {
        schema: {
          tags,
          summary: 'Revoke API credentials: the next request with them answers 401 (admin; audited: credential_revoke)',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await settings.revokeCredential(adminOf(request), request.params.credential_id))),
    );

    // ---- staff accounts (list and create: GET/POST /ui/staff)
    route(
      app,
      'settings.resetStaffSecret',
      {
        schema: {
          tags,
          summary: "Renew a staff member's password or PIN; a generated one is answered once; their other sessions end (admin; audited)",
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) =>
        send(reply, toReply(await gateway.staff.resetSecret(adminOf(request), request.params.staff_id, request.body))),
    );
    route(
      app,
      'settings.disableStaff',
      {
        schema: {
          tags,
          summary: 'Disable a staff account: it cannot log in and its sessions end at once (admin; audited: staff_disable)',
        },
        errors: [400, 403, 404],
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await gateway.staff.disable(adminOf(request), request.params.staff_id))),
    );

    // ---- SMTP
    route(
      app,
      'settings.smtp',
      { schema: { tags, summary: "The merchant's SMTP server; the password only as set or not (admin)" }, errors: [403], onRequest },
      async (request, reply) => reply.send(await settings.smtp(adminOf(request).merchantId)),
    );
    route(
      app,
      'settings.setSmtp',
      {
        schema: {
          tags,
          summary: "Set the merchant's SMTP server (admin; audited: smtp_update, never the password)",
          description:
            'password is write-only: omitted keeps it, null removes it. Invoice and receipt e-mails use the server from their next attempt.',
        },
        errors: [400, 403],
        config: { bodyFieldErrors: (body) => settings.smtpErrors(body) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await settings.updateSmtp(adminOf(request), request.body))),
    );
    route(
      app,
      'settings.testSmtp',
      {
        schema: {
          tags,
          summary: "Send a test e-mail through the saved SMTP server and answer the server's reply (admin; audited: smtp_test)",
          description:
            'accepted false with the error text when the server refused or could not be reached (still 200: the test ran). 400 (1002) when no SMTP server is saved.',
        },
        errors: [400, 403],
        config: { bodyFieldErrors: (body) => settings.smtpTestErrors(body) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await settings.testSmtp(adminOf(request), request.body.to))),
    );

    // ---- audit log viewer (GET /ui/audit keeps answering the latest 100 as an array)
    route(
      app,
      'settings.auditLog',
      {
        schema: {
          tags,
          summary: 'The audit log, newest first, filtered by person, action and time, in pages (admin)',
        },
        errors: [400, 403],
        config: { queryFieldErrors: (query) => settings.auditQueryErrors(query as AuditLogQuery) },
        onRequest,
      },
      async (request, reply) => send(reply, toReply(await settings.auditPage(adminOf(request).merchantId, request.query))),
    );
  };
}
