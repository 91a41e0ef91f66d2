/**
 * Expected failures of the gateway as values (decisions.md D3). A decline is not an error:
 * it is a processed request. An ApiError means "the request did nothing". The error codes, their
 * HTTP statuses and the error body are the contract's (contract/codes.ts, contract/api/common.ts).
 */
import { maskPans } from '../../contract/cards.js';
import type { ErrorBody, FieldError } from '../../contract/api/common.js';
import { ErrorCode, httpStatusOf } from '../../contract/codes.js';

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

/** The outcome of one gateway operation: a value with its HTTP status, or an ApiError. */
export type Outcome<T> = { ok: true; value: T; status: number } | { ok: false; error: ApiError };

export function success<T>(value: T, status = 200): Outcome<T> {
  return { ok: true, value, status };
}

export function failure<T = never>(error: ApiError): Outcome<T> {
  return { ok: false, error };
}

/** What a transport sends back: the status and the JSON body. Also what idempotency replays. */
export interface Reply {
  status: number;
  body: unknown;
  /** An idempotent replay: the reply stored for the key, sent again (header Idempotent-Replayed). */
  replayed?: boolean;
}

export function toReply<T>(outcome: Outcome<T>): Reply {
  return outcome.ok
    ? { status: outcome.status, body: outcome.value }
    : { status: httpStatusOf(outcome.error.error_code), body: outcome.error };
}
