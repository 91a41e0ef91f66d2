/**
 * Payments (docs/api.md "Payments", "Requests and errors"): the requests of `/rest/payment`,
 * `/rest/authorize`, `/rest/register`, captures, reversals, refunds, payouts and wallet
 * subscriptions, and their answers. Amounts are JSON decimals in the currency.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PAYMENT_TYPES, SUBSCRIPTION_STATUSES, WALLET_CAPTURE_EVENTS } from '../constants.js';
import { IdempotencyHeaders, Nullable, RefTo, Str, StringEnum, StringIn } from './common.js';
import type { SchemasOf } from './operation-schemas.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const Amount = (description: string) => Type.Number({ description });

export const PosDataSchema = Type.Object(
  {
    type: Opt(
      Type.Object(
        {
          terminal_entry_mode: Opt(Str(20, 'contactless, chip, swipe or manual')),
          sequence: Opt(Str(20, '`subsequent` on a PIN retry after `request_pin`')),
        },
        { additionalProperties: false },
      ),
    ),
    card: Opt(
      Type.Object(
        {
          number: Opt(Str(19, 'PAN')),
          expiry_month: Opt(Type.Integer({ minimum: 1, maximum: 12 })),
          expiry_year: Opt(Type.Integer({ minimum: 0, maximum: 2099 })),
          track2_data: Opt(Str(40)),
          emv_data: Opt(Str(2048, 'BER-TLV hex (tags 5A, 5F24, 57, 4F, 50 are read)')),
        },
        { additionalProperties: false },
      ),
    ),
    pin_block: Opt(
      Type.Object(
        {
          format: Opt(Str(10, 'ISO-0')),
          block: Opt(Str(16, '16 hex characters, TDES-ECB under the key zone_id/key_id')),
          zone_id: Opt(Str(40)),
          key_id: Opt(Str(40)),
        },
        { additionalProperties: false },
      ),
    ),
    terminal: Opt(
      Type.Object(
        {
          id: Opt(Str(64)),
          type: Opt(Str(40, 'e.g. softpos')),
          attended: Opt(Type.Boolean()),
          capabilities: Opt(Type.Array(Str(40), { maxItems: 20, description: 'e.g. contactlessChip, onlinePin, noCvm' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'card-present data; required for cardpos' },
);
/** `pos_data` of a card-present request. */
export type PosData = Static<typeof PosDataSchema>;
export type PosCard = NonNullable<PosData['card']>;

const paymentFields = {
  // No enum here: an unknown type is 1004 (decisions.md D3), which the core answers, not 1001.
  payment_type: Type.String({ maxLength: 40, examples: [...PAYMENT_TYPES], description: `one of ${PAYMENT_TYPES.join(', ')}` }),
  order_id: Str(100),
  amount: Amount('decimal in the currency (10.55); 0 performs an account check for card types'),
  currency: Str(3, 'ISO 4217'),
  merchant_reference: Opt(Str(35, "letters, digits, space and / - ? ( ) : . , ' +; required in the redirect integration")),
  additional_transaction_data: Opt(Str(2000)),
  postback_url: Opt(Str(2000)),
  success_url: Opt(Str(2000)),
  error_url: Opt(Str(2000)),
  recurring: Opt(Type.Integer({ description: '1 marks a recurring payment or a card save' })),
  original_transaction_id: Opt(Str(64)),
  sepa_mandate: Opt(Str(35)),
  subscription_plan_id: Opt(Str(100)),
  first_name: Opt(Str(100)),
  last_name: Opt(Str(100)),
  email: Opt(Str(254)),
  address: Opt(Str(200)),
  city: Opt(Str(100)),
  postal_code: Opt(Str(20)),
  country: Opt(Str(2, 'ISO 3166-1 alpha-2')),
  card_number: Opt(Str(23)),
  card_holder: Opt(Str(120)),
  card_expiry_month: Opt(Str(2)),
  card_expiry_year: Opt(Str(4)),
  card_cvv: Opt(Str(4, 'never stored')),
  threeds_wallet_cryptogram: Opt(Str(200)),
  threeds_wallet_cryptogram_eci: Opt(Str(2)),
  pos_data: Opt(PosDataSchema),
  execution_date: Opt(Str(10, 'YYYY-MM-DD, informative')),
  iban: Opt(Str(42, 'dd, dd_b2b')),
  bic: Opt(Str(11)),
  account_holder: Opt(Str(70)),
};

/** `POST /rest/payment` and `/rest/register`. */
export const PaymentRequestSchema = Type.Object(paymentFields, { additionalProperties: false });
/** `POST /rest/authorize`: a payment request plus the wallet's capture event. */
export const AuthorizeRequestSchema = Type.Object(
  { ...paymentFields, wallet_capture_event: Opt(StringIn(WALLET_CAPTURE_EVENTS, { description: 'wallet only; default OTHER' })) },
  { additionalProperties: false },
);
/** The body of a payment, authorization or registration (only an authorization carries `wallet_capture_event`). */
export type PaymentRequest = Static<typeof AuthorizeRequestSchema>;

export const TransactionResponseSchema = Type.Object(
  {
    transaction_id: Type.String(),
    payment_type: Type.String(),
    status_code: Type.Integer(),
    status: Type.String(),
    order_id: Nullable(Type.String()),
    message: Nullable(Type.String(), { description: 'on a decline: "<code> <text>", or request_pin' }),
    reason_code: Opt(Type.String()),
    additional_transaction_data: Nullable(Type.String()),
    amount: Type.Number(),
    currency: Type.String(),
    included_fees: Type.String({ description: 'decimal text, e.g. "0.39"' }),
    error_code: Type.Integer(),
    client_action: Opt(StringEnum(['redirect', 'postform'])),
    action_data: Opt(Type.Object({ url: Type.String(), fields: Opt(Type.Record(Type.String(), Type.String())) })),
    card_brand: Opt(Type.String()),
    card_last_four: Opt(Type.String()),
    card_expiry_month: Opt(Type.Integer()),
    card_expiry_year: Opt(Type.Integer()),
    sepa_mandate: Opt(Type.String()),
    sepa_msg_id: Opt(Type.String()),
    subscription_status: Opt(Type.String()),
    wallet_capture_event: Opt(Type.String()),
    insert_card: Opt(Type.Boolean({ description: 'on request_pin: insert the card to enter the PIN' })),
    authorization_code: Opt(Type.String({ description: 'approval code for receipts' })),
  },
  { $id: 'TransactionResponse', title: 'Transaction response' },
);
/** The answer to a payment, an authorization or a registration; a decline is one too (status_code 6). */
export type TransactionResponse = Static<typeof TransactionResponseSchema>;

export const CaptureRequestSchema = Type.Object(
  {
    transaction_id: Str(64),
    amount: Opt(Amount('default: all that is still authorized')),
    vat: Opt(Amount('VAT included in the captured amount')),
    execution_date: Opt(Str(10)),
  },
  { additionalProperties: false },
);
export type CaptureRequest = Static<typeof CaptureRequestSchema>;

export const CaptureResponseSchema = Type.Object(
  {
    transaction_id: Type.String(),
    status_code: Type.Integer(),
    status: Type.String(),
    order_id: Nullable(Type.String()),
    message: Nullable(Type.String()),
    amount: Type.Number({ description: 'captured by this request' }),
    captured_amount: Type.Number({ description: 'captured in total' }),
    card_last_four: Opt(Type.String()),
    card_expiry_year: Opt(Type.Integer()),
    card_expiry_month: Opt(Type.Integer()),
    card_brand: Opt(Type.String()),
    error_code: Type.Integer(),
  },
  { $id: 'CaptureResponse', title: 'Capture response' },
);
export type CaptureResponse = Static<typeof CaptureResponseSchema>;

export const ReverseRequestSchema = Type.Object(
  { transaction_id: Str(64), amount: Opt(Amount('default: the whole uncaptured amount')), execution_date: Opt(Str(10)) },
  { additionalProperties: false },
);
export type ReverseRequest = Static<typeof ReverseRequestSchema>;

export const ReverseResponseSchema = Type.Object(
  {
    transaction_id: Type.String(),
    status_code: Type.Integer(),
    status: Type.String(),
    amount: Type.Number({ description: 'reversed by this request' }),
    remaining_amount: Type.Number({ description: 'still authorized' }),
    error_code: Type.Integer(),
  },
  { $id: 'ReverseResponse', title: 'Reversal response' },
);
export type ReverseResponse = Static<typeof ReverseResponseSchema>;

export const RefundRequestSchema = Type.Object(
  {
    transaction_id: Str(64),
    amount: Opt(Amount('default: all that is still refundable')),
    merchant_refund_id: Opt(Str(64)),
    merchant_reference: Opt(Str(35)),
    execution_date: Opt(Str(10)),
  },
  { additionalProperties: false },
);
export type RefundRequest = Static<typeof RefundRequestSchema>;

export const RefundResponseSchema = Type.Object(
  {
    refund_id: Type.String(),
    transaction_id: Type.String(),
    status_code: Type.Integer({ description: '0 started, 1 success, 2 error' }),
    status: Type.String(),
    amount: Type.Number(),
    currency: Type.String(),
    merchant_refund_id: Nullable(Type.String()),
    merchant_reference: Nullable(Type.String()),
    transaction_status_code: Type.Integer(),
    transaction_status: Type.String(),
    error_code: Type.Integer(),
  },
  { $id: 'RefundResponse', title: 'Refund response' },
);
export type RefundResponse = Static<typeof RefundResponseSchema>;

export const PayoutRequestSchema = Type.Object(
  {
    payment_type: Type.String({ description: 'cardpos (card credit) or a2a' }),
    order_id: Str(100),
    amount: Amount('including fees'),
    currency: Str(3),
    merchant_reference: Str(35),
    postback_url: Str(2000),
    country: Str(2),
    first_name: Opt(Str(100)),
    last_name: Opt(Str(100)),
    address: Opt(Str(200)),
    city: Opt(Str(100)),
    postal_code: Opt(Str(20)),
    email: Opt(Str(254, "the recipient; a2a: identifies the recipient (the scheme's directory)")),
    original_transaction_id: Opt(Str(64, 'a2a: pay back the payer of this completed a2a payment')),
    iban: Opt(Str(42, 'a2a, optional: the recipient account')),
    account_holder: Opt(Str(70)),
    pos_data: Opt(PosDataSchema),
  },
  { additionalProperties: false },
);
export type PayoutRequest = Static<typeof PayoutRequestSchema>;

export const PayoutResponseSchema = Type.Object(
  {
    transaction_id: Type.String(),
    status_code: Type.Integer(),
    status: Type.String(),
    order_id: Nullable(Type.String()),
    error_code: Type.Integer(),
  },
  { $id: 'PayoutResponse', title: 'Payout response' },
);
export type PayoutResponse = Static<typeof PayoutResponseSchema>;

export const SubscriptionRequestSchema = Type.Object(
  { transaction_id: Str(64), amount: Opt(Amount('revise only: new amount')), subscription_plan_id: Opt(Str(100)) },
  { additionalProperties: false },
);
export type SubscriptionRequest = Static<typeof SubscriptionRequestSchema>;
export const CancelRequestSchema = Type.Object({ transaction_id: Str(64) }, { additionalProperties: false });

export const SubscriptionResponseSchema = Type.Object(
  {
    transaction_id: Type.String(),
    subscription_status: StringEnum(SUBSCRIPTION_STATUSES),
    subscription_plan_id: Nullable(Type.String()),
    amount: Type.Number(),
    error_code: Type.Integer(),
    client_action: Opt(Type.String()),
    action_data: Opt(Type.Object({ url: Type.String() })),
  },
  { $id: 'SubscriptionResponse', title: 'Subscription response' },
);
export type SubscriptionResponse = Static<typeof SubscriptionResponseSchema>;

/** The payments operations (contract/operation-table.ts): each takes an Idempotency-Key and answers a registered schema by $id. */
export const paymentsOperations = {
  'payments.create': { headers: IdempotencyHeaders, body: PaymentRequestSchema, response: { 200: RefTo(TransactionResponseSchema) } },
  'payments.authorize': { headers: IdempotencyHeaders, body: AuthorizeRequestSchema, response: { 200: RefTo(TransactionResponseSchema) } },
  'payments.register': { headers: IdempotencyHeaders, body: PaymentRequestSchema, response: { 200: RefTo(TransactionResponseSchema) } },
  'payments.capture': { headers: IdempotencyHeaders, body: CaptureRequestSchema, response: { 200: RefTo(CaptureResponseSchema) } },
  'payments.reverse': { headers: IdempotencyHeaders, body: ReverseRequestSchema, response: { 200: RefTo(ReverseResponseSchema) } },
  'payments.refund': { headers: IdempotencyHeaders, body: RefundRequestSchema, response: { 200: RefTo(RefundResponseSchema) } },
  'payments.payout': { headers: IdempotencyHeaders, body: PayoutRequestSchema, response: { 200: RefTo(PayoutResponseSchema) } },
  'payments.cancel': { headers: IdempotencyHeaders, body: CancelRequestSchema, response: { 200: RefTo(SubscriptionResponseSchema) } },
  'payments.revise': { headers: IdempotencyHeaders, body: SubscriptionRequestSchema, response: { 200: RefTo(SubscriptionResponseSchema) } },
} as const satisfies SchemasOf<'payments'>;
