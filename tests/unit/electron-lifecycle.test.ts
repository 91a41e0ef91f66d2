/**
 * The Electron shell's life cycle with a fake Electron: single-instance lock, startup (data key,
 * compose, REST listener, window), IPC from the window, second instance, and the clean shutdown
 * on before-quit. Also loads the esbuild bundle (dist/electron/main.cjs) the same way, which proves
 * the CommonJS bundle and its import.meta shim start on a real Node.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, test } from 'node:test';
import { createLogger } from '../../main/infra/logger.js';
import { API_VERSION } from '../../main/http/server.js';
import { ENCRYPTED_DATA_KEY_FILE } from '../../main/electron/data-key.js';
import { APP_ENTRY_URL, APP_SCHEME } from '../../main/electron/security.js';
import { runShell, type ShellHandle, type ShellOptions } from '../../main/electron/shell.js';
import { createFakeElectron, fakeEvent, type FakeElectron } from '../helpers/fake-electron.js';
import { makeTempDir } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const quietLogger = () => createLogger({ level: 'silent' });

function options(extra: Partial<ShellOptions> = {}): ShellOptions {
  return {
    appRoot: ROOT,
    preloadPath: join(ROOT, 'dist', 'electron', 'preload.cjs'),
    resourcesPath: join(ROOT, 'dist'),
    electronVersion: undefined,
    platform: 'linux',
    env: { GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'silent' },
    logger: quietLogger(),
    ...extra,
  };
}

// Every shell a test starts is stopped afterwards, also when an assertion failed half-way:
// a listener left open would keep this test file from ever finishing.
const running: ShellHandle[] = [];
afterEach(async () => {
  for (const handle of running.splice(0)) await handle.stop();
});

function start(electron: FakeElectron, extra: Partial<ShellOptions> = {}): ShellHandle {
  const handle = runShell(electron.ports, options(extra));
  running.push(handle);
  return handle;
}

function setup(extra: Partial<ShellOptions> = {}) {
  const appData = makeTempDir('tillgate-appdata-');
  const electron = createFakeElectron(appData);
  const handle = start(electron, extra);
  return { appData, electron, handle, dataDir: join(appData, 'Tillgate') };
}

const TIMEOUT = { timeout: 30_000 };

async function healthOf(url: string): Promise<unknown> {
  const response = await fetch(`${url}/health`);
  return response.json();
}

async function quitAndWait(electron: FakeElectron): Promise<void> {
  electron.app.quit();
  assert.equal(await electron.app.ended, 'quit');
}

describe('Electron shell life cycle', () => {
  test('a second instance quits at once without opening the database or a port', TIMEOUT, async () => {
    const appData = makeTempDir('tillgate-appdata-');
    const electron = createFakeElectron(appData);
    electron.app.lockAvailable = false;
    const handle = start(electron);
    electron.app.becomeReady();
    assert.equal(await handle.started, undefined);
    assert.equal(await electron.app.ended, 'quit');
    assert.equal(electron.windows.length, 0);
    assert.equal(existsSync(join(appData, 'Tillgate', 'gateway.sqlite')), false);
  });

  test('before ready: privileged app scheme, sandbox for all renderers, data folder as userData', TIMEOUT, () => {
    const { electron, dataDir, handle } = setup();
    assert.deepEqual(
      electron.schemes.map((s) => s.scheme),
      [APP_SCHEME],
    );
    assert.equal(electron.app.sandboxEnabled, true);
    assert.equal(electron.app.getPath('userData'), dataDir);
    assert.equal(electron.app.getPath('sessionData'), join(dataDir, 'chromium'));
    if (process.platform !== 'win32') assert.equal(statSync(dataDir).mode & 0o777, 0o700, 'data folder is private');
    electron.app.becomeReady();
    return handle.started.then(() => quitAndWait(electron));
  });

  test('GATEWAY_DATA_DIR chooses the data folder, as on the headless host', TIMEOUT, async () => {
    const dir = makeTempDir('tillgate-data-');
    const { electron, handle } = setup({ env: { GATEWAY_PORT: '0', GATEWAY_DATA_DIR: dir, GATEWAY_LOG_LEVEL: 'silent' } });
    assert.equal(electron.app.getPath('userData'), dir);
    electron.app.becomeReady();
    const started = await handle.started;
    assert.equal(started?.settings.dataDir, dir);
    await quitAndWait(electron);
  });

  test('ready: key in the keychain, REST API up, one secure window on the app scheme, IPC answers', TIMEOUT, async () => {
    const { electron, handle, dataDir } = setup();
    electron.app.becomeReady();
    const started = await handle.started;
    assert.ok(started, 'shell started');
    assert.ok(existsSync(join(dataDir, ENCRYPTED_DATA_KEY_FILE)));
    assert.ok(existsSync(join(dataDir, 'gateway.sqlite')));
    assert.deepEqual(await healthOf(started.restUrl), { status: 'ok', version: API_VERSION });

    assert.equal(electron.windows.length, 1);
    const [window] = electron.windows;
    assert.ok(window);
    assert.equal(window.options.webPreferences.sandbox, true);
    assert.equal(window.options.webPreferences.contextIsolation, true);
    assert.equal(window.options.webPreferences.nodeIntegration, false);
    assert.equal(window.loadedUrl, APP_ENTRY_URL);
    assert.ok(electron.protocolHandlers.has(APP_SCHEME));
    assert.ok(electron.session.headersListener, 'CSP installed');
    assert.equal(await electron.session.request('media'), false);
    assert.equal(window.webContents.navigate('will-navigate', 'https://evil.example/'), true, 'window hardened');
    assert.ok(electron.menus.length === 1);

    const event = window.webContents.invokeEvent();
    assert.deepEqual(await electron.ipcMain.invoke('gateway:health', event, undefined), { status: 'ok', version: API_VERSION });
    assert.deepEqual(await electron.ipcMain.invoke('gateway:info', event, undefined), { restUrl: started.restUrl, dataDir });

    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(window.shown, 1, 'shown on ready-to-show');
    await quitAndWait(electron);
  });

  test('a second instance brings the one window forward instead of opening another', TIMEOUT, async () => {
    const { electron, handle } = setup();
    electron.app.becomeReady();
    await handle.started;
    const [window] = electron.windows;
    assert.ok(window);
    window.minimized = true;
    electron.app.emit('second-instance', fakeEvent());
    assert.equal(electron.windows.length, 1);
    assert.equal(window.restored, 1);
    assert.ok(window.focused >= 1);
    window.close();
    electron.app.emit('second-instance', fakeEvent());
    assert.equal(electron.windows.length, 2, 'reopened after it was closed');
    await quitAndWait(electron);
  });

  test('before-quit is held until the REST API drained and the database closed, then the app quits', TIMEOUT, async () => {
    const { electron, handle } = setup();
    electron.app.becomeReady();
    const started = await handle.started;
    assert.ok(started);
    // The database may close only after the listener stopped taking requests.
    let listenerClosedBeforeDb = false;
    const closeDatabase = started.composition.close.bind(started.composition);
    started.composition.close = async () => {
      listenerClosedBeforeDb = await fetch(`${started.restUrl}/health`).then(
        () => false,
        () => true,
      );
      await closeDatabase();
    };
    const event = fakeEvent();
    electron.app.emit('before-quit', event);
    assert.equal(event.defaultPrevented, true, 'quit is held');
    assert.ok(handle.stopping());
    await handle.stopping();
    assert.equal(await electron.app.ended, 'quit');
    assert.equal(electron.app.quitRequests, 1, 'quit re-issued once after the drain');
    await assert.rejects(fetch(`${started.restUrl}/health`), 'listener closed');
    assert.equal(electron.ipcMain.handlers.size, 0, 'IPC handlers removed');
    assert.equal(listenerClosedBeforeDb, true, 'REST listener closed before the database');
    assert.equal(started.composition.store.db.open, false, 'database closed');
  });

  test('closing the last window quits on Windows and Linux but not on macOS', TIMEOUT, async () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const { electron, handle } = setup({ platform });
      electron.app.becomeReady();
      await handle.started;
      electron.windows[0]?.close();
      electron.app.emit('window-all-closed');
      if (platform === 'linux') assert.equal(await electron.app.ended, 'quit');
      else {
        assert.equal(electron.app.quitRequests, 0);
        await quitAndWait(electron);
      }
    }
  });

  test('a port in use stops startup with a clear message and exit code 1', TIMEOUT, async () => {
    const first = setup();
    first.electron.app.becomeReady();
    const running = await first.handle.started;
    assert.ok(running);
    const port = new URL(running.restUrl).port;
    const second = setup({ env: { GATEWAY_PORT: port, GATEWAY_LOG_LEVEL: 'silent' } });
    second.electron.app.becomeReady();
    assert.equal(await second.handle.started, undefined);
    assert.equal(await second.electron.app.ended, 'exit');
    assert.equal(second.electron.app.exitCode, 1);
    assert.match(second.electron.errorBoxes[0]?.content ?? '', new RegExp(`Port ${port} .* is in use`));
    assert.equal(second.electron.windows.length, 0);
    await quitAndWait(first.electron);
  });
});

function withoutDataDir(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.GATEWAY_DATA_DIR;
  return copy;
}

describe('the bundled main process (dist/electron/main.cjs)', () => {
  test('starts on Node with a fake electron module: import.meta shim, REST listener, window, clean quit', TIMEOUT, () => {
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-electron.mjs')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const preload = readFileSync(join(ROOT, 'dist', 'electron', 'preload.cjs'), 'utf8');
    assert.deepEqual(
      [...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]),
      ['electron'],
      'sandboxed preload requires only electron',
    );

    // In a child process, so that a broken bundle cannot leave a listener open in this one.
    const appData = makeTempDir('tillgate-appdata-');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'tests', 'helpers', 'bundle-smoke.ts'), join(ROOT, 'dist', 'electron', 'main.cjs'), appData],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 25_000,
        env: { ...withoutDataDir(process.env), GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'silent' },
      },
    );
    assert.equal(run.status, 0, `bundle smoke run failed:\n${run.stdout}\n${run.stderr}`);
    const report = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    assert.deepEqual(report, {
      errorBoxes: [],
      preload: join(ROOT, 'dist', 'electron', 'preload.cjs'),
      sandbox: true,
      dataDir: join(appData, 'Tillgate'),
      health: { status: 'ok', version: API_VERSION },
      ended: 'quit',
    });
  });
});
