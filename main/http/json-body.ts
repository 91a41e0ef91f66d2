/**
 * The JSON body parser of every route: Fastify's own (prototype-poisoning checks included), after
 * a bound on nesting. A body nested deeper than MAX_BODY_DEPTH is refused before it is parsed, so
 * the schema validator, the field checks and the idempotency fingerprint never walk it: a body of
 * 20,000 nested arrays otherwise exhausted the stack of the first recursive walk (a 500).
 *
 * Text with the NUL character (U+0000) is refused too, in a body and in a URL: PostgreSQL cannot
 * hold it in text (a lookup by such an id failed there, where SQLite answered "not found"), and no
 * field of this API has a use for it. Both checks cost one native search unless the text has one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldError } from '../../contract/api/common.js';
import { MAX_BODY_DEPTH } from '../../contract/constants.js';

export const BODY_TOO_DEEP = 'TILLGATE_BODY_TOO_DEEP';

/** A body nested deeper than MAX_BODY_DEPTH (answered 400 by the error handler). */
export class BodyTooDeepError extends Error {
  readonly statusCode = 400;
  readonly code = BODY_TOO_DEEP;
  constructor() {
    super(`body nested deeper than ${MAX_BODY_DEPTH} levels`);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text opens more than `limit` arrays or objects inside each other, counted on the
 * text (brackets inside strings do not count). One pass, no allocation; text that is not JSON gets
 * some answer and is refused by the parser after.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // A body of n characters nests at most n/2 levels.
  if (text.length <= limit * 2) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

export const FIELDS_WITH_NUL = 'TILLGATE_FIELDS_WITH_NUL';

/** Fields whose text holds U+0000 (answered 400 naming each by the error handler). */
export class FieldsWithNulError extends Error {
  readonly statusCode = 400;
  readonly code = FIELDS_WITH_NUL;
  constructor(readonly fields: FieldError[]) {
    super('text with the NUL character');
  }
}

const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/** The paths (`a.b.0`) of the strings and keys in `value` that hold U+0000; `value` nests at most MAX_BODY_DEPTH levels. */
function pathsWithNul(value: unknown, path: string, found: FieldError[]): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ field: path || 'body', message: NUL_MESSAGE });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => pathsWithNul(item, path ? `${path}.${i}` : String(i), found));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const name = key.replaceAll('\u0000', '\\u0000');
      const at = path ? `${path}.${name}` : name;
      if (key.includes('\u0000')) found.push({ field: at, message: NUL_MESSAGE });
      else pathsWithNul(item, at, found);
    }
  }
}

/** The URL's part (`path` or `query`) that holds a percent-encoded NUL, if one does. */
export function urlPartWithNul(url: string): 'path' | 'query' | undefined {
  const at = url.indexOf('%00');
  if (at < 0) return undefined;
  const query = url.indexOf('?');
  return query >= 0 && query < at ? 'query' : 'path';
}

/** Replaces the app's `application/json` parser with Fastify's own behind the nesting bound. */
export function installJsonParser(app: FastifyInstance, bodyLimit: number): void {
  // Fastify's own parser takes a callback (its type also allows the promise form of a parser).
  const parse = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: (error: Error | null, value?: unknown) => void,
  ) => void;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = body as string;
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
      done(new BodyTooDeepError(), undefined);
      return;
    }
    // JSON writes U+0000 only as this escape (a raw control character is not JSON).
    if (!text.includes('\\u0000')) {
      parse(request, text, done);
      return;
    }
    parse(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const found: FieldError[] = [];
      pathsWithNul(value, '', found);
      if (found.length) done(new FieldsWithNulError(found), undefined);
      else done(null, value);
    });
  });
}
