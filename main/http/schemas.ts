/** Shared TypeBox schemas of the REST API; they are JSON Schema and feed the OpenAPI document. */
import { Type, type TSchema } from '@sinclair/typebox';

export const FieldErrorSchema = Type.Object({ field: Type.String(), message: Type.String() });

export const ErrorBodySchema = Type.Object(
  {
    error_code: Type.Integer({ description: 'decisions.md D3 error code; 0 is never an error' }),
    message: Type.String(),
    errors: Type.Array(FieldErrorSchema, { description: 'every bad field, by its path (e.g. pos_data.card.number)' }),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

const errorRef = Type.Ref('ErrorBody');

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
  409: 'Same idempotency key still in flight (4001)',
  413: 'Body above 1 MiB (4003)',
  422: 'Idempotency key reused with a different request (4002)',
  429: 'Locked out after repeated authentication failures (4004)',
  502: 'Processor unavailable (5001)',
};

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Unique key (UUIDv4 recommended); replies are replayed for 1 hour' })),
  'x-idempotency-key': Type.Optional(Type.String({ description: 'Alternative name of Idempotency-Key' })),
});
