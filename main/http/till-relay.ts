/**
 * A till joined to a centre passes POS software's API calls on to the centre (issue 26): the
 * transaction of record lives there. A sale (`POST /rest/payment`) goes through its own route, which
 * stores it while the centre is away; every other call answers 503 (5005) meanwhile. The caller's
 * credentials were checked here first (the till keeps a replica of them), and go on as they came.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../contract/codes.js';
import { TILL_VIEW_COPIES, TILL_VIEW_HEADER } from '../../contract/constants.js';
import { CentreAwayError } from '../core/centre/ports.js';
import { apiError } from '../core/errors.js';
import type { Gateway } from '../core/gateway.js';
import { sendApiError } from './errors.js';
import { OPERATIONS, type OperationName } from '../../contract/operation-table.js';
import { operationOf } from './operation-route.js';

/** Request headers that belong to this hop, or that the till sets itself. */
const NOT_PASSED_ON = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'cookie',
]);

/**
 * Installed only on a till (linked when the server is built), or on a brand-new gateway that may
 * still join one from its first screen (`mayJoin`): an ordinary gateway's requests pay nothing for it.
 */
export function installTillRelay(app: FastifyInstance, gateway: Gateway, mayJoin = false): void {
  const link = gateway.tillLink;
  if (!link.linked && !mayJoin) return;
  // A till is never an authority (D20): what is the centre's to change is refused here, before the
  // caller's session or body is looked at, so nothing made at a till can outlive the centre's word.
  app.addHook('onRequest', async (request, reply) => {
    if (!link.linked) return undefined;
    const operation = operationOf(request);
    if (!operation || !centreDecides(operation)) return undefined;
    const centre = (await link.linkStatus()).centre_url ?? "the shop's gateway";
    return sendApiError(
      reply,
      apiError(
        ErrorCode.forbidden,
        `This computer is a till of ${centre}: credentials, staff, tills, pairing codes, limits and the shop's settings are changed there, never at a till`,
        [{ field: 'till', message: "is a till, not the shop's gateway" }],
      ),
    );
  });
  app.addHook('preHandler', async (request, reply) => {
    if (!link.linked) return undefined;
    const path = request.url.split('?')[0] ?? '';
    const operation = operationOf(request);
    if (!/^\/(rest|v2)\//.test(path) || operation === 'payments.create') return undefined;
    // POS software's calls go on as they came. The till screen's (a staff session) read this till's
    // own copies of its sales; its changes (a refund) go on with the till's credential, as the cashier's.
    const staff = /^Basic /i.test(request.headers.authorization ?? '') ? undefined : request.principal?.staff;
    if (!staff && !/^Basic /i.test(request.headers.authorization ?? '')) return undefined;
    if (staff && request.method === 'GET') return undefined;
    const subject = (request.body as { transaction_id?: unknown } | undefined)?.transaction_id;
    if (request.method === 'POST' && typeof subject === 'string' && (await link.heldHere(subject))) {
      return sendApiError(
        reply,
        apiError(
          ErrorCode.invalidState,
          "This sale is stored at this till and has not reached the shop's gateway yet: refund, capture or reverse it once it has been forwarded",
          [{ field: 'transaction_id', message: 'is stored at the till, not forwarded yet' }],
        ),
      );
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !NOT_PASSED_ON.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const key = headers['idempotency-key'] ?? headers['x-idempotency-key'];
    if (key !== undefined) {
      // Keys are the merchant's at the centre: scoped to this till, as its sales' are.
      delete headers['x-idempotency-key'];
      headers['idempotency-key'] = `till:${link.tillId ?? ''}:${key}`;
    }
    const relayed = {
      method: request.method,
      url: request.url,
      headers,
      ...(request.body !== undefined && request.method !== 'GET' ? { body: Buffer.from(JSON.stringify(request.body)) } : {}),
    };
    // While the centre is away, POS software reads this till's own copies (marked so): it can see how
    // a sale it sent ended before it sends it again (D19).
    const tillView = request.method === 'GET' && TILL_VIEW_OPERATIONS.has(operation ?? '');
    if (tillView && link.status.name !== 'online' && (await heldAsCopy(gateway, request))) return markTillView(reply);
    try {
      const answer = staff ? await link.relayForStaff(relayed, staff.id) : await link.relay(relayed);
      if (operation === 'payments.refund' && answer.status === 200) {
        const reference = (request.body as { merchant_reference?: unknown } | undefined)?.merchant_reference;
        await link.keepRefund(parseJson(answer.body), typeof reference === 'string' ? reference : null);
      }
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    } catch (error) {
      if (!(error instanceof CentreAwayError)) throw error;
      if (tillView && (await heldAsCopy(gateway, request))) return markTillView(reply);
      reply.header('Retry-After', '5');
      return sendApiError(
        reply,
        apiError(
          ErrorCode.centreAway,
          `The shop's gateway (this till's centre) does not answer (${error.message}); this till stores card-present sales meanwhile, and this request waits until the centre is back`,
          [{ field: 'centre', message: 'does not answer' }],
        ),
      );
    }
  });
}

/**
 * What a joined till does itself among the back office's changes (/ui): the day's work at the till.
 * Every other change there (credentials, staff, PINs, tills, pairing codes, limits, settings,
 * channels, shops, webhook keys, postbacks) is the centre's, and the centre's routes (/centre) are
 * never a till's. API calls (/rest, /v2) go on to the centre (above).
 */
const TILL_DOES: ReadonlySet<OperationName> = new Set<OperationName>([
  'staff.login',
  'staff.logout',
  'staff.approve',
  // A staff member's own language is a preference of this computer's screens, not an authority.
  'staff.setOwnLanguage',
  'tills.take',
  'tills.release',
  'till-attempts.begin',
  'till-attempts.resolve',
  'receipts.print',
  'receipts.email',
  'receipts.link',
  'receipts.setPrinter',
  'receipts.testPrint',
  'reports.closeDay',
  'reports.printZ',
  'reports.printX',
  'centre.seeDecline',
  'centre.joinShop',
  'checkouts.check',
  'invoices.checkCreate',
  'invoices.checkUpdate',
  'network-tokens.check',
]);

/** Whether an operation changes what only the centre decides (refused at a joined till, D20). */
export function centreDecides(operation: OperationName): boolean {
  const { method, path } = OPERATIONS[operation];
  if (/^\/centre\//.test(path)) return true;
  return /^\/ui\//.test(path) && method !== 'GET' && !TILL_DOES.has(operation);
}

/** The reads a till answers from its own copies while its centre is away. */
const TILL_VIEW_OPERATIONS: ReadonlySet<string> = new Set([
  'transactions.list',
  'transactions.get',
  'transactions.refunds',
  'transactions.log',
]);

/** Whether this till can answer the read itself: a list always; one transaction if it has a copy (else the centre may have it). */
async function heldAsCopy(gateway: Gateway, request: FastifyRequest): Promise<boolean> {
  const id = (request.params as { transaction_id?: unknown } | undefined)?.transaction_id;
  if (typeof id !== 'string') return true;
  const merchantId = request.principal?.merchantId ?? '';
  return (await gateway.store.read((r) => r.transactions.get(merchantId, id))) !== undefined;
}

/** The answer is the till's own view: its copies of its own sales, not the centre's record (docs/api.md). */
function markTillView(reply: FastifyReply): undefined {
  reply.header(TILL_VIEW_HEADER, TILL_VIEW_COPIES);
  return undefined;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
