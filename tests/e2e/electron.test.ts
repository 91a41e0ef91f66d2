/**
 * Electron end-to-end: launches the real app (dist/electron/main.cjs) with Playwright's `_electron`
 * and checks the shell from the outside: the window, the bridge, IPC, the REST listener, the
 * hardening, and a clean quit. Runs only where the Electron binary is installed; elsewhere (an
 * install with ELECTRON_SKIP_BINARY_DOWNLOAD=1, like the machine this was written on) every test is
 * reported as skipped with the reason. On Linux CI it needs a display (e.g. xvfb-run).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test, type TestContext } from 'node:test';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN_BUNDLE = join(ROOT, 'dist', 'electron', 'main.cjs');
const APP_ENTRY_URL = 'app://tillgate/index.html';

/** The Electron binary's path, or why there is none (`require('electron')` throws without it). */
function findElectron(): { path: string } | { reason: string } {
  try {
    const path: unknown = createRequire(import.meta.url)('electron');
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { reason: `require('electron') gave ${String(path)}, which is not an executable` };
  } catch (error) {
    return { reason: (error as Error).message.split('\n')[0] ?? 'require failed' };
  }
}

const electron = findElectron();
const skipReason = 'reason' in electron ? `Electron binary not installed on this machine: ${electron.reason}` : undefined;

interface Bridge {
  invoke(channel: string, payload?: unknown): Promise<unknown>;
}

let app: ElectronApplication | undefined;
let page: Page;
let dataDir: string;

function skipWithoutElectron(t: TestContext): boolean {
  if (skipReason) t.skip(skipReason);
  return skipReason !== undefined;
}

describe('Electron app', () => {
  before(async () => {
    if (!('path' in electron)) return;
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-electron.mjs')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `build-electron failed: ${build.stderr}`);
    dataDir = mkdtempSync(join(tmpdir(), 'tillgate-electron-e2e-'));
    app = await _electron.launch({
      executablePath: electron.path,
      args: [MAIN_BUNDLE],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), GATEWAY_DATA_DIR: dataDir, GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'warn' },
      timeout: 60_000,
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  after(async () => {
    await app?.close();
  });

  test('opens one window on the app scheme with a sandboxed, isolated renderer', async (t) => {
    if (skipWithoutElectron(t) || !app) return;
    assert.equal(page.url(), APP_ENTRY_URL);
    assert.equal(app.windows().length, 1);
    // getLastWebPreferences is real but untyped (Electron uses it for its own security warnings).
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]?.webContents as unknown as
        { getLastWebPreferences(): Record<string, unknown> | null } | undefined;
      return contents?.getLastWebPreferences();
    });
    assert.ok(prefs, 'web preferences of the window');
    assert.equal(prefs?.sandbox, true);
    assert.equal(prefs?.contextIsolation, true);
    assert.equal(prefs?.nodeIntegration, false);
    assert.equal(prefs?.webSecurity, true);
    const globals = await page.evaluate(() => ({
      require: typeof (globalThis as Record<string, unknown>).require,
      process: typeof (globalThis as Record<string, unknown>).process,
      bridgeKeys: Object.keys((globalThis as unknown as { tillgate: object }).tillgate),
    }));
    assert.deepEqual(globals, { require: 'undefined', process: 'undefined', bridgeKeys: ['invoke'] });
  });

  test('the bridge answers allow-listed channels and refuses others', async (t) => {
    if (skipWithoutElectron(t) || !app) return;
    const health = await page.evaluate(() => (globalThis as unknown as { tillgate: Bridge }).tillgate.invoke('gateway:health'));
    assert.deepEqual(health, { status: 'ok', version: '3.21.5' });
    const info = (await page.evaluate(() => (globalThis as unknown as { tillgate: Bridge }).tillgate.invoke('gateway:info'))) as {
      restUrl: string;
      dataDir: string;
    };
    assert.equal(info.dataDir, dataDir);
    const rest = (await (await fetch(`${info.restUrl}/health`)).json()) as unknown;
    assert.deepEqual(rest, health, 'the REST listener for POS software answers too');
    const refused = await page.evaluate(() =>
      (globalThis as unknown as { tillgate: Bridge }).tillgate.invoke('shell:exec').then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    assert.match(refused, /not allowed/);
  });

  test('serves the renderer with the CSP; navigation away and window.open are blocked', async (t) => {
    if (skipWithoutElectron(t) || !app) return;
    const csp = await page.evaluate(async () => (await fetch('/index.html')).headers.get('content-security-policy'));
    assert.match(csp ?? '', /default-src 'self'/);
    const opened = await page.evaluate(
      () => (globalThis as unknown as { open(url: string): unknown }).open('https://example.com/') === null,
    );
    assert.equal(opened, true);
    assert.equal(app.windows().length, 1);
    await page.evaluate(() => {
      (globalThis as unknown as { location: { href: string } }).location.href = 'https://evil.example/';
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(page.url(), APP_ENTRY_URL);
  });

  test('keeps the data key out of plain sight and quits cleanly', async (t) => {
    if (skipWithoutElectron(t) || !app) return;
    assert.ok(existsSync(join(dataDir, 'data.key.enc')) || existsSync(join(dataDir, 'data.key')), 'a data key exists');
    const info = (await page.evaluate(() => (globalThis as unknown as { tillgate: Bridge }).tillgate.invoke('gateway:info'))) as {
      restUrl: string;
    };
    const child = app.process();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await app.close();
    app = undefined;
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`${info.restUrl}/health`), 'REST listener closed');
  });
});
