/**
 * The transaction list and its CSV export (GET /rest/transactions, GET /rest/transactions/export;
 * docs/decisions.md "Back office: transactions"): the columns an export may carry, their order and
 * the default set, and the limits of a part. Values the gateway and the renderer share, Node-free.
 */

/**
 * Columns of the CSV export, in file order. Card data is the brand and the last four digits only;
 * no column ever carries more of a card number.
 */
export const EXPORT_COLUMNS = [
  'transaction_id',
  'created_at',
  'updated_at',
  'status_code',
  'status',
  'payment_type',
  'amount',
  'currency',
  'captured_amount',
  'refunded_amount',
  'included_fees',
  'order_id',
  'card_brand',
  'card_last_four',
  'entry_mode',
  'till_id',
  'cashier',
  'taken_at',
  'forwarded_at',
  'message',
  'merchant_reference',
  'additional_transaction_data',
  'recurring',
  'parent_id',
  'sepa_mandate',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** What an export carries when it names no columns. */
export const DEFAULT_EXPORT_COLUMNS: readonly ExportColumn[] = [
  'transaction_id',
  'created_at',
  'status',
  'payment_type',
  'amount',
  'currency',
  'captured_amount',
  'refunded_amount',
  'order_id',
  'card_brand',
  'card_last_four',
  'till_id',
  'cashier',
  'taken_at',
  'forwarded_at',
];

/** What each column is, for the OpenAPI document and the export dialog. */
export const EXPORT_COLUMN_LABELS: Readonly<Record<ExportColumn, string>> = {
  transaction_id: 'Transaction id',
  created_at: 'Created',
  updated_at: 'Last change',
  status_code: 'Status code',
  status: 'Status',
  payment_type: 'Payment type',
  amount: 'Amount',
  currency: 'Currency',
  captured_amount: 'Captured',
  refunded_amount: 'Refunded',
  included_fees: 'Fees',
  order_id: 'Order id',
  card_brand: 'Card brand',
  card_last_four: 'Card last four',
  entry_mode: 'Entry mode',
  till_id: 'Till',
  cashier: 'Cashier',
  taken_at: 'Taken (card-present: when the sale was taken, also a stored one)',
  forwarded_at: 'Forwarded (a sale a till stored while the centre was away)',
  message: 'Message',
  merchant_reference: 'Merchant reference',
  additional_transaction_data: 'Additional data',
  recurring: 'Recurring',
  parent_id: 'Parent transaction',
  sepa_mandate: 'SEPA mandate',
};

/** The most rows one part of an export may be asked for with `limit` (the desktop app exports in parts). */
export const EXPORT_PART_MAX_ROWS = 10_000;

/** Rows an export reads from the database at a time while it streams. */
export const EXPORT_CHUNK_ROWS = 1_000;

/** Most characters of a list's search box (transactions: an id, an order id or a last four; postbacks: an order id or an id). */
export const SEARCH_MAX_LENGTH = 128;

/** Response headers of an export: the rows it will carry, and where the next part starts. */
export const EXPORT_TOTAL_HEADER = 'X-Total-Count';
export const EXPORT_NEXT_HEADER = 'X-Next-Starting-After';
