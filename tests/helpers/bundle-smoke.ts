/**
 * Child-process half of the bundle test in tests/unit/electron-lifecycle.test.ts: loads the esbuild
 * bundle (argv[2]) with `require('electron')` answered by the fake Electron, plays app `ready`,
 * asks the window's IPC and the REST listener, quits, and prints one JSON line with what it saw.
 * Usage: node --import tsx tests/helpers/bundle-smoke.ts dist/electron/main.cjs APPDATA_DIR
 */
import { createRequire } from 'node:module';
import { createFakeElectron } from './fake-electron.js';

const [bundle, appData] = process.argv.slice(2);
if (!bundle || !appData) throw new Error('usage: bundle-smoke.ts BUNDLE APPDATA_DIR');

const giveUp = setTimeout(() => {
  console.error('bundle smoke run timed out');
  process.exit(2);
}, 20_000);

const electron = createFakeElectron(appData);
const require = createRequire(import.meta.url);
const Module = require('node:module') as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = Module._load;
Module._load = function load(this: unknown, request: string, ...rest: unknown[]) {
  return request === 'electron' ? electron.ports : originalLoad.call(this, request, ...rest);
};
require(bundle);
electron.app.becomeReady();

const deadline = Date.now() + 15_000;
while (electron.windows.length === 0 && electron.errorBoxes.length === 0 && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const [window] = electron.windows;
let info: { restUrl?: string; dataDir?: string } = {};
let health: unknown;
if (window) {
  info = (await electron.ipcMain.invoke('gateway:info', window.webContents.invokeEvent(), undefined)) as typeof info;
  health = await (await fetch(`${info.restUrl}/health`)).json();
}
electron.app.quit();
const ended = await electron.app.ended;
clearTimeout(giveUp);
console.log(
  JSON.stringify({
    errorBoxes: electron.errorBoxes,
    preload: window?.options.webPreferences.preload,
    sandbox: window?.options.webPreferences.sandbox,
    dataDir: info.dataDir,
    health,
    ended,
  }),
);
process.exit(0);
