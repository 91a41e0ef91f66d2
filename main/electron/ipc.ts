/**
 * Validated IPC registration, after VS Code's `validatedIpcMain`
 * (src/vs/base/parts/ipc/electron-main/ipcMain.ts): every handler runs only for a message from the
 * main frame of our window showing a page of the app origin, and only channels of the allow-list
 * in channels.ts can be registered. Anything else is rejected before a handler sees it.
 */
import type { Logger as PinoLogger } from 'pino';
import { API_VERSION } from '../http/server.js';
import type { ApiBridge } from './api-bridge.js';
import { IPC_CHANNELS, isIpcChannel, type GatewayInfoReply, type IpcChannel, type IpcResponse } from './channels.js';
import type { IpcInvokeEvent, IpcMainPort, WindowPort } from './ports.js';
import { isAppUrl } from './security.js';

export type TrustedWindow = Pick<WindowPort, 'webContents' | 'isDestroyed'>;

/**
 * The one sender we trust: our window's web contents, its top frame (not an iframe), at a URL of
 * the app origin. `senderFrame` is null once the frame navigated away or was destroyed.
 */
export function isTrustedSender(event: IpcInvokeEvent, window: TrustedWindow | undefined): boolean {
  if (!window || window.isDestroyed()) return false;
  if (event.sender.id !== window.webContents.id) return false;
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return isAppUrl(frame.url);
}

/** Who sent a message that passed the sender check: the id of our window's web contents. */
export interface IpcSender {
  senderId: number;
}

/** One handler per allow-listed channel; each gets the (still untrusted) payload to validate. */
export type IpcHandlers = { [C in IpcChannel]: (payload: unknown, sender: IpcSender) => IpcResponse<C> | Promise<IpcResponse<C>> };

export class IpcRejection extends Error {
  override name = 'IpcRejection';
}

export interface ValidatedIpcDeps {
  /** The window whose renderer may call; read on every message (it changes when reopened). */
  trustedWindow(): TrustedWindow | undefined;
  logger: Pick<PinoLogger, 'warn'>;
}

/** Registers `handlers` behind the sender check; returns a function that removes them again. */
export function registerValidatedIpc(ipcMain: IpcMainPort, handlers: IpcHandlers, deps: ValidatedIpcDeps): () => void {
  for (const channel of Object.keys(handlers)) {
    if (!isIpcChannel(channel)) throw new Error(`IPC channel "${channel}" is not in the allow-list`);
  }
  for (const channel of IPC_CHANNELS) {
    const handler: (payload: unknown, sender: IpcSender) => unknown = handlers[channel];
    ipcMain.handle(channel, async (event, ...args) => {
      if (!isTrustedSender(event, deps.trustedWindow())) {
        deps.logger.warn({ channel, url: event.senderFrame?.url ?? null }, 'rejected IPC from an untrusted sender');
        throw new IpcRejection(`${channel}: sender rejected`);
      }
      if (args.length > 1) throw new IpcRejection(`${channel}: takes at most one payload argument`);
      return handler(args[0], { senderId: event.sender.id });
    });
  }
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(channel);
  };
}

function expectNoPayload(channel: IpcChannel, payload: unknown): void {
  if (payload !== undefined) throw new IpcRejection(`${channel}: takes no payload`);
}

/**
 * The channels: health (as GET /health), where the gateway listens and stores, and the API bridge
 * (api-bridge.ts). Without a bridge `gateway:api` refuses every call.
 */
export function gatewayIpcHandlers(info: GatewayInfoReply, apiBridge?: ApiBridge): IpcHandlers {
  return {
    'gateway:health': (payload) => {
      expectNoPayload('gateway:health', payload);
      return { status: 'ok', version: API_VERSION };
    },
    'gateway:info': (payload) => {
      expectNoPayload('gateway:info', payload);
      return { restUrl: info.restUrl, dataDir: info.dataDir };
    },
    'gateway:api': (payload, sender) => {
      if (!apiBridge) throw new IpcRejection('gateway:api: the API bridge is not running');
      return apiBridge.forward(sender.senderId, payload);
    },
  };
}
