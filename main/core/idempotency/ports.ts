/**
 * Stored answers of Idempotency-Keys (docs/decisions.md "Idempotency inside the operation's
 * unit"). Adapter: db/.
 */
import type { Answer } from '../errors.js';
import type { KernelUnit } from '../unit-of-work.js';

export interface IdempotencyRecord {
  merchantId: string;
  key: string;
  fingerprint: string;
  /**
   * The operation's answer (its outcome's kind and body). Null on a claim written by versions before
   * claims moved into the operation's unit: a request still in flight, or one whose process died.
   */
  answer: Answer | null;
  createdAt: string;
  expiresAt: string;
  /** A claim's own id (a record without an answer), so its request removes only its own claim. */
  claimId?: string | null;
}

export interface IdempotencyRepository {
  find(merchantId: string, key: string, now: string): Promise<IdempotencyRecord | undefined>;
  /** Writes the record, replacing what the key held (a claim, an expired record). */
  save(record: IdempotencyRecord): Promise<void>;
  /**
   * Writes `record` when the key is free or its record expired at `now`, in one statement (atomic
   * on either engine); true when written, false when a live record (an answer, a fence, an older
   * version's claim) holds it. The answer of an operation is written so, in the operation's own unit.
   */
  take(record: IdempotencyRecord, now: string): Promise<boolean>;
  /**
   * Removes the key's claim `claimId` (a record without an answer, written by versions before
   * claims moved into the operation's unit), leaving a stored answer alone.
   */
  deleteClaim(merchantId: string, key: string, claimId: string): Promise<void>;
  deleteExpired(now: string): Promise<number>;
}

/** The idempotency feature's view of a unit of work (main/core/unit-of-work.ts). */
export interface IdempotencyUnit extends KernelUnit {
  idempotency: IdempotencyRepository;
}
