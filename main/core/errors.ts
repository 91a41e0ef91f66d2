/**
 * Expected failures of the gateway as values (decisions.md D3). A decline is not an error:
 * it is a processed request. An ApiError means "the request did nothing". The error codes and the
 * error body are the contract's (contract/codes.ts, contract/api/common.ts); HTTP statuses are the
 * transport's (main/http/replies.ts).
 */
import { maskPans } from '../../contract/cards.js';
import type { ErrorBody, FieldError } from '../../contract/api/common.js';
import { ErrorCode, type AnswerKind, type Done } from '../../contract/codes.js';

/** The D3 error body with one of the contract's error codes. */
export interface ApiError extends ErrorBody {
  error_code: ErrorCode;
}

/** An error answer; card-number-shaped values (e.g. an id that was a PAN) are masked in its words. */
export function apiError(code: ErrorCode, message: string, errors: FieldError[] = []): ApiError {
  return { error_code: code, message: maskPans(message), errors: errors.map((e) => ({ field: e.field, message: maskPans(e.message) })) };
}

export function validationError(errors: FieldError[]): ApiError {
  const fields = errors.map((e) => e.field).join(', ');
  return apiError(ErrorCode.validation, `Invalid request: ${fields}`, errors);
}

export function fieldError(field: string, message: string): ApiError {
  return validationError([{ field, message }]);
}

/**
 * The outcome of one gateway operation: a value and what was done (`done`: ok, created, accepted,
 * no content), or an ApiError. The core says what happened; main/http/replies.ts picks the status.
 */
export type Outcome<T> = { ok: true; value: T; done: Done } | { ok: false; error: ApiError };

export function success<T>(value: T): Outcome<T> {
  return { ok: true, value, done: 'ok' };
}

/** Something new exists: a payment plan, a staff member, a token, a till, ... */
export function created<T>(value: T): Outcome<T> {
  return { ok: true, value, done: 'created' };
}

/** Taken on, to be done later (an e-mail queued, a token refresh asked for). */
export function accepted<T>(value: T): Outcome<T> {
  return { ok: true, value, done: 'accepted' };
}

/** Done, nothing to say (a deletion). */
export function noContent<T = null>(): Outcome<T | null> {
  return { ok: true, value: null, done: 'no_content' };
}

export function failure<T = never>(error: ApiError): Outcome<T> {
  return { ok: false, error };
}

/**
 * An outcome as idempotency keeps and replays it: its kind and its JSON body (the value, or the
 * ApiError). `replayed`: the answer stored for the key, given again.
 */
export interface Answer {
  kind: AnswerKind;
  body: unknown;
  replayed?: boolean;
  /** The body as JSON, as the reply sends it, where it was made already (a stored answer's text). */
  json?: string;
}

export function answerOf<T>(outcome: Outcome<T>): Answer {
  return outcome.ok ? { kind: outcome.done, body: outcome.value } : { kind: 'refused', body: outcome.error };
}

/** An answer (the centre's, or one stored) as an outcome again. */
export function outcomeOf<T>(answer: Answer): Outcome<T> {
  return answer.kind === 'refused' ? failure(answer.body as ApiError) : { ok: true, value: answer.body as T, done: answer.kind };
}
