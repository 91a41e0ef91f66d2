/**
 * Window and session hardening for the Electron shell, as functions over the narrow ports of
 * ports.ts so that tests can drive them with fakes: sandboxed, context-isolated renderer; a CSP; no
 * navigation away from the app; no new windows; no permissions; the renderer served from its own
 * privileged scheme.
 *
 * Why `app://tillgate/` rather than `loadFile`: every file:// page shares one origin, so an IPC
 * sender check could not tell our renderer from any other local HTML file, and file:// pages may
 * read other local files. A standard, secure custom scheme gives the renderer a real origin of its
 * own (checked by the IPC guard and the navigation guard), serves only files under renderer/dist,
 * lets Vite's absolute asset paths (/assets/...) resolve, and puts the CSP on every response
 * (Electron's security checklist, item "Use a custom protocol instead of file://").
 */
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import type {
  HeadersReceivedDetails,
  HeadersReceivedResponse,
  SchemePrivileges,
  SecureWebPreferences,
  SessionPort,
  WebContentsPort,
  WindowOptions,
} from './ports.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'tillgate';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The renderer is built with Vite's base `/app/` (the path the headless host serves it at), so the
 * app scheme serves the same paths: `app://tillgate/app/...` maps to renderer/dist. */
export const RENDERER_BASE = '/app/';
export const APP_ENTRY_URL = `${APP_ORIGIN}${RENDERER_BASE}index.html`;

/** Privileges of the app scheme: a standard, secure origin; nothing that would weaken the CSP. */
export const APP_SCHEME_PRIVILEGES: SchemePrivileges = Object.freeze({
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: false,
  stream: false,
  bypassCSP: false,
  allowServiceWorkers: false,
});

/** Only the app's own files; no remote origin anywhere. Inline styles match the REST host's CSP. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** True for URLs of the app's own origin (the custom scheme, our host, no port or credentials). */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
}

/** Links the shell hands to the OS browser: https only, without credentials in the URL. */
export function isExternalLink(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'https:' && parsed.username === '' && parsed.password === '';
}

export function secureWebPreferences(preload: string): SecureWebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    preload,
  };
}

export function mainWindowOptions(preload: string): WindowOptions {
  return {
    title: 'Tillgate',
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false, // shown on ready-to-show, so the cashier never sees a blank frame
    backgroundColor: '#ffffff',
    webPreferences: secureWebPreferences(preload),
  };
}

export interface HardeningDeps {
  openExternal(url: string): Promise<void>;
  logger: Pick<PinoLogger, 'warn'>;
}

/**
 * Applied to every web contents the app creates (app `web-contents-created`): navigation stays
 * inside the app origin, new windows are denied (https links go to the OS browser), no <webview>.
 */
export function hardenWebContents(contents: WebContentsPort, deps: HardeningDeps): void {
  const keepInApp = (kind: string) => (event: { url: string; preventDefault(): void }) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    deps.logger.warn({ url: event.url, kind }, 'blocked navigation away from the app');
  };
  contents.on('will-navigate', keepInApp('will-navigate'));
  contents.on('will-frame-navigate', keepInApp('will-frame-navigate'));
  contents.on('will-redirect', keepInApp('will-redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    deps.logger.warn('blocked a <webview>');
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) {
      deps.openExternal(url).catch((error: unknown) => deps.logger.warn({ err: error, url }, 'could not open link in the browser'));
    } else {
      deps.logger.warn({ url }, 'blocked window.open');
    }
    return { action: 'deny' };
  });
}

/** The response headers with our CSP replacing any other (header names are case-insensitive). */
export function withContentSecurityPolicy(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') result[name] = value;
  }
  result['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return result;
}

export function installContentSecurityPolicy(session: SessionPort): void {
  session.webRequest.onHeadersReceived((details: HeadersReceivedDetails, callback: (response: HeadersReceivedResponse) => void) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
}

/** The cashier screen needs no camera, microphone, notifications, geolocation, ...: deny them all. */
export function denyAllPermissions(session: SessionPort, logger: Pick<PinoLogger, 'warn'>): void {
  session.setPermissionRequestHandler((_webContents, permission, callback) => {
    logger.warn({ permission }, 'denied a permission request');
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `rootDir` that an app-scheme URL names, or null when the URL is of another origin
 * or would leave `rootDir` (`..`, encoded `%2e%2e%2f`, backslashes, NUL, absolute paths).
 */
export function resolveAppFile(rootDir: string, url: string): string | null {
  if (!isAppUrl(url)) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const root = resolve(rootDir);
  // Strip the renderer's base path; requests outside it resolve to nothing.
  if (pathname !== '/' && pathname !== RENDERER_BASE.slice(0, -1) && !pathname.startsWith(RENDERER_BASE)) return null;
  const requested = pathname.startsWith(RENDERER_BASE) ? pathname.slice(RENDERER_BASE.length) : '';
  const target = resolve(root, requested === '' ? 'index.html' : requested);
  const inside = relative(root, target);
  if (inside === '' || isAbsolute(inside) || inside === '..' || inside.startsWith(`..${sep}`)) return null;
  return target;
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tillgate</title></head>
<body><h1>Tillgate</h1><p>The payment gateway is running, but the cashier screen has not been built.</p>
<p>Run <code>npm run build:renderer</code> and restart the app.</p></body></html>`;

function textResponse(status: number, body: string, contentType = 'text/plain; charset=utf-8'): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': contentType, 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff' },
  });
}

/**
 * The `protocol.handle` handler of the app scheme: GET/HEAD of files under `rootDir` only, each with
 * the CSP. A path without an extension that names no file gets index.html (client-side routes).
 */
export function createAppProtocolHandler(rootDir: string, logger: Pick<PinoLogger, 'warn'>): (request: Request) => Promise<Response> {
  const entry = resolve(rootDir, 'index.html');
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return textResponse(405, 'Method Not Allowed');
    const file = resolveAppFile(rootDir, request.url);
    if (file === null) {
      logger.warn({ url: request.url }, 'refused an app-scheme request outside the renderer');
      return textResponse(403, 'Forbidden');
    }
    const candidates = extname(file) === '' && file !== entry ? [file, entry] : [file];
    for (const candidate of candidates) {
      let body: Buffer;
      try {
        body = await readFile(candidate);
      } catch {
        continue;
      }
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
        status: 200,
        headers: {
          'Content-Type': contentTypeOf(candidate),
          'Content-Security-Policy': CONTENT_SECURITY_POLICY,
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-cache',
        },
      });
    }
    if (candidates.includes(entry)) {
      logger.warn({ rootDir }, 'renderer not built: serving a placeholder page');
      return textResponse(200, NOT_BUILT_PAGE, 'text/html; charset=utf-8');
    }
    return textResponse(404, 'Not Found');
  };
}
