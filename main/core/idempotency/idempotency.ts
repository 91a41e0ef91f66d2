/**
 * Idempotency keys for POST requests (interface.md "Authentication" 5, decisions.md D8).
 * Scope: merchant + key. The stored reply is written in the same unit of work as the state change
 * it answers (see Operations), so a payment and its idempotency record commit together or not at
 * all. Keys in flight are tracked in this process: the SQLite host has exactly one writer process.
 */
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import { apiError, ErrorCode, fieldError, type ApiError, type Reply } from '../errors.js';
import type { Clock, Store } from '../ports.js';

// The package is CommonJS (module.exports = fn) but its types declare an ES default export.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

export const IDEMPOTENCY_KEY_MAX = 255;
export const DEFAULT_RETENTION_MS = 60 * 60 * 1000;
export const MAX_RETENTION_MS = 31 * 24 * 60 * 60 * 1000;

export interface IdempotencyScope {
  merchantId: string;
  key: string;
  fingerprint: string;
}

export type IdempotencyStart =
  | { kind: 'replay'; reply: Reply }
  | { kind: 'reject'; error: ApiError }
  | { kind: 'proceed'; scope: IdempotencyScope; release: () => void };

export function requestFingerprint(method: string, path: string, body: unknown): string {
  const canonical = canonicalize(body ?? null) ?? 'null';
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n`).update(canonical).digest('hex');
}

export function checkIdempotencyKey(key: string, header: string): ApiError | undefined {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    return fieldError(header, `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  if (!/^[\x21-\x7e]+$/.test(key)) return fieldError(header, 'must be printable ASCII without spaces');
  return undefined;
}

export class Idempotency {
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    readonly retentionMs: number,
  ) {}

  async start(merchantId: string, key: string, fingerprint: string): Promise<IdempotencyStart> {
    const slot = `${merchantId}\0${key}`;
    if (this.inFlight.has(slot)) {
      return { kind: 'reject', error: apiError(ErrorCode.idempotencyInFlight, 'A request with this idempotency key is still being processed') };
    }
    const now = this.clock.now().toISOString();
    const stored = await this.store.read((r) => r.idempotency.find(merchantId, key, now));
    // Another request with the key may have started while we read.
    if (this.inFlight.has(slot)) {
      return { kind: 'reject', error: apiError(ErrorCode.idempotencyInFlight, 'A request with this idempotency key is still being processed') };
    }
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        return {
          kind: 'reject',
          error: apiError(ErrorCode.idempotencyMismatch, 'This idempotency key was already used with a different request', [
            { field: 'Idempotency-Key', message: 'was used for a different method, path or body' },
          ]),
        };
      }
      return { kind: 'replay', reply: stored.reply };
    }
    this.inFlight.add(slot);
    return { kind: 'proceed', scope: { merchantId, key, fingerprint }, release: () => this.inFlight.delete(slot) };
  }

  record(scope: IdempotencyScope, reply: Reply) {
    const now = this.clock.now();
    return {
      merchantId: scope.merchantId,
      key: scope.key,
      fingerprint: scope.fingerprint,
      reply,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.retentionMs).toISOString(),
    };
  }

  async purgeExpired(): Promise<number> {
    const now = this.clock.now().toISOString();
    return this.store.run((tx) => tx.idempotency.deleteExpired(now));
  }
}

const NOT_STORED: ReadonlySet<number> = new Set([ErrorCode.validation, ErrorCode.processor, ErrorCode.internal]);

/**
 * Replies that are never stored: the request was rejected before anything was processed
 * (validation), or nothing happened because the processor or the gateway failed; a retry with the
 * same key must be able to do the work.
 */
export function isStorable(reply: Reply): boolean {
  const body = reply.body as { error_code?: number } | null;
  return !(reply.status >= 400 && body?.error_code !== undefined && NOT_STORED.has(body.error_code));
}
