/**
 * The desktop window's door to the gateway API: a `gateway:api` request from the renderer goes to
 * the same Fastify app as the REST listener through `inject()`, so the desktop and the browser UI
 * speak one HTTP contract and nothing crosses the network.
 *
 * The staff session token never reaches the page. When `POST /ui/session` answers with the session
 * cookie, the token is kept here, per web contents, and Set-Cookie is stripped from the reply; later
 * requests of that web contents carry it as `Authorization: Bearer`. It is forgotten on logout, on a
 * 401 that says the session ended, and when the window closes (the shell calls `forget`).
 *
 * What the page may send is narrowed first: paths under /rest/ and /ui/ and /health only, and of its
 * headers only the four the API reads from a client; Authorization and Cookie never pass.
 */
import { OPERATIONS } from '../../contract/operation-table.js';
import { SESSION_COOKIE } from '../http/api-context.js';
import type { ApiMethod, ApiReply, ApiRequest } from './channels.js';

export const API_METHODS: readonly ApiMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Path prefixes the page may call; `/health` is allowed as it is. Areas of the API, not operations. */
// eslint-disable-next-line no-restricted-syntax -- the bridge admits whole areas (every /rest and /ui operation), not one operation's path
export const API_PATH_PREFIXES = ['/rest/', '/ui/'] as const;
export const API_HEALTH_PATH = '/health';
/** Request headers taken from the page (lower case); everything else is dropped. */
export const FORWARDED_REQUEST_HEADERS: readonly string[] = ['content-type', 'idempotency-key', 'x-idempotency-key', 'x-manager-approval'];
/** Response headers handed back to the page; never Set-Cookie. The export's part headers let the desktop window export in parts. */
export const RETURNED_RESPONSE_HEADERS: readonly string[] = [
  'content-type',
  'retry-after',
  'idempotent-replayed',
  'x-request-id',
  'x-total-count',
  'x-next-starting-after',
];
const MAX_PATH_LENGTH = 2048;
/** Where the page logs in (POST) and out (DELETE): the bridge keeps the session cookie itself. */
const SESSION_PATH = OPERATIONS['staff.login'].path;

/** What the bridge hands to `inject()`; a subset of light-my-request's options. */
export interface BridgeInjectRequest {
  method: ApiMethod;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** What the bridge reads of an `inject()` answer. */
export interface BridgeInjectResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

export type InjectFunction = (request: BridgeInjectRequest) => Promise<BridgeInjectResponse>;

function refusal(field: string, message: string): ApiReply {
  return {
    status: 400,
    body: { error_code: 1001, message: `Invalid request: ${field} ${message}`, errors: [{ field, message }] },
    headers: { 'content-type': 'application/json; charset=utf-8' },
  };
}

/** Why a path may not be called through the bridge, or undefined when it may. */
export function apiPathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path.length === 0) return 'must be a path';
  if (path.length > MAX_PATH_LENGTH) return `must be at most ${MAX_PATH_LENGTH} characters`;
  // Printable ASCII only: no spaces, backslashes, control characters or fragments.
  if (!/^\/[\x21-\x7e]*$/.test(path) || /[\\#]/.test(path)) return 'must be an absolute path of printable ASCII';
  const pathname = path.split('?')[0] ?? '';
  let segments: string[];
  try {
    segments = pathname.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return 'has a malformed escape';
  }
  // No way out of the allowed prefixes: no dot segments, no encoded slashes, no empty segments.
  if (
    segments
      .slice(1)
      .some((segment, i) => segment === '.' || segment === '..' || /[/\\]/.test(segment) || (segment === '' && i < segments.length - 2))
  ) {
    return 'must not contain empty, dot or encoded-slash segments';
  }
  if (pathname === API_HEALTH_PATH || API_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix) && pathname.length > prefix.length))
    return undefined;
  return 'must be under /rest/ or /ui/, or /health';
}

/** The page's headers that may pass, with lower-case names; anything else is dropped. */
export function forwardedHeaders(headers: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return result;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    // Visible ASCII and spaces only: nothing that could split a header.
    if (FORWARDED_REQUEST_HEADERS.includes(lower) && typeof value === 'string' && /^[\x20-\x7e]{1,1024}$/.test(value))
      result[lower] = value;
  }
  return result;
}

function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The session token a response's Set-Cookie carries, if it sets a non-empty session cookie. */
export function sessionTokenOf(setCookie: unknown): string | undefined {
  const cookies = Array.isArray(setCookie) ? setCookie : [setCookie];
  for (const cookie of cookies) {
    if (typeof cookie !== 'string' || !cookie.startsWith(`${SESSION_COOKIE}=`)) continue;
    const value = cookie
      .slice(SESSION_COOKIE.length + 1)
      .split(';')[0]
      ?.trim();
    if (value) return value;
  }
  return undefined;
}

function replyOf(response: BridgeInjectResponse): ApiReply {
  const headers: Record<string, string> = {};
  for (const name of RETURNED_RESPONSE_HEADERS) {
    const value = headerText(response.headers[name]);
    if (value !== undefined) headers[name] = value;
  }
  let body: unknown;
  if (response.body !== '') {
    body = response.body;
    if (/\bjson\b/i.test(headers['content-type'] ?? '')) {
      try {
        body = JSON.parse(response.body);
      } catch {
        // Not JSON after all: the page gets the text.
      }
    }
  }
  return { status: response.statusCode, body, headers };
}

export class ApiBridge {
  /** Session token per web contents id; only in this process's memory. */
  private readonly tokens = new Map<number, string>();

  constructor(private readonly inject: InjectFunction) {}

  /** True while the web contents has a staff session here (for tests and diagnostics). */
  hasSession(senderId: number): boolean {
    return this.tokens.has(senderId);
  }

  /** Drops the session of a web contents (its window closed). */
  forget(senderId: number): void {
    this.tokens.delete(senderId);
  }

  /** Runs one API request of the page in web contents `senderId`; refusals and API errors are values. */
  async forward(senderId: number, payload: unknown): Promise<ApiReply> {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return refusal('request', 'must be an object');
    const request = payload as Partial<Record<keyof ApiRequest, unknown>>;
    if (typeof request.method !== 'string' || !(API_METHODS as readonly string[]).includes(request.method)) {
      return refusal('method', `must be one of ${API_METHODS.join(', ')}`);
    }
    const method = request.method as ApiMethod;
    const pathProblem = apiPathProblem(request.path);
    if (pathProblem) return refusal('path', pathProblem);
    const path = request.path as string;
    const pathname = path.split('?')[0] ?? path;

    const headers = forwardedHeaders(request.headers);
    let body: string | undefined;
    if (request.body !== undefined) {
      try {
        body = JSON.stringify(request.body);
      } catch {
        return refusal('body', 'must be JSON');
      }
      headers['content-type'] ??= 'application/json';
    }

    const isLogin = method === 'POST' && pathname === SESSION_PATH;
    const isLogout = method === 'DELETE' && pathname === SESSION_PATH;
    const token = this.tokens.get(senderId);
    if (token && !isLogin && pathname !== API_HEALTH_PATH) headers.authorization = `Bearer ${token}`;

    const response = await this.inject({ method, url: path, headers, ...(body !== undefined ? { payload: body } : {}) });

    if (isLogin) {
      const fresh = response.statusCode === 200 ? sessionTokenOf(response.headers['set-cookie']) : undefined;
      if (fresh) {
        this.tokens.set(senderId, fresh);
        // Another staff member took over the till: the previous session ends now, not after 30 minutes.
        if (token && token !== fresh) await this.revoke(token);
      } else if (response.statusCode === 401) {
        this.forgetIfCurrent(senderId, token);
      }
    } else if (isLogout) {
      this.forgetIfCurrent(senderId, token);
    } else if (response.statusCode === 401 && token) {
      // Outside the login, a 401 always means this session ended (a refused approval is a 403).
      this.forgetIfCurrent(senderId, token);
    }
    return replyOf(response);
  }

  /** Forgets only the token a request used: a login that raced ahead keeps its new session. */
  private forgetIfCurrent(senderId: number, token: string | undefined): void {
    if (token !== undefined && this.tokens.get(senderId) === token) this.tokens.delete(senderId);
  }

  private async revoke(token: string): Promise<void> {
    await this.inject({ method: 'DELETE', url: SESSION_PATH, headers: { authorization: `Bearer ${token}` } });
  }
}
