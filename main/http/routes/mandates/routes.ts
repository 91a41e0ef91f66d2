/** `POST /rest/create_mandate_reference` (decisions.md D4). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MandateResponseSchema, type MandateRequest } from '../../../../contract/api/mandates.js';
import type { Gateway } from '../../../core/gateway.js';
import { perform, send } from '../../api-context.js';
import { route } from '../../operation-route.js';

export function mandateRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(MandateResponseSchema);
    route(
      app,
      'mandates.create',
      {
        schema: {
          tags: ['Payments'],
          summary: 'Create a SEPA direct-debit mandate reference',
        },
        errors: [400, 409, 422],
        config: { bodyFieldErrors: (body) => gateway.mandates.validate(body as unknown as MandateRequest) },
      },
      async (request, reply) =>
        send(reply, await perform(gateway, request, (operation) => gateway.mandates.create(operation, request.body))),
    );
  };
}
