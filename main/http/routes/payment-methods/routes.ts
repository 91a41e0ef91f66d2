/**
 * Merchant management (docs/api.md and docs/decisions.md "Merchant management"): the catalog of
 * payment methods (any API credentials) and, for partners, the effective setting of each method per
 * merchant and per shop: list, show, set (PUT: 201 created, 200 changed), remove (DELETE). Answers
 * use the `/v2` envelope of network tokens; errors the API error body (D3).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PaymentMethodSettingRequest } from '../../../../contract/api/payment-methods.js';
import type { Gateway } from '../../../core/gateway.js';
import { partnerOf, send } from '../../api-context.js';
import { sendApiError, type BodyFieldCheck } from '../../errors.js';
import { route } from '../../operation-route.js';
import { toReply } from '../../replies.js';

const tags = ['Merchant management'];

/** The catalog: merchant and partner credentials (and staff sessions of back office and admin). */
export function paymentMethodCatalogRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const methods = gateway.paymentMethods;
  return async (app) => {
    route(
      app,
      'payment-methods.catalog',
      {
        schema: {
          tags,
          summary: "The gateway's catalog of payment methods",
          description:
            'What each payment type offers: currencies, countries, capabilities, whether it is enabled by default, and the default fees and CVM limits. Filters currency and capability; page and per.',
        },
        errors: [400, 403],
      },
      async (request, reply) => send(reply, toReply(methods.catalogList(request.query))),
    );
    route(
      app,
      'payment-methods.catalogEntry',
      {
        schema: { tags, summary: 'One payment method of the catalog' },
        errors: [403, 404],
      },
      async (request, reply) => send(reply, toReply(methods.catalogShow(request.params.payment_type))),
    );
  };
}

const LIST_DESCRIPTION =
  'The effective setting of every catalog method: each field resolves shop -> merchant -> catalog default; `source` says where `enabled` comes from and `field_sources` where each field does. Filters enabled (true/false), currency, capability; page and per.';
const PUT_DESCRIPTION =
  'Sets this level: the body is the whole setting of the level, and a field that is null or absent inherits from the level below. Values must stay within the catalog (400 1001 naming the field). 201 when the level had no setting, 200 when it changed. Audited with the old and new values.';
const DELETE_DESCRIPTION =
  "Removes this level's setting, so the level below applies again; answers the effective setting after the removal. 404 when the level has none. Audited.";

/** The core's checks of a PUT body the schema rejected, with the path's payment type (every bad field at once). */
const settingChecks =
  (gateway: Gateway): BodyFieldCheck =>
  (body, _rejected, params) =>
    gateway.paymentMethods.validateSetting(String(params.payment_type ?? ''), body as PaymentMethodSettingRequest);

/**
 * preValidation of the PUTs: a merchant, shop or payment type the partner may not manage is a 404
 * before the body is validated (another partner's merchant never answers 400).
 */
const scopeFirst =
  (gateway: Gateway) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const params = request.params as { merchant_id?: string; shop_id?: string; payment_type?: string };
    const denied = await gateway.paymentMethods.access(
      partnerOf(request),
      String(params.merchant_id ?? ''),
      params.shop_id ?? null,
      String(params.payment_type ?? ''),
    );
    return denied ? sendApiError(reply, denied) : undefined;
  };

/** A partner's merchants and shops: partner credentials only (a merchant key gets 403 2002). */
export function merchantManagementRoutes(gateway: Gateway): FastifyPluginAsyncTypebox {
  const methods = gateway.paymentMethods;
  const errors = [400, 403, 404];
  return async (app) => {
    // ---- merchant level
    route(
      app,
      'payment-methods.merchantList',
      {
        schema: {
          tags,
          summary: "A merchant's payment methods (effective settings)",
          description: LIST_DESCRIPTION,
        },
        errors: errors,
      },
      async (request, reply) =>
        send(reply, toReply(await methods.list(partnerOf(request), request.params.merchant_id, null, request.query))),
    );
    route(
      app,
      'payment-methods.merchantGet',
      {
        schema: { tags, summary: "A merchant's setting of one payment method (effective)" },
        errors: errors,
      },
      async (request, reply) =>
        send(reply, toReply(await methods.show(partnerOf(request), request.params.merchant_id, null, request.params.payment_type))),
    );
    route(
      app,
      'payment-methods.merchantSet',
      {
        schema: {
          tags,
          summary: "Set a merchant's payment method",
          description: PUT_DESCRIPTION,
        },
        errors: errors,
        config: { bodyFieldErrors: settingChecks(gateway) },
        preValidation: scopeFirst(gateway),
      },
      async (request, reply) =>
        send(
          reply,
          toReply(
            await methods.put(
              partnerOf(request),
              request.params.merchant_id,
              null,
              request.params.payment_type,
              request.body as PaymentMethodSettingRequest,
            ),
          ),
        ),
    );
    route(
      app,
      'payment-methods.merchantRemove',
      {
        schema: {
          tags,
          summary: "Remove a merchant's setting of a payment method (the catalog default applies again)",
          description: DELETE_DESCRIPTION,
        },
        errors: errors,
      },
      async (request, reply) =>
        send(reply, toReply(await methods.remove(partnerOf(request), request.params.merchant_id, null, request.params.payment_type))),
    );

    // ---- shop level
    route(
      app,
      'payment-methods.shopList',
      {
        schema: {
          tags,
          summary: "A shop's payment methods (effective settings)",
          description: LIST_DESCRIPTION,
        },
        errors: errors,
      },
      async (request, reply) =>
        send(reply, toReply(await methods.list(partnerOf(request), request.params.merchant_id, request.params.shop_id, request.query))),
    );
    route(
      app,
      'payment-methods.shopGet',
      {
        schema: { tags, summary: "A shop's setting of one payment method (effective)" },
        errors: errors,
      },
      async (request, reply) =>
        send(
          reply,
          toReply(await methods.show(partnerOf(request), request.params.merchant_id, request.params.shop_id, request.params.payment_type)),
        ),
    );
    route(
      app,
      'payment-methods.shopSet',
      {
        schema: {
          tags,
          summary: "Set a shop's payment method",
          description: `${PUT_DESCRIPTION} A shop can switch off what its merchant has on, and the reverse.`,
        },
        errors: errors,
        config: { bodyFieldErrors: settingChecks(gateway) },
        preValidation: scopeFirst(gateway),
      },
      async (request, reply) =>
        send(
          reply,
          toReply(
            await methods.put(
              partnerOf(request),
              request.params.merchant_id,
              request.params.shop_id,
              request.params.payment_type,
              request.body as PaymentMethodSettingRequest,
            ),
          ),
        ),
    );
    route(
      app,
      'payment-methods.shopRemove',
      {
        schema: {
          tags,
          summary: "Remove a shop's setting of a payment method (the merchant's applies again)",
          description: DELETE_DESCRIPTION,
        },
        errors: errors,
      },
      async (request, reply) =>
        send(
          reply,
          toReply(
            await methods.remove(partnerOf(request), request.params.merchant_id, request.params.shop_id, request.params.payment_type),
          ),
        ),
    );
  };
}
