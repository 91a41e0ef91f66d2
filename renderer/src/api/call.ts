/**
 * The renderer's one way to reach the gateway: `call(name, args)` with an operation's contract name
 * (contract/operations.ts). Its method and path come from the contract's table; what `args` carries
 * (path params, query, body) and what the call answers are the types of the operation's schemas
 * (contract/api/operations.ts, imported as types only: no TypeBox in the bundle). A renamed
 * operation or a changed answer is a compile error here, not a 404 at the till.
 *
 * An answer that is not 2xx throws its ApiError (transport.ts); a 204 answers null.
 */
import type { OperationRequest, OperationResult } from '../../../contract/api/operations.js';
import { OPERATIONS, type OperationName } from '../../../contract/operations.js';
import { ApiError, defaultTransport, errorOf, type Transport, type TransportResponse } from './transport.js';

export type { OperationName, OperationResult };

/** What a call sends: the operation's request, plus headers (Idempotency-Key, X-Manager-Approval) and a timeout. */
export type CallArgs<Name extends OperationName> = OperationRequest<Name> & {
  readonly headers?: Record<string, string>;
  /** Milliseconds before the call counts as a network failure. */
  readonly timeoutMs?: number;
};

/** The args may be left out when the operation needs none. */
type ArgsOf<Name extends OperationName> = object extends CallArgs<Name> ? [args?: CallArgs<Name>] : [args: CallArgs<Name>];

export type Call = <Name extends OperationName>(name: Name, ...args: ArgsOf<Name>) => Promise<OperationResult<Name>>;

/** The parts of a request that make its URL. */
interface UrlParts {
  readonly params?: unknown;
  readonly query?: unknown;
}

/**
 * The path of an operation with its params filled in and its query appended (query values that are
 * undefined are left out): for a link (a PDF, an export) as for a call.
 */
export function pathOf<Name extends OperationName>(name: Name, ...args: ArgsOf<Name>): string {
  return urlOf(name, args[0] ?? {});
}

function urlOf(name: OperationName, { params, query }: UrlParts): string {
  const values = (params ?? {}) as Record<string, string | number>;
  const path = OPERATIONS[name].path.replace(/:([A-Za-z_]+)/g, (_, key: string) => encodeURIComponent(String(values[key] ?? '')));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The answer of a success, or the ApiError of anything else. */
function resultOf(response: TransportResponse): unknown {
  if (response.status < 200 || response.status > 299) throw errorOf(response);
  if (response.status === 204) return null;
  if (typeof response.body !== 'object' || response.body === null) {
    throw new ApiError('unexpected', 'The gateway sent an answer this app does not understand.', response.status);
  }
  return response.body;
}

/** A `call` over `transport`. */
export function caller(transport: Transport = defaultTransport()): Call {
  return async <Name extends OperationName>(name: Name, ...[args]: ArgsOf<Name>) => {
    const { method } = OPERATIONS[name];
    const request: CallArgs<Name> | undefined = args;
    const body = (request as { body?: unknown } | undefined)?.body;
    const response = await transport.send({
      method,
      path: urlOf(name, request ?? {}),
      ...(body !== undefined ? { body } : {}),
      ...(request?.headers ? { headers: request.headers } : {}),
      ...(request?.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    });
    return resultOf(response) as OperationResult<Name>;
  };
}

/** The call every screen uses. */
export const call: Call = caller();
