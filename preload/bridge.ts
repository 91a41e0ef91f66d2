/**
 * The renderer's only door to the main process: `window.tillgate.invoke(channel, payload)` for the
 * allow-listed channels of main/electron/channels.ts. No raw ipcRenderer, no event objects, no Node
 * API crosses the context bridge. No 'electron' import here, so tests and the renderer (type-only)
 * can use this module.
 */
import { isIpcChannel, type IpcChannel, type IpcRequest, type IpcResponse } from '../main/electron/channels.js';

export type { GatewayInfoReply, HealthReply, IpcChannel, IpcContract, IpcRequest, IpcResponse } from '../main/electron/channels.js';

/** What the renderer sees as `window.tillgate`. */
export interface TillgateBridge {
  invoke<C extends IpcChannel>(channel: C, payload?: IpcRequest<C>): Promise<IpcResponse<C>>;
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
  });
}
