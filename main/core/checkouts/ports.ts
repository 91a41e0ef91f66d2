/**
 * Hosted checkout sessions. Adapter: db/.
 */
import type { CheckoutStatus } from '../../../contract/constants.js';
import type { IdempotencyUnit } from '../idempotency/ports.js';
import type { PaymentMethodsUnit } from '../payment-methods/ports.js';
import type { MerchantRepository } from '../merchants/ports.js';
import type { TransactionRepository } from '../payments/ports.js';

export interface CheckoutRecord {
  id: string;
  merchantId: string;
  status: CheckoutStatus;
  orderId: string;
  currency: string;
  amountMinor: number;
  taxesMinor: number;
  shippingMinor: number;
  totalMinor: number;
  transactionId: string | null;
  successUrl: string;
  errorUrl: string;
  /** Null for a session the back office opened (a phone or e-mail order): no merchant postback. */
  postbackUrl: string | null;
  locale: string | null;
  /** The session request as given (names, flags, instructions, prefill): no card data. */
  request: Record<string, unknown>;
  /** What the customer entered on the page (collect_* fields). */
  customer: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

export interface CheckoutRepository {
  insert(record: CheckoutRecord): Promise<void>;
  get(id: string): Promise<CheckoutRecord | undefined>;
  /** Status change guarded by the allowed source statuses. */
  transition(
    id: string,
    from: readonly CheckoutStatus[],
    status: CheckoutStatus,
    now: string,
    change?: { transactionId?: string | null; customer?: Record<string, string> },
  ): Promise<boolean>;
  byTransaction(transactionId: string): Promise<CheckoutRecord | undefined>;
  /** The merchant's sessions, newest first (created_at, id). */
  list(merchantId: string, filter: CheckoutFilter): Promise<CheckoutRecord[]>;
  count(merchantId: string, filter: Omit<CheckoutFilter, 'limit' | 'offset'>): Promise<number>;
}

export interface CheckoutFilter {
  status?: CheckoutStatus;
  createdFrom?: string;
  createdTo?: string;
  limit: number;
  offset: number;
}

/** The checkouts feature's view of a unit of work. */
export interface CheckoutsUnit extends IdempotencyUnit, PaymentMethodsUnit {
  checkouts: CheckoutRepository;
  merchants: Pick<MerchantRepository, 'get'>;
  transactions: Pick<TransactionRepository, 'getById'>;
}
