/** Hosted checkout sessions: `POST /rest/checkouts` and `GET /rest/checkouts/{checkout_id}` (interface.md "Checkout"). */
import { Type, type Static } from '@sinclair/typebox';
import { CHECKOUT_LOCALES, CHECKOUT_STATUSES } from '../constants.js';
import { Nullable, Str, StringEnum, StringIn } from './common.js';

const Flag = Type.Optional(Type.Integer({ description: '0 or 1' }));

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
    prefill_customer_info: Type.Optional(
      Type.Object(
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
      ),
    ),
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
