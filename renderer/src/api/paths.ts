/**
 * An operation's URL from the contract's table (contract/operations.ts): its path with the params
 * filled in and the query appended. `call` uses it, and so do the links the browser opens itself
 * (a report's PDF) and the export read in parts. Free of DOM and transport, so Node tests import it too.
 */
import type { OperationRequest } from '../../../contract/api/operations.js';
import { OPERATIONS, type OperationName } from '../../../contract/operations.js';

/** The params and query of an operation; may be left out when it needs none. */
type UrlArgsOf<Name extends OperationName> = object extends OperationRequest<Name> ? [request?: OperationRequest<Name>] : [request: OperationRequest<Name>];

/** The URL of operation `name` with `request`'s params and query (query values that are undefined are left out). */
export function pathOf<Name extends OperationName>(name: Name, ...[request]: UrlArgsOf<Name>): string {
  return urlOf(name, request ?? {});
}

/** {@link pathOf} without the types: for `call`, which has checked them. */
export function urlOf(name: OperationName, { params, query }: { readonly params?: unknown; readonly query?: unknown }): string {
  const values = (params ?? {}) as Record<string, string | number>;
  const path = OPERATIONS[name].path.replace(/:([A-Za-z_]+)/g, (_, key: string) => encodeURIComponent(String(values[key] ?? '')));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
