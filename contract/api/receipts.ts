/**
 * Receipts (decisions.md D16: receipts are rebuilt from the gateway's record): one shape for a sale
 * and a refund, the receipt printer setting, receipt e-mails and QR links. The routes use these
 * schemas (they feed the OpenAPI document); the core builds the values; the renderer imports the
 * types, so a field is declared once.
 */
import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_STATUSES, PRINTER_CONNECTIONS, RECEIPT_LANGUAGES } from '../constants.js';
import { Nullable } from './common.js';
import type { SchemasOf } from './operation-schemas.js';

export const ReceiptCardSchema = Type.Object(
  {
    brand: Type.String({ description: 'visa, mastercard, amex, discover or unknown' }),
    last_four: Type.String({ pattern: '^[0-9]{4}$' }),
    entry_mode: Nullable(Type.String({ description: 'card-present: contactless, chip, swipe or manual' })),
    application_label: Nullable(Type.String({ description: "the chip's application label (EMV tag 50), when the card gave it" })),
    aid: Nullable(Type.String({ description: "the chip's application id (EMV tag 4F), hex", pattern: '^[0-9A-F]{10,32}$' })),
  },
  { title: 'Receipt card', description: 'Brand, last four and what the chip said; never more of the card' },
);

export const ReceiptSchema = Type.Object(
  {
    receipt_id: Type.String({ description: 'the transaction id of a sale, the refund id of a refund' }),
    kind: Type.Union([Type.Literal('sale'), Type.Literal('refund')]),
    transaction_id: Type.String({ description: 'the card transaction; for a refund, the sale it refunds' }),
    refund_id: Nullable(Type.String()),
    merchant_name: Type.String(),
    language: Type.Union(
      RECEIPT_LANGUAGES.map((code) => Type.Literal(code)),
      { description: "the merchant's language: printed receipts use it" },
    ),
    created_at: Type.String({ format: 'date-time', description: 'when the sale was approved or the refund made' }),
    order_id: Nullable(Type.String()),
    terminal_id: Nullable(Type.String()),
    payment_type: Type.String(),
    amount: Type.Number(),
    currency: Type.String(),
    card: Nullable(ReceiptCardSchema),
    verification: Type.Union([Type.Literal('online_pin'), Type.Literal('none')], {
      description: 'online_pin: the PIN was verified by the bank',
    }),
    authorization_code: Nullable(Type.String({ description: "the issuer's approval code of the sale" })),
    reference: Nullable(Type.String({ description: "the card network's reference of a refund" })),
  },
  { title: 'Receipt' },
);
export type Receipt = Static<typeof ReceiptSchema>;
export type ReceiptCard = Static<typeof ReceiptCardSchema>;

export const ReceiptPrinterSchema = Type.Object(
  {
    connection: Type.Union(
      PRINTER_CONNECTIONS.map((c) => Type.Literal(c)),
      { description: 'network: ESC/POS over TCP (port 9100); usb: the printer device file' },
    ),
    host: Nullable(Type.String({ description: 'network printer: host name or IP address' })),
    port: Nullable(Type.Integer({ minimum: 1, maximum: 65535 })),
    device: Nullable(Type.String({ description: 'USB printer: device path, e.g. /dev/usb/lp0' })),
    characters_per_line: Type.Integer({ minimum: 24, maximum: 64, description: '42 on most 80 mm printers (48 on some), 32 on 58 mm' }),
    auto_print: Type.Boolean({ description: 'print the receipt of every approved card-present sale at once' }),
    updated_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'Receipt printer' },
);
export type ReceiptPrinterSetting = Static<typeof ReceiptPrinterSchema>;

export const ReceiptPrinterInputSchema = Type.Object(
  {
    connection: Type.Union(PRINTER_CONNECTIONS.map((c) => Type.Literal(c))),
    host: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    device: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    characters_per_line: Type.Optional(Type.Integer({ minimum: 24, maximum: 64 })),
    auto_print: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ReceiptPrinterInput = Static<typeof ReceiptPrinterInputSchema>;

export const PrintResultSchema = Type.Object(
  {
    printed: Type.Boolean(),
    printer: Type.String({ description: 'where it went, e.g. 192.168.1.50:9100' }),
    message: Type.String(),
  },
  { title: 'Print result', description: 'A printer that does not answer is a result (printed false), not an error' },
);
export type PrintResult = Static<typeof PrintResultSchema>;

export const ReceiptEmailInputSchema = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, description: "the customer's e-mail address" }),
    language: Type.Optional(
      Type.Union(
        RECEIPT_LANGUAGES.map((code) => Type.Literal(code)),
        { description: "default: the merchant's language" },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ReceiptEmailInput = Static<typeof ReceiptEmailInputSchema>;

export const ReceiptEmailSchema = Type.Object(
  {
    email_id: Type.String(),
    receipt_id: Type.String(),
    recipient: Type.String(),
    language: Type.String(),
    status: Type.Union(EMAIL_STATUSES.map((status) => Type.Literal(status))),
    subject: Type.String(),
    body_text: Type.String(),
    attempts: Type.Integer(),
    sent_at: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    test_outbox: Type.Boolean({ description: 'kept in the local test outbox (no SMTP server configured)' }),
    created_at: Type.String(),
  },
  { title: 'Receipt e-mail' },
);
export type ReceiptEmail = Static<typeof ReceiptEmailSchema>;

export const ReceiptLinkSchema = Type.Object(
  {
    url: Type.String({ description: "the receipt page: the customer's link (unguessable token)" }),
    qr_code: Type.String({ description: 'data:image/png;base64 QR code of the url' }),
  },
  { title: 'Receipt link' },
);
export type ReceiptLink = Static<typeof ReceiptLinkSchema>;

export const ReceiptIdParams = Type.Object({
  receipt_id: Type.String({ minLength: 1, maxLength: 64, description: 'a sale (transaction id) or a refund (refund id)' }),
});

/** The receipts operations (contract/operation-table.ts). */
export const receiptsOperations = {
  'receipts.get': { params: ReceiptIdParams, response: { 200: ReceiptSchema } },
  'receipts.print': { params: ReceiptIdParams, response: { 200: PrintResultSchema } },
  'receipts.email': { params: ReceiptIdParams, body: ReceiptEmailInputSchema, response: { 202: ReceiptEmailSchema } },
  'receipts.emails': { params: ReceiptIdParams, response: { 200: Type.Array(ReceiptEmailSchema) } },
  'receipts.link': { params: ReceiptIdParams, response: { 200: ReceiptLinkSchema } },
  'receipts.printer': { response: { 200: ReceiptPrinterSchema } },
  'receipts.setPrinter': { body: ReceiptPrinterInputSchema, response: { 200: ReceiptPrinterSchema } },
  'receipts.testPrint': { response: { 200: PrintResultSchema } },
} as const satisfies SchemasOf<'receipts'>;
