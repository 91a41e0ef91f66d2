/**
 * Merchant management (docs/api.md and docs/decisions.md "Merchant management"): the gateway's
 * catalog of payment methods (`/v2/payment-methods`) and the effective setting of each method for a
 * merchant or one of its shops (`/v2/merchants/{merchant_id}[/shops/{shop_id}]/payment-methods`),
 * in the `/v2` envelope of network tokens. Each field resolves shop -> merchant -> catalog default.
 */
import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import {
  METHOD_CAPABILITIES,
  PAYMENT_METHODS_DEFAULT_PER_PAGE,
  PAYMENT_METHODS_MAX_PER_PAGE,
  SETTING_SOURCES,
  type MethodCapabilityName,
  type SettingSource,
} from '../constants.js';
import { Nullable, RefTo, Str, StringEnum } from './common.js';
import type { SchemasOf } from './operation-schemas.js';

const capabilityFields = <T extends TSchema>(schema: () => T) =>
  Object.fromEntries(METHOD_CAPABILITIES.map((name) => [name, schema()])) as Record<MethodCapabilityName, T>;

const CapabilitiesSchema = Type.Object(
  capabilityFields(() => Type.Boolean()),
  {
    description:
      'payout, partial refund, partial reversal, recurring (saved cards, mandates, repeat charges, registrations), wallet subscriptions',
  },
);
export type MethodCapabilities = Static<typeof CapabilitiesSchema>;

const Currencies = (description: string) => Nullable(Type.Array(Type.String({ description: 'ISO 4217' })), { description });
const Countries = (description: string) => Nullable(Type.Array(Type.String({ description: 'ISO 3166-1 alpha-2' })), { description });
const CvmLimit = (description: string) => Nullable(Type.Record(Type.String(), Type.Number()), { description });

export const PaymentMethodSchema = Type.Object(
  {
    payment_type: Type.String(),
    name: Type.String(),
    description: Type.String(),
    currencies: Currencies('the currencies it can take; null: every ISO 4217 currency'),
    countries: Countries("the customers' countries it serves; null: all"),
    capabilities: CapabilitiesSchema,
    default_enabled: Type.Boolean({ description: 'enabled for a merchant that has no setting of its own' }),
    fee_fixed: Type.Number({ description: 'default fixed fee, in units of the payment currency (scaled half-up to its decimals)' }),
    fee_percent: Type.Number({ description: 'default percentage fee (1.4 = 1.40 %)' }),
    cvm_limit: CvmLimit(
      'cardpos: default contactless CVM limit per currency (amount above which the PIN is asked); a currency not listed: 50 units',
    ),
  },
  { $id: 'PaymentMethod', title: 'Payment method (catalog entry)' },
);
export type PaymentMethod = Static<typeof PaymentMethodSchema>;

const Source = (description: string) => StringEnum(SETTING_SOURCES, { description });

export const PaymentMethodSettingSchema = Type.Object(
  {
    payment_type: Type.String(),
    merchant_id: Type.String(),
    shop_id: Nullable(Type.String(), { description: 'null on the merchant path' }),
    enabled: Type.Boolean(),
    currencies: Currencies('accepted currencies; null: all the catalog offers'),
    countries: Countries("customers' countries served; null: all the catalog offers"),
    capabilities: CapabilitiesSchema,
    fee_fixed: Type.Number({ description: 'fixed part of included_fees, in units of the payment currency' }),
    fee_percent: Type.Number({ description: 'percentage part of included_fees (1.4 = 1.40 %)' }),
    cvm_limit: CvmLimit('cardpos only (else null): contactless payments above the amount in their currency need the PIN'),
    source: Source('where enabled comes from'),
    field_sources: Type.Object(
      {
        enabled: Source('enabled'),
        currencies: Source('currencies'),
        countries: Source('countries'),
        capabilities: Type.Object(
          capabilityFields(() => Source('capability')),
          { description: 'each capability resolves on its own' },
        ),
        fee_fixed: Source('fee_fixed'),
        fee_percent: Source('fee_percent'),
        cvm_limit: Nullable(Type.Record(Type.String(), Source('currency')), { description: 'cardpos: each currency resolves on its own' }),
      },
      { description: 'where each field comes from (shop, merchant or default)' },
    ),
    updated_at: Nullable(Type.String(), { description: 'last change of the settings it resolves from; null when all are defaults' }),
  },
  { $id: 'PaymentMethodSetting', title: 'Effective payment method setting' },
);
export type PaymentMethodSetting = Static<typeof PaymentMethodSettingSchema>;
export type FieldSources = PaymentMethodSetting['field_sources'];
export type { SettingSource };

/**
 * A request value that may also be null (`type: [T, "null"]`, JSON Schema 2020-12). Not a union: a
 * union's branches would each report their own error (and "must match a schema in anyOf") for one
 * bad field, where this names the field once, by its own problem.
 */
function OrNull<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** `PUT .../payment-methods/{payment_type}`: this level's setting; null or absent means "inherit". */
export const PaymentMethodSettingRequestSchema = Type.Object(
  {
    enabled: Type.Optional(OrNull(Type.Boolean())),
    currencies: Type.Optional(
      OrNull(Type.Array(Str(3, 'ISO 4217'), { maxItems: 200, description: 'within the catalog entry; at least one' })),
    ),
    countries: Type.Optional(
      OrNull(Type.Array(Str(2, 'ISO 3166-1 alpha-2'), { maxItems: 300, description: 'within the catalog entry; at least one' })),
    ),
    capabilities: Type.Optional(
      OrNull(
        Type.Object(
          {
            payout: Type.Optional(OrNull(Type.Boolean())),
            partial_refund: Type.Optional(OrNull(Type.Boolean())),
            partial_reversal: Type.Optional(OrNull(Type.Boolean())),
            recurring: Type.Optional(OrNull(Type.Boolean())),
            subscription: Type.Optional(OrNull(Type.Boolean())),
          },
          { additionalProperties: false, description: 'true only where the catalog offers the capability; null or absent inherits' },
        ),
      ),
    ),
    fee_fixed: Type.Optional(OrNull(Type.Number({ description: '0 to 1000, at most 2 decimals' }))),
    fee_percent: Type.Optional(OrNull(Type.Number({ description: '0 to 100, at most 2 decimals' }))),
    cvm_limit: Type.Optional(
      OrNull(
        Type.Record(Type.String(), OrNull(Type.Number()), {
          description: 'cardpos only: currency -> amount (decimals of the currency); null inherits that currency',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export interface PaymentMethodSettingRequest {
  enabled?: boolean | null;
  currencies?: string[] | null;
  countries?: string[] | null;
  capabilities?: Partial<Record<MethodCapabilityName, boolean | null>> | null;
  fee_fixed?: number | null;
  fee_percent?: number | null;
  cvm_limit?: Record<string, number | null> | null;
}

const Link = Type.Object({ href: Nullable(Type.String(), { description: 'path with query; null when there is no such page' }) });
const ListMetadata = Type.Object({
  per_page: Type.Integer(),
  total_items: Type.Integer(),
  current_page: Type.Integer(),
  total_pages: Type.Integer(),
});
const ListLinks = Type.Object({ self: Link, first: Link, last: Link, prev: Link, next: Link });
const list = <T extends TSchema>(item: T) =>
  Type.Object({ result: Type.String(), data_set: Type.Array(item), metadata: ListMetadata, links: ListLinks });
const single = <T extends TSchema>(item: T) => Type.Object({ result: Type.String(), data: item });

export const PaymentMethodEnvelopeSchema = single(RefTo(PaymentMethodSchema));
export const PaymentMethodListSchema = list(RefTo(PaymentMethodSchema));
export type PaymentMethodList = Static<typeof PaymentMethodListSchema>;
export const PaymentMethodSettingEnvelopeSchema = single(RefTo(PaymentMethodSettingSchema));
export const PaymentMethodSettingListSchema = list(RefTo(PaymentMethodSettingSchema));
export type PaymentMethodSettingList = Static<typeof PaymentMethodSettingListSchema>;

const paging = {
  page: Type.Optional(Type.String({ description: 'an integer, default 1' })),
  per: Type.Optional(
    Type.String({ description: `an integer, default ${PAYMENT_METHODS_DEFAULT_PER_PAGE}, at most ${PAYMENT_METHODS_MAX_PER_PAGE}` }),
  ),
};
// Filters are plain strings here and checked by the core, so one 400 names every bad filter.
const filters = {
  currency: Type.Optional(Type.String({ description: 'only methods that take this currency (ISO 4217)' })),
  capability: Type.Optional(
    Type.String({
      description: `only methods with this capability: ${METHOD_CAPABILITIES.join(', ')}`,
      examples: [...METHOD_CAPABILITIES],
    }),
  ),
};
export const PaymentMethodListQuerySchema = Type.Object({ ...filters, ...paging }, { additionalProperties: false });
export const PaymentMethodSettingListQuerySchema = Type.Object(
  {
    enabled: Type.Optional(
      Type.String({ description: 'true: only enabled methods; false: only disabled ones', examples: ['true', 'false'] }),
    ),
    ...filters,
    ...paging,
  },
  { additionalProperties: false },
);
export interface PaymentMethodListQuery {
  enabled?: string;
  currency?: string;
  capability?: string;
  page?: string;
  per?: string;
}

export const PaymentTypeParams = Type.Object({ payment_type: Str(40) });
export const MerchantParams = Type.Object({ merchant_id: Str(64) });
export const MerchantMethodParams = Type.Object({ merchant_id: Str(64), payment_type: Str(40) });
export const ShopParams = Type.Object({ merchant_id: Str(64), shop_id: Str(64) });
export const ShopMethodParams = Type.Object({ merchant_id: Str(64), shop_id: Str(64), payment_type: Str(40) });

// ---- shops and terminals (the app's Settings, admin) ---------------------------------------------

export const ShopSchema = Type.Object(
  {
    shop_id: Type.String(),
    merchant_id: Type.String(),
    name: Type.String(),
    terminals: Type.Array(Type.String(), { description: 'terminal ids (pos_data.terminal.id) whose payments belong to this shop' }),
    created_at: Type.String(),
  },
  { title: 'Shop' },
);
export type Shop = Static<typeof ShopSchema>;

export const CreateShopRequestSchema = Type.Object(
  { name: Type.String({ description: '1 to 120 characters' }) },
  { additionalProperties: false },
);
export const AssignTerminalRequestSchema = Type.Object(
  { terminal_id: Type.String({ description: '1 to 64 printable characters, as sent in pos_data.terminal.id' }) },
  { additionalProperties: false },
);

export const TerminalAssignmentSchema = Type.Object(
  {
    terminal_id: Type.String(),
    shop_id: Nullable(Type.String(), { description: 'null once taken out of its shop' }),
    merchant_id: Type.String(),
    previous_shop_id: Nullable(Type.String(), { description: 'the shop it belonged to before' }),
  },
  { title: 'Terminal assignment' },
);
export type TerminalAssignment = Static<typeof TerminalAssignmentSchema>;

/** The shop and the terminal of the app's Settings -> Shops and terminals (`/ui/shops/...`, `/ui/terminals/...`). */
export const ShopIdParams = Type.Object({ shop_id: Type.String({ maxLength: 64 }) });
export const TerminalIdParams = Type.Object({ terminal_id: Type.String({ maxLength: 64 }) });

/** The payment-methods operations (contract/operation-table.ts). */
export const paymentMethodsOperations = {
  'payment-methods.shops': { response: { 200: Type.Array(ShopSchema) } },
  'payment-methods.createShop': { body: CreateShopRequestSchema, response: { 201: ShopSchema } },
  'payment-methods.assignTerminal': {
    params: ShopIdParams,
    body: AssignTerminalRequestSchema,
    response: { 200: TerminalAssignmentSchema },
  },
  'payment-methods.unassignTerminal': { params: TerminalIdParams, response: { 200: TerminalAssignmentSchema } },
  'payment-methods.catalog': { querystring: PaymentMethodListQuerySchema, response: { 200: PaymentMethodListSchema } },
  'payment-methods.catalogEntry': { params: PaymentTypeParams, response: { 200: PaymentMethodEnvelopeSchema } },
  'payment-methods.merchantList': {
    params: MerchantParams,
    querystring: PaymentMethodSettingListQuerySchema,
    response: { 200: PaymentMethodSettingListSchema },
  },
  'payment-methods.merchantGet': { params: MerchantMethodParams, response: { 200: PaymentMethodSettingEnvelopeSchema } },
  'payment-methods.merchantSet': {
    params: MerchantMethodParams,
    body: PaymentMethodSettingRequestSchema,
    response: { 200: PaymentMethodSettingEnvelopeSchema, 201: PaymentMethodSettingEnvelopeSchema },
  },
  'payment-methods.merchantRemove': { params: MerchantMethodParams, response: { 200: PaymentMethodSettingEnvelopeSchema } },
  'payment-methods.shopList': {
    params: ShopParams,
    querystring: PaymentMethodSettingListQuerySchema,
    response: { 200: PaymentMethodSettingListSchema },
  },
  'payment-methods.shopGet': { params: ShopMethodParams, response: { 200: PaymentMethodSettingEnvelopeSchema } },
  'payment-methods.shopSet': {
    params: ShopMethodParams,
    body: PaymentMethodSettingRequestSchema,
    response: { 200: PaymentMethodSettingEnvelopeSchema, 201: PaymentMethodSettingEnvelopeSchema },
  },
  'payment-methods.shopRemove': { params: ShopMethodParams, response: { 200: PaymentMethodSettingEnvelopeSchema } },
} as const satisfies SchemasOf<'payment-methods'>;
