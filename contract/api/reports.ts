/**
 * Closing the day at a till (docs/operations.md "Closing the day"): the X report of the open day,
 * the Z report that closes it, the till's closed days, and a report as receipt-printer lines.
 */
import { Type, type Static } from '@sinclair/typebox';
import { TILL_TERMINAL_ID } from '../constants.js';
import { Nullable, StringEnum, StringIn } from './common.js';
import { PrintResultSchema } from './receipts.js';
import type { SchemasOf } from './operation-schemas.js';

export const FigureSchema = Type.Object({ count: Type.Integer(), amount: Type.Number({ description: 'decimal in the currency' }) });
export type Figure = Static<typeof FigureSchema>;

const figureFields = {
  currency: Type.String(),
  approved: FigureSchema,
  declined: FigureSchema,
  refunded: FigureSchema,
  net: Type.Number({ description: 'approved minus refunded' }),
};
export const FigureRowSchema = Type.Object(figureFields);
/** A day's figures in one currency; net is approved minus refunded. */
export type FigureRow = Static<typeof FigureRowSchema>;
export const BrandRowSchema = Type.Object({ card_brand: Type.String(), ...figureFields });
export type BrandRow = Static<typeof BrandRowSchema>;
export const EntryModeRowSchema = Type.Object({ entry_mode: Type.String(), ...figureFields });
export type EntryModeRow = Static<typeof EntryModeRowSchema>;
export const CashierRowSchema = Type.Object({
  staff_id: Nullable(Type.String(), { description: 'null: sent with API credentials' }),
  name: Type.String(),
  ...figureFields,
});
export type CashierRow = Static<typeof CashierRowSchema>;

export const StaffRefSchema = Type.Object({ staff_id: Type.String(), name: Type.String() });
export type StaffRef = Static<typeof StaffRefSchema>;
const NullableStaff = Nullable(StaffRefSchema);
const NullableTime = Nullable(Type.String({ format: 'date-time' }));

const CurrencySum = Type.Object({ currency: Type.String(), count: Type.Integer(), amount: Type.Number() });

/**
 * A joined till's sales stored while its centre was away (issue 26): counted as taken in the day's
 * figures; the report is provisional while any is not forwarded yet, and says which the bank
 * declined when they were forwarded (the customer has the goods: follow them up).
 */
export const StoredSalesSchema = Type.Object({
  provisional: Type.Boolean({ description: 'true while stored sales of this day have not reached the centre' }),
  pending: Type.Array(CurrencySum, { description: 'stored, not forwarded yet' }),
  forwarded: Type.Array(CurrencySum, { description: 'forwarded and approved' }),
  declined_when_forwarded: Type.Array(CurrencySum),
});
export type StoredSales = Static<typeof StoredSalesSchema>;

export const DayReportSchema = Type.Object(
  {
    report: StringEnum(['x', 'z'], { description: 'x: the open day so far; z: a closed day, never changed' }),
    shop_name: Type.String(),
    terminal_id: Type.String(),
    sequence: Type.Integer({ description: "Z: the report's number at this till; X: the number the day gets when closed" }),
    opened_at: Nullable(Type.String({ format: 'date-time' }), { description: "the previous Z report's close; null on a till's first day" }),
    closed_at: NullableTime,
    generated_at: Type.String({ format: 'date-time' }),
    first_entry_at: Nullable(Type.String({ format: 'date-time' }), {
      description: "the day's first counted entry: a sale, a decline or a refund",
    }),
    last_entry_at: Nullable(Type.String({ format: 'date-time' }), {
      description: "the day's last counted entry: a sale, a decline or a refund",
    }),
    first_sale_at: Nullable(Type.String({ format: 'date-time' }), {
      description: "the day's first approved sale (null without one, and in Z reports closed before the two were told apart)",
    }),
    last_sale_at: Nullable(Type.String({ format: 'date-time' }), {
      description: "the day's last approved sale; a later refund or decline is not a sale",
    }),
    closed_by: NullableStaff,
    approved_by: NullableStaff,
    ledger: Type.Object(
      { from: Type.Integer(), to: Type.Integer() },
      { description: "the day's range in the till's ledger: after `from`, up to and including `to`" },
    ),
    totals: Type.Array(FigureRowSchema, { description: 'per currency' }),
    by_card_brand: Type.Array(BrandRowSchema),
    by_entry_mode: Type.Array(EntryModeRowSchema),
    by_cashier: Type.Array(CashierRowSchema),
    stored_sales: Type.Optional(StoredSalesSchema),
    final_totals: Type.Optional(
      Type.Array(FigureRowSchema, {
        description:
          "A closed day of a joined till: its totals now that every sale it counted has its outcome, from the same entries by the same rule (a stored sale declined when forwarded counts as declined, not taken). At the centre, from the centre's own records of the entries the till counted.",
      }),
    ),
  },
  { title: 'DayReport' },
);
/** An X report (the open day so far) or a Z report (a closed day, never changed). */
export type DayReport = Static<typeof DayReportSchema>;
/** The figures of a day: totals per currency and per card brand, entry mode and cashier. */
export type DaySections = Pick<DayReport, 'totals' | 'by_card_brand' | 'by_entry_mode' | 'by_cashier'>;

export const ZReportSummarySchema = Type.Object({
  sequence: Type.Integer(),
  terminal_id: Type.String(),
  opened_at: NullableTime,
  closed_at: Type.String({ format: 'date-time' }),
  closed_by: StaffRefSchema,
  approved_by: NullableStaff,
  totals: Type.Array(FigureRowSchema),
});
export type ZReportSummary = Static<typeof ZReportSummarySchema>;

export const ZReportListSchema = Type.Object({
  terminal_id: Type.String(),
  total: Type.Integer(),
  items: Type.Array(ZReportSummarySchema),
});
export type ZReportList = Static<typeof ZReportListSchema>;

export const ReceiptLinesSchema = Type.Object({
  columns: Type.Integer({ description: 'characters per line (80 mm paper, font A)' }),
  lines: Type.Array(Type.String(), { description: 'print each line as it is, monospaced' }),
});
/** A report as lines for a receipt printer. */
export type ReceiptLines = Static<typeof ReceiptLinesSchema>;

/** The shop's day: every active till's open day, each till's totals and the sums of them all (GET /ui/reports/shop). */
export const ShopDaySchema = Type.Object(
  {
    generated_at: Type.String({ format: 'date-time' }),
    tills: Type.Array(
      Type.Object({
        till_id: Type.String(),
        name: Type.String(),
        sequence: Type.Integer({ description: 'the number its open day gets when closed' }),
        opened_at: NullableTime,
        last_sale_at: NullableTime,
        totals: Type.Array(FigureRowSchema),
      }),
    ),
    totals: Type.Array(FigureRowSchema, { description: 'every till summed, per currency' }),
    by_card_brand: Type.Array(BrandRowSchema),
    by_entry_mode: Type.Array(EntryModeRowSchema),
    by_cashier: Type.Array(CashierRowSchema),
  },
  { title: 'ShopDay' },
);
export type ShopDay = Static<typeof ShopDaySchema>;

/**
 * One sale of a day's list (Today's sales): a card-present sale whose entry (taken or declined) is in
 * the open day of its till, with the refunds of it made in that day. From the same ledger entries,
 * by the same rule, as the X report's figures (D19).
 */
export const DaySaleSchema = Type.Object({
  transaction_id: Type.String(),
  order_id: Nullable(Type.String()),
  taken_at: Type.String({ format: 'date-time', description: 'when the sale was taken (a stored sale: when the till stored it)' }),
  counted: StringEnum(['approved', 'declined'] as const, {
    description: 'what the day counts it as (a stored sale declined when forwarded: declined)',
  }),
  status_code: Type.Integer(),
  status: Type.String(),
  message: Nullable(Type.String()),
  amount: Type.Number(),
  currency: Type.String(),
  refunded: Type.Number({ description: 'refunded of it so far, on any day' }),
  refundable: Type.Number({ description: 'what a refund may still take back' }),
  card_brand: Nullable(Type.String()),
  card_last_four: Nullable(Type.String()),
  entry_mode: Nullable(Type.String()),
  till_id: Nullable(Type.String(), { description: 'its till; null: a terminal that is no till (other terminals)' }),
  terminal_id: Nullable(Type.String(), { description: 'pos_data.terminal.id as sent' }),
  cashier: Nullable(StaffRefSchema, { description: 'null: sent with API credentials' }),
  refunds: Type.Array(Type.Object({ refund_id: Type.String(), amount: Type.Number(), created_at: Type.String({ format: 'date-time' }) }), {
    description: 'its refunds counted in this day',
  }),
});
export type DaySale = Static<typeof DaySaleSchema>;

/** A refund counted in the day of a sale of an earlier day. */
export const DayRefundSchema = Type.Object({
  refund_id: Type.String(),
  transaction_id: Type.String(),
  order_id: Nullable(Type.String()),
  amount: Type.Number(),
  currency: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  card_brand: Nullable(Type.String()),
  card_last_four: Nullable(Type.String()),
  till_id: Nullable(Type.String()),
});
export type DayRefund = Static<typeof DayRefundSchema>;

/** A till's open day as a list (Today's sales), or the whole shop's (GET /ui/reports/sales). */
export const DaySalesSchema = Type.Object(
  {
    scope: StringEnum(['till', 'shop'] as const),
    till_id: Nullable(Type.String(), { description: 'the till (or * for other terminals); null for the whole shop' }),
    name: Type.String({ description: "the till's name, Other terminals, or the shop's name" }),
    sequence: Nullable(Type.Integer({ description: 'the number its open day gets when closed; null for the whole shop' })),
    opened_at: NullableTime,
    totals: Type.Array(FigureRowSchema, {
      description: "per currency, from the listed entries: the X report's totals (the shop's day's for the whole shop)",
    }),
    sales: Type.Array(DaySaleSchema, { description: 'newest first' }),
    earlier_refunds: Type.Array(DayRefundSchema, { description: 'refunds made in this day of sales of an earlier day, newest first' }),
  },
  { title: 'DaySales' },
);
export type DaySales = Static<typeof DaySalesSchema>;
export const DaySalesQuerySchema = Type.Object(
  {
    terminal_id: Type.Optional(
      Type.String({
        pattern: '^[\\x21-\\x7e]{1,40}$',
        description: "a till's id (or * for other terminals); default this screen's till. A cashier sees only their own till's",
      }),
    ),
    scope: Type.Optional(StringIn(['till', 'shop'], { description: 'shop: every till of the shop (back office and admin)' })),
  },
  { additionalProperties: false },
);

const TerminalId = Type.String({
  pattern: '^[\\x21-\\x7e]{1,40}$',
  description: `the till's terminal id; default: this screen's till (${TILL_TERMINAL_ID} where the shop has one)`,
});
export const TerminalQuerySchema = Type.Object({ terminal_id: Type.Optional(TerminalId) }, { additionalProperties: false });
export const ZReportListQuerySchema = Type.Object(
  {
    terminal_id: Type.Optional(TerminalId),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'page size, default 20, at most 100' })),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' })),
  },
  { additionalProperties: false },
);
export const ZReportParams = Type.Object({ sequence: Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'the Z report number' }) });

/** Closing the day: a cashier's approval, and the key that makes a retry answer the day it closed. */
export const CloseDayHeadersSchema = Type.Object({
  'x-manager-approval': Type.Optional(Type.String({ description: 'a cashier: the token of POST /ui/approvals with action day_close' })),
  'idempotency-key': Type.Optional(Type.String({ description: 'a retry with the same key never closes a second day' })),
});

/** A report as an A4 PDF (application/pdf, not JSON). */
export const ReportPdfSchema = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: 'application/pdf' });

/** The reports' operations (contract/operation-table.ts). */
export const reportsOperations = {
  'reports.shopDay': { response: { 200: ShopDaySchema } },
  'reports.sales': { querystring: DaySalesQuerySchema, response: { 200: DaySalesSchema } },
  'reports.x': { querystring: TerminalQuerySchema, response: { 200: DayReportSchema } },
  'reports.closeDay': {
    querystring: TerminalQuerySchema,
    headers: CloseDayHeadersSchema,
    response: { 201: DayReportSchema, 200: DayReportSchema },
  },
  'reports.zList': { querystring: ZReportListQuerySchema, response: { 200: ZReportListSchema } },
  'reports.z': { params: ZReportParams, querystring: TerminalQuerySchema, response: { 200: DayReportSchema } },
  'reports.zPdf': { params: ZReportParams, querystring: TerminalQuerySchema, response: { 200: ReportPdfSchema } },
  'reports.xPdf': { querystring: TerminalQuerySchema, response: { 200: ReportPdfSchema } },
  'reports.zReceipt': { params: ZReportParams, querystring: TerminalQuerySchema, response: { 200: ReceiptLinesSchema } },
  'reports.printZ': { params: ZReportParams, querystring: TerminalQuerySchema, response: { 200: PrintResultSchema } },
  'reports.printX': { querystring: TerminalQuerySchema, response: { 200: PrintResultSchema } },
  'reports.xReceipt': { querystring: TerminalQuerySchema, response: { 200: ReceiptLinesSchema } },
} as const satisfies SchemasOf<'reports'>;
