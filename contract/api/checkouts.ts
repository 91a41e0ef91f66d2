/**
 * Hosted checkout sessions: `POST /rest/checkouts` and `GET /rest/checkouts/{checkout_id}`
 * (docs/api.md "Hosted checkout"), and the back office's own (`/ui/checkouts`): the list, one
 * session with its link's QR code and its transaction, a session for a phone or e-mail order,
 * cancelling one.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CHECKOUT_LOCALES, CHECKOUT_STATUSES, CHECKOUTS_DEFAULT_PER_PAGE, CHECKOUTS_MAX_PER_PAGE } from '../constants.js';
import {
  FieldCheckSchema,
  IdempotencyHeaders,
  Nullable,
  PageMetadataSchema,
  pageQueryProperties,
  RefTo,
  Str,
  StringEnum,
  StringIn,
} from './common.js';
import { TransactionSchema } from './transactions.js';
import type { SchemasOf } from './operation-schemas.js';

const Flag = Type.Optional(Type.Integer({ description: '0 or 1' }));

const PrefillSchema = Type.Object(
  {
    email: Type.Optional(Str(254)),
    phone: Type.Optional(Str(40)),
    company: Type.Optional(Str(120)),
    first_name: Type.Optional(Str(100)),
    last_name: Type.Optional(Str(100)),
    address: Type.Optional(Str(200)),
    address2: Type.Optional(Str(200)),
    city: Type.Optional(Str(100)),
    state: Type.Optional(Str(100)),
    postal_code: Type.Optional(Str(20)),
    country: Type.Optional(Str(2)),
  },
  { additionalProperties: false },
);

export const CheckoutRequestSchema = Type.Object(
  {
    merchant_name: Type.String({ minLength: 1, maxLength: 120, description: 'shown on the checkout page' }),
    order_id: Str(100),
    reference: Type.Optional(Str(100)),
    description: Type.Optional(Str(2000)),
    currency: Str(3),
    amount: Type.Number(),
    amount_taxes: Type.Optional(Type.Number()),
    amount_shipping: Type.Optional(Type.Number()),
    total_amount: Type.Number({ description: 'amount + amount_taxes + amount_shipping, else 400' }),
    collect_dob: Flag,
    collect_phone: Flag,
    collect_gender: Flag,
    collect_shipping_address: Flag,
    collect_billing_address: Flag,
    display_transaction_details: Flag,
    display_manual_payment_instruction_to_customer: Flag,
    payment_instruction_merchant_account_holder: Type.Optional(Str(70)),
    payment_instruction_merchant_iban: Type.Optional(Str(42)),
    payment_instruction_merchant_bic: Type.Optional(Str(11)),
    success_url: Str(2000),
    error_url: Str(2000),
    postback_url: Str(2000),
    prefill_customer_info: Type.Optional(PrefillSchema),
    locale: Type.Optional(StringIn(CHECKOUT_LOCALES, { description: 'page language; default from the browser' })),
  },
  { additionalProperties: false },
);
export type CheckoutRequest = Static<typeof CheckoutRequestSchema>;

export const CheckoutCreatedSchema = Type.Object({
  checkout_id: Type.String(),
  error_code: Type.Integer(),
  status: Type.String(),
  client_action: Type.String(),
  action_data: Type.Object({ url: Type.String() }),
});
/** The answer to `POST /rest/checkouts`: where to send the customer. */
export type CheckoutCreated = Static<typeof CheckoutCreatedSchema>;

export const CheckoutSchema = Type.Object(
  {
    checkout_id: Type.String(),
    status: StringEnum(CHECKOUT_STATUSES),
    order_id: Type.String(),
    reference: Nullable(Type.String()),
    currency: Type.String(),
    amount: Type.Number(),
    amount_taxes: Type.Number(),
    amount_shipping: Type.Number(),
    total_amount: Type.Number(),
    transaction_id: Nullable(Type.String(), { description: 'the linked transaction, once the customer paid or tried to' }),
    payment_methods: Type.Array(Type.String()),
    customer: Type.Record(Type.String(), Type.String(), { description: 'what the customer entered on the page' }),
    url: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    expires_at: Type.String(),
    error_code: Type.Integer(),
  },
  { $id: 'Checkout', title: 'Checkout session' },
);
/** A checkout session as `GET /rest/checkouts/{checkout_id}` answers it. */
export type Checkout = Static<typeof CheckoutSchema>;

export const CheckoutIdParams = Type.Object({ checkout_id: Type.String({ minLength: 1, maxLength: 64 }) });

// ---- the back office (/ui/checkouts) ------------------------------------------------------------

const COLLECT_DESCRIPTION = '0 or 1: the page asks the customer for it';

/**
 * `POST /ui/checkouts`: a session the back office opens for a phone or e-mail order. The gateway
 * fills in the rest of a checkout request: the merchant's name, total_amount = amount +
 * amount_taxes + amount_shipping, and as success and error URL the session's own page, which shows
 * the result. No postback unless postback_url is given.
 */
export const BackOfficeCheckoutRequestSchema = Type.Object(
  {
    order_id: Str(100),
    description: Type.Optional(Str(2000)),
    currency: Str(3, 'ISO 4217'),
    amount: Type.Number({ description: 'the goods, without taxes and shipping' }),
    amount_taxes: Type.Optional(Type.Number()),
    amount_shipping: Type.Optional(Type.Number()),
    locale: Type.Optional(StringIn(CHECKOUT_LOCALES, { description: "page language; default the customer's browser" })),
    collect_dob: Type.Optional(Type.Integer({ description: COLLECT_DESCRIPTION })),
    collect_phone: Type.Optional(Type.Integer({ description: COLLECT_DESCRIPTION })),
    collect_gender: Type.Optional(Type.Integer({ description: COLLECT_DESCRIPTION })),
    collect_shipping_address: Type.Optional(Type.Integer({ description: COLLECT_DESCRIPTION })),
    collect_billing_address: Type.Optional(Type.Integer({ description: COLLECT_DESCRIPTION })),
    display_transaction_details: Flag,
    prefill_customer_info: Type.Optional(PrefillSchema),
    postback_url: Type.Optional(Str(2000, 'status postbacks of the session and its payment; none when absent')),
  },
  { additionalProperties: false },
);
export type BackOfficeCheckoutRequest = Static<typeof BackOfficeCheckoutRequestSchema>;

export const CheckoutListQuerySchema = Type.Object(
  {
    status: Type.Optional(StringIn(CHECKOUT_STATUSES)),
    ...pageQueryProperties(CHECKOUTS_DEFAULT_PER_PAGE, CHECKOUTS_MAX_PER_PAGE),
  },
  { additionalProperties: false },
);
export type CheckoutListQuery = Static<typeof CheckoutListQuerySchema>;

export const BackOfficeCheckoutSchema = Type.Object(
  {
    ...CheckoutSchema.properties,
    description: Nullable(Type.String()),
    locale: Nullable(StringEnum(CHECKOUT_LOCALES)),
    postback_url: Nullable(Type.String({ description: 'null: no postbacks (a session opened in the back office without one)' })),
  },
  { title: 'Checkout session (back office)' },
);
/** A session as the back office lists it: the API's session with description, language and postback URL. */
export type BackOfficeCheckout = Static<typeof BackOfficeCheckoutSchema>;

export const BackOfficeCheckoutListSchema = Type.Object({ data_set: Type.Array(BackOfficeCheckoutSchema), metadata: PageMetadataSchema });
export type BackOfficeCheckoutList = Static<typeof BackOfficeCheckoutListSchema>;

export const BackOfficeCheckoutDetailSchema = Type.Object({
  checkout: BackOfficeCheckoutSchema,
  merchant_name: Type.String({ description: 'as the page shows it' }),
  collect: Type.Object({
    dob: Type.Boolean(),
    phone: Type.Boolean(),
    gender: Type.Boolean(),
    shipping_address: Type.Boolean(),
    billing_address: Type.Boolean(),
  }),
  display_transaction_details: Type.Boolean(),
  qr_code: Type.String({ description: 'data:image/png;base64 of the customer link (url), 250 px' }),
  transaction: Nullable(RefTo(TransactionSchema), { description: 'the latest payment started on the page' }),
});
/** `GET /ui/checkouts/:checkout_id` (and the answer of create and cancel). */
export type BackOfficeCheckoutDetail = Static<typeof BackOfficeCheckoutDetailSchema>;

/** The checkouts operations (contract/operation-table.ts). */
export const checkoutsOperations = {
  'checkouts.backOfficeList': { querystring: CheckoutListQuerySchema, response: { 200: BackOfficeCheckoutListSchema } },
  'checkouts.backOfficeCreate': {
    headers: IdempotencyHeaders,
    body: BackOfficeCheckoutRequestSchema,
    response: { 201: BackOfficeCheckoutDetailSchema },
  },
  'checkouts.check': { body: BackOfficeCheckoutRequestSchema, response: { 200: FieldCheckSchema } },
  'checkouts.backOfficeGet': { params: CheckoutIdParams, response: { 200: BackOfficeCheckoutDetailSchema } },
  'checkouts.cancel': { params: CheckoutIdParams, response: { 200: BackOfficeCheckoutDetailSchema } },
  'checkouts.create': { headers: IdempotencyHeaders, body: CheckoutRequestSchema, response: { 200: CheckoutCreatedSchema } },
  'checkouts.get': { params: CheckoutIdParams, response: { 200: RefTo(CheckoutSchema) } },
} as const satisfies SchemasOf<'checkouts'>;
