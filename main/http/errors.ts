/**
 * Maps everything that can go wrong in Fastify (bad JSON, schema violations, body too large,
 * unknown routes, bugs) onto the one error body of decisions.md D3. Messages never echo input.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maskPans } from '../infra/logger.js';
import { apiError, ErrorCode, httpStatusOf, validationError, type ApiError, type FieldError } from '../core/errors.js';

interface AjvError {
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

/** Installs the D3 error handler and not-found handler on an instance (and its children). */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { validation?: AjvError[]; validationContext?: string }, request: FastifyRequest, reply: FastifyReply) => {
    if (error.validation) {
      return sendApiError(reply, validationError(fieldErrorsFromAjv(error.validation, error.validationContext)));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendApiError(reply, validationError([{ field: 'body', message: 'must be a valid JSON document' }]));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendApiError(reply, apiError(ErrorCode.bodyTooLarge, 'The request body is larger than 1 MiB'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send(apiError(ErrorCode.validation, 'Requests with a body must be Content-Type: application/json', [
          { field: 'Content-Type', message: 'must be application/json' },
        ]));
      default:
        break;
    }
    // SyntaxError from the JSON parser and prototype-poisoning rejections arrive as 400s.
    if (error.statusCode === 400 && (error instanceof SyntaxError || /JSON|__proto__|constructor/.test(error.message))) {
      return sendApiError(reply, validationError([{ field: 'body', message: 'must be a valid JSON document' }]));
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ code: error.code, statusCode: error.statusCode }, 'client error');
      return reply.code(error.statusCode).send(apiError(ErrorCode.validation, 'The request could not be processed', [
        { field: 'request', message: error.code ?? 'invalid request' },
      ]));
    }
    request.log.error({ err: error }, 'internal error');
    return sendApiError(reply, apiError(ErrorCode.internal, `Internal error; correlation id ${String(request.id)}`));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return sendApiError(reply, apiError(ErrorCode.notFound, `No route ${request.method} ${maskPans(path).slice(0, 200)}`));
  });
}
