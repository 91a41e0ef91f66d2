/**
 * HTTP Basic credentials -> principal (interface.md "Authentication", decisions.md D9).
 * scrypt is deliberately slow, so verified credentials are cached in memory by a SHA-256 of
 * key and password for a few minutes; a source with repeated failures is locked out (4004).
 */
import { createHash } from 'node:crypto';
import { ErrorCode } from '../../../contract/codes.js';
import type { StaffRole } from '../../../contract/constants.js';
import { apiError, type ApiError } from '../errors.js';
import type { Clock, CredentialKind, Store } from '../ports.js';
import { verifyPassword } from './credentials.js';

export interface StaffIdentity {
  id: string;
  login: string;
  displayName: string;
  role: StaffRole;
  sessionId: string;
}

export interface Principal {
  kind: CredentialKind | 'staff';
  /** The API credential, or for staff the session id. */
  credentialId: string;
  merchantId: string | null;
  staff?: StaffIdentity;
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; error: ApiError; retryAfterSeconds?: number };

export interface LockoutPolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

interface FailureWindow {
  count: number;
  firstAt: number;
  lockedUntil: number;
}

const CACHE_TTL_MS = 5 * 60 * 1000;
const CACHE_MAX = 1000;
const SOURCES_MAX = 10000;

export class Authenticator {
  private readonly verified = new Map<string, { principal: Principal; expiresAt: number }>();
  private readonly failures = new Map<string, FailureWindow>();
  /** Verifications under way, so concurrent requests with the same credentials share one scrypt. */
  private readonly inFlight = new Map<string, Promise<Principal | null>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly policy: LockoutPolicy,
  ) {}

  /** The lock-out answer for a source that failed too often, if it is locked now. */
  lockout(source: string): { ok: false; error: ApiError; retryAfterSeconds: number } | undefined {
    const now = this.clock.now().getTime();
    const window = this.failures.get(source);
    if (!window || window.lockedUntil <= now) return undefined;
    return {
      ok: false,
      error: apiError(ErrorCode.rateLimited, 'Too many failed authentication attempts; try again later'),
      retryAfterSeconds: Math.ceil((window.lockedUntil - now) / 1000),
    };
  }

  async authenticate(source: string, apiKey: string, password: string): Promise<AuthResult> {
    const now = this.clock.now().getTime();
    const locked = this.lockout(source);
    if (locked) return locked;

    const cacheKey = createHash('sha256').update(apiKey).update('\0').update(password).digest('base64');
    const cached = this.verified.get(cacheKey);
    if (cached && cached.expiresAt > now) return { ok: true, principal: cached.principal };

    let verification = this.inFlight.get(cacheKey);
    if (!verification) {
      verification = this.verify(apiKey, password).finally(() => this.inFlight.delete(cacheKey));
      this.inFlight.set(cacheKey, verification);
    }
    const principal = await verification;
    if (!principal) {
      this.recordFailure(source, now);
      return { ok: false, error: apiError(ErrorCode.unauthenticated, 'Missing or wrong API credentials') };
    }

    // A success does not clear the source's failures: otherwise one valid key would let the same
    // address keep guessing other merchants' passwords. The window simply runs out.
    if (!this.verified.has(cacheKey) && this.verified.size >= CACHE_MAX) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(cacheKey, { principal, expiresAt: now + CACHE_TTL_MS });
    return { ok: true, principal };
  }

  /** The principal for valid credentials, or null. */
  private async verify(apiKey: string, password: string): Promise<Principal | null> {
    const credential = await this.store.read((r) => r.credentials.findActiveByApiKey(apiKey));
    const valid = credential ? await verifyPassword(password, credential.passwordHash) : false;
    if (!credential || !valid) return null;
    return { kind: credential.kind, credentialId: credential.id, merchantId: credential.merchantId };
  }

  /** Counts a failure that happened before credentials could be checked (e.g. a malformed header). */
  recordFailure(source: string, now = this.clock.now().getTime()): void {
    let window = this.failures.get(source);
    if (!window || now - window.firstAt > this.policy.windowMs) {
      if (this.failures.size >= SOURCES_MAX) this.failures.delete(this.failures.keys().next().value as string);
      window = { count: 0, firstAt: now, lockedUntil: 0 };
      this.failures.set(source, window);
    }
    window.count += 1;
    if (window.count >= this.policy.maxFailures) window.lockedUntil = now + this.policy.lockMs;
  }

  /** Forget cached verifications, e.g. after credentials were rotated in this process. */
  forgetCache(): void {
    this.verified.clear();
  }
}
