/**
 * HTTP Basic authentication and idempotency keys (docs/api.md "Authentication", "Idempotency") for
 * the API routes, and `perform`, which runs one core operation for a request and shapes its reply.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS, type ApiAuditAction, type GuardedAccess } from '../../contract/access.js';
import { ErrorCode, httpStatusOfAnswer } from '../../contract/codes.js';
import { REPEAT_SALE_CONFIRMED, REPEAT_SALE_HEADER } from '../../contract/constants.js';
import { apiError, outcomeOf, type Answer, type Outcome } from '../core/errors.js';
import type { Gateway } from '../core/gateway.js';
import { checkIdempotencyKey, IdempotencyConflict, requestFingerprint, type IdempotencyStart } from '../core/idempotency/idempotency.js';
import type { Principal } from '../core/merchants/authenticator.js';
import type { Operation, OperationContext } from '../core/idempotency/operation-runner.js';
import { sendApiError } from './errors.js';
import { invoiceAuditFacts } from './invoice-audit.js';
import { tokenAuditFacts } from './token-audit.js';
import { operationOf } from './operation-route.js';
import { replyOf, toReply, type Reply } from './replies.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    idempotency?: Extract<IdempotencyStart, { kind: 'proceed' }>;
    /** The operation's answer as JSON, made once for its idempotency record (answerSerializer) and sent by `send`. */
    answerJson?: { body: unknown; json: string };
    /** Makes `answerJson` with this request's route serializer (OperationContext.serialize). */
    serializeAnswer?: (answer: Answer) => string | undefined;
    /** Staff id of the manager who approved this request (cashier refunds). */
    approvedBy?: string;
    /** The cashier a joined till named for this sale (X-Till-Staff, from the till's own credential). */
    tillStaffId?: string;
    /** The till a sale of this request belongs to (a joined till's credential, a till screen's till): requestTill. */
    saleTill?: string;
    /** `saleTill` comes from a joined till's own credential (not a screen's hold). */
    saleTillFromCredential?: boolean;
  }
}

export const SESSION_COOKIE = 'tillgate_session';

/** The staff session token of a request: the session cookie, or `Authorization: Bearer` (the desktop bridge). */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim() || undefined;
  return request.cookies[SESSION_COOKIE] || undefined;
}

/** Cookie-authenticated writes must come from our own origin (CSRF); SameSite=Strict is the first line. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin || request.method === 'GET' || request.method === 'HEAD') return true;
  return origin === `${request.protocol}://${request.headers.host ?? ''}`;
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

/** API credentials a scope accepts: merchant keys (staff sessions act for their merchant), partner keys, or both. */
export type CredentialKinds = Principal['kind'] | readonly Principal['kind'][];

/** onRequest hook: resolves the principal or answers 401 / 403 / 429. */
export function authenticate(gateway: Gateway, kinds: CredentialKinds) {
  const allowed: readonly Principal['kind'][] = typeof kinds === 'string' ? [kinds] : kinds;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const credentials = parseBasic(request.headers.authorization);
    const token = credentials ? undefined : sessionToken(request);
    if (token && allowed.includes('merchant')) return authorizeStaff(gateway, request, reply, token);
    if (!credentials) {
      if (request.headers.authorization) {
        // A malformed header is a failed attempt of the source's unknown-credentials bucket; a
        // locked bucket answers 429 whatever is sent, and nothing shortens the lock.
        const locked = await gateway.auth.recordFailure(gateway.auth.unknownBucket(request.ip));
        if (locked) {
          reply.header('Retry-After', String(locked.retryAfterSeconds));
          return sendApiError(reply, locked.error);
        }
      }
      reply.header('WWW-Authenticate', REALM);
      return sendApiError(
        reply,
        apiError(ErrorCode.unauthenticated, 'HTTP Basic authentication with the API key and password is required'),
      );
    }
    const result = await gateway.auth.authenticate(request.ip, credentials.key, credentials.password);
    if (!result.ok) {
      if (result.retryAfterSeconds !== undefined) reply.header('Retry-After', String(result.retryAfterSeconds));
      else reply.header('WWW-Authenticate', REALM);
      return sendApiError(reply, result.error);
    }
    if (!allowed.includes(result.principal.kind)) {
      const who = allowed.map((kind) => `${kind} credentials`).join(' or ');
      return sendApiError(
        reply,
        apiError(ErrorCode.forbidden, `These credentials are ${result.principal.kind} credentials; this endpoint takes ${who}`),
      );
    }
    request.principal = result.principal;
    const tillStaff = request.headers['x-till-staff'];
    if (typeof tillStaff === 'string' && result.principal.kind === 'merchant') {
      // A joined till names the cashier who took the sale there (issue 26).
      if (!(await gateway.centre.tillStaff(result.principal.credentialId, tillStaff))) {
        return sendApiError(
          reply,
          apiError(ErrorCode.forbidden, 'X-Till-Staff is honoured only from a joined till, for an active staff member of its merchant', [
            { field: 'X-Till-Staff', message: 'is not a staff member this credential may name' },
          ]),
        );
      }
      request.tillStaffId = tillStaff;
    }
    return undefined;
  };
}

async function authorizeStaff(gateway: Gateway, request: FastifyRequest, reply: FastifyReply, token: string) {
  // A live session token is not a guess: no address lock-out here (staff logins lock per account).
  const principal = await gateway.staff.resolve(token);
  if (!principal?.staff) {
    // Not counted (an ended session is no guess), but a locked source is answered as locked.
    const locked = await gateway.auth.lockout(gateway.auth.unknownBucket(request.ip));
    if (locked) {
      reply.header('Retry-After', String(locked.retryAfterSeconds));
      return sendApiError(reply, locked.error);
    }
    return sendApiError(reply, apiError(ErrorCode.unauthenticated, 'The staff session has ended; log in again'));
  }
  if (!sameOrigin(request)) return sendApiError(reply, apiError(ErrorCode.forbidden, 'Cross-origin request refused'));
  const access = guardedAccessOf(request);
  if (!access?.staff.includes(principal.staff.role)) {
    return sendApiError(reply, apiError(ErrorCode.forbidden, `The ${principal.staff.role} role may not do this`));
  }
  const action = access.cashierApproval;
  if (action && principal.staff.role === 'cashier') {
    const raw = request.headers['x-manager-approval'];
    const keyHeader = request.headers['idempotency-key'] ?? request.headers['x-idempotency-key'];
    const idempotencyKey = typeof keyHeader === 'string' ? keyHeader : undefined;
    const approver =
      typeof raw === 'string' ? await gateway.staff.consumeApproval(raw, principal.merchantId ?? '', action, idempotencyKey) : undefined;
    if (!approver) {
      return sendApiError(
        reply,
        apiError(ErrorCode.forbidden, `A ${action} at the till needs a manager's approval`, [
          { field: 'X-Manager-Approval', message: 'missing, used or expired approval token' },
        ]),
      );
    }
    request.approvedBy = approver;
  }
  request.principal = principal;
  return undefined;
}

/**
 * Who may call the operation a request reached (contract/access.ts), where it asks for a credential
 * or a session; undefined for an open operation or a route of no operation.
 */
function guardedAccessOf(request: FastifyRequest): GuardedAccess | undefined {
  const operation = operationOf(request);
  const access = operation ? ACCESS[operation] : undefined;
  return access && 'staff' in access ? access : undefined;
}

/**
 * What the audit log says of a staff member's change through an audited route (its `audit` in
 * contract/access.ts): its subject and a short detail, from the request and what the change answered.
 */
function auditFacts(action: ApiAuditAction, request: FastifyRequest, value: unknown): { subjectId: string | null; detail: string | null } {
  if (action.startsWith('invoice_') || action.startsWith('token_')) {
    const facts = (action.startsWith('invoice_') ? invoiceAuditFacts : tokenAuditFacts)(action, request, value);
    return { subjectId: facts.subject, detail: facts.detail };
  }
  if (action.startsWith('postback_') || action === 'webhook_key_rotate') {
    const eventId = (request.params as { event_id?: string } | undefined)?.event_id ?? null;
    const since = (request.body as { since?: unknown } | undefined)?.since;
    const detail =
      action === 'postback_resend_failed'
        ? `${String((value as { requeued?: number } | undefined)?.requeued)} failed since ${String(since)}`
        : null;
    return { subjectId: eventId, detail };
  }
  const body = request.body as { transaction_id?: string; amount?: number; merchant_reference?: string } | undefined;
  // A till refund's reason travels as its merchant_reference (docs/decisions.md) and is kept here too.
  const detail = [
    body?.amount !== undefined ? `amount ${body.amount}` : '',
    action === 'refund' && body?.merchant_reference ? `reason: ${body.merchant_reference}` : '',
  ]
    .filter((part) => part !== '')
    .join('; ');
  return { subjectId: body?.transaction_id ?? null, detail: detail || null };
}

/**
 * The core operation's context of a request: its merchant, idempotency scope, staff member (or a
 * joined till's cashier), a manager's approval, and for a staff member's audited change what the
 * audit log says of it: the operation writes that entry in the change's own unit of work.
 */
export function operationContext(request: FastifyRequest): OperationContext {
  const staff = request.principal?.staff;
  const action = staff ? guardedAccessOf(request)?.audit : undefined;
  return {
    merchantId: merchantOf(request),
    ...(request.idempotency ? { idempotency: request.idempotency.scope } : {}),
    ...(staff ? { staffId: staff.id } : request.tillStaffId ? { staffId: request.tillStaffId } : {}),
    ...(staff && request.approvedBy ? { approvedBy: request.approvedBy } : {}),
    ...(request.saleTill !== undefined
      ? { tillId: request.saleTill, ...(request.saleTillFromCredential ? { tillCredential: true } : {}) }
      : {}),
    ...(request.headers[REPEAT_SALE_HEADER.toLowerCase()] === REPEAT_SALE_CONFIRMED ? { repeatConfirmed: true } : {}),
    ...(action ? { audit: { action, describe: (value: unknown) => auditFacts(action, request, value) } } : {}),
    ...(request.serializeAnswer ? { serialize: request.serializeAnswer } : {}),
  };
}

/**
 * The till a request comes from, where the gateway knows it (D19): the till a staff session's screen
 * holds, or the joined till whose own credential sent it. Sets `request.saleTill`, which the
 * operation's context carries to the payment (main/core/payments/sale-till.ts).
 */
export async function requestTill(gateway: Gateway, request: FastifyRequest): Promise<void> {
  const principal = request.principal;
  if (!principal) return;
  if (principal.staff) {
    const held = await gateway.tills.heldBy(principal.credentialId);
    if (held) request.saleTill = held;
  } else if (principal.kind === 'merchant') {
    const own = await gateway.centre.tillOfCredential(principal.credentialId);
    if (own) {
      request.saleTill = own;
      request.saleTillFromCredential = true;
    }
  }
}

/** preHandler hook for POST routes: rejects a key in flight here, or holds it for the operation (Idempotency.start). */
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
    const start = await gateway.idempotency.start(
      request.principal.merchantId,
      key,
      requestFingerprint(request.method, path, request.body),
    );
    if (start.kind === 'reject') return sendApiError(reply, start.error);
    request.idempotency = start;
    request.serializeAnswer = answerSerializer(request, reply);
    return undefined;
  };
}

/**
 * The answer's body as the route's reply would serialize it for the answer's status (its response
 * schema's compiled serializer, else JSON.stringify): made once, inside the operation's unit, for
 * the idempotency record, and sent by `send` as it is. Before, the body was serialized twice.
 */
function answerSerializer(request: FastifyRequest, reply: FastifyReply): (answer: Answer) => string | undefined {
  return (answer) => {
    // A refusal is left to JSON.stringify: some routes answer errors in a body of their own
    // (toInvoiceReply), whose serializer would drop the error code a replay needs.
    if (answer.kind === 'refused') return undefined;
    const previous = reply.statusCode;
    reply.code(httpStatusOfAnswer(answer.kind, answer.body));
    const made = reply.serialize(answer.body);
    reply.code(previous);
    // Our serializers (fast-json-stringify, JSON.stringify) make strings.
    const json = typeof made === 'string' ? made : Buffer.from(made as ArrayBuffer).toString('utf8');
    request.answerJson = { body: answer.body, json };
    return json;
  };
}

export function merchantOf(request: FastifyRequest): string {
  const merchantId = request.principal?.merchantId;
  if (!merchantId) throw new Error('route reached without an authenticated merchant');
  return merchantId;
}

/**
 * Runs one state-changing core operation for a request, with its idempotency scope and, for a staff
 * member's audited change, its audit entry in the same unit.
 */
export function perform<T>(gateway: Gateway, request: FastifyRequest, body: (operation: Operation) => Promise<Outcome<T>>): Promise<Reply> {
  return performAs(toReply, gateway, request, body);
}

/** `perform`, with the outcome rendered by `render` (the invoice paths answer errors in their own body: toInvoiceReply). */
export async function performAs<T>(
  render: (outcome: Outcome<T>) => Reply,
  gateway: Gateway,
  request: FastifyRequest,
  body: (operation: Operation) => Promise<Outcome<T>>,
): Promise<Reply> {
  try {
    return render(await gateway.operations.perform(operationContext(request), body));
  } catch (error) {
    // A stored refusal is answered again as the route answered it the first time (an invoice's
    // error body and its status), not in the common error body.
    if (error instanceof IdempotencyConflict && error.settled.kind === 'replay' && error.settled.answer.kind === 'refused')
      return { ...render(outcomeOf<T>(error.settled.answer)), replayed: true };
    const settled = conflictReply(error);
    if (settled) return settled;
    throw error;
  } finally {
    await request.idempotency?.release();
  }
}

/**
 * The answer of a request whose operation's unit found its idempotency key taken (another
 * instance's reply committed first, or a fence): the stored reply as a replay, or the refusal.
 */
export function conflictReply(error: unknown): Reply | undefined {
  if (!(error instanceof IdempotencyConflict)) return undefined;
  const { settled } = error;
  return settled.kind === 'replay' ? replyOf({ ...settled.answer, replayed: true }) : toReply({ ok: false, error: settled.error });
}

/**
 * onRequest hook of the UI's own /ui routes: a live staff session (cookie or Bearer), and no
 * state change from another origin.
 */
export function requireStaffSession(gateway: Gateway) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = sessionToken(request);
    const principal = token ? await gateway.staff.resolve(token) : undefined;
    if (!principal?.staff) return sendApiError(reply, apiError(ErrorCode.unauthenticated, 'Log in first'));
    const origin = request.headers.origin;
    if (origin && request.method !== 'GET' && origin !== `${request.protocol}://${request.headers.host ?? ''}`) {
      return sendApiError(reply, apiError(ErrorCode.forbidden, 'Cross-origin request refused'));
    }
    request.principal = principal;
    return undefined;
  };
}

/**
 * onRequest hook of the back office's /ui routes (decisions.md D9): a live staff session of back
 * office or admin; a cashier gets 403 with `refusal` before anything is read or checked.
 */
export function requireBackOfficeSession(gateway: Gateway, refusal: string) {
  const session = requireStaffSession(gateway);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await session(request, reply);
    if (reply.sent) return reply;
    if (request.principal?.staff?.role === 'cashier') return sendApiError(reply, apiError(ErrorCode.forbidden, refusal));
    return undefined;
  };
}

/**
 * onRequest hook of the admin's /ui routes (Settings, staff): a live staff session of an admin;
 * back office and cashier get 403 with `refusal` before anything is read or checked.
 */
export function requireAdminSession(gateway: Gateway, refusal: string) {
  const session = requireStaffSession(gateway);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await session(request, reply);
    if (reply.sent) return reply;
    if (request.principal?.staff?.role !== 'admin') return sendApiError(reply, apiError(ErrorCode.forbidden, refusal));
    return undefined;
  };
}

/** The admin of a request that passed requireAdminSession, with their session. */
export function adminOf(request: FastifyRequest): { merchantId: string; staffId: string; sessionId: string } {
  const merchantId = request.principal?.merchantId;
  const staff = request.principal?.staff;
  if (!merchantId || !staff) throw new Error('admin route reached without a staff session');
  return { merchantId, staffId: staff.id, sessionId: staff.sessionId };
}

/** The staff member of a request that passed requireBackOfficeSession. */
export function staffOf(request: FastifyRequest): { merchantId: string; staffId: string } {
  const merchantId = request.principal?.merchantId;
  const staffId = request.principal?.staff?.id;
  if (!merchantId || !staffId) throw new Error('back-office route reached without a staff session');
  return { merchantId, staffId };
}

export function send(reply: FastifyReply, result: Reply): FastifyReply {
  if (result.replayed) reply.header('Idempotent-Replayed', 'true');
  // The body's JSON where it was made already: a stored answer's text, or the operation's answer
  // serialized for its idempotency record (answerSerializer).
  const stored = reply.request.answerJson;
  const made = result.json ?? (stored !== undefined && stored.body === result.body ? stored.json : undefined);
  if (made !== undefined) return reply.code(result.status).type('application/json; charset=utf-8').send(made);
  return reply.code(result.status).send(result.body);
}

/** The partner of a request on the merchant-management paths (decisions.md D15). */
export function partnerOf(request: FastifyRequest): { partnerId: string } {
  const partnerId = request.principal?.partnerId;
  if (!partnerId) throw new Error('route reached without an authenticated partner');
  return { partnerId };
}

/** Registers the hooks of an authenticated API scope. */
export function protect(app: FastifyInstance, gateway: Gateway, kinds: CredentialKinds): void {
  app.addHook('onRequest', authenticate(gateway, kinds));
  app.addHook('preHandler', idempotencyKeys(gateway));
  // Backstop: a handler that failed before `perform` still frees its key, before its answer leaves
  // (a sender retrying at once must not find the key still held).
  app.addHook('onSend', (request, _reply, payload, done) => {
    void request.idempotency?.release();
    done(null, payload);
  });
}
