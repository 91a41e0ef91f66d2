/**
 * SEPA direct-debit mandates. Adapter: db/.
 */
import type { IdempotencyUnit } from '../idempotency/ports.js';
export interface MandateRecord {
  id: string;
  merchantId: string;
  reference: string;
  paymentType: 'dd' | 'dd_b2b';
  recurring: boolean;
  firstName: string | null;
  lastName: string | null;
  accountHolder: string;
  /** IBAN, sealed by the Vault. */
  ibanSealed: string;
  ibanLastFour: string;
  bic: string | null;
  email: string | null;
  mandateDate: string;
  createdAt: string;
}

export interface MandateRepository {
  insert(mandate: MandateRecord): Promise<void>;
  findByReference(merchantId: string, reference: string): Promise<MandateRecord | undefined>;
}

/** The mandates feature's view of a unit of work. */
export interface MandatesUnit extends IdempotencyUnit {
  mandates: MandateRepository;
}
