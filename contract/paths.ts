/**
 * An operation's URL from the contract's table (contract/operation-table.ts): its path with the params
 * filled in and the query appended. The renderer's `call` uses it, and so do the links the browser opens itself
 * (a report's PDF), the export read in parts, and the `url` of the core's list answers. Free of DOM and transport.
 */
import type { OperationRequest } from './api/operation-schema-table.js';
import { OPERATIONS, type OperationName } from './operation-table.js';

/** The params and query of an operation; may be left out when it needs none. */
type UrlArgsOf<Name extends OperationName> =
  object extends OperationRequest<Name> ? [request?: OperationRequest<Name>] : [request: OperationRequest<Name>];

/** The URL of operation `name` with `request`'s params and query (query values that are undefined are left out). */
export function pathOf<Name extends OperationName>(name: Name, ...[request]: UrlArgsOf<Name>): string {
  return urlOf(name, request ?? {});
}

/** {@link pathOf} without the types: for `call`, which has checked them. */
export function urlOf(name: OperationName, { params, query }: { readonly params?: unknown; readonly query?: unknown }): string {
  const values = (params ?? {}) as Record<string, string | number>;
  const path = OPERATIONS[name].path.replace(/:([A-Za-z_]+)/g, (_, key: string) => encodeURIComponent(String(values[key] ?? '')));
  const text = Object.entries((query ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return text ? `${path}?${text}` : path;
}
