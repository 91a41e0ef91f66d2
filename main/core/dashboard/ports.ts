/**
 * The back office's dashboard (docs/decisions.md "Dashboard"): sums per hour and what needs
 * attention, read only. Adapter: db/.
 */
import type { KernelUnit } from '../unit-of-work.js';
/** A stretch of time: from `from` (inclusive) to `to` (exclusive), UTC ISO 8601 instants. */
export interface TimeRange {
  from: string;
  to: string;
}

/**
 * The figures of one time range for one currency and payment type. Payment attempts (payments and
 * authorizations above 0; not account checks, payouts or PIN requests) count in the range they were
 * made in, with what became of them; refunds in the range they were made in. Sums in minor units.
 */
export interface DashboardFigureRow {
  /** Index of the range in the list asked for. */
  range: number;
  currency: string;
  paymentType: string;
  payments: number;
  approved: number;
  declined: number;
  /** Payments that took money (something captured). */
  captured: number;
  capturedMinor: number;
  refunds: number;
  refundedMinor: number;
}

export interface DashboardAttention {
  /** Postbacks whose attempts failed so far and that are retried. */
  postbacksRetrying: number;
  postbacksFailed: number;
  /** Active, unpaid invoices whose pay link expires by `until`; the soonest first. */
  invoicesExpiring: { count: number; items: Array<{ debtClaimNumber: string; expiresAt: string; amountMinor: number; currency: string }> };
  /** Invoices whose latest e-mail failed; the latest failures first. */
  invoiceEmailsFailed: { count: number; items: Array<{ debtClaimNumber: string; emailType: string; createdAt: string }> };
  tokensSuspended: number;
  /** Stored sales their till forwarded and the bank declined, not marked handled yet; the latest first. */
  forwardedDeclines: {
    count: number;
    items: Array<{
      transactionId: string;
      tillId: string;
      staffName: string | null;
      orderId: string | null;
      amountMinor: number;
      currency: string;
      cardBrand: string | null;
      cardLastFour: string | null;
      message: string | null;
      storedAt: string;
      forwardedAt: string;
    }>;
  };
  /** Authorizations still uncaptured (status 4) that expire by `until`; the soonest first. */
  authorizationsExpiring: {
    count: number;
    items: Array<{ transactionId: string; orderId: string | null; expiresAt: string; amountMinor: number; currency: string }>;
  };
}

export interface DashboardRepository {
  /** The figures of each range (sums in SQL), one row per range, currency and payment type that has any. */
  figures(merchantId: string, ranges: readonly TimeRange[]): Promise<DashboardFigureRow[]>;
  /** What needs attention at `now`; "soon" is up to `until`; `examples` items at most per list. */
  attention(merchantId: string, now: string, until: string, examples: number): Promise<DashboardAttention>;
}

/** The dashboard's view of a unit of work: its read-only sums. */
export interface DashboardUnit extends KernelUnit {
  dashboard: DashboardRepository;
}
