/**
 * The calls a till makes to its centre (core: main/core/centre/till-link.ts), over the pinned
 * connection of centre-client.ts. No answer (network, timeout, a 503 of a centre that is stopping or
 * cannot store) is CentreAwayError: the till stores meanwhile; a refusal the centre answers (a
 * revoked credential, an unknown pairing code) is CentreRefusedError and is said as it is.
 */
import type { ForwardEntry, TillReport } from '../../contract/api/centre.js';
import type { OperationResult } from '../../contract/api/operation-schema-table.js';
import { OPERATIONS } from '../../contract/operation-table.js';
import type { PaymentRequest } from '../../contract/api/payments.js';
import { answerKindOf } from '../../contract/codes.js';
import { REPEAT_SALE_CONFIRMED, REPEAT_SALE_HEADER } from '../../contract/constants.js';
import { fingerprintMatches, parsePairingCode } from '../core/centre/centre.js';
import { CentreAwayError, CentreRefusedError, type CentreAccess, type CentreConnection } from '../core/centre/ports.js';
import { callCentre, CentreUnreachableError, centreUrlProblem, type CentreAnswer, type CentreEndpoint } from './centre-client.js';

const TIMEOUT_MS = 2000;
/** A payment waits for the bank at the centre (the slow-answer test card takes 15 s). */
const PAYMENT_TIMEOUT_MS = 60_000;

function basic(access: CentreAccess): string {
  return `Basic ${Buffer.from(`${access.apiKey}:${access.apiPassword}`).toString('base64')}`;
}

function parse(answer: CentreAnswer): unknown {
  try {
    return answer.body.length ? (JSON.parse(answer.body.toString('utf8')) as unknown) : null;
  } catch {
    return null;
  }
}

/** The answer's JSON, or the error it stands for. */
function expect<T>(answer: CentreAnswer): T {
  const body = parse(answer) as { message?: string; errors?: Array<{ field: string; message: string }> } | null;
  if (answer.status === 503 || answer.status === 502 || answer.status === 504)
    throw new CentreAwayError(`the centre answered ${answer.status}${body?.message ? `: ${body.message}` : ''}`);
  if (answerKindOf(answer.status) === 'refused')
    throw new CentreRefusedError(
      body?.message ?? `the centre answered ${answer.status}`,
      answer.status === 404 ? 'not_found' : 'refused',
      body?.errors ?? [],
    );
  return body as T;
}

/** The centre's operations a till calls (contract/operation-table.ts), each answering its contract shape. */
type CentreOperation = 'centre.join' | 'centre.heartbeat' | 'centre.replica' | 'centre.forward' | 'centre.fence';

/** Calls operation `name` at the centre: its method and path from the contract, its answer or the error it stands for. */
async function ask<Name extends CentreOperation>(
  endpoint: CentreEndpoint,
  name: Name,
  options: Omit<Parameters<typeof callCentre>[1], 'method' | 'path'>,
): Promise<OperationResult<Name>> {
  return expect<OperationResult<Name>>(await call(endpoint, { ...OPERATIONS[name], ...options }));
}

async function call(endpoint: CentreEndpoint, options: Parameters<typeof callCentre>[1]): Promise<CentreAnswer> {
  try {
    return await callCentre(endpoint, options);
  } catch (error) {
    if (error instanceof CentreUnreachableError) throw new CentreAwayError(error.message, error.maybeDelivered);
    throw error;
  }
}

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

export const centreConnection: CentreConnection = {
  async join(url, code, version) {
    const problem = centreUrlProblem(url);
    if (problem) throw new CentreRefusedError(`The centre's address ${problem}`, 'refused', [{ field: 'centre', message: problem }]);
    const { pinned } = parsePairingCode(code);
    const secure = new URL(url).protocol === 'https:';
    if (secure && !pinned)
      throw new CentreRefusedError(
        'This pairing code has no certificate fingerprint, but the centre is HTTPS: make a new code on the centre',
        'refused',
        [{ field: 'code', message: 'has no fingerprint' }],
      );
    let seen: string | null = null;
    const answer = await ask({ url, fingerprint: null }, 'centre.join', {
      ...json({ code, till_version: version }),
      timeoutMs: TIMEOUT_MS * 5,
      checkCertificate: (fingerprint) => {
        seen = fingerprint;
        return pinned !== null && fingerprintMatches(fingerprint, pinned);
      },
    });
    return { answer, fingerprint: secure ? seen : null };
  },
  async heartbeat(access, report: TillReport) {
    return ask(access, 'centre.heartbeat', { ...withAuth(access, json(report)), timeoutMs: TIMEOUT_MS });
  },
  async replica(access) {
    return ask(access, 'centre.replica', { headers: { authorization: basic(access) }, timeoutMs: TIMEOUT_MS * 5 });
  },
  async forward(access, entries: ForwardEntry[]) {
    return ask(access, 'centre.forward', { ...withAuth(access, json({ entries })), timeoutMs: PAYMENT_TIMEOUT_MS });
  },
  async fence(access, key) {
    const fence = await ask(access, 'centre.fence', { ...withAuth(access, json({ idempotency_key: key })), timeoutMs: TIMEOUT_MS * 5 });
    if (fence.state !== 'processed') return { state: fence.state };
    return { state: 'processed', answer: { kind: answerKindOf(fence.status ?? 0), body: fence.body ?? null } };
  },
  async pay(access, request: PaymentRequest, key, staffId, repeatConfirmed) {
    const body = json(request);
    const answer = await call(access, {
      ...OPERATIONS['payments.create'],
      body: body.body,
      headers: {
        ...body.headers,
        authorization: basic(access),
        ...(key ? { 'idempotency-key': key } : {}),
        ...(staffId ? { 'x-till-staff': staffId } : {}),
        ...(repeatConfirmed ? { [REPEAT_SALE_HEADER.toLowerCase()]: REPEAT_SALE_CONFIRMED } : {}),
      },
      timeoutMs: PAYMENT_TIMEOUT_MS,
    });
    // Stopping, or unable to store: nothing was done there (5003, 5004), so the till may store the sale.
    if (answer.status === 503) throw new CentreAwayError(`the centre answered 503`);
    return { kind: answerKindOf(answer.status), body: parse(answer) };
  },
  async relay(access, request) {
    const answer = await call(access, {
      method: request.method,
      path: request.url,
      headers: request.headers,
      ...(request.body ? { body: request.body } : {}),
      timeoutMs: PAYMENT_TIMEOUT_MS,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: answer.status, headers, body: answer.body };
  },
};

/** Headers of one connection, not of the message: not passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
]);

function withAuth(access: CentreAccess, request: { body: string; headers: Record<string, string> }) {
  return { body: request.body, headers: { ...request.headers, authorization: basic(access) } };
}
