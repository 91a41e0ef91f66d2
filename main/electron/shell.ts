/**
 * The desktop host's life cycle, over the Electron ports of ports.ts (main.ts passes the real
 * module, tests pass fakes):
 *
 *   before ready: app scheme privileges, sandbox for every renderer, data folder, single-instance lock
 *   ready:        settings -> data key (OS keychain) -> compose() -> REST listener for POS software
 *                 -> app scheme, CSP, permissions, validated IPC with the API bridge (the same
 *                 Fastify app through inject) -> menu -> first run: "My Shop", admin, till
 *                 -> the one window -> on first run, the one-time credentials in a dialog
 *   before-quit:  held (preventDefault) until the REST listener drained and the database closed,
 *                 then quit for real
 *
 * compose() runs in this process; if the cashier window ever stutters under API load, it moves into
 * a utilityProcess and only this file changes.
 */
import { tlsFor } from '../infra/tls.js';
import { acquireInstanceLock, type InstanceLock } from '../../db/instance-lock.js';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { compose, type Composition } from '../compose.js';
import { buildServer } from '../http/server.js';
import { createLogger } from '../infra/logger.js';
import { keepShopTimeZone, listeningUrl, resolveSettings, type Settings } from '../settings.js';
import { hostTimeZone } from '../core/dashboard/periods.js';
import { ApiBridge } from './api-bridge.js';
import { loadDesktopDataKey } from './data-key.js';
import { FIRST_START_OWN, firstRunMessage, firstStartChoice, setUpFirstRun, type FirstRunCredentials } from './first-run.js';
import { gatewayIpcHandlers, registerValidatedIpc } from './ipc.js';
import { applicationMenuTemplate } from './menu.js';
import { electronNativeBinding } from './native.js';
import type { ElectronPorts, WebContentsPort, WindowPort } from './ports.js';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
  denyAllPermissions,
  hardenWebContents,
  installContentSecurityPolicy,
  mainWindowOptions,
} from './security.js';

/** The folder under the OS's application-data folder; the same one settings.ts's defaultDataDir names. */
export const PRODUCT_NAME = 'Tillgate';
const SHUTDOWN_TIMEOUT_MS = 30_000;

export interface ShellOptions {
  /** The folder holding package.json and renderer/dist (app.asar when packaged). */
  appRoot: string;
  /** The bundled preload script (dist/electron/preload.cjs). */
  preloadPath: string;
  /** `process.resourcesPath` of the packaged app (extraResources land there). */
  resourcesPath: string;
  /** `process.versions.electron`; undefined under plain Node (tests). */
  electronVersion: string | undefined;
  platform?: NodeJS.Platform;
  arch?: string;
  env?: NodeJS.ProcessEnv;
  logger?: PinoLogger;
  shutdownTimeoutMs?: number;
}

export interface StartedShell {
  restUrl: string;
  settings: Settings;
  composition: Composition;
  /** The renderer's API bridge (holds the staff sessions of the windows). */
  apiBridge: ApiBridge;
  /** The cashier window, while it is open. */
  window(): WindowPort | undefined;
}

export interface ShellHandle {
  /** The running shell, or undefined when another instance holds the lock or startup failed. */
  started: Promise<StartedShell | undefined>;
  /** The drain started by before-quit, once it started. */
  stopping(): Promise<void> | undefined;
  /** Drains the REST listener and closes the database without quitting the app (tests use it). */
  stop(): Promise<void>;
}

/** A startup error in words a shop owner can act on. */
export function describeStartupError(error: unknown, settings: Pick<Settings, 'host' | 'port'> | undefined): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' && settings) {
    return `Port ${settings.port} on ${settings.host} is in use. Is Tillgate or a headless gateway already running? Otherwise choose another port ("port" in settings.json).`;
  }
  if (code === 'EACCES' && settings)
    return `Tillgate may not listen on ${settings.host}:${settings.port}. Choose another port ("port" in settings.json).`;
  return error instanceof Error ? error.message : String(error);
}

export function runShell(electron: ElectronPorts, options: ShellOptions): ShellHandle {
  const { app } = electron;
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const logger = options.logger ?? createLogger({ level: 'info' });
  const rendererDir = join(options.appRoot, 'renderer', 'dist');

  // Before ready: these only take effect if set before the app is ready.
  electron.protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
  app.enableSandbox();
  const dataDir = env.GATEWAY_DATA_DIR ? resolve(env.GATEWAY_DATA_DIR) : join(app.getPath('appData'), PRODUCT_NAME);
  // Made here, before Chromium puts its lock file into it, so that it starts private (0700).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  app.setPath('userData', dataDir);
  // Chromium's caches and storage go to a subfolder, so the data folder holds the gateway's files.
  app.setPath('sessionData', join(dataDir, 'chromium'));

  // The lock lives in userData, so it is taken after userData is settled.
  if (!app.requestSingleInstanceLock()) {
    logger.info('Tillgate is already running: the running instance shows its window');
    app.quit();
    return { started: Promise.resolve(undefined), stopping: () => undefined, stop: async () => undefined };
  }

  let settings: Settings | undefined;
  let composition: Composition | undefined;
  let instanceLock: InstanceLock | undefined;
  let server: FastifyInstance | undefined;
  let removeIpc: (() => void) | undefined;
  let apiBridge: ApiBridge | undefined;
  let window: WindowPort | undefined;
  let running = false;
  let quitting = false;
  let readyToQuit = false;
  let closing: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  const hardened = new WeakSet<WebContentsPort>();

  const harden = (contents: WebContentsPort) => {
    if (hardened.has(contents)) return;
    hardened.add(contents);
    hardenWebContents(contents, { openExternal: (url) => electron.shell.openExternal(url), logger });
  };

  const createWindow = (): WindowPort => {
    const created = new electron.BrowserWindow(mainWindowOptions(options.preloadPath));
    // Read now: a closed window's web contents can no longer be asked.
    const contentsId = created.webContents.id;
    harden(created.webContents);
    created.once('ready-to-show', () => created.show());
    created.on('closed', () => {
      apiBridge?.forget(contentsId);
      if (window === created) window = undefined;
    });
    created.loadURL(APP_ENTRY_URL).catch((error: unknown) => logger.error({ err: error }, 'could not load the cashier screen'));
    return created;
  };

  /** Open, or bring forward, the one window (menu Open, second instance, dock click). */
  const showWindow = () => {
    if (!running || quitting) return;
    if (!window || window.isDestroyed()) {
      window = createWindow();
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  const nativeBinding = (): string | undefined => {
    const path = electronNativeBinding({
      electronVersion: options.electronVersion,
      isPackaged: app.isPackaged,
      resourcesPath: options.resourcesPath,
      appRoot: options.appRoot,
      platform,
      ...(options.arch ? { arch: options.arch } : {}),
    });
    if (path === undefined || existsSync(path)) return path;
    if (app.isPackaged) throw new Error(`the SQLite engine for Electron is missing from this installation (${path}); reinstall Tillgate`);
    logger.warn(
      { path },
      'no Electron build of better-sqlite3 (run node scripts/build-native-electron.mjs); trying the one in node_modules',
    );
    return undefined;
  };

  /** Closes whatever startup opened, in order: IPC, REST listener (drains requests), database. */
  const closeResources = (): Promise<void> => {
    closing ??= (async () => {
      removeIpc?.();
      removeIpc = undefined;
      if (server) await server.close();
      if (composition) await composition.close();
      instanceLock?.release();
      logger.info('gateway stopped');
      logger.flush();
    })();
    return closing;
  };

  const start = async (): Promise<StartedShell | undefined> => {
    settings = resolveSettings(dataDir, {}, env);
    logger.level = settings.logLevel;
    const dataKey = loadDesktopDataKey(dataDir, { safeStorage: electron.safeStorage, logger, env });
    logger.info({ dataDir, keySource: dataKey.source }, 'data key loaded');
    // One gateway per data directory: a headless `gateway serve` on it makes this start fail clearly.
    instanceLock = acquireInstanceLock(settings.dataDir, { nativeBinding: nativeBinding() });
    composition = compose({ settings, logger, dataKey: dataKey.key, dataKeySource: dataKey.source, nativeBinding: nativeBinding() });
    // POS software on the network (a host beyond loopback) talks HTTPS, as with `gateway serve`.
    const tls = tlsFor(settings);
    composition.setTlsFingerprint(tls?.fingerprint ?? null);
    if (tls) logger.info({ fingerprint: tls.fingerprint, selfSigned: tls.selfSigned }, 'HTTPS for POS software on the network');
    const httpServer = await buildServer(composition.gateway, {
      logger,
      uiDir: rendererDir,
      till: { confirmAbove: settings.tillConfirmAbove },
      ...(tls ? { https: tls } : {}),
    });
    server = httpServer;
    await httpServer.listen({ host: settings.host, port: settings.port });
    const address = httpServer.server.address();
    const restUrl = listeningUrl(settings.host, typeof address === 'object' && address ? address.port : settings.port, tls !== undefined);
    logger.info({ restUrl }, 'REST API listening');
    if (quitting) return undefined;

    electron.protocol.handle(APP_SCHEME, createAppProtocolHandler(rendererDir, logger));
    const session = electron.session.defaultSession;
    installContentSecurityPolicy(session);
    denyAllPermissions(session, logger);
    const bridge = new ApiBridge((request) => httpServer.inject(request));
    apiBridge = bridge;
    removeIpc = registerValidatedIpc(electron.ipcMain, gatewayIpcHandlers({ restUrl, dataDir: settings.dataDir }, bridge), {
      trustedWindow: () => window,
      logger,
    });
    electron.Menu.setApplicationMenu(
      electron.Menu.buildFromTemplate(applicationMenuTemplate({ openWindow: showWindow, quit: () => app.quit() }, platform)),
    );
    // Last before the window: a start that fails earlier must not create accounts whose passwords
    // nobody ever saw (only their hashes are stored).
    // A brand-new data folder asks first: this computer is the shop's gateway, or it joins one (the
    // window then asks for the address and the pairing code: POST /ui/setup/join).
    let firstRun: FirstRunCredentials | undefined;
    if (!composition.gateway.tillLink.linked && (await composition.gateway.merchants.list()).length === 0) {
      const choice = await electron.dialog.showMessageBox(firstStartChoice());
      if (choice.response === FIRST_START_OWN) firstRun = await setUpFirstRun(composition.gateway);
      else logger.info({}, "first run: this computer joins a shop's gateway; the window asks for its address and pairing code");
    }
    if (firstRun) {
      // The shop keeps this computer's time zone (Settings shows it).
      const timeZone = keepShopTimeZone(settings, hostTimeZone());
      logger.info(
        { merchantId: firstRun.merchantId, timeZone },
        'first run: created the merchant "My Shop" with the staff accounts admin and till',
      );
    }

    running = true;
    window = createWindow();
    if (firstRun) showFirstRunCredentials(firstRun);
    return { restUrl, settings, composition, apiBridge: bridge, window: () => window };
  };

  /** Shown once, over the window; the passwords exist nowhere else in clear. */
  const showFirstRunCredentials = (credentials: FirstRunCredentials) => {
    electron.dialog
      .showMessageBox(firstRunMessage(credentials))
      .catch((error: unknown) => logger.error({ err: error }, 'could not show the first-run credentials'));
  };

  const fail = async (error: unknown): Promise<undefined> => {
    logger.error({ err: error }, 'Tillgate could not start');
    electron.dialog.showErrorBox('Tillgate could not start', describeStartupError(error, settings));
    await closeResources().catch((closeError: unknown) => logger.error({ err: closeError }, 'cleanup after the failed start failed'));
    readyToQuit = true;
    app.exit(1);
    return undefined;
  };

  const started = app.whenReady().then(start).catch(fail);

  const stop = async (): Promise<void> => {
    await started; // never rejects: fail() handles startup errors
    const timer = setTimeout(() => {
      logger.error({ timeoutMs: options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting');
      app.exit(1);
    }, options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await closeResources();
    } finally {
      clearTimeout(timer);
    }
  };

  app.on('web-contents-created', (_event, contents) => harden(contents));
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  // The REST API keeps running with the window closed only on macOS, where apps outlive windows.
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (readyToQuit) return;
    event.preventDefault();
    quitting = true;
    stopping ??= stop().then(
      () => {
        readyToQuit = true;
        app.quit();
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        readyToQuit = true;
        app.exit(1);
      },
    );
  });

  return { started, stopping: () => stopping, stop };
}
