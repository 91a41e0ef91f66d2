/**
 * Expected failures of the gateway as values (decisions.md D3). A decline is not an error:
 * it is a processed request. An ApiError means "the request did nothing".
 */

export const ErrorCode = {
  validation: 1001,
  invalidState: 1002,
  amountLimit: 1003,
  paymentType: 1004,
  unauthenticated: 2001,
  forbidden: 2002,
  notFound: 3001,
  idempotencyInFlight: 4001,
  idempotencyMismatch: 4002,
  bodyTooLarge: 4003,
  rateLimited: 4004,
  processor: 5001,
  internal: 5002,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const httpStatusByCode: Record<ErrorCode, number> = {
  1001: 400,
  1002: 400,
  1003: 400,
  1004: 400,
  2001: 401,
  2002: 403,
  3001: 404,
  4001: 409,
  4002: 422,
  4003: 413,
  4004: 429,
  5001: 502,
  5002: 500,
};

export function httpStatusOf(code: ErrorCode): number {
  return httpStatusByCode[code];
}

export interface FieldError {
  field: string;
  message: string;
}

export interface ApiError {
  error_code: ErrorCode;
  message: string;
  errors: FieldError[];
}

export function apiError(code: ErrorCode, message: string, errors: FieldError[] = []): ApiError {
  return { error_code: code, message, errors };
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
}

export function toReply<T>(outcome: Outcome<T>): Reply {
  return outcome.ok
    ? { status: outcome.status, body: outcome.value }
    : { status: httpStatusOf(outcome.error.error_code), body: outcome.error };
}
