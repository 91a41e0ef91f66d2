/**
 * A fake of the Electron API the shell uses (main/electron/ports.ts), for tests on a machine
 * without the Electron binary. It records what the shell asked for and lets tests play Electron's
 * part: emit app events, navigate, call window.open, invoke IPC from a chosen frame.
 */
import { EventEmitter } from 'node:events';
import type {
  ElectronPorts,
  FramePort,
  HeadersReceivedDetails,
  HeadersReceivedResponse,
  IpcInvokeEvent,
  MenuItemTemplate,
  MessageBoxOptions,
  SafeStoragePort,
  SchemePrivileges,
  WindowOpenDecision,
  WindowOptions,
} from '../../main/electron/ports.js';

export interface FakeEvent {
  url: string;
  defaultPrevented: boolean;
  preventDefault(): void;
}

export function fakeEvent(url = ''): FakeEvent {
  return {
    url,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

export class FakeFrame implements FramePort {
  constructor(
    public url: string,
    public parent: FakeFrame | null = null,
  ) {}
}

let nextWebContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextWebContentsId++;
  readonly mainFrame: FakeFrame;
  windowOpenHandler: ((details: { url: string }) => WindowOpenDecision) | undefined;

  constructor(url = 'about:blank') {
    super();
    this.mainFrame = new FakeFrame(url);
  }

  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenDecision): void {
    this.windowOpenHandler = handler;
  }

  /** Emits a navigation event as Electron does; true when a listener prevented it. */
  navigate(kind: 'will-navigate' | 'will-frame-navigate' | 'will-redirect', url: string): boolean {
    const event = fakeEvent(url);
    this.emit(kind, event);
    return event.defaultPrevented;
  }

  /** What `window.open(url)` in the page would get: Electron asks the window-open handler. */
  windowOpen(url: string): WindowOpenDecision | { action: 'allow' } {
    return this.windowOpenHandler ? this.windowOpenHandler({ url }) : { action: 'allow' };
  }

  /** An IPC invoke event as sent by `frame` of this web contents (the main frame by default). */
  invokeEvent(frame: FakeFrame | null = this.mainFrame): IpcInvokeEvent {
    return { sender: { id: this.id }, senderFrame: frame };
  }
}

export class FakeWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  loadedUrl: string | undefined;
  shown = 0;
  focused = 0;
  restored = 0;
  minimized = false;
  destroyed = false;

  constructor(readonly options: WindowOptions) {
    super();
  }

  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    setImmediate(() => this.emit('ready-to-show'));
  }

  show(): void {
    this.shown += 1;
    this.minimized = false;
  }

  focus(): void {
    this.focused += 1;
  }

  restore(): void {
    this.restored += 1;
    this.minimized = false;
  }

  isMinimized(): boolean {
    return this.minimized;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeApp extends EventEmitter {
  isPackaged = false;
  lockAvailable = true;
  sandboxEnabled = false;
  readonly paths = new Map<string, string>();
  quitRequests = 0;
  exitCode: number | undefined;
  /** Resolves when the app really quit (a before-quit nobody prevented) or exited. */
  readonly ended: Promise<'quit' | 'exit'>;
  private endedWith!: (how: 'quit' | 'exit') => void;
  private readyNow!: () => void;
  private readonly ready: Promise<void>;

  constructor(appData: string) {
    super();
    this.paths.set('appData', appData);
    this.ended = new Promise((resolve) => (this.endedWith = resolve));
    this.ready = new Promise((resolve) => (this.readyNow = resolve));
  }

  /** Plays Electron's `ready`. */
  becomeReady(): void {
    this.readyNow();
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  requestSingleInstanceLock(): boolean {
    return this.lockAvailable;
  }

  getPath(name: string): string {
    const path = this.paths.get(name);
    if (path === undefined) throw new Error(`fake app has no path ${name}`);
    return path;
  }

  setPath(name: string, path: string): void {
    this.paths.set(name, path);
  }

  enableSandbox(): void {
    this.sandboxEnabled = true;
  }

  /** Like Electron: before-quit first; the app quits only if no listener prevented it. */
  quit(): void {
    this.quitRequests += 1;
    const event = fakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.endedWith('quit');
  }

  exit(code = 0): void {
    this.exitCode = code;
    this.endedWith('exit');
  }
}

export class FakeIpcMain {
  readonly handlers = new Map<string, (event: IpcInvokeEvent, ...args: unknown[]) => unknown>();

  handle(channel: string, listener: (event: IpcInvokeEvent, ...args: unknown[]) => unknown): void {
    // Electron refuses a second handler for one channel.
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  /** What `ipcRenderer.invoke(channel, ...args)` from the event's sender would get. */
  async invoke(channel: string, event: IpcInvokeEvent, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  }
}

export class FakeSession {
  headersListener: ((details: HeadersReceivedDetails, callback: (response: HeadersReceivedResponse) => void) => void) | undefined;
  permissionRequestHandler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
  permissionCheckHandler: ((webContents: unknown, permission: string) => boolean) | undefined;
  readonly webRequest = {
    onHeadersReceived: (listener: (details: HeadersReceivedDetails, callback: (response: HeadersReceivedResponse) => void) => void) => {
      this.headersListener = listener;
    },
  };

  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void {
    this.permissionCheckHandler = handler;
  }

  /** The headers a response would end up with after the session's listener ran. */
  headersFor(url: string, responseHeaders: Record<string, string[]>): Record<string, string | string[]> | undefined {
    let result: HeadersReceivedResponse | undefined;
    this.headersListener?.({ url, responseHeaders }, (response) => (result = response));
    return result?.responseHeaders;
  }

  /** Whether a permission request would be granted. */
  request(permission: string): Promise<boolean> {
    return new Promise((resolve) => {
      if (!this.permissionRequestHandler) resolve(true);
      else this.permissionRequestHandler({}, permission, resolve);
    });
  }
}

/** A reversible stand-in for the OS keychain: the "ciphertext" must not contain the plaintext. */
export class FakeSafeStorage implements SafeStoragePort {
  available = true;
  backend = 'gnome_libsecret';
  encryptions = 0;

  isEncryptionAvailable(): boolean {
    return this.available;
  }

  encryptString(plainText: string): Buffer {
    if (!this.available) throw new Error('Encryption is not available.');
    this.encryptions += 1;
    return Buffer.concat([Buffer.from('FAKEKEYCHAIN:'), Buffer.from(plainText, 'utf8').map((byte) => byte ^ 0x5a)]);
  }

  decryptString(encrypted: Buffer): string {
    if (!this.available) throw new Error('Decryption is not available.');
    const prefix = Buffer.from('FAKEKEYCHAIN:');
    if (!encrypted.subarray(0, prefix.length).equals(prefix))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(encrypted.subarray(prefix.length).map((byte) => byte ^ 0x5a)).toString('utf8');
  }

  getSelectedStorageBackend(): string {
    return this.backend;
  }
}

export interface FakeElectron {
  ports: ElectronPorts;
  app: FakeApp;
  ipcMain: FakeIpcMain;
  session: FakeSession;
  safeStorage: FakeSafeStorage;
  windows: FakeWindow[];
  schemes: Array<{ scheme: string; privileges: SchemePrivileges }>;
  protocolHandlers: Map<string, (request: Request) => Response | Promise<Response>>;
  openedExternally: string[];
  errorBoxes: Array<{ title: string; content: string }>;
  /** Every `dialog.showMessageBox`; the fake answers at once, with the next of `messageBoxAnswers` or else the first button. */
  messageBoxes: MessageBoxOptions[];
  messageBoxAnswers: number[];
  menus: MenuItemTemplate[][];
}

export function createFakeElectron(appData: string): FakeElectron {
  const app = new FakeApp(appData);
  const ipcMain = new FakeIpcMain();
  const session = new FakeSession();
  const safeStorage = new FakeSafeStorage();
  const windows: FakeWindow[] = [];
  const schemes: Array<{ scheme: string; privileges: SchemePrivileges }> = [];
  const protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  const openedExternally: string[] = [];
  const errorBoxes: Array<{ title: string; content: string }> = [];
  const messageBoxes: MessageBoxOptions[] = [];
  const messageBoxAnswers: number[] = [];
  const menus: MenuItemTemplate[][] = [];

  class BrowserWindow extends FakeWindow {
    constructor(options: WindowOptions) {
      super(options);
      windows.push(this);
      // Electron announces every new web contents to the app.
      app.emit('web-contents-created', fakeEvent(), this.webContents);
    }
  }

  const ports: ElectronPorts = {
    app,
    BrowserWindow,
    ipcMain,
    protocol: {
      registerSchemesAsPrivileged: (list) => schemes.push(...list),
      handle: (scheme, handler) => {
        if (protocolHandlers.has(scheme)) throw new Error(`scheme ${scheme} is already handled`);
        protocolHandlers.set(scheme, handler);
      },
    },
    session: { defaultSession: session },
    safeStorage,
    shell: {
      openExternal: async (url) => {
        openedExternally.push(url);
      },
    },
    Menu: {
      buildFromTemplate: (template) => ({ template }),
      setApplicationMenu: (menu) => {
        if (menu && 'template' in menu) menus.push(menu.template as MenuItemTemplate[]);
      },
    },
    dialog: {
      showErrorBox: (title, content) => errorBoxes.push({ title, content }),
      showMessageBox: async (options) => {
        messageBoxes.push(options);
        return { response: messageBoxAnswers.shift() ?? 0 };
      },
    },
  };
  return {
    ports,
    app,
    ipcMain,
    session,
    safeStorage,
    windows,
    schemes,
    protocolHandlers,
    openedExternally,
    errorBoxes,
    messageBoxes,
    messageBoxAnswers,
    menus,
  };
}
