/**
 * The network token calls of the back office: the token API itself (docs/api.md "Network tokens";
 * a staff session of back office or admin may call it, and each change is audited) and the /ui
 * routes of the screens (main/http/routes/network-tokens/back-office.ts: the list and one token with
 * the last fours and the status history, and the audited reveal of the token data). Typed by the
 * contract (contract/api/network-tokens.ts); same transports and error shape as the other clients (api/call.ts, api/transport.ts).
 */
import type {
  BackOfficeTokenDetail,
  BackOfficeTokenList,
  Cryptogram,
  NetworkToken,
  NetworkTokenListQuery,
  NetworkTokenRequest,
  TokenReveal,
} from '../../../contract/api/network-tokens.js';
import type { FieldError } from '../../../contract/api/common.js';
import type { SimulateAction } from '../../../contract/constants.js';
import { caller, filled } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type {
  BackOfficeToken,
  BackOfficeTokenDetail,
  BackOfficeTokenList,
  Cryptogram,
  NetworkTokenRequest,
  TokenData,
  TokenHistoryEntry,
} from '../../../contract/api/network-tokens.js';

export interface NetworkTokensClient {
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

export function createNetworkTokensClient(transport: Transport = defaultTransport()): NetworkTokensClient {
  const call = caller(transport);
  return {
    list: (query) => call('network-tokens.backOfficeList', { query: filled(query) }),
    detail: (id) => call('network-tokens.backOfficeGet', { params: { id } }),
    reveal: (id) => call('network-tokens.reveal', { params: { id } }),
    check: async (request) => (await call('network-tokens.check', { body: request })).errors,
    create: async (request, idempotencyKey) =>
      (await call('network-tokens.create', { body: request, headers: { 'Idempotency-Key': idempotencyKey } })).data,
    cryptogram: async (id, idempotencyKey) =>
      (await call('network-tokens.cryptogram', { params: { id }, headers: { 'Idempotency-Key': idempotencyKey } })).data,
    async archive(id) {
      await call('network-tokens.archive', { params: { id } });
    },
    simulate: async (id, action) => (await call('network-tokens.simulate', { params: { id }, body: { action } })).data,
  };
}

export const networkTokensClient: NetworkTokensClient = createNetworkTokensClient();
