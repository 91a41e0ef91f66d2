/**
 * The responses a route documents: its own success schemas (from the contract) plus the HTTP
 * statuses of the errors it may answer, each with the D3 error body. Which statuses a route
 * answers is the HTTP layer's decision; the body and the codes are the contract's.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorBodySchema, RefTo } from '../../contract/api/common.js';

const errorRef = RefTo(ErrorBodySchema);

/** Standard error responses of authenticated API routes, plus the route's own success responses. */
export function apiResponses(success: Record<number, TSchema>, errors: number[] = [400]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = { ...success };
  for (const status of [...errors, 401, 429]) {
    responses[status] = Type.Unsafe({ ...errorRef, description: errorDescriptions[status] ?? 'Error' });
  }
  return responses;
}

const errorDescriptions: Record<number, string> = {
  400: 'Invalid request (1001), operation not allowed in this state (1002), amount limit (1003), payment type (1004)',
  401: 'Missing or wrong credentials (2001)',
  403: 'Credentials not allowed here (2002)',
  404: 'Not found for this merchant (3001)',
  409: 'Same idempotency key still in flight (4001); a till open on another screen (4005)',
  413: 'Body above 1 MiB (4003)',
  422: 'Idempotency key reused with a different request (4002)',
  429: 'Locked out after repeated authentication failures (4004)',
  502: 'Processor unavailable (5001)',
};
