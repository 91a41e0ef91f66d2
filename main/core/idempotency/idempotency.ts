/**
 * Idempotency keys for POST requests (docs/api.md "Idempotency", docs/decisions.md "Idempotency
 * inside the operation's unit (issue 27)"). Scope: merchant + key.
 *
 * The answer is the claim. An operation's unit of work writes its answer for the key together with
 * the state change it answers, with one conditional insert that takes the key only while no live
 * record holds it: a payment and its idempotency record commit together or not at all, and of two
 * requests with one key (on any instance) only one unit can commit. The other unit rolls back
 * whole (its payment never existed) and its request answers the winner's stored answer. Nothing is
 * written before the operation runs, so a crash before its unit commits leaves nothing to clean up
 * or to wait out, and a retry runs it again. That holds because everything an operation does before
 * its unit is in this process: the simulated processor's decision, reads. A call that left the
 * process with an effect of its own would need a durable claim before it; none does (a joined till's
 * forward to its centre carries the key there, where the centre's unit takes it).
 *
 * Within one process a key being processed is also held in memory, so a second request with it
 * answers 409 at once instead of running the operation a second time to lose at the commit, and
 * `fence` can say "in flight".
 */
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import { ErrorCode } from '../../../contract/codes.js';
import { apiError, fieldError, type Answer, type ApiError } from '../errors.js';
import type { Instances } from '../instances.js';
import type { Clock } from '../kernel.js';
import type { IdempotencyRecord, IdempotencyUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';

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

export type IdempotencyFence = { kind: 'in_flight' } | { kind: 'fenced' } | { kind: 'processed'; answer: Answer };

/** The fingerprint of a fence: matches no request, so a late arrival with the key is refused. */
const FENCED = 'fenced';
/** A fence's answer: never given (its fingerprint matches no request). */
const FENCE_ANSWER: Answer = { kind: 'refused', body: null };

export type IdempotencySettled = { kind: 'replay'; answer: Answer } | { kind: 'reject'; error: ApiError };

export type IdempotencyStart =
  Extract<IdempotencySettled, { kind: 'reject' }> | { kind: 'proceed'; scope: IdempotencyScope; release: () => Promise<void> };

/**
 * Thrown inside an operation's unit when a live record already holds its key (another instance's
 * answer committed first, or a fence): the unit rolls back whole.
 */
export class IdempotencyKeyTaken extends Error {
  override name = 'IdempotencyKeyTaken';
}

/** What a request whose unit lost its key answers instead: the stored answer, or the refusal. */
export class IdempotencyConflict extends Error {
  override name = 'IdempotencyConflict';
  constructor(readonly settled: IdempotencySettled) {
    super(settled.kind === 'replay' ? 'answered with the stored answer' : settled.error.message);
  }
}

export function inFlight(): Extract<IdempotencySettled, { kind: 'reject' }> {
  return { kind: 'reject', error: apiError(ErrorCode.idempotencyInFlight, 'A request with this idempotency key is still being processed') };
}

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
  /** Keys being processed in this process, each with the token of the request that holds it. */
  private readonly held = new Map<string, object>();

  constructor(
    private readonly store: Store<IdempotencyUnit>,
    private readonly clock: Clock,
    readonly retentionMs: number,
    /** Whose claims are these: an older version's claim of an instance that died is taken over at once. */
    private readonly instances?: Instances,
  ) {}

  /** An older version's claim left by a process that died: its request never answers, and nothing of it committed. */
  private async deadClaim(tx: IdempotencyUnit, stored: IdempotencyRecord): Promise<boolean> {
    return stored.answer === null && this.instances !== undefined && (await this.instances.claimIsDead(tx, stored));
  }

  /**
   * Before the operation runs: a key held in this process answers 409. Otherwise the key is held
   * here until `release`, and the operation runs: its unit takes the key with its answer
   * (Operation), and a unit that finds the key taken (an answer stored earlier by any instance, or
   * a fence) rolls back whole; the request then answers what the key holds (`settle`: the stored
   * answer replayed, or the refusal). Nothing is read before the operation: a new key, the usual
   * case, costs no lookup (a statement, and on PostgreSQL a round trip); a request sent again runs
   * its operation up to the unit that finds the key taken.
   */
  start(merchantId: string, key: string, fingerprint: string): Promise<IdempotencyStart> {
    const slot = `${merchantId} ${key}`;
    if (this.held.has(slot)) return Promise.resolve(inFlight());
    const token = {};
    this.held.set(slot, token);
    const release = () => {
      if (this.held.get(slot) === token) this.held.delete(slot);
      return Promise.resolve();
    };
    return Promise.resolve({ kind: 'proceed', scope: { merchantId, key, fingerprint }, release });
  }

  /**
   * What the key holds for this request: its stored answer replayed, or the refusal (another
   * request's key, a fence, a request still in flight). Undefined when it holds nothing live: no
   * record (it expired meanwhile), or an older version's claim left by a process that died
   * (removed here: its request never committed anything), so the request's own answer stands or
   * its operation runs again (Operations.perform).
   */
  async settle(scope: IdempotencyScope): Promise<IdempotencySettled | undefined> {
    const { merchantId, key } = scope;
    const stored = await this.store.readEach((r) => r.idempotency.find(merchantId, key, this.clock.now().toISOString()));
    if (!stored) return undefined;
    if (stored.answer === null && (await this.store.read((r) => this.deadClaim(r, stored)))) {
      await this.store.runAtomic((tx) => tx.idempotency.deleteClaim(merchantId, key, stored.claimId ?? ''), { quiet: true });
      return undefined;
    }
    return this.answer(stored, scope.fingerprint);
  }

  private answer(stored: IdempotencyRecord, fingerprint: string): IdempotencySettled {
    if (stored.answer === null) return inFlight();
    if (stored.fingerprint === FENCED) {
      return {
        kind: 'reject',
        error: apiError(ErrorCode.idempotencyMismatch, 'This request was given up by its sender before it arrived; it was not processed', [
          { field: 'Idempotency-Key', message: 'was given up' },
        ]),
      };
    }
    if (stored.fingerprint !== fingerprint) {
      return {
        kind: 'reject',
        error: apiError(ErrorCode.idempotencyMismatch, 'This idempotency key was already used with a different request', [
          { field: 'Idempotency-Key', message: 'was used for a different method, path or body' },
        ]),
      };
    }
    return { kind: 'replay', answer: stored.answer };
  }

  /**
   * Writes the operation's answer for its key in the operation's unit `tx`, taking the key; throws
   * IdempotencyKeyTaken (rolling the unit back) when a live record holds it already.
   */
  async take(tx: IdempotencyUnit, scope: IdempotencyScope, answer: Answer): Promise<void> {
    if (!(await tx.idempotency.take(this.record(scope, answer), this.clock.now().toISOString()))) throw new IdempotencyKeyTaken();
  }

  /**
   * Settles what became of a request sent with this key whose answer its sender never got (the
   * till after a lost answer or a restart). `processed`: here is the stored answer. `fenced`: it was
   * never processed, and from now on it never will be (a late arrival is refused), so the sender
   * may safely start over. `in_flight`: it is being processed right now; ask again shortly.
   */
  async fence(merchantId: string, key: string): Promise<IdempotencyFence> {
    if (this.held.has(`${merchantId} ${key}`)) return { kind: 'in_flight' };
    return this.store.run(async (tx) => {
      const stored = await tx.idempotency.find(merchantId, key, this.clock.now().toISOString());
      // A claim whose process died stands for a request that never committed anything: fence it.
      if (stored && (await this.deadClaim(tx, stored))) {
        await tx.idempotency.deleteClaim(merchantId, key, stored.claimId ?? '');
        await tx.idempotency.save(this.record({ merchantId, key, fingerprint: FENCED }, FENCE_ANSWER));
        return { kind: 'fenced' as const };
      }
      if (stored?.answer === null) return { kind: 'in_flight' as const };
      if (stored)
        // The answer without its stored text: the centre sends it on inside a body of its own.
        return stored.fingerprint === FENCED
          ? { kind: 'fenced' as const }
          : { kind: 'processed' as const, answer: { kind: stored.answer.kind, body: stored.answer.body } };
      await tx.idempotency.save(this.record({ merchantId, key, fingerprint: FENCED }, FENCE_ANSWER));
      return { kind: 'fenced' as const };
    });
  }

  record(scope: IdempotencyScope, answer: Answer) {
    const now = this.clock.now();
    return {
      merchantId: scope.merchantId,
      key: scope.key,
      fingerprint: scope.fingerprint,
      answer,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.retentionMs).toISOString(),
    };
  }

  async purgeExpired(): Promise<number> {
    const now = this.clock.now().toISOString();
    return this.store.run((tx) => tx.idempotency.deleteExpired(now));
  }
}

const NOT_STORED: ReadonlySet<number> = new Set([
  ErrorCode.validation,
  ErrorCode.processor,
  ErrorCode.internal,
  ErrorCode.storage,
  ErrorCode.shuttingDown,
  ErrorCode.centreAway,
]);

/**
 * Answers that are never stored: the request was rejected before anything was processed
 * (validation), or nothing happened because the processor or the gateway failed; a retry with the
 * same key must be able to do the work.
 */
export function isStorable(answer: Answer): boolean {
  const code = (answer.body as { error_code?: number } | null)?.error_code;
  return !(answer.kind === 'refused' && code !== undefined && NOT_STORED.has(code));
}
