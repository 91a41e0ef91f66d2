/**
 * The Electron shell's security settings, IPC sender checks, preload bridge, data key and native
 * binding choice, driven through fakes of the Electron API (this machine has no Electron binary).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { API_VERSION } from '../../main/http/server.js';
import { IPC_CHANNELS, isIpcChannel } from '../../main/electron/channels.js';
import { DataKeyError, ENCRYPTED_DATA_KEY_FILE, loadDesktopDataKey } from '../../main/electron/data-key.js';
import { gatewayIpcHandlers, isTrustedSender, registerValidatedIpc, type IpcHandlers } from '../../main/electron/ipc.js';
import { applicationMenuTemplate } from '../../main/electron/menu.js';
import { electronNativeBinding } from '../../main/electron/native.js';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  CONTENT_SECURITY_POLICY,
  createAppProtocolHandler,
  denyAllPermissions,
  hardenWebContents,
  installContentSecurityPolicy,
  isAppUrl,
  mainWindowOptions,
  resolveAppFile,
  secureWebPreferences,
  withContentSecurityPolicy,
} from '../../main/electron/security.js';
import { DATA_KEY_FILE } from '../../main/infra/vault.js';
import { BRIDGE_KEY, createBridge } from '../../preload/bridge.js';
import { FakeFrame, FakeIpcMain, FakeSafeStorage, FakeSession, FakeWebContents, FakeWindow } from '../helpers/fake-electron.js';

interface LogEntry {
  level: 'info' | 'warn';
  args: unknown[];
}

function recordingLogger() {
  const entries: LogEntry[] = [];
  return {
    entries,
    info: (...args: unknown[]) => void entries.push({ level: 'info', args }),
    warn: (...args: unknown[]) => void entries.push({ level: 'warn', args }),
  };
}

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

describe('window security settings', () => {
  test('webPreferences: sandboxed, context-isolated, no Node, web security on, our preload', () => {
    const prefs = secureWebPreferences('/app/dist/electron/preload.cjs');
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInWorker, false);
    assert.equal(prefs.nodeIntegrationInSubFrames, false);
    assert.equal(prefs.webSecurity, true);
    assert.equal(prefs.allowRunningInsecureContent, false);
    assert.equal(prefs.webviewTag, false);
    assert.equal(prefs.spellcheck, false);
    assert.equal(prefs.preload, '/app/dist/electron/preload.cjs');
  });

  test('the main window uses those preferences and stays hidden until ready-to-show', () => {
    const options = mainWindowOptions('/p.cjs');
    assert.deepEqual(options.webPreferences, secureWebPreferences('/p.cjs'));
    assert.equal(options.show, false);
  });

  test('the app scheme is a standard secure origin that does not bypass the CSP', () => {
    assert.equal(APP_SCHEME_PRIVILEGES.standard, true);
    assert.equal(APP_SCHEME_PRIVILEGES.secure, true);
    assert.equal(APP_SCHEME_PRIVILEGES.bypassCSP, false);
    assert.equal(APP_SCHEME_PRIVILEGES.allowServiceWorkers, false);
  });

  test('isAppUrl accepts only the app origin', () => {
    assert.equal(isAppUrl(APP_ENTRY_URL), true);
    assert.equal(isAppUrl(`${APP_ORIGIN}/transactions?x=1#y`), true);
    for (const url of [
      'https://evil.example/',
      'http://tillgate/',
      'file:///etc/passwd',
      'app://evil/index.html',
      'app://tillgate.evil.example/',
      'app://user:pw@tillgate/',
      'javascript:alert(1)',
      'not a url',
      '',
    ]) {
      assert.equal(isAppUrl(url), false, url);
    }
  });
});

describe('navigation and window-open guard', () => {
  function hardened() {
    const contents = new FakeWebContents(APP_ENTRY_URL);
    const opened: string[] = [];
    const logger = recordingLogger();
    hardenWebContents(contents, { openExternal: async (url) => void opened.push(url), logger });
    return { contents, opened, logger };
  }

  test('navigation to https://evil.example is prevented, in any frame and by redirect', () => {
    const { contents, logger } = hardened();
    assert.equal(contents.navigate('will-navigate', 'https://evil.example/'), true);
    assert.equal(contents.navigate('will-frame-navigate', 'https://evil.example/'), true);
    assert.equal(contents.navigate('will-redirect', 'https://evil.example/'), true);
    assert.equal(contents.navigate('will-navigate', 'file:///etc/passwd'), true);
    assert.ok(logger.entries.some((e) => e.level === 'warn'));
  });

  test('navigation within the app origin is allowed', () => {
    const { contents } = hardened();
    assert.equal(contents.navigate('will-navigate', `${APP_ORIGIN}/transactions`), false);
    assert.equal(contents.navigate('will-frame-navigate', APP_ENTRY_URL), false);
  });

  test('window.open is denied; https links open in the OS browser, nothing else does', async () => {
    const { contents, opened } = hardened();
    assert.deepEqual(contents.windowOpen('https://docs.example/help'), { action: 'deny' });
    assert.deepEqual(contents.windowOpen('http://insecure.example/'), { action: 'deny' });
    assert.deepEqual(contents.windowOpen('file:///etc/passwd'), { action: 'deny' });
    assert.deepEqual(contents.windowOpen(`${APP_ORIGIN}/popup`), { action: 'deny' });
    assert.deepEqual(contents.windowOpen('javascript:alert(1)'), { action: 'deny' });
    assert.deepEqual(contents.windowOpen('https://user:pw@evil.example/'), { action: 'deny' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(opened, ['https://docs.example/help']);
  });

  test('<webview> attachment is prevented', () => {
    const { contents } = hardened();
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    contents.emit('will-attach-webview', event);
    assert.equal(event.defaultPrevented, true);
  });
});

describe('content security policy', () => {
  test('the policy allows only the app itself: no remote origin, no eval, no objects, no frames', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    assert.deepEqual(directives.get('default-src'), ["'self'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('connect-src'), ["'self'"]);
    assert.deepEqual(directives.get('object-src'), ["'none'"]);
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /https?:|\*|unsafe-eval/);
  });

  test('the session adds the CSP to every response and replaces a weaker one', () => {
    const session = new FakeSession();
    installContentSecurityPolicy(session);
    const headers = session.headersFor(APP_ENTRY_URL, { 'content-type': ['text/html'], 'content-security-policy': ['default-src *'] });
    assert.deepEqual(headers, { 'content-type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    assert.deepEqual(withContentSecurityPolicy(undefined), { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });

  test('permission requests and checks are denied', async () => {
    const session = new FakeSession();
    denyAllPermissions(session, recordingLogger());
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      assert.equal(await session.request(permission), false, permission);
      assert.equal(session.permissionCheckHandler?.({}, permission), false, permission);
    }
  });
});

describe('app scheme file serving', () => {
  function rendererDir(): string {
    const dir = tempDir('tillgate-renderer-');
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Tillgate</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, '..', `${dir.split(/[/\\]/).pop()}-secret.txt`), 'secret');
    return dir;
  }

  test('path traversal and other origins resolve to nothing', () => {
    const root = '/srv/renderer/dist';
    // The renderer is built with base /app/, the path the headless host serves it at.
    assert.equal(resolveAppFile(root, `${APP_ORIGIN}/app/assets/app.js`), join(root, 'assets', 'app.js'));
    assert.equal(resolveAppFile(root, `${APP_ORIGIN}/app/`), join(root, 'index.html'));
    assert.equal(resolveAppFile(root, APP_ENTRY_URL), join(root, 'index.html'));
    assert.equal(resolveAppFile(root, `${APP_ORIGIN}/assets/app.js`), null);
    for (const url of [
      `${APP_ORIGIN}/app/%2e%2e/%2e%2e/etc/passwd`,
      `${APP_ORIGIN}/app/..%2f..%2fsecret`,
      `${APP_ORIGIN}/%2e%2e/%2e%2e/etc/passwd`,
      `${APP_ORIGIN}/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd`,
      `${APP_ORIGIN}/..%2f..%2fsecret`,
      `${APP_ORIGIN}/%2fetc%2fpasswd/..%2f..%2f..%2f..%2fetc%2fpasswd`,
      `${APP_ORIGIN}/index.html%00.png`,
      `${APP_ORIGIN}/%E0%A4%A`,
      'https://evil.example/index.html',
      'app://other/index.html',
    ]) {
      const resolved = resolveAppFile(root, url);
      assert.ok(resolved === null || resolved.startsWith(join(root, '/')), `${url} -> ${resolved}`);
    }
    assert.equal(resolveAppFile(root, `${APP_ORIGIN}/..%2f..%2fsecret`), null);
    assert.equal(resolveAppFile(root, 'https://evil.example/index.html'), null);
  });

  test('serves renderer files with content type and CSP', async () => {
    const handler = createAppProtocolHandler(rendererDir(), recordingLogger());
    const page = await handler(new Request(APP_ENTRY_URL));
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(page.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
    assert.match(await page.text(), /<title>Tillgate<\/title>/);
    const script = await handler(new Request(`${APP_ORIGIN}/app/assets/app.js`));
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
  });

  test('refuses traversal out of renderer/dist, other origins and writes', async () => {
    const dir = rendererDir();
    const handler = createAppProtocolHandler(dir, recordingLogger());
    const secret = `${dir.split(/[/\\]/).pop()}-secret.txt`;
    const traversal = await handler(new Request(`${APP_ORIGIN}/app/..%2f${secret}`));
    assert.equal(traversal.status, 403);
    assert.doesNotMatch(await traversal.text(), /secret/);
    assert.equal((await handler(new Request('https://evil.example/index.html'))).status, 403);
    assert.equal((await handler(new Request(APP_ENTRY_URL, { method: 'POST', body: 'x' }))).status, 405);
    assert.equal((await handler(new Request(`${APP_ORIGIN}/app/assets/missing.js`))).status, 404);
    assert.equal((await handler(new Request(`${APP_ORIGIN}/assets/app.js`))).status, 403);
  });

  test('client-side routes get index.html; an unbuilt renderer gets a placeholder page', async () => {
    const handler = createAppProtocolHandler(rendererDir(), recordingLogger());
    const route = await handler(new Request(`${APP_ORIGIN}/app/transactions`));
    assert.match(await route.text(), /<title>Tillgate<\/title>/);
    const empty = createAppProtocolHandler(tempDir('tillgate-unbuilt-'), recordingLogger());
    const placeholder = await empty(new Request(APP_ENTRY_URL));
    assert.equal(placeholder.status, 200);
    assert.match(await placeholder.text(), /npm run build:renderer/);
  });
});

describe('validated IPC', () => {
  function setup(handlers: IpcHandlers = gatewayIpcHandlers({ restUrl: 'http://127.0.0.1:8420', dataDir: '/data' })) {
    const ipcMain = new FakeIpcMain();
    const window = new FakeWindow(mainWindowOptions('/p.cjs'));
    window.webContents.mainFrame.url = APP_ENTRY_URL;
    const logger = recordingLogger();
    let current: FakeWindow | undefined = window;
    const remove = registerValidatedIpc(ipcMain, handlers, { trustedWindow: () => current, logger });
    return { ipcMain, window, logger, remove, closeWindow: () => (current = undefined) };
  }

  test('registers exactly the allow-listed channels', () => {
    const { ipcMain, remove } = setup();
    assert.deepEqual([...ipcMain.handlers.keys()].sort(), [...IPC_CHANNELS].sort());
    remove();
    assert.equal(ipcMain.handlers.size, 0);
  });

  test('the main frame of our window at the app origin gets answers', async () => {
    const { ipcMain, window } = setup();
    assert.deepEqual(await ipcMain.invoke('gateway:health', window.webContents.invokeEvent(), undefined), {
      status: 'ok',
      version: API_VERSION,
    });
    assert.deepEqual(await ipcMain.invoke('gateway:info', window.webContents.invokeEvent()), {
      restUrl: 'http://127.0.0.1:8420',
      dataDir: '/data',
    });
  });

  test('a sender frame from another origin is rejected before the handler runs', async () => {
    let calls = 0;
    const { ipcMain, window, logger } = setup({
      'gateway:health': () => {
        calls += 1;
        return { status: 'ok', version: 'x' };
      },
      'gateway:info': () => ({ restUrl: '', dataDir: '' }),
      'gateway:api': () => ({ status: 200, body: undefined }),
    });
    window.webContents.mainFrame.url = 'https://evil.example/';
    await assert.rejects(ipcMain.invoke('gateway:health', window.webContents.invokeEvent()), /sender rejected/);
    assert.equal(calls, 0);
    assert.ok(logger.entries.some((e) => e.level === 'warn'));
  });

  test('a sub-frame, a destroyed frame, another web contents and a closed window are rejected', async () => {
    const { ipcMain, window, closeWindow } = setup();
    const subFrame = new FakeFrame(APP_ENTRY_URL, window.webContents.mainFrame);
    await assert.rejects(ipcMain.invoke('gateway:health', window.webContents.invokeEvent(subFrame)), /sender rejected/);
    await assert.rejects(ipcMain.invoke('gateway:health', window.webContents.invokeEvent(null)), /sender rejected/);
    const stranger = new FakeWebContents(APP_ENTRY_URL);
    await assert.rejects(ipcMain.invoke('gateway:health', stranger.invokeEvent()), /sender rejected/);
    window.destroyed = true;
    await assert.rejects(ipcMain.invoke('gateway:health', window.webContents.invokeEvent()), /sender rejected/);
    window.destroyed = false;
    closeWindow();
    await assert.rejects(ipcMain.invoke('gateway:health', window.webContents.invokeEvent()), /sender rejected/);
  });

  test('isTrustedSender needs all three: our web contents, its top frame, the app origin', () => {
    const window = new FakeWindow(mainWindowOptions('/p.cjs'));
    window.webContents.mainFrame.url = APP_ENTRY_URL;
    assert.equal(isTrustedSender(window.webContents.invokeEvent(), window), true);
    assert.equal(
      isTrustedSender({ sender: { id: window.webContents.id + 1000 }, senderFrame: window.webContents.mainFrame }, window),
      false,
    );
    assert.equal(isTrustedSender(window.webContents.invokeEvent(new FakeFrame('app://evil/index.html')), window), false);
    assert.equal(isTrustedSender(window.webContents.invokeEvent(), undefined), false);
  });

  test('payloads where none belong, and extra arguments, are rejected', async () => {
    const { ipcMain, window } = setup();
    await assert.rejects(ipcMain.invoke('gateway:health', window.webContents.invokeEvent(), { sneaky: true }), /takes no payload/);
    await assert.rejects(ipcMain.invoke('gateway:info', window.webContents.invokeEvent(), undefined, 'extra'), /at most one payload/);
  });

  test('a handler for a channel outside the allow-list cannot be registered', () => {
    const handlers = { ...gatewayIpcHandlers({ restUrl: '', dataDir: '' }), 'shell:exec': () => 'pwned' } as unknown as IpcHandlers;
    assert.throws(
      () => registerValidatedIpc(new FakeIpcMain(), handlers, { trustedWindow: () => undefined, logger: recordingLogger() }),
      /not in the allow-list/,
    );
  });
});

describe('preload bridge', () => {
  function fakeIpcRenderer() {
    const calls: unknown[][] = [];
    return {
      calls,
      invoke: async (...args: unknown[]) => {
        calls.push(args);
        return { status: 'ok', version: API_VERSION };
      },
    };
  }

  test('forwards allow-listed channels with exactly channel and payload', async () => {
    const ipc = fakeIpcRenderer();
    const bridge = createBridge(ipc);
    assert.deepEqual(await bridge.invoke('gateway:health'), { status: 'ok', version: API_VERSION });
    assert.deepEqual(ipc.calls, [['gateway:health', undefined]]);
  });

  test('refuses other channels without touching ipcRenderer', async () => {
    const ipc = fakeIpcRenderer();
    const bridge = createBridge(ipc);
    for (const channel of ['shell:exec', 'gateway:health ', '__proto__', '']) {
      await assert.rejects((bridge.invoke as (c: string) => Promise<unknown>)(channel), /not allowed/);
    }
    assert.equal(ipc.calls.length, 0);
  });

  test('exposes only invoke and api, frozen; no ipcRenderer, send or on', () => {
    const ipc = fakeIpcRenderer();
    const bridge = createBridge(ipc);
    assert.deepEqual(Object.keys(bridge), ['invoke', 'api']);
    assert.equal(Object.isFrozen(bridge), true);
    assert.ok(!Object.values(bridge).includes(ipc));
    assert.equal(BRIDGE_KEY, 'tillgate');
  });

  test('the allow-list check matches the main process list', () => {
    for (const channel of IPC_CHANNELS) assert.equal(isIpcChannel(channel), true);
    assert.equal(isIpcChannel('gateway:exec'), false);
    assert.equal(isIpcChannel(42), false);
  });
});

describe('data key under the OS keychain', () => {
  test('first run: a new 32-byte key, stored encrypted with mode 0600; the next run reads the same key', () => {
    const dir = tempDir('tillgate-key-');
    const safeStorage = new FakeSafeStorage();
    const first = loadDesktopDataKey(dir, { safeStorage, logger: recordingLogger(), env: {} });
    assert.equal(first.key.length, 32);
    assert.equal(first.protectedByKeychain, true);
    const file = join(dir, ENCRYPTED_DATA_KEY_FILE);
    assert.ok(existsSync(file));
    assert.equal(existsSync(join(dir, DATA_KEY_FILE)), false, 'no plain key file');
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(readFileSync(file).includes(Buffer.from(first.key.toString('base64'))), false, 'the key is not stored in clear');
    const second = loadDesktopDataKey(dir, { safeStorage, logger: recordingLogger(), env: {} });
    assert.ok(second.key.equals(first.key));
  });

  test('without safeStorage: the plain key file of the headless host, with a warning', () => {
    const dir = tempDir('tillgate-key-');
    const safeStorage = new FakeSafeStorage();
    safeStorage.available = false;
    const logger = recordingLogger();
    const result = loadDesktopDataKey(dir, { safeStorage, logger, env: {} });
    assert.equal(result.protectedByKeychain, false);
    assert.equal(result.key.length, 32);
    assert.ok(existsSync(join(dir, DATA_KEY_FILE)));
    assert.ok(logger.entries.some((e) => e.level === 'warn'));
  });

  test('an encrypted key is never replaced: unavailable or undecryptable keychain is an error', () => {
    const dir = tempDir('tillgate-key-');
    const safeStorage = new FakeSafeStorage();
    loadDesktopDataKey(dir, { safeStorage, logger: recordingLogger(), env: {} });
    safeStorage.available = false;
    assert.throws(() => loadDesktopDataKey(dir, { safeStorage, logger: recordingLogger(), env: {} }), DataKeyError);
    assert.equal(existsSync(join(dir, DATA_KEY_FILE)), false, 'no new plain key made');
    safeStorage.available = true;
    writeFileSync(join(dir, ENCRYPTED_DATA_KEY_FILE), 'garbage');
    assert.throws(() => loadDesktopDataKey(dir, { safeStorage, logger: recordingLogger(), env: {} }), /could not be decrypted/);
  });

  test('a plain key left by a headless run is adopted, so sealed data stays readable', () => {
    const dir = tempDir('tillgate-key-');
    const plainKey = Buffer.alloc(32, 7);
    writeFileSync(join(dir, DATA_KEY_FILE), plainKey.toString('base64'), { mode: 0o600 });
    const result = loadDesktopDataKey(dir, { safeStorage: new FakeSafeStorage(), logger: recordingLogger(), env: {} });
    assert.ok(result.key.equals(plainKey));
    assert.equal(result.protectedByKeychain, true);
    assert.ok(existsSync(join(dir, ENCRYPTED_DATA_KEY_FILE)));
  });

  test('basic_text backend (no desktop keyring) is reported', () => {
    const safeStorage = new FakeSafeStorage();
    safeStorage.backend = 'basic_text';
    const logger = recordingLogger();
    loadDesktopDataKey(tempDir('tillgate-key-'), { safeStorage, logger, env: {} });
    assert.ok(logger.entries.some((e) => e.level === 'warn' && String(e.args.at(-1)).includes('basic_text')));
  });

  test('GATEWAY_DATA_KEY wins, as on the headless host', () => {
    const key = Buffer.alloc(32, 9);
    const result = loadDesktopDataKey(tempDir('tillgate-key-'), {
      safeStorage: new FakeSafeStorage(),
      logger: recordingLogger(),
      env: { GATEWAY_DATA_KEY: key.toString('base64') },
    });
    assert.ok(result.key.equals(key));
    assert.equal(result.source, 'GATEWAY_DATA_KEY');
  });
});

describe('better-sqlite3 binary per runtime', () => {
  const base = { isPackaged: false, resourcesPath: '/opt/Tillgate/resources', appRoot: '/repo', platform: 'linux' as const, arch: 'x64' };

  test('plain Node keeps node_modules build (no nativeBinding)', () => {
    assert.equal(electronNativeBinding({ ...base, electronVersion: undefined }), undefined);
  });

  test('Electron in development: native/electron/<platform>-<arch>/', () => {
    assert.equal(
      electronNativeBinding({ ...base, electronVersion: '40.9.3' }),
      join('/repo', 'native', 'electron', 'linux-x64', 'better_sqlite3.node'),
    );
  });

  test('packaged Electron: <resources>/native/, outside app.asar', () => {
    assert.equal(
      electronNativeBinding({ ...base, electronVersion: '40.9.3', isPackaged: true }),
      join('/opt/Tillgate/resources', 'native', 'better_sqlite3.node'),
    );
  });
});

describe('application menu', () => {
  test('has Open and Quit wired to the actions', () => {
    let opened = 0;
    let quit = 0;
    const [tillgate] = applicationMenuTemplate({ openWindow: () => (opened += 1), quit: () => (quit += 1) }, 'linux');
    const items = tillgate?.submenu ?? [];
    items.find((i) => i.label === 'Open Tillgate')?.click?.();
    items.find((i) => i.label === 'Quit Tillgate')?.click?.();
    assert.deepEqual([opened, quit], [1, 1]);
  });
});
