/**
 * Network tokens (interface.md "Network tokens", decisions.md D12): create, list, token data,
 * cryptogram, archive, and the simulated token service's test actions. Answers use the
 * `result` + `data` envelope; errors use the API error body (D3).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toReply } from '../../core/errors.js';
import type { Gateway } from '../../core/gateway.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, NETWORK_TOKEN_STATUSES, SIMULATE_ACTIONS, type NetworkTokenRequest } from '../../core/tokens/network-tokens.js';
import { merchantOf, perform, send } from '../api-context.js';
import { apiResponses, IdempotencyHeaders } from '../schemas.js';

const Str = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });

const CreateRequest = Type.Object(
  {
    card_number: Type.String({ maxLength: 19, description: '12-19 digits, Luhn-valid, visa or mastercard; sensitive' }),
    expiry_month: Type.Integer({ description: '1-12' }),
    expiry_year: Type.Integer({ description: 'with century, e.g. 2030; not in the past' }),
    card_cvv: Type.Optional(Type.String({ maxLength: 3, description: '3 digits; used for the request only, never stored' })),
    card_holder: Type.Optional(Str(120, 'letters, digits, spaces and . \' -')),
    email: Type.Optional(Str(254)),
    phone: Type.Optional(Str(30)),
    billing_country: Type.Optional(Str(2, 'ISO 3166-1 alpha-2')),
    billing_city: Type.Optional(Str(100)),
    billing_line1: Type.Optional(Str(200)),
    billing_line2: Type.Optional(Str(200)),
    billing_postal_code: Type.Optional(Str(16, 'letters and digits, no spaces')),
    billing_state: Type.Optional(Str(100)),
    postback_url: Type.Optional(Str(2000, 'HTTPS URL for the token postbacks (id, status, network, error); plain http only to a loopback or private-network receiver while postbackPrivateAddresses is allow')),
  },
  { additionalProperties: false },
);

export const NetworkTokenSchema = Type.Object(
  {
    id: Type.String(),
    merchant_id: Type.String(),
    status: Type.String({ enum: [...NETWORK_TOKEN_STATUSES] }),
    type: Type.String({ enum: ['merchant'] }),
    network: Type.String({ enum: ['visa', 'mastercard'] }),
    provider: Type.String(),
    last_token_refresh: Type.Union([Type.String(), Type.Null()]),
    error: Type.Optional(Type.Object({ code: Type.String(), detail: Type.String() }, { description: 'only when status is failed' })),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'NetworkToken', title: 'Network token' },
);

const TokenEnvelope = Type.Object({ result: Type.String(), data: Type.Ref('NetworkToken') });
const Link = Type.Object({ href: Type.Union([Type.String(), Type.Null()], { description: 'path with query; null when there is no such page' }) });

const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ enum: [...NETWORK_TOKEN_STATUSES] })),
    network: Type.Optional(Type.String({ enum: ['visa', 'mastercard'] })),
    'created_at[min]': Type.Optional(Type.String({ description: 'ISO 8601; created at or after' })),
    'created_at[max]': Type.Optional(Type.String({ description: 'ISO 8601; created at or before' })),
    page: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'default 1' })),
    per: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: `default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE}` })),
  },
  { additionalProperties: false },
);

const ListResponse = Type.Object({
  result: Type.String(),
  data_set: Type.Array(Type.Ref('NetworkToken')),
  metadata: Type.Object({ per_page: Type.Integer(), total_items: Type.Integer(), current_page: Type.Integer(), total_pages: Type.Integer() }),
  links: Type.Object({ self: Link, first: Link, last: Link, prev: Link, next: Link }),
});

const DataResponse = Type.Object({
  result: Type.String(),
  data: Type.Object({
    id: Type.String(),
    number: Type.String({ description: 'the token number; sensitive, handle like a PAN' }),
    expiry_month: Type.Integer(),
    expiry_year: Type.Integer(),
    payment_account_reference: Type.String({ description: '29 characters' }),
  }),
});

const CryptogramResponse = Type.Object({
  result: Type.String(),
  data: Type.Object({
    id: Type.String(),
    type: Type.String({ enum: ['TAVV', 'DSRP'] }),
    authentication_data: Type.String({ description: 'base64, up to 32 characters; pass it as threeds_wallet_cryptogram' }),
    pan_sequence_number: Type.String({ description: '2 digits' }),
    track2_equivalent: Type.String({ description: 'hex, up to 40 characters' }),
    created: Type.String(),
  }),
});

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export function networkTokenRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v2/network_tokens',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Create a network token for a card',
          description:
            'New tokens answer 201 with status requested and become active (or failed) after the simulated delay, with a postback to postback_url. The same card for the same merchant answers 200 with its existing token.',
          headers: IdempotencyHeaders,
          body: CreateRequest,
          response: apiResponses({ 200: TokenEnvelope, 201: TokenEnvelope }, [400, 409, 422]),
        },
        config: { bodyFieldErrors: (body) => gateway.networkTokens.validate(body as unknown as NetworkTokenRequest) },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => gateway.networkTokens.create(op, request.body))),
    );
    app.get(
      '/v2/network_tokens',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'List network tokens, newest first',
          querystring: ListQuery,
          response: apiResponses({ 200: ListResponse }),
        },
      },
      async (request, reply) => send(reply, toReply(await gateway.networkTokens.list(merchantOf(request), request.query))),
    );
    app.get(
      '/v2/network_tokens/:id',
      {
        schema: { tags: ['Network tokens'], summary: 'Read a network token', params: IdParams, response: apiResponses({ 200: TokenEnvelope }, [400, 404]) },
      },
      async (request, reply) => send(reply, toReply(await gateway.networkTokens.read(merchantOf(request), request.params.id))),
    );
    app.get(
      '/v2/network_tokens/:id/data',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Token data: number, expiry, payment account reference (no cryptogram)',
          description: 'Only for active or suspended tokens.',
          params: IdParams,
          response: apiResponses({ 200: DataResponse }, [400, 404]),
        },
      },
      async (request, reply) => send(reply, toReply(await gateway.networkTokens.data(merchantOf(request), request.params.id))),
    );
    app.post(
      '/v2/network_tokens/:id/cryptogram',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Generate a TAVV (visa) or DSRP (mastercard) cryptogram',
          description: 'Only for active tokens. Single use, valid 24 hours: pay with card_number = the token number, threeds_wallet_cryptogram = authentication_data and ECI 05 or 07.',
          headers: IdempotencyHeaders,
          params: IdParams,
          response: apiResponses({ 200: CryptogramResponse }, [400, 404, 409, 422]),
        },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => gateway.networkTokens.cryptogram(op, request.params.id))),
    );
    app.delete(
      '/v2/network_tokens/:id',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Archive a network token (irreversible)',
          description: 'Answers 202 with an empty body; the token is archive_pending, then archived after the simulated delay.',
          params: IdParams,
          response: apiResponses({ 202: Type.Null({ description: 'empty body' }) }, [400, 404]),
        },
      },
      async (request, reply) => {
        const outcome = await gateway.networkTokens.archive(merchantOf(request), request.params.id);
        if (!outcome.ok) return send(reply, toReply(outcome));
        return reply.code(202).send();
      },
    );
    app.post(
      '/v2/network_tokens/:id/simulate',
      {
        schema: {
          tags: ['Network tokens'],
          summary: 'Test mode: the simulated token service suspends, resumes or refreshes a token',
          description: 'suspend: active -> suspended; resume: suspended -> active; refresh: sets last_token_refresh (active or suspended). Each sends a postback.',
          headers: IdempotencyHeaders,
          params: IdParams,
          body: Type.Object({ action: Type.String({ enum: [...SIMULATE_ACTIONS] }) }, { additionalProperties: false }),
          response: apiResponses({ 200: TokenEnvelope }, [400, 404, 409, 422]),
        },
      },
      async (request, reply) =>
        send(reply, await perform(gateway, request, (op) => gateway.networkTokens.simulate(op, request.params.id, request.body.action as (typeof SIMULATE_ACTIONS)[number]))),
    );
  };
}
