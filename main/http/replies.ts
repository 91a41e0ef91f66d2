/**
 * From the core's outcomes to HTTP: what was done (ok, created, accepted, no content) or the
 * ApiError's code picks the status (contract/codes.ts); the body is the value or the D3 error. The
 * invoice paths answer errors in their own body (docs/decisions.md "Invoices").
 */
import type { InvoiceError } from '../../contract/api/invoices.js';
import { ErrorCode, httpStatusOfAnswer } from '../../contract/codes.js';
import { answerOf, type Answer, type ApiError, type Outcome } from '../core/errors.js';

/** What a transport sends back: the status and the JSON body. */
export interface Reply {
  status: number;
  body: unknown;
  /** An idempotent replay: the answer stored for the key, sent again (header Idempotent-Replayed). */
  replayed?: boolean;
  /** The body as JSON, made already (a stored answer's text): sent as it is. */
  json?: string;
}

export function replyOf(answer: Answer): Reply {
  const reply: Reply = { status: httpStatusOfAnswer(answer.kind, answer.body), body: answer.body };
  if (answer.replayed) reply.replayed = true;
  // A stored success's text is sent as it is; a refusal is serialized by the route, as it was.
  if (answer.json !== undefined && answer.kind !== 'refused') reply.json = answer.json;
  return reply;
}

export function toReply<T>(outcome: Outcome<T>): Reply {
  return replyOf(answerOf(outcome));
}

/**
 * The HTTP reply of an invoice outcome: the value, or the invoice error body with 404 or 422:
 * `{message, error}` (docs/decisions.md "Invoices") and `errors`, each field at fault with its own
 * sentence (decisions.md "Back office: invoices"; an addition old clients ignore).
 */
export function toInvoiceReply<T>(outcome: Outcome<T>): Reply {
  if (outcome.ok) return toReply(outcome);
  return { status: outcome.error.error_code === ErrorCode.notFound ? 404 : 422, body: invoiceErrorBody(outcome.error) };
}

/** `{message, error, errors}` of an invoice ApiError: `error` is the one problem's own text (it differs for status and delete), else the message. */
export function invoiceErrorBody(error: ApiError): InvoiceError {
  const detail = error.errors.length === 1 && error.errors[0] ? error.errors[0].message : error.message;
  return { message: error.message, error: detail, errors: error.errors };
}
