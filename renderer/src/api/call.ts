/**
 * The renderer's one way to reach the gateway: `call(name, args)` with an operation's contract name
 * (contract/operation-table.ts). Its method and path come from the contract's table; what `args` carries
 * (path params, query, body) and what the call answers are the types of the operation's schemas
 * (contract/api/operation-schema-table.ts, imported as types only: no TypeBox in the bundle). A renamed
 * operation or a changed answer is a compile error here, not a 404 at the till.
 *
 * An answer that is not 2xx throws its ApiError (transport.ts); an answer without a body (204) is null.
 */
import type { OperationRequest, OperationResult } from '../../../contract/api/operation-schema-table.js';
import { OPERATIONS, type OperationName } from '../../../contract/operation-table.js';
import { urlOf } from '../../../contract/paths.js';
import { translate } from '../ui/language.js';
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

/** A form's query without its empty fields (an empty filter means "any", not "equal to ''"). */
export function filled<T extends object>(query: T): T {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as T;
}

/** The answer of a success, or the ApiError of anything else. */
function resultOf(response: TransportResponse): unknown {
  if (response.status < 200 || response.status > 299) throw errorOf(response);
  // No body: a 204, or a 202 whose contract answer is empty (a token archived).
  if (response.status === 204 || (response.status === 202 && response.body === undefined)) return null;
  if (typeof response.body !== 'object' || response.body === null) {
    throw new ApiError('unexpected', translate('errors.notUnderstood'), response.status);
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
