/**
 * Idempotency keys for POST requests (interface.md "Authentication" 5, decisions.md D8).
 * Scope: merchant + key. The stored reply is written in the same unit of work as the state change
 * it answers (see Operations), so a payment and its idempotency record commit together or not at
 * all. A key in flight is claimed in the database, not in this process's memory, so that several
 * gateway instances on one PostgreSQL database run a key once: the claim is a record whose reply
 * status is 0, written in its own unit of work before the request runs, replaced by the reply when
 * that is stored, removed when the request ends without one. A claim left by an instance that died
 * lapses after CLAIM_LEASE_MS, and the key can be used again.
 */
import { createHash, randomUUID } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import { ErrorCode } from '../../../contract/codes.js';
import { apiError, fieldError, type ApiError, type Reply } from '../errors.js';
import type { Instances } from '../instances.js';
import type { Clock, IdempotencyRecord, Repositories, Store } from '../ports.js';

// The package is CommonJS (module.exports = fn) but its types declare an ES default export.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

export const IDEMPOTENCY_KEY_MAX = 255;
export const DEFAULT_RETENTION_MS = 60 * 60 * 1000;
export const MAX_RETENTION_MS = 31 * 24 * 60 * 60 * 1000;

export interface IdempotencyScope {
  merchantId: string;
  key: string;
  fingerprint: string;
  /** Set once a committed unit stored the reply in place of the claim (Operation). */
  replyStored?: boolean;
}

export type IdempotencyFence = { kind: 'in_flight' } | { kind: 'fenced' } | { kind: 'processed'; reply: Reply };

/** The fingerprint of a fence: matches no request, so a late arrival with the key is refused. */
const FENCED = 'fenced';

export type IdempotencyStart =
  | { kind: 'replay'; reply: Reply }
  | { kind: 'reject'; error: ApiError }
  | { kind: 'proceed'; scope: IdempotencyScope; release: () => Promise<void> };

/** How long a claim holds a key when its request never ends (the instance died). */
export const CLAIM_LEASE_MS = 5 * 60 * 1000;
/** The reply status of a claim: no HTTP answer has it. */
const CLAIMED = 0;

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
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    readonly retentionMs: number,
    /** Whose claims are these: a claim of an instance that died is taken over at once. */
    private readonly instances?: Instances,
  ) {}

  /** A claim left by a process that died: its request never answers, and nothing of it committed. */
  private async deadClaim(tx: Repositories, stored: IdempotencyRecord): Promise<boolean> {
    return stored.reply.status === CLAIMED && this.instances !== undefined && (await this.instances.claimIsDead(tx, stored));
  }

  async start(merchantId: string, key: string, fingerprint: string): Promise<IdempotencyStart> {
    const now = this.clock.now();
    const claimId = this.instances?.claimId() ?? randomUUID();
    // The claim is one conditional upsert: two requests with the key (on any instance) cannot both
    // take it. Only when a live record holds the key is it read, to answer it. A unit of single
    // statements runs at READ COMMITTED on PostgreSQL: claims of different keys never fail each
    // other's serialization check (under SERIALIZABLE, concurrent inserts into one index page did).
    const stored = await this.store.runAtomic(
      async (tx) => {
        for (let tries = 0; tries < 3; tries++) {
          if (await tx.idempotency.claim(this.claim({ merchantId, key, fingerprint }, now, claimId), now.toISOString())) return undefined;
          const found = await tx.idempotency.find(merchantId, key, now.toISOString());
          // A dead instance's claim: its request will never answer; this one takes the key.
          if (found && (await this.deadClaim(tx, found))) {
            await tx.idempotency.deleteClaim(merchantId, key, found.claimId ?? '');
            continue;
          }
          // Gone between the two statements (its request removed its claim): claim again.
          if (found) return found;
        }
        return { merchantId, key, fingerprint, reply: { status: CLAIMED, body: null }, createdAt: now.toISOString(), expiresAt: now.toISOString() };
      },
      { quiet: true },
    );
    if (!stored) {
      let released: Promise<void> | undefined;
      const scope: IdempotencyScope = { merchantId, key, fingerprint };
      return {
        kind: 'proceed',
        scope,
        // Once the reply replaced the claim there is nothing to remove: no unit of work at all.
        release: () => (released ??= scope.replyStored ? Promise.resolve() : this.store.run((tx) => tx.idempotency.deleteClaim(merchantId, key, claimId))),
      };
    }
    if (stored.reply.status === CLAIMED) {
      return { kind: 'reject', error: apiError(ErrorCode.idempotencyInFlight, 'A request with this idempotency key is still being processed') };
    }
    if (stored.fingerprint === FENCED) {
      return { kind: 'reject', error: apiError(ErrorCode.idempotencyMismatch, 'This request was given up by its sender before it arrived; it was not processed', [{ field: 'Idempotency-Key', message: 'was given up' }]) };
    }
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

  /**
   * Settles what became of a request sent with this key whose answer its sender never got (the
   * till after a lost answer or a restart). `processed`: here is the stored reply. `fenced`: it was
   * never processed, and from now on it never will be (a late arrival is refused), so the sender
   * may safely start over. `in_flight`: it is being processed right now; ask again shortly.
   */
  async fence(merchantId: string, key: string): Promise<IdempotencyFence> {
    return this.store.run(async (tx) => {
      const stored = await tx.idempotency.find(merchantId, key, this.clock.now().toISOString());
      // A claim whose process died stands for a request that never committed anything: fence it.
      if (stored && (await this.deadClaim(tx, stored))) {
        await tx.idempotency.deleteClaim(merchantId, key, stored.claimId ?? '');
        await tx.idempotency.save(this.record({ merchantId, key, fingerprint: FENCED }, { status: 422, body: null }));
        return { kind: 'fenced' as const };
      }
      if (stored?.reply.status === CLAIMED) return { kind: 'in_flight' as const };
      if (stored) return stored.fingerprint === FENCED ? { kind: 'fenced' as const } : { kind: 'processed' as const, reply: stored.reply };
      await tx.idempotency.save(this.record({ merchantId, key, fingerprint: FENCED }, { status: 422, body: null }));
      return { kind: 'fenced' as const };
    });
  }

  private claim(scope: IdempotencyScope, now: Date, claimId: string) {
    return {
      ...scope,
      claimId,
      reply: { status: CLAIMED, body: null },
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + CLAIM_LEASE_MS).toISOString(),
    };
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

const NOT_STORED: ReadonlySet<number> = new Set([ErrorCode.validation, ErrorCode.processor, ErrorCode.internal, ErrorCode.storage, ErrorCode.shuttingDown, ErrorCode.centreAway]);

/**
 * Replies that are never stored: the request was rejected before anything was processed
 * (validation), or nothing happened because the processor or the gateway failed; a retry with the
 * same key must be able to do the work.
 */
export function isStorable(reply: Reply): boolean {
  const body = reply.body as { error_code?: number } | null;
  return !(reply.status >= 400 && body?.error_code !== undefined && NOT_STORED.has(body.error_code));
}
