/**
 * Preload of the cashier window (bundled to dist/electron/preload.cjs). It runs sandboxed: it may
 * require only 'electron', so everything else it needs is inlined by esbuild.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_KEY, createBridge } from './bridge.js';

export type { TillgateBridge } from './bridge.js';

contextBridge.exposeInMainWorld(BRIDGE_KEY, createBridge(ipcRenderer));
