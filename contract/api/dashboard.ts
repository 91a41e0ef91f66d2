/**
 * The back office's dashboard (GET /ui/dashboard): a period's payments, approval rate, volume and
 * refunds per currency, payment-type mix and a series per hour (today) or day (7 days, this month)
 * in the shop's time zone, and what needs attention now. Money is given twice: `amount_minor`
 * (integer minor units, the sums as the gateway adds them) and `amount` (the API's decimal).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DASHBOARD_PERIODS } from '../constants.js';
import { Nullable, StringEnum, StringIn } from './common.js';
import type { SchemasOf } from './operation-schemas.js';

export const DashboardQuerySchema = Type.Object(
  {
    period: Type.Optional(
      StringIn(DASHBOARD_PERIODS, {
        description:
          'today (per hour), 7d (today and the 6 days before, per day) or month (this calendar month so far, per day); default today',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DashboardQuery = Static<typeof DashboardQuerySchema>;

const Instant = (description: string) => Type.String({ format: 'date-time', description });

export const MoneySumSchema = Type.Object({
  currency: Type.String({ description: 'ISO 4217' }),
  count: Type.Integer(),
  amount_minor: Type.Integer({ description: 'the sum in minor units of the currency' }),
  amount: Type.Number({ description: 'the same sum as a decimal' }),
});
/** A count and a sum of money in one currency. */
export type MoneySum = Static<typeof MoneySumSchema>;

const countFields = {
  payments: Type.Integer({
    description: 'payment attempts (payments and authorizations above 0; not account checks, payouts or PIN requests)',
  }),
  approved: Type.Integer({
    description: 'approved by the issuer or bank (also when later captured, refunded, reversed, charged back or expired uncaptured)',
  }),
  declined: Type.Integer(),
  other: Type.Integer({
    description: 'neither yet or at all: waiting for the customer or the bank, cancelled, abandoned, processor errors',
  }),
  approval_rate: Nullable(Type.Number({ description: 'approved / (approved + declined), 0 to 1' }), {
    description: 'null without approved or declined payments',
  }),
};
export const PaymentCountsSchema = Type.Object(countFields);
export type PaymentCounts = Static<typeof PaymentCountsSchema>;

export const PaymentTypeFiguresSchema = Type.Object({
  payment_type: Type.String(),
  ...countFields,
  volume: Type.Array(MoneySumSchema, { description: 'captured money per currency' }),
});
export type PaymentTypeFigures = Static<typeof PaymentTypeFiguresSchema>;

export const DashboardBucketSchema = Type.Object({
  start: Instant('first instant of the hour or day'),
  end: Instant('first instant after it'),
  local_start: Type.String({ description: "the start in the shop's time zone: YYYY-MM-DD for a day, YYYY-MM-DDTHH:mm for an hour" }),
  ...countFields,
  volume: Type.Array(MoneySumSchema),
  refunds: Type.Array(MoneySumSchema),
});
export type DashboardBucket = Static<typeof DashboardBucketSchema>;

const Count = Type.Object({ count: Type.Integer() });

export const ExpiringInvoiceSchema = Type.Object({
  debt_claim_number: Type.String(),
  expires_at: Instant('when the pay link stops working'),
  currency: Type.String(),
  amount: Type.Number(),
});
export type ExpiringInvoice = Static<typeof ExpiringInvoiceSchema>;

export const FailedInvoiceEmailSchema = Type.Object({
  debt_claim_number: Type.String(),
  email_type: Type.String({ description: 'initial or reminder' }),
  failed_at: Instant('when the e-mail was queued'),
});
export type FailedInvoiceEmail = Static<typeof FailedInvoiceEmailSchema>;

export const ExpiringAuthorizationSchema = Type.Object({
  transaction_id: Type.String(),
  order_id: Nullable(Type.String()),
  expires_at: Instant('when the uncaptured authorization expires (7 days after it was approved)'),
  currency: Type.String(),
  amount: Type.Number({ description: 'what is still authorized and uncaptured' }),
});
export type ExpiringAuthorization = Static<typeof ExpiringAuthorizationSchema>;

/** A stored sale declined when its till forwarded it: the customer has the goods; follow it up. */
export const ForwardedDeclineItemSchema = Type.Object({
  transaction_id: Type.String(),
  till_id: Type.String(),
  staff_name: Nullable(Type.String(), { description: 'the cashier who took it' }),
  order_id: Nullable(Type.String()),
  amount: Type.Number(),
  currency: Type.String(),
  card_brand: Nullable(Type.String()),
  card_last_four: Nullable(Type.String()),
  message: Nullable(Type.String({ description: 'the decline, e.g. "51 Insufficient funds"' })),
  stored_at: Type.String({ format: 'date-time' }),
  forwarded_at: Type.String({ format: 'date-time' }),
});
export type ForwardedDeclineItem = Static<typeof ForwardedDeclineItemSchema>;

export const AttentionSchema = Type.Object({
  postbacks_retrying: Type.Object({ count: Type.Integer({ description: 'postbacks whose attempts failed so far and that are retried' }) }),
  postbacks_failed: Type.Object({ count: Type.Integer({ description: 'postbacks that gave up (until resent)' }) }),
  invoices_expiring: Type.Object({
    count: Type.Integer({ description: 'active, unpaid invoices whose pay link expires within 24 hours' }),
    items: Type.Array(ExpiringInvoiceSchema, { description: 'the soonest first, at most 5' }),
  }),
  invoice_emails_failed: Type.Object({
    count: Type.Integer({ description: 'invoices whose latest e-mail failed' }),
    items: Type.Array(FailedInvoiceEmailSchema, { description: 'the latest first, at most 5' }),
  }),
  tokens_suspended: Count,
  forwarded_declines: Type.Object({
    count: Type.Integer({
      description:
        "stored sales a till forwarded that were declined (by the bank, or by the centre: over the till's limits), not marked handled yet (POST /ui/forwarded-declines/{transaction_id}/handled)",
    }),
    items: Type.Array(ForwardedDeclineItemSchema, { description: 'the latest first, at most 5' }),
  }),
  authorizations_expiring: Type.Object({
    count: Type.Integer({ description: 'authorizations still uncaptured that expire within 24 hours' }),
    items: Type.Array(ExpiringAuthorizationSchema, { description: 'the soonest first, at most 5' }),
  }),
});
export type Attention = Static<typeof AttentionSchema>;

export const DashboardSchema = Type.Object(
  {
    period: StringEnum(DASHBOARD_PERIODS),
    time_zone: Type.String({ description: "the shop's time zone (IANA), in which days and hours start" }),
    bucket: StringEnum(['hour', 'day'] as const, { description: 'what one entry of `series` covers' }),
    from: Instant('start of the period'),
    to: Instant('end of its last hour or day'),
    generated_at: Instant('when these figures were read'),
    totals: PaymentCountsSchema,
    volume: Type.Array(MoneySumSchema, {
      description:
        'captured money per currency of the payments made in the period (count: payments that took money), the currency with most first',
    }),
    refunds: Type.Array(MoneySumSchema, { description: 'refunds made in the period (whenever the payment was), per currency' }),
    payment_types: Type.Array(PaymentTypeFiguresSchema, { description: 'the mix: per payment type, most payments first' }),
    series: Type.Array(DashboardBucketSchema, { description: 'per hour (today) or per day, oldest first, up to the current one' }),
    attention: AttentionSchema,
  },
  { title: 'Dashboard' },
);
/** What GET /ui/dashboard answers. */
export type Dashboard = Static<typeof DashboardSchema>;

/** The dashboard operations (contract/operation-table.ts). */
export const dashboardOperations = {
  'dashboard.get': { querystring: DashboardQuerySchema, response: { 200: DashboardSchema } },
} as const satisfies SchemasOf<'dashboard'>;
