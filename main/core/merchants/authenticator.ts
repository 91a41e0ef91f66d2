/**
 * HTTP Basic credentials -> principal (interface.md "Authentication", decisions.md D9).
 * scrypt is deliberately slow, so verified credentials are cached in memory by a SHA-256 of
 * key and password for a few minutes. Repeated failures lock out a bucket (credential + source, or
 * source for unknown keys; staff logins per login) with 4004; an attempt takes its slot before the
 * slow check, so parallel guesses cannot get round the limit.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode } from '../../../contract/codes.js';
import type { StaffRole } from '../../../contract/constants.js';
import { apiError, type ApiError } from '../errors.js';
import type { Clock, CredentialKind, Store } from '../ports.js';
import { hashPassword, verifyPassword } from './credentials.js';

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
  /** A partner credential's partner (merchant management, decisions.md D15). */
  partnerId?: string;
  staff?: StaffIdentity;
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; error: ApiError; retryAfterSeconds?: number };

export interface LockoutPolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

interface FailureWindow {
  /** Failed attempts in this window. */
  count: number;
  /** Attempts being verified right now: they count toward the limit until they end. */
  pending: number;
  firstAt: number;
  lockedUntil: number;
}

const CACHE_TTL_MS = 5 * 60 * 1000;
const CACHE_MAX = 1000;
const SOURCES_MAX = 10000;

/** The lock-out bucket of credentials the gateway does not know (and of malformed headers). */
const UNKNOWN = '\0unknown';

/** One slot of a lock-out bucket, taken before a slow check and given back with its outcome. */
export interface Attempt {
  /** The check failed: counts toward the lock-out. */
  failed(): void;
  /** The check succeeded: the slot is free again. */
  succeeded(): void;
}

export type AttemptStart = { ok: true; attempt: Attempt } | { ok: false; error: ApiError; retryAfterSeconds: number };

export class Authenticator {
  private readonly verified = new Map<string, { principal: Principal; expiresAt: number }>();
  private readonly failures = new Map<string, FailureWindow>();
  /** Verifications under way, so concurrent requests with the same credentials share one scrypt. */
  private readonly inFlight = new Map<string, Promise<{ bucket: string; result: AuthResult }>>();
  /** Credentials revoked while this process runs: never answered from the cache or a check under way. */
  private readonly revoked = new Set<string>();
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly policy: LockoutPolicy,
  ) {}

  /** The lock-out answer for a bucket that failed too often, if it is locked now. */
  lockout(bucket: string): { ok: false; error: ApiError; retryAfterSeconds: number } | undefined {
    const now = this.clock.now().getTime();
    const window = this.failures.get(bucket);
    if (!window || window.lockedUntil <= now) return undefined;
    return this.locked(Math.ceil((window.lockedUntil - now) / 1000));
  }

  private locked(retryAfterSeconds: number): { ok: false; error: ApiError; retryAfterSeconds: number } {
    return { ok: false, error: apiError(ErrorCode.rateLimited, 'Too many failed authentication attempts; try again later'), retryAfterSeconds: Math.max(1, retryAfterSeconds) };
  }

  /**
   * Takes a slot of the bucket before the slow check, so that however many guesses arrive at once,
   * at most the limit is ever checked per window; the rest answer 429 at once. A locked bucket stays
   * locked for its whole time, whatever is sent.
   */
  begin(bucket: string): AttemptStart {
    const now = this.clock.now().getTime();
    const locked = this.lockout(bucket);
    if (locked) return locked;
    let window = this.failures.get(bucket);
    // A new window once the old one ran out, or once its lock is over (never while one is checked).
    const over = window && window.pending === 0 && (now - window.firstAt > this.policy.windowMs || (window.lockedUntil !== 0 && window.lockedUntil <= now));
    if (!window || over) {
      if (!window && this.failures.size >= SOURCES_MAX) this.evictOne(now);
      window = { count: 0, pending: 0, firstAt: now, lockedUntil: 0 };
      this.failures.set(bucket, window);
    }
    // The limit is taken up by attempts still being checked: they end within moments.
    if (window.count + window.pending >= this.policy.maxFailures) return this.locked(1);
    const current = window;
    current.pending += 1;
    let done = false;
    const end = (failed: boolean) => {
      if (done) return;
      done = true;
      current.pending -= 1;
      if (!failed) return;
      current.count += 1;
      if (current.count >= this.policy.maxFailures) current.lockedUntil = this.clock.now().getTime() + this.policy.lockMs;
    };
    return { ok: true, attempt: { failed: () => end(true), succeeded: () => end(false) } };
  }

  /** Drops one bucket that is neither locked nor in use (the map is bounded). */
  private evictOne(now: number): void {
    for (const [key, window] of this.failures) {
      if (window.pending === 0 && window.lockedUntil <= now) {
        this.failures.delete(key);
        return;
      }
    }
  }

  /**
   * Basic credentials from `source`. Failures are counted per credential and source (per source for
   * keys the gateway does not know): one misconfigured POS program cannot lock out another that
   * calls from the same address, while guessing stays bounded for each key.
   */
  async authenticate(source: string, apiKey: string, password: string): Promise<AuthResult> {
    const now = this.clock.now().getTime();
    const cacheKey = createHash('sha256').update(apiKey).update('\0').update(password).digest('base64');
    const cached = this.verified.get(cacheKey);
    if (cached && this.revoked.has(cached.principal.credentialId)) this.verified.delete(cacheKey);
    else if (cached && cached.expiresAt > now) {
      const locked = this.lockout(`${source}\0${cached.principal.credentialId}`);
      return locked ?? { ok: true, principal: cached.principal };
    }
    // The same guess already being checked (a burst of connections) is not another guess: it waits
    // for that check instead of taking a slot or starting another scrypt.
    const joined = this.inFlight.get(cacheKey);
    const check = joined ?? this.check(cacheKey, source, apiKey, password).finally(() => this.inFlight.delete(cacheKey));
    if (!joined) this.inFlight.set(cacheKey, check);
    const { bucket, result } = await check;
    if (!joined) return result;
    if (result.ok) return this.lockout(bucket) ?? result;
    if ('retryAfterSeconds' in result && result.retryAfterSeconds !== undefined) return result;
    // A joined request with the same wrong password still counts as a failed request of its bucket.
    const locked = this.lockout(bucket);
    if (locked) return locked;
    this.recordFailure(bucket);
    return result;
  }

  /** One check of a key and password: the bucket's slot first, then the slow scrypt. */
  private async check(cacheKey: string, source: string, apiKey: string, password: string): Promise<{ bucket: string; result: AuthResult }> {
    const credential = await this.store.read((r) => r.credentials.findActiveByApiKey(apiKey));
    const bucket = `${source}\0${credential?.id ?? UNKNOWN}`;
    const start = this.begin(bucket);
    if (!start.ok) return { bucket, result: start };
    // An unknown key costs the same scrypt work as a wrong password, so timing tells nothing.
    const valid = await verifyPassword(password, credential?.passwordHash ?? (await this.dummyHash()));
    if (!valid || !credential) {
      start.attempt.failed();
      return { bucket, result: { ok: false, error: apiError(ErrorCode.unauthenticated, 'Missing or wrong API credentials') } };
    }
    start.attempt.succeeded();
    // Revoked while the password was being checked: the revocation wins.
    if (this.revoked.has(credential.id)) return { bucket, result: { ok: false, error: apiError(ErrorCode.unauthenticated, 'Missing or wrong API credentials') } };
    const principal: Principal = {
      kind: credential.kind,
      credentialId: credential.id,
      merchantId: credential.merchantId,
      ...(credential.partnerId ? { partnerId: credential.partnerId } : {}),
    };
    // A success does not clear the bucket's failures: the window simply runs out.
    if (this.verified.size >= CACHE_MAX) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(cacheKey, { principal, expiresAt: this.clock.now().getTime() + CACHE_TTL_MS });
    return { bucket, result: { ok: true, principal } };
  }

  /** The bucket of a request whose credentials could not even be read (a malformed header). */
  unknownBucket(source: string): string {
    return `${source}\0${UNKNOWN}`;
  }

  /** Counts a failure of a bucket outside begin() (e.g. a malformed header). Never shortens a lock. */
  recordFailure(bucket: string): void {
    const start = this.begin(bucket);
    if (start.ok) start.attempt.failed();
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= hashPassword(randomBytes(16).toString('base64'));
    return this.dummy;
  }

  /** Forget cached verifications, e.g. after credentials were rotated or revoked in this process. */
  forgetCache(): void {
    this.verified.clear();
  }

  /**
   * A credential was revoked: its cached verifications go at once, and a check of it already under
   * way answers 401, so the next request with it is refused (decisions.md "Back office: settings").
   */
  forgetCredential(credentialId: string): void {
    this.revoked.add(credentialId);
    for (const [key, entry] of this.verified) if (entry.principal.credentialId === credentialId) this.verified.delete(key);
  }

  /** The revocation of a credential was not stored after all (its unit of work failed). */
  keepCredential(credentialId: string): void {
    this.revoked.delete(credentialId);
  }
}
