/**
 * The renderer's only door to the main process: `window.tillgate.invoke(channel, payload)` for the
 * allow-listed channels of main/electron/channels.ts, and `window.tillgate.api(request)`, the typed
 * facade of `gateway:api` (one call of the gateway's HTTP API; the main process holds the staff
 * session, the page never sees its token). No raw ipcRenderer, no event objects, no Node API
 * crosses the context bridge. No 'electron' import here, so tests and the renderer (type-only) can
 * use this module.
 */
import {
  isIpcChannel,
  type ApiReply,
  type ApiRequest,
  type IpcChannel,
  type IpcRequest,
  type IpcResponse,
} from '../main/electron/channels.js';

export type {
  ApiMethod,
  ApiReply,
  ApiRequest,
  GatewayInfoReply,
  HealthReply,
  IpcChannel,
  IpcContract,
  IpcRequest,
  IpcResponse,
} from '../main/electron/channels.js';

/** What the renderer sees as `window.tillgate`. */
export interface TillgateBridge {
  invoke<C extends IpcChannel>(channel: C, payload?: IpcRequest<C>): Promise<IpcResponse<C>>;
  /** One API call, e.g. `api({ method: 'POST', path: '/rest/payment', body, headers: { 'Idempotency-Key': key } })`. */
  api(request: ApiRequest): Promise<ApiReply>;
}

/** The piece of ipcRenderer the bridge uses. */
export interface IpcInvoker {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
}

/** The global name under which the bridge is exposed. */
export const BRIDGE_KEY = 'tillgate';

export function createBridge(ipc: IpcInvoker): TillgateBridge {
  return Object.freeze({
    invoke<C extends IpcChannel>(channel: C, payload?: IpcRequest<C>): Promise<IpcResponse<C>> {
      if (!isIpcChannel(channel)) return Promise.reject(new Error(`IPC channel "${String(channel)}" is not allowed`));
      // Exactly two arguments: the event object and ipcRenderer itself never reach the page.
      return ipc.invoke(channel, payload) as Promise<IpcResponse<C>>;
    },
    api(request: ApiRequest): Promise<ApiReply> {
      if (typeof request !== 'object' || request === null) return Promise.reject(new Error('api: the request must be an object'));
      // Only the four fields cross; the main process validates each of them again.
      const { method, path, body, headers } = request;
      return ipc.invoke('gateway:api', { method, path, body, headers }) as Promise<ApiReply>;
    },
  });
}
