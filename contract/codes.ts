/**
 * The codes of the API, declared once for the core, the routes and the renderer: transaction status
 * codes (decisions.md D2, the complete list), refund status codes, and the error codes of the D3
 * error body with the HTTP status each one is answered with. Node-free: no schema, no I/O.
 */

/** Transaction status codes and names (decisions.md D2). */
export const TransactionStatus = {
  started: 1,
  pending: 2,
  completed: 3,
  authorized: 4,
  reversed: 5,
  declined: 6,
  refunded: 7,
  partly_refunded: 8,
  cancelled: 9,
  expired: 10,
  error: 11,
  chargeback: 12,
  /**
   * A joined till's card-present sale taken while its centre was away (issue 26): approved at the till,
   * not yet authorized; it becomes completed or declined when the till forwards it.
   */
  stored: 13,
} as const;
export type TransactionStatusName = keyof typeof TransactionStatus;
export type TransactionStatusCode = (typeof TransactionStatus)[TransactionStatusName];

const nameByCode = new Map<number, TransactionStatusName>(
  Object.entries(TransactionStatus).map(([name, code]) => [code, name as TransactionStatusName]),
);

export function statusName(code: number): TransactionStatusName {
  const name = nameByCode.get(code);
  if (!name) throw new Error(`unknown transaction status code ${code}`);
  return name;
}

export function isStatusCode(code: number): code is TransactionStatusCode {
  return nameByCode.has(code);
}

/** "1 started, 2 pending, ...": the list as the API documents it. */
export const TRANSACTION_STATUS_LIST = Object.entries(TransactionStatus)
  .map(([name, code]) => `${code} ${name}`)
  .join(', ');

/** Status codes of a refund (`status_code` of a refund; not a transaction status). */
export const RefundStatus = { started: 0, success: 1, error: 2 } as const;
export type RefundStatusName = keyof typeof RefundStatus;
export type RefundStatusCode = (typeof RefundStatus)[RefundStatusName];

/** The name of a refund status code; a code this list does not know reads as `error`. */
export function refundStatusName(code: number): RefundStatusName {
  return (Object.keys(RefundStatus) as RefundStatusName[]).find((name) => RefundStatus[name] === code) ?? 'error';
}

/** Error codes of the D3 error body (decisions.md D3); 0 in a success body means "no error". */
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
  /** The till is open on another screen (or was taken over by one): choose another, or take it over. */
  tillInUse: 4005,
  /** A card-present sale repeats one approved or stored minutes ago at the same till (same order, amount, card) without an Idempotency-Key. */
  repeatedSale: 4006,
  processor: 5001,
  internal: 5002,
  /** The gateway cannot write its data (disk full, read-only): nothing was done; it recovers by itself. */
  storage: 5003,
  /** The gateway is shutting down: the request was not started; another instance, or this one after its restart, takes it. */
  shuttingDown: 5004,
  /** A joined till cannot reach its centre for this request (only card-present sales are stored meanwhile). */
  centreAway: 5005,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The HTTP status each error code is answered with. */
export const ERROR_HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
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
  4005: 409,
  4006: 409,
  5001: 502,
  5002: 500,
  5003: 503,
  5004: 503,
  5005: 503,
};

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_HTTP_STATUS[code];
}

/**
 * What a successful operation did, as the core says it (main/core/errors.ts `Outcome`), and the
 * HTTP status each is answered with: the transport's mapping (main/http/replies.ts) and the
 * till-centre protocol's, whose answers carry statuses.
 */
export const DONE_HTTP_STATUS = { ok: 200, created: 201, accepted: 202, no_content: 204 } as const;
export type Done = keyof typeof DONE_HTTP_STATUS;

/** An answer's kind: what was done, or refused (its D3 body's error code says why). */
export type AnswerKind = Done | 'refused';

/** The kind of an answer that came with an HTTP status (a centre's, or one stored before). */
export function answerKindOf(status: number): AnswerKind {
  if (status < 200 || status > 299) return 'refused';
  return (Object.keys(DONE_HTTP_STATUS) as Done[]).find((done) => DONE_HTTP_STATUS[done] === status) ?? 'ok';
}

/** The HTTP status of an answer: its kind's, or for a refusal its error code's (422 when its body has none). */
export function httpStatusOfAnswer(kind: AnswerKind, body: unknown): number {
  if (kind !== 'refused') return DONE_HTTP_STATUS[kind];
  const code = (body as { error_code?: unknown } | null)?.error_code;
  return typeof code === 'number' && code in ERROR_HTTP_STATUS ? httpStatusOf(code as ErrorCode) : 422;
}
