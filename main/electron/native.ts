/**
 * One native module, two runtimes (docs/decisions.md "Desktop shell"). better-sqlite3's binary fits
 * one ABI at a time, and rebuilding node_modules/better-sqlite3 in place for Electron would break
 * the Node side (tests, the headless gateway) and the other way round. So two binaries live apart:
 *
 * - node_modules/better-sqlite3/build/Release/better_sqlite3.node: Node's ABI, made by npm install,
 *   used whenever `process.versions.electron` is unset (better-sqlite3's default lookup);
 * - native/electron/<platform>-<arch>/better_sqlite3.node: Electron's ABI, made by
 *   scripts/build-native-electron.mjs on a machine that can download Electron's headers or
 *   better-sqlite3's Electron prebuild. electron-builder copies it to `<resources>/native/`
 *   (extraResources in electron-builder.yml), outside app.asar, because a .node file cannot be
 *   loaded from inside an archive.
 *
 * Under Electron the path is handed to better-sqlite3's `nativeBinding` option (db/open.ts).
 */
import { join } from 'node:path';

export const NATIVE_BINARY = 'better_sqlite3.node';

export interface NativeBindingContext {
  /** `process.versions.electron`: set only inside Electron. */
  electronVersion: string | undefined;
  isPackaged: boolean;
  /** `process.resourcesPath` of the packaged app. */
  resourcesPath: string;
  /** The folder holding package.json (the repository in development). */
  appRoot: string;
  platform?: NodeJS.Platform;
  arch?: string;
}

/** Where the scripts put the Electron build for one platform and architecture, in development. */
export function developmentNativeDir(appRoot: string, platform: string = process.platform, arch: string = process.arch): string {
  return join(appRoot, 'native', 'electron', `${platform}-${arch}`);
}

/** The better-sqlite3 binary to load: undefined under plain Node, else the Electron-ABI build. */
export function electronNativeBinding(context: NativeBindingContext): string | undefined {
  if (!context.electronVersion) return undefined;
  if (context.isPackaged) return join(context.resourcesPath, 'native', NATIVE_BINARY);
  return join(developmentNativeDir(context.appRoot, context.platform, context.arch), NATIVE_BINARY);
}
