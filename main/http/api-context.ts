/**
 * Authentication (HTTP Basic, interface.md "Authentication") and idempotency keys (D8) for the
 * API routes, and `perform`, which runs one core operation for a request and shapes its reply.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError, ErrorCode, toReply, type Outcome, type Reply } from '../core/errors.js';
import type { Gateway } from '../core/gateway.js';
import { checkIdempotencyKey, requestFingerprint, type IdempotencyStart } from '../core/idempotency/idempotency.js';
import type { Principal } from '../core/merchants/authenticator.js';
import type { Operation } from '../core/operations.js';
import { sendApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    idempotency?: Extract<IdempotencyStart, { kind: 'proceed' }>;
  }
}

const REALM = 'Basic realm="gateway", charset="UTF-8"';

function parseBasic(header: string | undefined): { key: string; password: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { key: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** onRequest hook: resolves the principal or answers 401 / 429. */
export function authenticate(gateway: Gateway, allowed: Principal['kind']) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials) {
      if (request.headers.authorization) gateway.auth.recordFailure(request.ip);
      reply.header('WWW-Authenticate', REALM);
      return sendApiError(reply, apiError(ErrorCode.unauthenticated, 'HTTP Basic authentication with the API key and password is required'));
    }
    const result = await gateway.auth.authenticate(request.ip, credentials.key, credentials.password);
    if (!result.ok) {
      if (result.retryAfterSeconds !== undefined) reply.header('Retry-After', String(result.retryAfterSeconds));
      else reply.header('WWW-Authenticate', REALM);
      return sendApiError(reply, result.error);
    }
    if (result.principal.kind !== allowed) {
      return sendApiError(reply, apiError(ErrorCode.forbidden, `These credentials are ${result.principal.kind} credentials and cannot call this endpoint`));
    }
    request.principal = result.principal;
    return undefined;
  };
}

/** preHandler hook for POST routes: replays, rejects, or reserves the idempotency key. */
export function idempotencyKeys(gateway: Gateway) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST' || !request.principal?.merchantId) return undefined;
    const header = request.headers['idempotency-key'] !== undefined ? 'Idempotency-Key' : 'X-Idempotency-Key';
    const raw = request.headers['idempotency-key'] ?? request.headers['x-idempotency-key'];
    if (raw === undefined) return undefined;
    const key = Array.isArray(raw) ? raw.join(',') : raw;
    const invalid = checkIdempotencyKey(key, header);
    if (invalid) return sendApiError(reply, invalid);
    const path = request.url.split('?')[0] ?? request.url;
    const start = await gateway.idempotency.start(request.principal.merchantId, key, requestFingerprint(request.method, path, request.body));
    if (start.kind === 'replay') {
      return reply.code(start.reply.status).header('Idempotent-Replayed', 'true').send(start.reply.body);
    }
    if (start.kind === 'reject') return sendApiError(reply, start.error);
    request.idempotency = start;
    return undefined;
  };
}

export function merchantOf(request: FastifyRequest): string {
  const merchantId = request.principal?.merchantId;
  if (!merchantId) throw new Error('route reached without an authenticated merchant');
  return merchantId;
}

/** Runs one state-changing core operation for a request, with its idempotency scope. */
export async function perform<T>(
  gateway: Gateway,
  request: FastifyRequest,
  body: (operation: Operation) => Promise<Outcome<T>>,
): Promise<Reply> {
  try {
    const context = { merchantId: merchantOf(request), ...(request.idempotency ? { idempotency: request.idempotency.scope } : {}) };
    return toReply(await gateway.operations.perform(context, body));
  } finally {
    request.idempotency?.release();
  }
}

export function send(reply: FastifyReply, result: Reply): FastifyReply {
  return reply.code(result.status).send(result.body);
}

/** Registers the hooks of an authenticated API scope. */
export function protect(app: FastifyInstance, gateway: Gateway, kind: Principal['kind']): void {
  app.addHook('onRequest', authenticate(gateway, kind));
  app.addHook('preHandler', idempotencyKeys(gateway));
  // Backstop: a handler that failed before `perform` still frees its key.
  app.addHook('onResponse', async (request) => request.idempotency?.release());
}
