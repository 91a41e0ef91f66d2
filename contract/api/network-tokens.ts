/**
 * Network tokens (docs/api.md "Network tokens", docs/decisions.md "Network tokens"): create, list,
 * token data, cryptogram, archive, and the simulated token service's test actions. Answers use the
 * `result` + `data` envelope. The back office's own reads (`/ui/network-tokens...`) add what the
 * staff see of a token: the last four digits of the token number and of the card, the holder, and
 * its status history.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  NETWORK_TOKEN_STATUSES,
  NETWORK_TOKENS_DEFAULT_PER_PAGE,
  NETWORK_TOKENS_MAX_PER_PAGE,
  SIMULATE_ACTIONS,
  TOKEN_HISTORY_EVENTS,
  TOKEN_NETWORKS,
  TOKEN_REVEAL_SECONDS,
} from '../constants.js';
import {
  FieldCheckSchema,
  IdempotencyHeaders,
  Nullable,
  PageMetadataSchema,
  pageQueryProperties,
  RefTo,
  Str,
  StringEnum,
  StringIn,
} from './common.js';
import { NoContentSchema, type SchemasOf } from './operation-schemas.js';

export const NetworkTokenRequestSchema = Type.Object(
  {
    card_number: Type.String({ maxLength: 19, description: '12-19 digits, Luhn-valid, visa or mastercard; sensitive' }),
    expiry_month: Type.Integer({ description: '1-12' }),
    expiry_year: Type.Integer({ description: 'with century, e.g. 2030; not in the past' }),
    card_cvv: Type.Optional(Type.String({ maxLength: 3, description: '3 digits; used for the request only, never stored' })),
    card_holder: Type.Optional(Str(120, "letters, digits, spaces and . ' -")),
    email: Type.Optional(Str(254)),
    phone: Type.Optional(Str(30)),
    billing_country: Type.Optional(Str(2, 'ISO 3166-1 alpha-2')),
    billing_city: Type.Optional(Str(100)),
    billing_line1: Type.Optional(Str(200)),
    billing_line2: Type.Optional(Str(200)),
    billing_postal_code: Type.Optional(Str(16, 'letters and digits, no spaces')),
    billing_state: Type.Optional(Str(100)),
    postback_url: Type.Optional(
      Str(
        2000,
        'HTTPS URL for the token postbacks (id, status, network, error); plain http only to a loopback or private-network receiver while postbackPrivateAddresses is allow',
      ),
    ),
  },
  { additionalProperties: false },
);
export type NetworkTokenRequest = Static<typeof NetworkTokenRequestSchema>;

export const NetworkTokenSchema = Type.Object(
  {
    id: Type.String(),
    merchant_id: Type.String(),
    status: StringEnum(NETWORK_TOKEN_STATUSES),
    type: StringEnum(['merchant']),
    network: StringIn(TOKEN_NETWORKS),
    provider: Type.String(),
    last_token_refresh: Nullable(Type.String()),
    error: Type.Optional(Type.Object({ code: Type.String(), detail: Type.String() }, { description: 'only when status is failed' })),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'NetworkToken', title: 'Network token' },
);
export type NetworkToken = Static<typeof NetworkTokenSchema>;

/** The `result` + `data` envelope of the network token answers. */
const envelope = <T extends TSchema>(data: T) => Type.Object({ result: Type.String(), data });
export const NetworkTokenEnvelopeSchema = envelope(RefTo(NetworkTokenSchema));

const Link = Type.Object({ href: Nullable(Type.String(), { description: 'path with query; null when there is no such page' }) });

export const NetworkTokenListQuerySchema = Type.Object(
  {
    status: Type.Optional(StringIn(NETWORK_TOKEN_STATUSES)),
    network: Type.Optional(StringIn(TOKEN_NETWORKS)),
    ...pageQueryProperties(NETWORK_TOKENS_DEFAULT_PER_PAGE, NETWORK_TOKENS_MAX_PER_PAGE),
  },
  { additionalProperties: false },
);
export type NetworkTokenListQuery = Static<typeof NetworkTokenListQuerySchema>;

export const NetworkTokenListSchema = Type.Object({
  result: Type.String(),
  data_set: Type.Array(RefTo(NetworkTokenSchema)),
  metadata: PageMetadataSchema,
  links: Type.Object({ self: Link, first: Link, last: Link, prev: Link, next: Link }),
});
export type NetworkTokenList = Static<typeof NetworkTokenListSchema>;

const TokenDataSchema = Type.Object({
  id: Type.String(),
  number: Type.String({ description: 'the token number; sensitive, handle like a PAN' }),
  expiry_month: Type.Integer(),
  expiry_year: Type.Integer(),
  payment_account_reference: Type.String({ description: '29 characters' }),
});
export const TokenDataEnvelopeSchema = envelope(TokenDataSchema);
export type TokenData = Static<typeof TokenDataSchema>;

const CryptogramSchema = Type.Object({
  id: Type.String(),
  type: StringEnum(['TAVV', 'DSRP']),
  authentication_data: Type.String({ description: 'base64, up to 32 characters; pass it as threeds_wallet_cryptogram' }),
  pan_sequence_number: Type.String({ description: '2 digits' }),
  track2_equivalent: Type.String({ description: 'hex, up to 40 characters' }),
  created: Type.String(),
});
export const CryptogramEnvelopeSchema = envelope(CryptogramSchema);
export type Cryptogram = Static<typeof CryptogramSchema>;

/** An answer in the envelope; `result` is always OK (errors use the D3 body). */
export interface Envelope<T> {
  result: 'OK';
  data: T;
}

export const SimulateRequestSchema = Type.Object({ action: StringIn(SIMULATE_ACTIONS) }, { additionalProperties: false });

export const NetworkTokenIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

// ---- the back office (GET /ui/network-tokens, GET /ui/network-tokens/:id, POST .../reveal) ---------

export const BackOfficeTokenSchema = Type.Object(
  {
    ...NetworkTokenSchema.properties,
    token_last_four: Type.String({ description: 'last four digits of the token number' }),
    card_last_four: Type.String({ description: 'last four digits of the card number' }),
    card_holder: Nullable(Type.String()),
  },
  { title: 'Network token (back office)' },
);
/** A token as the back office lists it: the API's token with the last fours and the holder. */
export type BackOfficeToken = Static<typeof BackOfficeTokenSchema>;

export const BackOfficeTokenListSchema = Type.Object({ data_set: Type.Array(BackOfficeTokenSchema), metadata: PageMetadataSchema });
export type BackOfficeTokenList = Static<typeof BackOfficeTokenListSchema>;

export const TokenHistoryEntrySchema = Type.Object({
  event: StringEnum(TOKEN_HISTORY_EVENTS, {
    description: 'created; status (a change); refreshed (by the token service, status unchanged)',
  }),
  status: StringEnum(NETWORK_TOKEN_STATUSES, { description: 'the status from then on' }),
  at: Type.String({ format: 'date-time' }),
});
export type TokenHistoryEntry = Static<typeof TokenHistoryEntrySchema>;

export const BackOfficeTokenDetailSchema = Type.Object({
  token: BackOfficeTokenSchema,
  history: Type.Array(TokenHistoryEntrySchema, { description: 'oldest first' }),
});
export type BackOfficeTokenDetail = Static<typeof BackOfficeTokenDetailSchema>;

export const TokenRevealSchema = Type.Object({
  data: TokenDataSchema,
  hide_after_seconds: Type.Integer({ description: `the back office masks the data again after this long (${TOKEN_REVEAL_SECONDS})` }),
});
/** `POST /ui/network-tokens/:id/reveal`: the token data, shown for a while; the reveal is in the audit log. */
export type TokenReveal = Static<typeof TokenRevealSchema>;

/** The network-tokens operations (contract/operation-table.ts). */
export const networkTokensOperations = {
  'network-tokens.backOfficeList': { querystring: NetworkTokenListQuerySchema, response: { 200: BackOfficeTokenListSchema } },
  'network-tokens.check': { body: NetworkTokenRequestSchema, response: { 200: FieldCheckSchema } },
  'network-tokens.backOfficeGet': { params: NetworkTokenIdParams, response: { 200: BackOfficeTokenDetailSchema } },
  'network-tokens.reveal': { params: NetworkTokenIdParams, response: { 200: TokenRevealSchema } },
  'network-tokens.create': {
    headers: IdempotencyHeaders,
    body: NetworkTokenRequestSchema,
    response: { 200: NetworkTokenEnvelopeSchema, 201: NetworkTokenEnvelopeSchema },
  },
  'network-tokens.list': { querystring: NetworkTokenListQuerySchema, response: { 200: NetworkTokenListSchema } },
  'network-tokens.get': { params: NetworkTokenIdParams, response: { 200: NetworkTokenEnvelopeSchema } },
  'network-tokens.data': { params: NetworkTokenIdParams, response: { 200: TokenDataEnvelopeSchema } },
  'network-tokens.cryptogram': { headers: IdempotencyHeaders, params: NetworkTokenIdParams, response: { 200: CryptogramEnvelopeSchema } },
  'network-tokens.archive': { params: NetworkTokenIdParams, response: { 202: NoContentSchema } },
  'network-tokens.simulate': {
    headers: IdempotencyHeaders,
    params: NetworkTokenIdParams,
    body: SimulateRequestSchema,
    response: { 200: NetworkTokenEnvelopeSchema },
  },
} as const satisfies SchemasOf<'network-tokens'>;
