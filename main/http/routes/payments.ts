/**
 * Payment endpoints (interface.md "Payments", decisions.md D3-D5): each route is its schema plus
 * one core call. Decimals arrive as JSON numbers; the core converts them to minor units.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Gateway } from '../../core/gateway.js';
import { PAYMENT_TYPES } from '../../core/payments/payment-types.js';
import {
  followUpFieldErrors,
  paymentFieldErrors,
  validatePayoutRequest,
  WALLET_CAPTURE_EVENTS,
  type PaymentOperation,
  type PaymentRequest,
  type PayoutFields,
} from '../../core/payments/request.js';
import { perform, send } from '../api-context.js';
import type { BodyFieldCheck } from '../errors.js';
import { apiResponses, IdempotencyHeaders } from '../schemas.js';

const Str = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const Amount = (description: string) => Type.Number({ description });

const PosData = Type.Object(
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
  pos_data: Opt(PosData),
  execution_date: Opt(Str(10, 'YYYY-MM-DD, informative')),
  iban: Opt(Str(42, 'dd, dd_b2b')),
  bic: Opt(Str(11)),
  account_holder: Opt(Str(70)),
};

const PaymentRequest = Type.Object(paymentFields, { additionalProperties: false });
const AuthorizeRequest = Type.Object(
  { ...paymentFields, wallet_capture_event: Opt(Type.String({ enum: [...WALLET_CAPTURE_EVENTS], description: 'wallet only; default OTHER' })) },
  { additionalProperties: false },
);

const TransactionResponse = Type.Object(
  {
    transaction_id: Type.String(),
    payment_type: Type.String(),
    status_code: Type.Integer(),
    status: Type.String(),
    order_id: Type.Union([Type.String(), Type.Null()]),
    message: Type.Union([Type.String(), Type.Null()], { description: 'on a decline: "<code> <text>", or request_pin' }),
    reason_code: Opt(Type.String()),
    additional_transaction_data: Type.Union([Type.String(), Type.Null()]),
    amount: Type.Number(),
    currency: Type.String(),
    included_fees: Type.String({ description: 'decimal text, e.g. "0.39"' }),
    error_code: Type.Integer(),
    client_action: Opt(Type.String({ enum: ['redirect', 'postform'] })),
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

const CaptureRequest = Type.Object(
  {
    transaction_id: Str(64),
    amount: Opt(Amount('default: all that is still authorized')),
    vat: Opt(Amount('VAT included in the captured amount')),
    execution_date: Opt(Str(10)),
  },
  { additionalProperties: false },
);
const CaptureResponse = Type.Object(
  {
    transaction_id: Type.String(),
    status_code: Type.Integer(),
    status: Type.String(),
    order_id: Type.Union([Type.String(), Type.Null()]),
    message: Type.Union([Type.String(), Type.Null()]),
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

const ReverseRequest = Type.Object(
  { transaction_id: Str(64), amount: Opt(Amount('default: the whole uncaptured amount')), execution_date: Opt(Str(10)) },
  { additionalProperties: false },
);
const ReverseResponse = Type.Object(
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

const RefundRequest = Type.Object(
  {
    transaction_id: Str(64),
    amount: Opt(Amount('default: all that is still refundable')),
    merchant_refund_id: Opt(Str(64)),
    merchant_reference: Opt(Str(35)),
    execution_date: Opt(Str(10)),
  },
  { additionalProperties: false },
);
const RefundResponse = Type.Object(
  {
    refund_id: Type.String(),
    transaction_id: Type.String(),
    status_code: Type.Integer({ description: '0 started, 1 success, 2 error' }),
    status: Type.String(),
    amount: Type.Number(),
    currency: Type.String(),
    merchant_refund_id: Type.Union([Type.String(), Type.Null()]),
    merchant_reference: Type.Union([Type.String(), Type.Null()]),
    transaction_status_code: Type.Integer(),
    transaction_status: Type.String(),
    error_code: Type.Integer(),
  },
  { $id: 'RefundResponse', title: 'Refund response' },
);

const PayoutRequest = Type.Object(
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
    email: Opt(Str(254)),
    iban: Opt(Str(42, 'a2a: the recipient account')),
    account_holder: Opt(Str(70)),
    pos_data: Opt(PosData),
  },
  { additionalProperties: false },
);
const PayoutResponse = Type.Object(
  {
    transaction_id: Type.String(),
    status_code: Type.Integer(),
    status: Type.String(),
    order_id: Type.Union([Type.String(), Type.Null()]),
    error_code: Type.Integer(),
  },
  { $id: 'PayoutResponse', title: 'Payout response' },
);

const SubscriptionRequest = Type.Object(
  { transaction_id: Str(64), amount: Opt(Amount('revise only: new amount')), subscription_plan_id: Opt(Str(100)) },
  { additionalProperties: false },
);
const CancelRequest = Type.Object({ transaction_id: Str(64) }, { additionalProperties: false });
const SubscriptionResponse = Type.Object(
  {
    transaction_id: Type.String(),
    subscription_status: Type.String({ enum: ['active', 'cancelled', 'approval_pending'] }),
    subscription_plan_id: Type.Union([Type.String(), Type.Null()]),
    amount: Type.Number(),
    error_code: Type.Integer(),
    client_action: Opt(Type.String()),
    action_data: Opt(Type.Object({ url: Type.String() })),
  },
  { $id: 'SubscriptionResponse', title: 'Subscription response' },
);

const RefundItem = Type.Object(
  {
    created_at: Type.String(),
    refund_id: Type.String(),
    amount: Type.Number(),
    status_code: Type.Integer(),
    status: Type.String(),
    merchant_reference: Opt(Type.String()),
    merchant_refund_id: Opt(Type.String()),
    execution_date: Opt(Type.String()),
  },
  { $id: 'Refund', title: 'Refund' },
);

/** Response schemas referenced by $id; registered once at the root by buildServer. */
export const paymentSchemas = [TransactionResponse, CaptureResponse, ReverseResponse, RefundResponse, PayoutResponse, SubscriptionResponse, RefundItem];

const post = <B extends TSchema>(summary: string, description: string, body: B, response: string, errors: number[], bodyFieldErrors: BodyFieldCheck) => ({
  schema: {
    tags: ['Payments'],
    summary,
    description,
    headers: IdempotencyHeaders,
    body,
    response: apiResponses({ 200: Type.Ref(response) }, errors),
  },
  config: { bodyFieldErrors },
});

const FOLLOW_UP_ERRORS = [400, 404, 409, 422, 502];
const CREATE_ERRORS = [400, 409, 422, 502];
/** The core's checks of a body the schema rejected (errors.ts): every bad field in one answer. */
const paymentChecks = (kind: PaymentOperation): BodyFieldCheck => (body, rejected) => paymentFieldErrors(kind, body as unknown as PaymentRequest, rejected);
const payoutChecks: BodyFieldCheck = (body, rejected) => {
  const result = validatePayoutRequest(body as unknown as PayoutFields, rejected);
  return result.ok ? [] : result.errors;
};
const followUpChecks: BodyFieldCheck = (body) => followUpFieldErrors(body);
const noChecks: BodyFieldCheck = () => [];

export function paymentRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const p = gateway.payments;
  return async (app) => {
    app.post(
      '/rest/payment',
      post('Create a payment', 'Authorization and capture in one step. A decline is HTTP 200 with status_code 6 and the code in `message`.', PaymentRequest, 'TransactionResponse', CREATE_ERRORS, paymentChecks('payment')),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.create(op, 'payment', request.body))),
    );
    app.post(
      '/rest/authorize',
      post('Authorize without capture', 'Reserves funds (status 4); capture or reverse later. `wallet_capture_event` only here.', AuthorizeRequest, 'TransactionResponse', CREATE_ERRORS, paymentChecks('authorize')),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.create(op, 'authorize', request.body))),
    );
    app.post(
      '/rest/register',
      post('Register a card for later charges', 'Redirects to card entry; send the returned transaction_id later as original_transaction_id with recurring=1.', PaymentRequest, 'TransactionResponse', CREATE_ERRORS, paymentChecks('register')),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.create(op, 'register', request.body))),
    );
    app.post(
      '/rest/capture',
      post('Capture an authorization', 'Full or partial; several partial captures while their sum stays within the authorization (1003 above it).', CaptureRequest, 'CaptureResponse', FOLLOW_UP_ERRORS, followUpChecks),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.capture(op, request.body))),
    );
    app.post(
      '/rest/reverse',
      post('Reverse an uncaptured authorization', 'Partial reversal only for payment types that allow it.', ReverseRequest, 'ReverseResponse', FOLLOW_UP_ERRORS, followUpChecks),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.reverse(op, request.body))),
    );
    app.post(
      '/rest/refund',
      post('Refund a captured transaction', 'Full or partial; several refunds while their sum stays within the captured amount (1003 above it).', RefundRequest, 'RefundResponse', FOLLOW_UP_ERRORS, followUpChecks),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.refund(op, request.body))),
    );
    app.post(
      '/rest/payout',
      post('Send an unreferenced payout', 'cardpos (card credit) and a2a; status 2 pending, then 3 completed.', PayoutRequest, 'PayoutResponse', CREATE_ERRORS, payoutChecks),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.payout(op, request.body))),
    );
    app.post(
      '/rest/cancel',
      post('Cancel a wallet subscription', 'transaction_id of the subscription setup payment. Not for authorizations: use reverse.', CancelRequest, 'SubscriptionResponse', FOLLOW_UP_ERRORS, noChecks),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.cancelSubscription(op, request.body))),
    );
    app.post(
      '/rest/revise',
      post('Revise a wallet subscription', 'A higher amount needs the customer to approve again: client_action redirect.', SubscriptionRequest, 'SubscriptionResponse', FOLLOW_UP_ERRORS, followUpChecks),
      async (request, reply) => send(reply, await perform(gateway, request, (op) => p.reviseSubscription(op, request.body))),
    );
  };
}
