/**
 * Registers a route from the contract: the operation's method and path (contract/operation-table.ts)
 * and its schemas (contract/api/<feature>.ts) come from its name; the route adds only what is the
 * HTTP layer's: its words in the document (tags, summary, description), the error statuses it
 * answers, its hooks and config, and the handler. The document names each operation by its
 * contract name (`operationId`), the name the renderer's `call` takes.
 *
 * All of this happens once, at registration: a request meets the same Fastify route as before.
 */
import type { TSchema } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import { OPERATION_SCHEMAS, type OperationName, type SchemasOfOperation } from '../../contract/api/operation-schema-table.js';
import type { OperationSchemas } from '../../contract/api/operation-schemas.js';
import { OPERATIONS } from '../../contract/operation-table.js';
import { apiResponses } from './responses.js';

/** The Fastify instance of a route plugin (FastifyPluginAsyncTypebox). */
export type RouteApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * What Fastify's type provider reads for an operation: its request schemas as the contract has
 * them; answers of any status (the route adds its error statuses to the contract's successes).
 */
export type RouteSchemaOf<Name extends OperationName> = Omit<SchemasOfOperation<Name>, 'response'> & { response?: Record<number, TSchema> };

/** The route's own words in the document; the request and answer schemas are the contract's. */
export interface RouteWords {
  tags: string[];
  summary: string;
  description?: string;
  /** `[]`: no credentials (the document's default is Basic auth). */
  security?: Array<Record<string, string[]>>;
  /** Media types of an answer that is not JSON (a PDF, a CSV). */
  produces?: string[];
}

export interface OperationOptions<Name extends OperationName> extends Omit<
  RouteShorthandOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    RouteSchemaOf<Name>,
    TypeBoxTypeProvider
  >,
  'schema'
> {
  schema: RouteWords;
  /**
   * How the contract's success answers become the route's `response`: a list of error statuses
   * (apiResponses: each with the D3 error body, plus 401 and 429), or a function for routes with an
   * error body of their own. Without either, the route documents its successes only.
   */
  errors?: number[] | ((success: Record<number, TSchema>) => Record<number, TSchema>);
}

export type OperationHandler<Name extends OperationName> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  RouteSchemaOf<Name>,
  TypeBoxTypeProvider
>;

/** Registers operation `name` on `app` with the route's own options and its handler. */
export function route<Name extends OperationName>(
  app: RouteApp,
  name: Name,
  options: OperationOptions<Name>,
  handler: OperationHandler<Name>,
): void {
  const { method, path } = OPERATIONS[name];
  const { schema: words, errors, ...rest } = options;
  const { response: success, ...request }: OperationSchemas = OPERATION_SCHEMAS[name];
  const response = responsesOf({ ...success } as Record<number, TSchema>, errors);
  app.route<RouteGenericInterface, ContextConfigDefault, RouteSchemaOf<Name>>({
    ...rest,
    method,
    url: path,
    // The contract's schemas of this name, which RouteSchemaOf<Name> types.
    schema: { operationId: name, ...words, ...request, ...(response ? { response } : {}) } as unknown as RouteSchemaOf<Name>,
    handler,
  });
}

function responsesOf(
  success: Record<number, TSchema>,
  errors: OperationOptions<OperationName>['errors'],
): Record<number, TSchema> | undefined {
  if (typeof errors === 'function') return errors(success);
  if (errors) return apiResponses(success, errors);
  return Object.keys(success).length ? success : undefined;
}

/** The contract name of the operation a request reached (its route's operationId), or undefined. */
export function operationOf(request: FastifyRequest): OperationName | undefined {
  const id = (request.routeOptions.schema as { operationId?: unknown } | undefined)?.operationId;
  return typeof id === 'string' && Object.hasOwn(OPERATIONS, id) ? (id as OperationName) : undefined;
}
