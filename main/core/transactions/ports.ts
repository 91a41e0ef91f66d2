/**
 * The transactions feature reads the payments engine's records for the back office (lists, details,
 * exports): it owns no table of its own.
 */
import type { KernelUnit } from '../unit-of-work.js';
import type { EventRepository, RefundRepository, TransactionRepository } from '../payments/ports.js';
import type { StaffRepository } from '../staff/ports.js';
import type { TillRepository } from '../tills/ports.js';

/** The transactions feature's view of a unit of work: read only. */
export interface TransactionsUnit extends KernelUnit {
  transactions: Pick<TransactionRepository, 'get' | 'list' | 'count'>;
  events: Pick<EventRepository, 'listByTransaction'>;
  refunds: Pick<RefundRepository, 'listByTransaction'>;
  tills: Pick<TillRepository, 'get'>;
  staff: Pick<StaffRepository, 'get' | 'listByMerchant'>;
}
