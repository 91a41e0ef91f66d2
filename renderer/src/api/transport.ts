/**
 * How a call travels to the gateway, and how it fails. Both transports speak the same HTTP
 * contract:
 *
 * - in a browser (the gateway serves this app at /app/), `httpTransport`: same-origin fetch with the
 *   staff session cookie (`credentials: 'same-origin'`), JSON bodies;
 * - inside Electron (`window.tillgate` exists), `bridgeTransport`: the preload bridge's `gateway:api`
 *   channel (main/electron/api-bridge.ts), which hands the request to the embedded gateway; the main
 *   process keeps the staff session token, so the page never holds it.
 *
 * Answers that are not 2xx carry the D3 body `{error_code, message, errors}` and become `ApiError`.
 */
import type { ErrorBody, FieldError } from '../../../contract/api/common.js';
import type { TillgateBridge } from '../../../preload/bridge.js';
import { translate } from '../ui/language.js';
import { apiErrorText } from './error-text.js';

declare global {
  interface Window {
    /** The Electron preload bridge; absent in a plain browser. */
    tillgate?: TillgateBridge;
  }
}

// ---- errors ---------------------------------------------------------------------------------------

/**
 * Why a call failed. `network`: no answer arrived (the request may or may not have reached the
 * gateway); `api`: the gateway answered with a D3 error body (the request did nothing);
 * `unexpected`: an answer this client does not understand.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly kind: 'network' | 'api' | 'unexpected',
    message: string,
    readonly status = 0,
    readonly errorCode = 0,
    readonly errors: readonly FieldError[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

// ---- transport ------------------------------------------------------------------------------------

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path on the gateway, e.g. `/rest/payment`. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds before the call counts as a network failure. */
  timeoutMs?: number;
}

export interface TransportResponse {
  status: number;
  headers: { get(name: string): string | null };
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

/** Carries one request to the gateway. Throws ApiError of kind `network` or `unexpected` only. */
export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Same-origin HTTP with the staff session cookie. */
export function httpTransport(baseUrl = ''): Transport {
  return {
    async send({ method, path, body, headers, timeoutMs }) {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}${path}`, {
          method,
          credentials: 'same-origin',
          cache: 'no-store',
          headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
      } catch {
        throw new ApiError('network', translate('errors.noAnswer'));
      }
      let parsed: unknown;
      const text = await response.text().catch(() => {
        throw new ApiError('network', translate('errors.brokeOff'));
      });
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new ApiError('unexpected', translate('errors.notJson', { status: response.status }), response.status);
        }
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
  };
}

/** Inside Electron: the preload bridge's `gateway:api` channel to the embedded gateway. */
export function bridgeTransport(bridge: TillgateBridge): Transport {
  return {
    async send({ method, path, body, headers, timeoutMs }) {
      let timer: number | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = window.setTimeout(() => reject(new Error('timeout')), timeoutMs ?? DEFAULT_TIMEOUT_MS);
      });
      try {
        const reply = await Promise.race([
          bridge.api({ method, path, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) }),
          timeout,
        ]);
        const replyHeaders = reply.headers ?? {};
        return { status: reply.status, headers: { get: (name) => replyHeaders[name.toLowerCase()] ?? null }, body: reply.body };
      } catch {
        throw new ApiError('network', translate('errors.embedded'));
      } finally {
        window.clearTimeout(timer);
      }
    },
  };
}

/** The transport for where this renderer runs. */
export function defaultTransport(): Transport {
  const bridge = typeof window !== 'undefined' ? window.tillgate : undefined;
  return bridge ? bridgeTransport(bridge) : httpTransport();
}

// ---- answers ------------------------------------------------------------------------------------

/** An error body as it arrived: not trusted to have the contract's shape. */
type ReceivedErrorBody = Partial<Record<keyof ErrorBody, unknown>>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Maps a non-2xx answer with a D3 body to ApiError. */
export function errorOf(response: TransportResponse): ApiError {
  const body: ReceivedErrorBody = isObject(response.body) ? response.body : {};
  const errors = Array.isArray(body.errors)
    ? body.errors.filter(isObject).map((e) => ({ field: String(e.field ?? ''), message: String(e.message ?? '') }))
    : [];
  const retryAfter = Number(response.headers.get('Retry-After'));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  const code = typeof body.error_code === 'number' ? body.error_code : 0;
  const apiMessage =
    typeof body.message === 'string' && body.message ? body.message : translate('errors.http', { status: response.status });
  return new ApiError(
    'api',
    apiErrorText(
      apiMessage,
      code,
      errors.map((e) => e.field),
      retryAfterSeconds,
    ),
    response.status,
    code,
    errors,
    retryAfterSeconds,
  );
}
