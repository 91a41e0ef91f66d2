/**
 * Every operation of the gateway's HTTP interface, once: its name, method and path. The name is
 * `<feature>.<verb>`, where the feature is the file in contract/api/ that holds the operation's
 * schemas (params, querystring, headers, body, answers) in an object keyed by the same names; the
 * compiler checks that both sides name the same operations (contract/api/operations.ts).
 *
 * This file is plain data, free of TypeBox, so the renderer imports it as a value (its typed
 * `call`, renderer/src/api/call.ts) while main/http registers the Fastify routes from it
 * (main/http/operations.ts). A path's `:name` parts are its params.
 */

export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface OperationRoute {
  readonly method: OperationMethod;
  readonly path: string;
}

export const OPERATIONS = {
  // ---- reports (contract/api/reports.ts)
  'reports.shopDay': { method: 'GET', path: '/ui/reports/shop' },

  // ---- tills (contract/api/tills.ts)
  'tills.list': { method: 'GET', path: '/ui/tills' },
  'tills.create': { method: 'POST', path: '/ui/tills' },
  'tills.update': { method: 'PUT', path: '/ui/tills/:till_id' },
  'tills.take': { method: 'PUT', path: '/ui/session/till' },
  'tills.release': { method: 'DELETE', path: '/ui/session/till' },
} as const satisfies Record<string, OperationRoute>;

export type OperationName = keyof typeof OPERATIONS;

/** The operations of one feature (the names that start with `<feature>.`). */
export type OperationOf<Feature extends string> = Extract<OperationName, `${Feature}.${string}`>;
