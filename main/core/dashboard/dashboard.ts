/**
 * The back office's dashboard (docs/decisions.md "Dashboard"): one read of a period's figures in
 * the shop's time zone (payments, approval rate, volume and refunds per currency, the payment-type
 * mix, a series per hour or day) and of what needs attention now. Sums stay integer minor units
 * per currency until the answer adds each one's decimal.
 */
import type {
  Attention,
  Dashboard as DashboardView,
  DashboardBucket,
  MoneySum,
  PaymentCounts,
  PaymentTypeFigures,
} from '../../../contract/api/dashboard.js';
import { ATTENTION_EXAMPLES, ATTENTION_WINDOW_HOURS, type DashboardPeriod } from '../../../contract/constants.js';
import { fromMinorUnits } from '../../../contract/money.js';
import type { Clock } from '../kernel.js';
import type { DashboardAttention, DashboardFigureRow, DashboardUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import { planPeriod } from './periods.js';

const HOUR_MS = 60 * 60 * 1000;

export interface DashboardDeps {
  store: Store<DashboardUnit>;
  clock: Clock;
  /** The shop's time zone (IANA name): where its days and hours start. */
  timeZone: string;
}

export class Dashboard {
  constructor(private readonly deps: DashboardDeps) {}

  get timeZone(): string {
    return this.deps.timeZone;
  }

  async read(merchantId: string, period: DashboardPeriod): Promise<DashboardView> {
    const now = this.deps.clock.now();
    const plan = planPeriod(period, now, this.deps.timeZone);
    const until = new Date(now.getTime() + ATTENTION_WINDOW_HOURS * HOUR_MS).toISOString();
    const { rows, attention } = await this.deps.store.read(async (repos) => ({
      rows: await repos.dashboard.figures(
        merchantId,
        plan.buckets.map((b) => ({ from: b.start.toISOString(), to: b.end.toISOString() })),
      ),
      attention: await repos.dashboard.attention(merchantId, now.toISOString(), until, ATTENTION_EXAMPLES),
    }));
    const series: DashboardBucket[] = plan.buckets.map((bucket, index) => {
      const mine = rows.filter((row) => row.range === index);
      return {
        start: bucket.start.toISOString(),
        end: bucket.end.toISOString(),
        local_start: bucket.local,
        ...counts(mine),
        volume: volumeOf(mine),
        refunds: refundsOf(mine),
      };
    });
    return {
      period,
      time_zone: this.deps.timeZone,
      bucket: plan.bucket,
      from: plan.from.toISOString(),
      to: plan.to.toISOString(),
      generated_at: now.toISOString(),
      totals: counts(rows),
      volume: volumeOf(rows),
      refunds: refundsOf(rows),
      payment_types: paymentTypes(rows),
      series,
      attention: attentionView(attention),
    };
  }
}

function counts(rows: readonly DashboardFigureRow[]): PaymentCounts {
  let payments = 0;
  let approved = 0;
  let declined = 0;
  for (const row of rows) {
    payments += row.payments;
    approved += row.approved;
    declined += row.declined;
  }
  const decided = approved + declined;
  return { payments, approved, declined, other: payments - decided, approval_rate: decided === 0 ? null : approved / decided };
}

/** Per currency, from each row's count and sum; the currencies with most entries first. */
function sumsBy(
  rows: readonly DashboardFigureRow[],
  count: (row: DashboardFigureRow) => number,
  minor: (row: DashboardFigureRow) => number,
): MoneySum[] {
  const byCurrency = new Map<string, { count: number; minor: number }>();
  for (const row of rows) {
    const n = count(row);
    const m = minor(row);
    if (n === 0 && m === 0) continue;
    const sum = byCurrency.get(row.currency) ?? { count: 0, minor: 0 };
    sum.count += n;
    sum.minor += m;
    byCurrency.set(row.currency, sum);
  }
  return [...byCurrency]
    .map(([currency, sum]) => ({ currency, count: sum.count, amount_minor: sum.minor, amount: fromMinorUnits(sum.minor, currency) }))
    .sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency));
}

const volumeOf = (rows: readonly DashboardFigureRow[]) =>
  sumsBy(
    rows,
    (r) => r.captured,
    (r) => r.capturedMinor,
  );
const refundsOf = (rows: readonly DashboardFigureRow[]) =>
  sumsBy(
    rows,
    (r) => r.refunds,
    (r) => r.refundedMinor,
  );

function paymentTypes(rows: readonly DashboardFigureRow[]): PaymentTypeFigures[] {
  const byType = new Map<string, DashboardFigureRow[]>();
  for (const row of rows) byType.set(row.paymentType, [...(byType.get(row.paymentType) ?? []), row]);
  return [...byType]
    .map(([payment_type, mine]) => ({ payment_type, ...counts(mine), volume: volumeOf(mine) }))
    .filter((type) => type.payments > 0)
    .sort((a, b) => b.payments - a.payments || a.payment_type.localeCompare(b.payment_type));
}

function attentionView(a: DashboardAttention): Attention {
  return {
    postbacks_retrying: { count: a.postbacksRetrying },
    postbacks_failed: { count: a.postbacksFailed },
    invoices_expiring: {
      count: a.invoicesExpiring.count,
      items: a.invoicesExpiring.items.map((i) => ({
        debt_claim_number: i.debtClaimNumber,
        expires_at: i.expiresAt,
        currency: i.currency,
        amount: fromMinorUnits(i.amountMinor, i.currency),
      })),
    },
    invoice_emails_failed: {
      count: a.invoiceEmailsFailed.count,
      items: a.invoiceEmailsFailed.items.map((e) => ({
        debt_claim_number: e.debtClaimNumber,
        email_type: e.emailType,
        failed_at: e.createdAt,
      })),
    },
    tokens_suspended: { count: a.tokensSuspended },
    forwarded_declines: {
      count: a.forwardedDeclines.count,
      items: a.forwardedDeclines.items.map((d) => ({
        transaction_id: d.transactionId,
        till_id: d.tillId,
        staff_name: d.staffName,
        order_id: d.orderId,
        amount: fromMinorUnits(d.amountMinor, d.currency),
        currency: d.currency,
        card_brand: d.cardBrand,
        card_last_four: d.cardLastFour,
        message: d.message,
        stored_at: d.storedAt,
        forwarded_at: d.forwardedAt,
      })),
    },
    authorizations_expiring: {
      count: a.authorizationsExpiring.count,
      items: a.authorizationsExpiring.items.map((t) => ({
        transaction_id: t.transactionId,
        order_id: t.orderId,
        expires_at: t.expiresAt,
        currency: t.currency,
        amount: fromMinorUnits(t.amountMinor, t.currency),
      })),
    },
  };
}
