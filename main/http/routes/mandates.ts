/** `POST /rest/create_mandate_reference` (decisions.md D4). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdempotencyHeaders, RefTo } from '../../../contract/api/common.js';
import { MandateRequestSchema, MandateResponseSchema, type MandateRequest } from '../../../contract/api/mandates.js';
import type { Gateway } from '../../core/gateway.js';
import { perform, send } from '../api-context.js';
import { apiResponses } from '../responses.js';

export function mandateRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(MandateResponseSchema);
    app.post(
      '/rest/create_mandate_reference',
      {
        schema: {
          tags: ['Payments'],
          summary: 'Create a SEPA direct-debit mandate reference',
          headers: IdempotencyHeaders,
          body: MandateRequestSchema,
          response: apiResponses({ 200: RefTo(MandateResponseSchema) }, [400, 409, 422]),
        },
        config: { bodyFieldErrors: (body) => gateway.mandates.validate(body as unknown as MandateRequest) },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (operation) => gateway.mandates.create(operation, request.body))),
    );
  };
}
