/**
 * Electron entry (bundled to dist/electron/main.cjs by scripts/build-electron.mjs). The only place
 * that hands the real `electron` module to the shell; everything else takes ports (ports.ts).
 * `import.meta.url` is the bundle's own URL here (the build script defines it for CommonJS).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import { createLogger } from '../infra/logger.js';
import { runShell } from './shell.js';

const bundleDir = dirname(fileURLToPath(import.meta.url));
const logger = createLogger({ level: 'info' });

const handle = runShell(
  { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell },
  {
    appRoot: resolve(bundleDir, '..', '..'),
    preloadPath: resolve(bundleDir, 'preload.cjs'),
    resourcesPath: process.resourcesPath,
    electronVersion: process.versions.electron,
    logger,
  },
);

// A service manager or a terminal stops the app like the Quit menu: drain, close the database, exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'quitting on signal');
    app.quit();
  });
}

handle.started.then(
  (started) => {
    if (started) logger.info({ restUrl: started.restUrl, dataDir: started.settings.dataDir }, 'Tillgate is running');
  },
  (error: unknown) => logger.error({ err: error }, 'startup failed'),
);
