/**
 * The network token calls of the back office: the token API itself (docs/api.md "Network tokens";
 * a staff session of back office or admin may call it, and each change is audited) and the /ui
 * routes of the screens (main/http/routes/network-token-back-office.ts: the list and one token with
 * the last fours and the status history, and the audited reveal of the token data). Typed by the
 * contract (contract/api/network-tokens.ts); same transports and error shape as api/client.ts.
 */
import type {
  BackOfficeTokenDetail,
  BackOfficeTokenList,
  Cryptogram,
  Envelope,
  NetworkToken,
  NetworkTokenListQuery,
  NetworkTokenRequest,
  TokenReveal,
} from '../../../contract/api/network-tokens.js';
import type { FieldCheck, FieldError } from '../../../contract/api/common.js';
import type { SimulateAction } from '../../../contract/constants.js';
import { defaultTransport, expectObject, type Transport } from '../api/client.js';

export type { BackOfficeToken, BackOfficeTokenDetail, BackOfficeTokenList, Cryptogram, NetworkTokenRequest, TokenData, TokenHistoryEntry } from '../../../contract/api/network-tokens.js';

export interface TokensClient {
  list(query: NetworkTokenListQuery): Promise<BackOfficeTokenList>;
  detail(id: string): Promise<BackOfficeTokenDetail>;
  /** The token data; the gateway writes the reveal to the audit log before it answers. */
  reveal(id: string): Promise<TokenReveal>;
  /** What POST /v2/network_tokens would refuse in this body, field by field; empty when it would request the token. */
  check(request: NetworkTokenRequest): Promise<FieldError[]>;
  create(request: NetworkTokenRequest, idempotencyKey: string): Promise<NetworkToken>;
  cryptogram(id: string, idempotencyKey: string): Promise<Cryptogram>;
  archive(id: string): Promise<void>;
  /** The Test environment's token service: suspend, resume or refresh the token. */
  simulate(id: string, action: SimulateAction): Promise<NetworkToken>;
}

export function createTokensClient(transport: Transport = defaultTransport()): TokensClient {
  const v2 = (id: string) => `/v2/network_tokens/${encodeURIComponent(id)}`;
  const ui = (id: string) => `/ui/network-tokens/${encodeURIComponent(id)}`;
  return {
    async list(query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
      return expectObject<BackOfficeTokenList>(await transport.send({ method: 'GET', path: `/ui/network-tokens?${params.toString()}` }), ['data_set', 'metadata']);
    },
    async detail(id) {
      return expectObject<BackOfficeTokenDetail>(await transport.send({ method: 'GET', path: ui(id) }), ['token', 'history']);
    },
    async reveal(id) {
      return expectObject<TokenReveal>(await transport.send({ method: 'POST', path: `${ui(id)}/reveal` }), ['data', 'hide_after_seconds']);
    },
    async check(request) {
      return expectObject<FieldCheck>(await transport.send({ method: 'POST', path: '/ui/network-tokens/check', body: request }), ['errors']).errors;
    },
    async create(request, idempotencyKey) {
      const response = await transport.send({ method: 'POST', path: '/v2/network_tokens', body: request, headers: { 'Idempotency-Key': idempotencyKey } });
      return expectObject<Envelope<NetworkToken>>(response, ['data']).data;
    },
    async cryptogram(id, idempotencyKey) {
      const response = await transport.send({ method: 'POST', path: `${v2(id)}/cryptogram`, headers: { 'Idempotency-Key': idempotencyKey } });
      return expectObject<Envelope<Cryptogram>>(response, ['data']).data;
    },
    async archive(id) {
      const response = await transport.send({ method: 'DELETE', path: v2(id) });
      if (response.status !== 202) expectObject(response, []);
    },
    async simulate(id, action) {
      return expectObject<Envelope<NetworkToken>>(await transport.send({ method: 'POST', path: `${v2(id)}/simulate`, body: { action } }), ['data']).data;
    },
  };
}

export const tokensClient: TokensClient = createTokensClient();
