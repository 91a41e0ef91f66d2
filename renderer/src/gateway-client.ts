/**
 * The shell's health check: GET /health in a browser, the bridge's `gateway:health` channel inside
 * Electron. Everything else goes through the per-feature clients (<feature>/<feature>-client.ts over api/call.ts).
 */

import { translate } from './ui/language.js';

export interface GatewayHealth {
  status: 'ok';
  version: string;
}

/** Why a health check failed, in words a shop owner can act on. */
export type HealthFailure =
  { kind: 'unreachable'; message: string } | { kind: 'http'; status: number; message: string } | { kind: 'unexpected'; message: string };

export type HealthResult = { ok: true; health: GatewayHealth } | { ok: false; failure: HealthFailure };

const HEALTH_TIMEOUT_MS = 10_000;

function isGatewayHealth(body: unknown): body is GatewayHealth {
  if (typeof body !== 'object' || body === null) return false;
  const { status, version } = body as Record<string, unknown>;
  return status === 'ok' && typeof version === 'string' && version.length > 0;
}

/** Asks the gateway at baseUrl whether it runs. Never throws: a failure is a value. */
export async function fetchHealth(baseUrl: string): Promise<HealthResult> {
  let response: Response;
  try {
    response = await fetch(new URL('/health', baseUrl), {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, failure: { kind: 'unreachable', message: translate('errors.unreachable', { address: baseUrl }) } };
  }
  if (!response.ok) {
    return {
      ok: false,
      failure: { kind: 'http', status: response.status, message: translate('errors.healthHttp', { status: response.status }) },
    };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, failure: { kind: 'unexpected', message: translate('errors.healthNotJson') } };
  }
  if (!isGatewayHealth(body)) {
    return { ok: false, failure: { kind: 'unexpected', message: translate('errors.healthNotUnderstood') } };
  }
  return { ok: true, health: body };
}

/** Inside Electron: asks the main process through the preload bridge. Never throws. */
export async function fetchHealthViaBridge(): Promise<HealthResult> {
  const bridge = window.tillgate;
  if (!bridge) return { ok: false, failure: { kind: 'unreachable', message: translate('errors.bridgeMissing') } };
  try {
    const body: unknown = await bridge.invoke('gateway:health');
    if (!isGatewayHealth(body)) {
      return { ok: false, failure: { kind: 'unexpected', message: translate('errors.healthNotUnderstood') } };
    }
    return { ok: true, health: body };
  } catch {
    return { ok: false, failure: { kind: 'unreachable', message: translate('errors.embeddedHealth') } };
  }
}
