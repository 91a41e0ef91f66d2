/** `POST /rest/create_mandate_reference` (decisions.md D4). */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Gateway } from '../../core/gateway.js';
import type { MandateRequest as CoreMandateRequest } from '../../core/mandates/mandates.js';
import { perform, send } from '../api-context.js';
import { apiResponses, IdempotencyHeaders } from '../schemas.js';

const MandateRequest = Type.Object(
  {
    payment_type: Type.String({ enum: ['dd', 'dd_b2b'], description: '`dd` (SEPA B2C) or `dd_b2b`' }),
    recurring: Type.Optional(Type.Integer({ enum: [0, 1] })),
    first_name: Type.Optional(Type.String({ maxLength: 100 })),
    last_name: Type.Optional(Type.String({ maxLength: 100 })),
    account_holder: Type.String({ minLength: 1, maxLength: 70 }),
    iban: Type.String({ minLength: 1, maxLength: 42, description: 'validated by country format and mod-97' }),
    bic: Type.Optional(Type.String({ maxLength: 11 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  },
  { additionalProperties: false },
);

const MandateResponse = Type.Object(
  {
    sepa_mandate: Type.String({ maxLength: 35, description: 'mandate reference, unique per merchant' }),
    mandate_date: Type.String({ format: 'date' }),
    payment_type: Type.String(),
    recurring: Type.Integer(),
    iban_last_four: Type.String(),
    error_code: Type.Integer(),
  },
  { $id: 'MandateReference', title: 'Mandate reference' },
);

export function mandateRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(MandateResponse);
    app.post(
      '/rest/create_mandate_reference',
      {
        schema: {
          tags: ['Payments'],
          summary: 'Create a SEPA direct-debit mandate reference',
          headers: IdempotencyHeaders,
          body: MandateRequest,
          response: apiResponses({ 200: Type.Ref('MandateReference') }, [400, 409, 422]),
        },
        config: { bodyFieldErrors: (body) => gateway.mandates.validate(body as unknown as CoreMandateRequest) },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (operation) => gateway.mandates.create(operation, request.body))),
    );
  };
}
