/**
 * The IPC allow-list, shared by the main process (which registers only these channels) and the
 * preload bridge (which forwards only these channels). It imports nothing, so esbuild can inline it
 * into the sandboxed preload bundle, and the renderer can import its types.
 */

/** Reply of `gateway:health`; the same body as GET /health. */
export interface HealthReply {
  status: 'ok';
  version: string;
}

/** Reply of `gateway:info`: where the local REST API listens and where the data lives. */
export interface GatewayInfoReply {
  restUrl: string;
  dataDir: string;
}

/** The HTTP methods the API bridge forwards. */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Request of `gateway:api`: one call of the gateway's HTTP API (paths under /rest/, /ui/, or
 * /health), answered by the same Fastify app as the REST listener. Of `headers` only Content-Type,
 * Idempotency-Key, X-Idempotency-Key and X-Manager-Approval are forwarded; the main process adds
 * the staff session itself, so the page never holds the session token.
 */
export interface ApiRequest {
  method: ApiMethod;
  /** Path with an optional query string, e.g. `/rest/transactions?limit=20`. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Reply of `gateway:api`: status, parsed JSON body (undefined when empty), a few response headers (lower-case names; never Set-Cookie). */
export interface ApiReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Channel -> request payload and reply. Later issues extend this map with the full contract. */
export interface IpcContract {
  'gateway:health': { request: undefined; response: HealthReply };
  'gateway:info': { request: undefined; response: GatewayInfoReply };
  'gateway:api': { request: ApiRequest; response: ApiReply };
}

export type IpcChannel = keyof IpcContract;
export type IpcRequest<C extends IpcChannel> = IpcContract[C]['request'];
export type IpcResponse<C extends IpcChannel> = IpcContract[C]['response'];

/** Every channel the renderer may invoke; `satisfies` keeps it in step with IpcContract. */
export const IPC_CHANNELS = Object.freeze(['gateway:health', 'gateway:info', 'gateway:api'] as const satisfies readonly IpcChannel[]);

// Fails to compile when a channel is in IpcContract but missing from IPC_CHANNELS.
type MissingChannels = Exclude<IpcChannel, (typeof IPC_CHANNELS)[number]>;
const allChannelsListed: [MissingChannels] extends [never] ? true : MissingChannels = true;
void allChannelsListed;

export function isIpcChannel(value: unknown): value is IpcChannel {
  return typeof value === 'string' && (IPC_CHANNELS as readonly string[]).includes(value);
}
