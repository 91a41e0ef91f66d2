/**
 * Maps everything that can go wrong in Fastify (bad JSON, schema violations, body too large,
 * unknown routes, bugs) onto the one error body of decisions.md D3. Messages never echo input.
 */
import type { OperationName } from '../../contract/operation-table.js';
import { operationOf } from './operation-route.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldError } from '../../contract/api/common.js';
import { ErrorCode, httpStatusOf } from '../../contract/codes.js';
import { maskPans } from '../infra/logger.js';
import { StorageUnavailableError } from '../core/kernel.js';
import { apiError, validationError, type ApiError } from '../core/errors.js';
import { MAX_BODY_DEPTH } from '../../contract/constants.js';
import { BODY_TOO_DEEP, FIELDS_WITH_NUL, type FieldsWithNulError } from './json-body.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The core's own checks of this route's body (formats, Luhn, IBANs, currencies, decimals...),
     * run also when the JSON schema fails, on the body without the fields the schema rejected, so
     * that one 400 names every bad field (docs/api.md). `rejected` holds the fields the schema
     * named (sent but left out, or missing). Must not touch the database.
     */
    bodyFieldErrors?: BodyFieldCheck;
    /** The same for the query string: the route's own checks of its query parameters. */
    queryFieldErrors?: BodyFieldCheck;
  }
}

/** `params`: the route's path parameters (a check may depend on them, e.g. the payment type of a setting). */
export type BodyFieldCheck = (
  body: Record<string, unknown>,
  rejected: ReadonlySet<string>,
  params: Record<string, unknown>,
) => FieldError[];

export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

function join(path: string, name: unknown): string {
  return path ? `${path}.${String(name)}` : String(name);
}

const contextNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

export function fieldErrorsFromAjv(errors: readonly AjvError[], context: string | undefined): FieldError[] {
  const byField = new Map<string, string>();
  for (const error of errors) {
    const path = pointerToPath(error.instancePath);
    let field: string;
    let message: string;
    if (error.keyword === 'required') {
      field = join(path, error.params.missingProperty);
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      field = join(path, error.params.additionalProperty);
      message = 'is not a known field';
    } else {
      field = path || contextNames[context ?? 'body'] || 'body';
      message = error.message ?? 'is invalid';
    }
    if (!byField.has(field)) byField.set(field, message);
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Two field paths name the same data, or one lies inside the other (pos_data and pos_data.card.number). */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/**
 * The route's core field checks (`config.bodyFieldErrors`) for a body the schema rejected: they see
 * the body without the values the schema rejected (unknown fields, wrong types), and only what they
 * find about other fields is added, so each field is named once, by the schema first.
 */
export function coreFieldErrors(
  request: FastifyRequest,
  validation: readonly AjvError[],
  schemaFields: readonly FieldError[],
  context: 'body' | 'querystring' = 'body',
): FieldError[] {
  const check = context === 'body' ? request.routeOptions.config.bodyFieldErrors : request.routeOptions.config.queryFieldErrors;
  const data: unknown = context === 'body' ? request.body : request.query;
  if (!check || !isObject(data)) return [];
  const pruned = structuredClone({ ...data });
  for (const error of validation) {
    if (error.keyword === 'required') continue;
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
    const name = path.pop();
    if (name === undefined) return []; // the body itself has the wrong shape: nothing to check field by field
    let parent: unknown = pruned;
    for (const part of path) parent = isObject(parent) || Array.isArray(parent) ? (parent as Record<string, unknown>)[part] : undefined;
    if (isObject(parent)) delete parent[name];
  }
  let found: FieldError[];
  try {
    const params = isObject(request.params) ? request.params : {};
    found = check(pruned, new Set(schemaFields.map((f) => f.field)), params);
  } catch {
    return []; // a check that cannot cope with the rest of a broken body adds nothing
  }
  const named = schemaFields.map((f) => f.field);
  const added: FieldError[] = [];
  for (const error of found) {
    if (named.some((field) => overlaps(field, error.field))) continue;
    if (added.some((other) => other.field === error.field)) continue;
    added.push(error);
  }
  return added;
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(httpStatusOf(error.error_code)).type('application/json; charset=utf-8').send(error);
}

/**
 * Fastify's `frameworkErrors`: errors raised while routing, before any hook runs (a malformed
 * percent-encoding, a path parameter above maxParamLength). Fastify's own body would echo the URL,
 * which may hold a card number; this one names the field only.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const message = error.code === 'FST_ERR_BAD_URL' ? 'must be a valid URL path (percent-encoding)' : 'has a parameter that is too long';
    void sendApiError(reply, validationError([{ field: 'path', message }]));
    return;
  }
  request.log.error({ code: error.code }, 'routing error');
  void sendApiError(reply, apiError(ErrorCode.internal, `Internal error; correlation id ${String(request.id)}`));
}

/**
 * The answer to a request that failed with `error`: D3 for everything (decisions.md D3). Every 5xx
 * says only "internal error" with the request's correlation id; what went wrong goes to the log.
 */
function answerError(
  error: FastifyError & { validation?: AjvError[]; validationContext?: string },
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error.validation) {
    const fields = fieldErrorsFromAjv(error.validation, error.validationContext);
    if (error.validationContext === 'body' || error.validationContext === 'querystring')
      fields.push(...coreFieldErrors(request, error.validation, fields, error.validationContext));
    return sendApiError(reply, validationError(fields));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return sendApiError(reply, validationError([{ field: 'body', message: 'must be a valid JSON document' }]));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendApiError(reply, apiError(ErrorCode.bodyTooLarge, 'The request body is larger than 1 MiB'));
    case FIELDS_WITH_NUL:
      return sendApiError(reply, validationError((error as unknown as FieldsWithNulError).fields));
    case BODY_TOO_DEEP:
      return sendApiError(
        reply,
        validationError([{ field: 'body', message: `must not nest arrays and objects more than ${MAX_BODY_DEPTH} levels deep` }]),
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply
        .code(415)
        .send(
          apiError(ErrorCode.validation, 'Requests with a body must be Content-Type: application/json', [
            { field: 'Content-Type', message: 'must be application/json' },
          ]),
        );
    default:
      break;
  }
  // SyntaxError from the JSON parser and prototype-poisoning rejections arrive as 400s.
  if (error.statusCode === 400 && (error instanceof SyntaxError || /JSON|__proto__|constructor/.test(error.message))) {
    return sendApiError(reply, validationError([{ field: 'body', message: 'must be a valid JSON document' }]));
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    request.log.info({ code: error.code, statusCode: error.statusCode }, 'client error');
    return reply
      .code(error.statusCode)
      .send(
        apiError(ErrorCode.validation, 'The request could not be processed', [
          { field: 'request', message: error.code ?? 'invalid request' },
        ]),
      );
  }
  if (error instanceof StorageUnavailableError) {
    request.log.error({ reason: error.reason }, 'storage unavailable');
    reply.header('Retry-After', '30');
    return sendApiError(
      reply,
      apiError(ErrorCode.storage, `The gateway cannot store data right now: ${error.message}. Nothing was done; try again in a moment.`),
    );
  }
  return internalError(error, request, reply);
}

function internalError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  request.log.error({ err: error }, 'internal error');
  return sendApiError(reply, apiError(ErrorCode.internal, `Internal error; correlation id ${String(request.id)}`));
}

/** Installs the D3 error handler and not-found handler on an instance (and its children). */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(
    (error: FastifyError & { validation?: AjvError[]; validationContext?: string }, request: FastifyRequest, reply: FastifyReply) => {
      try {
        return answerError(error, request, reply);
      } catch (failure) {
        // A handler that fails must not fall back to Fastify's own body, which carries the message.
        return internalError(failure, request, reply);
      }
    },
  );

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return sendApiError(reply, apiError(ErrorCode.notFound, `No route ${request.method} ${maskPans(path).slice(0, 200)}`));
  });
}

/** Whether the request reached one of the check operations `checks`. */
export function isCheck(checks: ReadonlySet<OperationName>, request: FastifyRequest): boolean {
  const operation = operationOf(request);
  return operation !== undefined && checks.has(operation);
}

/**
 * The error handler of a plugin with form checks (`POST /ui/.../check`): a check's body that fails
 * the schema is answered 200 with every field's problem, as the real request's 400 would name them
 * (schema first, then the route's core checks); everything else goes on to the API's handler.
 */
export function answerChecks(app: FastifyInstance, checks: ReadonlySet<OperationName>): void {
  app.setErrorHandler(
    (error: FastifyError & { validation?: AjvError[]; validationContext?: string }, request: FastifyRequest, reply: FastifyReply) => {
      if (!error.validation || error.validationContext !== 'body' || !isCheck(checks, request)) throw error;
      const fields = fieldErrorsFromAjv(error.validation, 'body');
      fields.push(...coreFieldErrors(request, error.validation, fields));
      return reply.code(200).send({ errors: fields });
    },
  );
}
