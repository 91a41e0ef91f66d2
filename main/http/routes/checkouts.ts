/** `POST /rest/checkouts` (interface.md "Checkout") and `GET /rest/checkouts/{checkout_id}`. */
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHECKOUT_LOCALES, type CheckoutRequest as CoreCheckoutRequest } from '../../core/checkout/checkouts.js';
import { toReply } from '../../core/errors.js';
import type { Gateway } from '../../core/gateway.js';
import { merchantOf, perform, send } from '../api-context.js';
import { apiResponses, IdempotencyHeaders } from '../schemas.js';

const Flag = Type.Optional(Type.Integer({ description: '0 or 1' }));
const Str = (maxLength: number) => Type.String({ maxLength });

const CheckoutRequest = Type.Object(
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
    locale: Type.Optional(Type.String({ enum: [...CHECKOUT_LOCALES], description: 'page language; default from the browser' })),
  },
  { additionalProperties: false },
);

const CheckoutResponse = Type.Object({
  checkout_id: Type.String(),
  error_code: Type.Integer(),
  status: Type.String(),
  client_action: Type.String(),
  action_data: Type.Object({ url: Type.String() }),
});

export const CheckoutSchema = Type.Object(
  {
    checkout_id: Type.String(),
    status: Type.String({ enum: ['open', 'processing', 'completed', 'cancelled', 'expired'] }),
    order_id: Type.String(),
    reference: Type.Union([Type.String(), Type.Null()]),
    currency: Type.String(),
    amount: Type.Number(),
    amount_taxes: Type.Number(),
    amount_shipping: Type.Number(),
    total_amount: Type.Number(),
    transaction_id: Type.Union([Type.String(), Type.Null()], { description: 'the linked transaction, once the customer paid or tried to' }),
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

export function checkoutRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/rest/checkouts',
      {
        schema: {
          tags: ['Checkout'],
          summary: 'Create a hosted checkout session',
          description: 'Redirect the customer to action_data.url; they choose one of your payment types there and pay. Status open -> processing -> completed, or cancelled, or expired after 24 h; a postback on each change.',
          headers: IdempotencyHeaders,
          body: CheckoutRequest,
          response: apiResponses({ 200: CheckoutResponse }, [400, 409, 422]),
        },
        config: { bodyFieldErrors: (body) => gateway.checkouts.validate(body as unknown as CoreCheckoutRequest).errors },
      },
      async (request, reply) => send(reply, await perform(gateway, request, (op) => gateway.checkouts.create(op, request.body))),
    );
    app.get(
      '/rest/checkouts/:checkout_id',
      {
        schema: {
          tags: ['Checkout'],
          summary: 'Read a checkout session',
          params: Type.Object({ checkout_id: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: apiResponses({ 200: Type.Ref('Checkout') }, [400, 404]),
        },
      },
      async (request, reply) => send(reply, toReply(await gateway.checkouts.read(merchantOf(request), request.params.checkout_id))),
    );
  };
}
