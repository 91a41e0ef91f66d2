/**
 * A till's card attempts whose outcome it must know before it charges again (D16). Adapter: db/.
 */
import type { KernelUnit } from '../unit-of-work.js';
import type { TransactionRepository } from '../payments/ports.js';
/** A till's card attempt whose outcome the till must know before it charges again (D16). */
export interface TillAttemptRecord {
  id: string;
  merchantId: string;
  /** The till whose attempt it is (column `terminal_id`, migration 0012). */
  tillId: string;
  staffId: string | null;
  orderId: string;
  idempotencyKey: string;
  amountMinor: number;
  currency: string;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
  outcome: 'approved' | 'not_charged' | null;
  transactionId: string | null;
}

export interface TillAttemptRepository {
  /** The till's open (unresolved) attempt. */
  open(merchantId: string, tillId: string): Promise<TillAttemptRecord | undefined>;
  insert(attempt: TillAttemptRecord): Promise<void>;
  /** The same sale's next request (PIN retry, another card): a new key; only while open. */
  rekey(id: string, idempotencyKey: string, staffId: string | null, now: string): Promise<boolean>;
  /** Closes the attempt once its outcome is known; false when it was already closed. */
  resolve(id: string, outcome: 'approved' | 'not_charged', transactionId: string | null, now: string): Promise<boolean>;
}

/** The till feature's view of a unit of work: its attempts at card sales, and the sales they made. */
export interface TillUnit extends KernelUnit {
  tillAttempts: TillAttemptRepository;
  transactions: Pick<TransactionRepository, 'list'>;
}
