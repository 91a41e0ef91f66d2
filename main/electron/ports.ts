/**
 * The part of Electron's API the shell uses, as narrow structural types. main.ts passes the real
 * `electron` module (tsconfig.electron.json checks that it fits); tests pass fakes. Nothing here
 * imports 'electron', so tests and the plain-Node type-check can load every module that uses these.
 */

/** An event whose default action a listener may cancel (Electron's `Event`). */
export interface PreventableEvent {
  preventDefault(): void;
}

export interface NavigationEvent extends PreventableEvent {
  url: string;
}

/** A frame as the main process sees it (Electron's `WebFrameMain`). */
export interface FramePort {
  readonly url: string;
  readonly parent: FramePort | null;
}

/** What `webContents.setWindowOpenHandler` may answer; the shell answers only `deny`. */
export interface WindowOpenDecision {
  action: 'deny';
}

export interface WebContentsPort {
  readonly id: number;
  on(event: 'will-navigate', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-frame-navigate', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-redirect', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenDecision): void;
}

export interface WindowPort {
  readonly webContents: WebContentsPort;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
}

export interface SecureWebPreferences {
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  navigateOnDragDrop: false;
  spellcheck: false;
  preload: string;
}

export interface WindowOptions {
  title: string;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  backgroundColor: string;
  webPreferences: SecureWebPreferences;
}

export type WindowConstructor = new (options: WindowOptions) => WindowPort;

export interface IpcInvokeEvent {
  readonly sender: { readonly id: number };
  readonly senderFrame: FramePort | null;
}

export interface IpcMainPort {
  handle(channel: string, listener: (event: IpcInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface HeadersReceivedDetails {
  url: string;
  responseHeaders?: Record<string, string[]>;
}

export interface HeadersReceivedResponse {
  responseHeaders?: Record<string, string | string[]>;
}

export interface SessionPort {
  webRequest: {
    onHeadersReceived(listener: (details: HeadersReceivedDetails, callback: (response: HeadersReceivedResponse) => void) => void): void;
  };
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
}

export interface SchemePrivileges {
  standard: boolean;
  secure: boolean;
  supportFetchAPI: boolean;
  corsEnabled: boolean;
  stream: boolean;
  bypassCSP: boolean;
  allowServiceWorkers: boolean;
}

export interface ProtocolPort {
  registerSchemesAsPrivileged(schemes: Array<{ scheme: string; privileges: SchemePrivileges }>): void;
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

/** Electron's `safeStorage`: encryption under the OS keychain (DPAPI, Keychain, libsecret/kwallet). */
export interface SafeStoragePort {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: `basic_text` means no keyring was found (a fixed password, not real protection). */
  getSelectedStorageBackend?(): string;
}

export type MenuRole =
  'undo' | 'redo' | 'cut' | 'copy' | 'paste' | 'selectAll' | 'quit' | 'about' | 'hide' | 'hideOthers' | 'unhide' | 'services';

export interface MenuItemTemplate {
  label?: string;
  role?: MenuRole;
  type?: 'separator';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuItemTemplate[];
}

/** A built menu; the shell only hands it back to `Menu.setApplicationMenu`. */
export type MenuPort = object;

export interface AppPort {
  readonly isPackaged: boolean;
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<unknown>;
  getPath(name: 'appData' | 'userData'): string;
  setPath(name: 'userData' | 'sessionData', path: string): void;
  enableSandbox(): void;
  quit(): void;
  exit(exitCode?: number): void;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsPort) => void): unknown;
}

/** Options of `dialog.showMessageBox` the shell uses. */
export interface MessageBoxOptions {
  type?: 'none' | 'info' | 'error' | 'question' | 'warning';
  title?: string;
  message: string;
  detail?: string;
  buttons?: string[];
  defaultId?: number;
  /** The button that closing the box (Esc) stands for. */
  cancelId?: number;
  noLink?: boolean;
}

/** Everything the shell takes from the `electron` module. */
export interface ElectronPorts {
  app: AppPort;
  BrowserWindow: WindowConstructor;
  ipcMain: IpcMainPort;
  protocol: ProtocolPort;
  /** Read `defaultSession` only after `ready`: Electron throws before. */
  session: { readonly defaultSession: SessionPort };
  safeStorage: SafeStoragePort;
  shell: { openExternal(url: string): Promise<void> };
  Menu: { buildFromTemplate(template: MenuItemTemplate[]): MenuPort; setApplicationMenu(menu: MenuPort | null): void };
  dialog: {
    showErrorBox(title: string, content: string): void;
    /** Resolves with the index of the button clicked. */
    showMessageBox(options: MessageBoxOptions): Promise<{ response: number }>;
  };
}
