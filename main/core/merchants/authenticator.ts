/**
 * HTTP Basic credentials -> principal (docs/api.md "Authentication", docs/decisions.md "Foundation"
 * and "Lock-out, credential cache and manager approvals across instances (issue 19)").
 *
 * Repeated failures lock out a bucket (credential + source, or source for unknown keys; staff logins
 * per login) with 4004. The counters live in the database (`auth_failures`), so every instance on it
 * counts toward one limit: an attempt takes its slot before the slow check, in one conditional
 * upsert that counts it as a failure up front (a success gives the slot back), so parallel guesses,
 * on one instance or several, cannot get round the limit, and a crash mid-check leaves a counted
 * failure.
 *
 * scrypt is deliberately slow, so verified credentials are cached in this process by a SHA-256 of key
 * and password for a few minutes. A cache hit writes nothing; at most every RECHECK_MS it reads
 * again whether the credential was revoked and whether its bucket was locked, on any instance. A
 * wrong password is never cached: every guess goes to the database.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode } from '../../../contract/codes.js';
import type { StaffRole } from '../../../contract/constants.js';
import { apiError, type ApiError } from '../errors.js';
import type { AuthFailureRecord, CredentialKind, MerchantsUnit } from './ports.js';
import type { Clock } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
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

const CACHE_TTL_MS = 5 * 60 * 1000;
const CACHE_MAX = 1000;
const SOURCES_MAX = 10000;

/**
 * How long a cached verification is answered without looking at the database again: a credential
 * revoked on another instance, or a bucket locked there, reaches this instance's cached credentials
 * within this time (decisions.md). On the instance that revoked, at once.
 */
export const RECHECK_MS = 1000;

/** The lock-out bucket of an API credential used from `source`. */
function apiBucket(source: string, credentialId: string): string {
  return `api ${source} ${credentialId}`;
}

/** The marker of credentials the gateway does not know (and of malformed headers) in a bucket. */
const UNKNOWN = '*';

interface Verified {
  principal: Principal;
  expiresAt: number;
  /** When the database last said the credential is active. */
  checkedAt: number;
}

/** What this instance last read of a bucket, and when. */
interface BucketView {
  lockedUntil: number;
  seenAt: number;
}

/** One slot of a lock-out bucket, taken before a slow check and given back with its outcome. */
export interface Attempt {
  /** The check failed: the slot stays counted. */
  failed(): void;
  /** The check succeeded: the slot is given back. */
  succeeded(): Promise<void>;
}

export type Locked = { ok: false; error: ApiError; retryAfterSeconds: number };
export type AttemptStart = { ok: true; attempt: Attempt } | Locked;

const iso = (ms: number) => new Date(ms).toISOString();

export class Authenticator {
  private readonly verified = new Map<string, Verified>();
  /** The buckets this instance touched or read lately: answers a cached credential's lock-out between rechecks. */
  private readonly seen = new Map<string, BucketView>();
  /** Verifications under way, so concurrent requests with the same credentials share one scrypt. */
  private readonly inFlight = new Map<string, Promise<{ bucket: string; result: AuthResult }>>();
  /** Rechecks of cached verifications under way, so a burst on a stale entry reads once. */
  private readonly rechecks = new Map<string, Promise<boolean>>();
  /** Credentials revoked through this instance: a check of one already under way answers 401. */
  private readonly revoked = new Set<string>();
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly store: Store<MerchantsUnit>,
    private readonly clock: Clock,
    private readonly policy: LockoutPolicy,
  ) {}

  /** The lock-out answer for a bucket that failed too often, if it is locked now (read from the database). */
  async lockout(bucket: string): Promise<Locked | undefined> {
    const now = this.clock.now().getTime();
    this.see(bucket, await this.store.read((r) => r.authFailures.get(bucket)), now);
    return this.lockedAt(bucket, now);
  }

  private locked(retryAfterSeconds: number): Locked {
    return {
      ok: false,
      error: apiError(ErrorCode.rateLimited, 'Too many failed authentication attempts; try again later'),
      retryAfterSeconds: Math.max(1, retryAfterSeconds),
    };
  }

  /** The lock-out answer from what this instance last saw of the bucket. */
  private lockedAt(bucket: string, now: number): Locked | undefined {
    const view = this.seen.get(bucket);
    return view && view.lockedUntil > now ? this.locked(Math.ceil((view.lockedUntil - now) / 1000)) : undefined;
  }

  private see(bucket: string, row: AuthFailureRecord | undefined, now: number): void {
    if (!this.seen.has(bucket) && this.seen.size >= SOURCES_MAX) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(bucket, { lockedUntil: row?.lockedUntil ? Date.parse(row.lockedUntil) : 0, seenAt: now });
  }

  /**
   * Takes a slot of the bucket before the slow check, in the database, so that however many guesses
   * arrive at once at however many instances, at most the limit is ever checked per window; the rest
   * answer 429 at once. The slot counts as a failure until the check gives it back; the bucket locks
   * when its slots reach the limit. A locked bucket stays locked for its whole time, whatever is sent.
   */
  async begin(bucket: string): Promise<AttemptStart> {
    const now = this.clock.now().getTime();
    const { maxFailures, windowMs, lockMs } = this.policy;
    const taken = await this.store.runAtomic(async (tx) => {
      const slot = await tx.authFailures.take(bucket, iso(now), iso(now - windowMs), maxFailures, iso(now + lockMs));
      return { slot, current: slot ?? (await tx.authFailures.get(bucket)) };
    });
    const slot = taken.slot;
    if (!slot) {
      this.see(bucket, taken.current, now);
      return this.lockedAt(bucket, now) ?? this.locked(1);
    }
    this.see(bucket, slot, now);
    let done = false;
    return {
      ok: true,
      attempt: {
        failed: () => {
          done = true;
        },
        succeeded: async () => {
          if (done) return;
          done = true;
          const row = await this.store.runAtomic((tx) => tx.authFailures.giveBack(bucket, slot.windowStart, maxFailures));
          if (row) this.see(bucket, row, this.clock.now().getTime());
        },
      },
    };
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
    if (cached && (this.revoked.has(cached.principal.credentialId) || cached.expiresAt <= now)) this.verified.delete(cacheKey);
    else if (cached) {
      const bucket = apiBucket(source, cached.principal.credentialId);
      if (await this.recheck(cacheKey, cached, bucket, now)) return this.lockedAt(bucket, now) ?? { ok: true, principal: cached.principal };
    }
    // The same guess already being checked (a burst of connections) is not another guess: it waits
    // for that check instead of starting another scrypt, and still counts as a request of its bucket.
    const joined = this.inFlight.get(cacheKey);
    const check = joined ?? this.check(cacheKey, source, apiKey, password).finally(() => this.inFlight.delete(cacheKey));
    if (!joined) this.inFlight.set(cacheKey, check);
    const { bucket, result } = await check;
    if (!joined) return result;
    if (result.ok) return this.lockedAt(bucket, this.clock.now().getTime()) ?? result;
    if ('retryAfterSeconds' in result && result.retryAfterSeconds !== undefined) return result;
    return (await this.recordFailure(bucket)) ?? result;
  }

  /**
   * A cached verification is answered from memory for RECHECK_MS; then one read asks the database
   * whether the credential is still active and whether its bucket is locked (by any instance).
   * False when the credential was revoked meanwhile (its cached verifications go).
   */
  private recheck(cacheKey: string, entry: Verified, bucket: string, now: number): Promise<boolean> | true {
    const view = this.seen.get(bucket);
    if (now - entry.checkedAt < RECHECK_MS && view && now - view.seenAt < RECHECK_MS) return true;
    const key = `${cacheKey} ${bucket}`;
    let running = this.rechecks.get(key);
    if (!running) {
      const id = entry.principal.credentialId;
      running = this.store
        .read(async (r) => ({ credential: await r.credentials.get(id), failures: await r.authFailures.get(bucket) }))
        .then(({ credential, failures }) => {
          this.see(bucket, failures, now);
          if (!credential || credential.revokedAt !== null) {
            this.dropCredential(id);
            return false;
          }
          entry.checkedAt = Math.max(entry.checkedAt, now);
          return true;
        })
        .finally(() => this.rechecks.delete(key));
      this.rechecks.set(key, running);
    }
    return running;
  }

  /** One check of a key and password: the bucket's slot first, then the slow scrypt. */
  private async check(cacheKey: string, source: string, apiKey: string, password: string): Promise<{ bucket: string; result: AuthResult }> {
    const readAt = this.clock.now().getTime();
    const credential = await this.store.read((r) => r.credentials.findActiveByApiKey(apiKey));
    const bucket = apiBucket(source, credential?.id ?? UNKNOWN);
    const start = await this.begin(bucket);
    if (!start.ok) return { bucket, result: start };
    // An unknown key costs the same scrypt work as a wrong password, so timing tells nothing.
    const valid = await verifyPassword(password, credential?.passwordHash ?? (await this.dummyHash()));
    if (!valid || !credential) {
      start.attempt.failed();
      return { bucket, result: { ok: false, error: apiError(ErrorCode.unauthenticated, 'Missing or wrong API credentials') } };
    }
    await start.attempt.succeeded();
    // Revoked through this instance while the password was being checked: the revocation wins.
    if (this.revoked.has(credential.id))
      return { bucket, result: { ok: false, error: apiError(ErrorCode.unauthenticated, 'Missing or wrong API credentials') } };
    const principal: Principal = {
      kind: credential.kind,
      credentialId: credential.id,
      merchantId: credential.merchantId,
      ...(credential.partnerId ? { partnerId: credential.partnerId } : {}),
    };
    // A success does not clear the bucket's failures: the window simply runs out.
    if (this.verified.size >= CACHE_MAX) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(cacheKey, { principal, expiresAt: this.clock.now().getTime() + CACHE_TTL_MS, checkedAt: readAt });
    return { bucket, result: { ok: true, principal } };
  }

  /** The bucket of a request whose credentials could not even be read (a malformed header). */
  unknownBucket(source: string): string {
    return apiBucket(source, UNKNOWN);
  }

  /**
   * Counts a failure of a bucket outside a check (e.g. a malformed header). Answers the lock-out
   * instead when the bucket is locked: nothing shortens a lock.
   */
  async recordFailure(bucket: string): Promise<Locked | undefined> {
    const start = await this.begin(bucket);
    if (!start.ok) return start;
    start.attempt.failed();
    return undefined;
  }

  /** Deletes buckets whose window and lock are over (any instance may; they would start afresh anyway). */
  async purgeStale(): Promise<number> {
    const now = this.clock.now().getTime();
    return this.store.runAtomic((tx) => tx.authFailures.deleteStale(iso(now - this.policy.windowMs), iso(now)));
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= hashPassword(randomBytes(16).toString('base64'));
    return this.dummy;
  }

  /** Forget cached verifications, e.g. after credentials were rotated or revoked in this process. */
  forgetCache(): void {
    this.verified.clear();
  }

  private dropCredential(credentialId: string): void {
    for (const [key, entry] of this.verified) if (entry.principal.credentialId === credentialId) this.verified.delete(key);
  }

  /**
   * A credential was revoked through this instance: its cached verifications go at once, and a check
   * of it already under way answers 401, so the next request with it is refused here (decisions.md
   * "Back office: settings"). Other instances find out within RECHECK_MS.
   */
  forgetCredential(credentialId: string): void {
    this.revoked.add(credentialId);
    this.dropCredential(credentialId);
  }

  /** The revocation of a credential was not stored after all (its unit of work failed). */
  keepCredential(credentialId: string): void {
    this.revoked.delete(credentialId);
  }
}
