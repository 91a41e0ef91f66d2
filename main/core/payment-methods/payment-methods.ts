/**
 * Merchant management's payment methods (docs/api.md and docs/decisions.md "Merchant management"):
 * the catalog, the effective setting of each method for a merchant or a shop, setting and removing
 * a level's setting (audited with old and new values), and what the rest of the gateway asks before
 * it offers or accepts a payment method: is the type enabled here, in this currency and country,
 * with this capability; its fees; the contactless CVM limit.
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { Envelope } from '../../../contract/api/network-tokens.js';
import type {
  PaymentMethod,
  PaymentMethodList,
  PaymentMethodListQuery,
  PaymentMethodSetting,
  PaymentMethodSettingList,
  PaymentMethodSettingRequest,
} from '../../../contract/api/payment-methods.js';
import { ErrorCode } from '../../../contract/codes.js';
import { pathOf } from '../../../contract/paths.js';
import {
  METHOD_CAPABILITIES,
  PAYMENT_METHODS_DEFAULT_PER_PAGE,
  PAYMENT_METHODS_MAX_PER_PAGE,
  PAYMENT_TYPES,
  type MethodCapabilityName,
  type PaymentType,
} from '../../../contract/constants.js';
import { amountProblemText, currencyExponent, minorToAmount, toMinor } from '../../../contract/money.js';
import { apiError, created, failure, success, validationError, type ApiError, type Outcome } from '../errors.js';
import { isCountryCode } from '../countries.js';
import type { AuditRecord } from '../kernel.js';
import type { Clock, Ids } from '../kernel.js';
import { pageLinks } from '../paging.js';
import type { PaymentMethodSettingRecord, PaymentMethodsUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import {
  CATALOG,
  catalogEntry,
  DEFAULT_CVM_LIMITS,
  defaultCvmLimitMinor,
  offersCountry,
  offersCurrency,
  type CatalogEntry,
} from './catalog.js';
import { acceptsCurrency, cvmLimitMinorOf, resolveMethod, servesCountry, settingView, type EffectiveMethod } from './resolution.js';

/** Who calls the merchant-management paths: a partner (its own merchants only). */
export interface PartnerActor {
  partnerId: string;
}

/** What a request needs of a method: its currency, the customer's country, capabilities (with the field that asks for each). */
export interface MethodRequirement {
  currency?: string;
  country?: string;
  capabilities?: Array<{ name: MethodCapabilityName; field: string }>;
}

const FEE_FIXED_MAX_MINOR = 100_000; // 1000.00
const CAPABILITY_WORDS: Record<MethodCapabilityName, string> = {
  payout: 'payouts',
  partial_refund: 'partial refunds',
  partial_reversal: 'partial reversals',
  recurring: 'recurring payments',
  subscription: 'subscriptions',
};

/** An id from a path, safe to repeat in a message (no card number can be echoed). */
function shown(id: string): string {
  return /^[A-Za-z0-9._-]{1,64}$/.test(id) && !/\d{12,}/.test(id) ? id : '(given)';
}

export function merchantNotFound(merchantId: string): ApiError {
  return apiError(ErrorCode.notFound, `Merchant ${shown(merchantId)} not found`, [
    { field: 'merchant_id', message: 'no such merchant for these credentials' },
  ]);
}

function shopNotFound(shopId: string): ApiError {
  return apiError(ErrorCode.notFound, `Shop ${shown(shopId)} not found`, [{ field: 'shop_id', message: 'no such shop for this merchant' }]);
}

function methodNotFound(type: string): ApiError {
  return apiError(ErrorCode.notFound, `Payment method ${shown(type)} not found`, [
    { field: 'payment_type', message: `is not in the catalog (${PAYMENT_TYPES.join(', ')})` },
  ]);
}

/** The audit's picture of one level's setting: the PUT body's fields, null where it inherits. */
function levelValue(record: PaymentMethodSettingRecord | undefined): Record<string, unknown> | null {
  if (!record) return null;
  return {
    enabled: record.enabled,
    currencies: record.currencies,
    countries: record.countries,
    capabilities: Object.keys(record.capabilities).length ? record.capabilities : null,
    fee_fixed: record.feeFixedMinor === null ? null : minorToAmount(record.feeFixedMinor, 2),
    fee_percent: record.feePercentBasisPoints === null ? null : minorToAmount(record.feePercentBasisPoints, 2),
    cvm_limit: Object.keys(record.cvmLimitMinor).length
      ? Object.fromEntries(Object.entries(record.cvmLimitMinor).map(([c, minor]) => [c, minorToAmount(minor, currencyExponent(c) ?? 2)]))
      : null,
  };
}

function catalogView(entry: CatalogEntry): PaymentMethod {
  return {
    payment_type: entry.type,
    name: entry.name,
    description: entry.description,
    currencies: entry.currencies === null ? null : [...entry.currencies],
    countries: entry.countries === null ? null : [...entry.countries],
    capabilities: { ...entry.capabilities },
    default_enabled: entry.defaultEnabled,
    fee_fixed: minorToAmount(entry.feeFixedMinor, 2),
    fee_percent: minorToAmount(entry.feePercentBasisPoints, 2),
    cvm_limit: entry.cvm
      ? Object.fromEntries(
          Object.keys(DEFAULT_CVM_LIMITS)
            .sort()
            .map((c) => [c, minorToAmount(defaultCvmLimitMinor(c), currencyExponent(c) ?? 2)]),
        )
      : null,
  };
}

interface Paging {
  page: number;
  per: number;
}

function parsePaging(query: PaymentMethodListQuery, errors: FieldError[]): Paging {
  const page = query.page === undefined ? 1 : /^\d{1,9}$/.test(query.page) ? Number(query.page) : NaN;
  const per = query.per === undefined ? PAYMENT_METHODS_DEFAULT_PER_PAGE : /^\d{1,9}$/.test(query.per) ? Number(query.per) : NaN;
  if (!(page >= 1)) errors.push({ field: 'page', message: 'must be an integer of at least 1' });
  if (!(per >= 1 && per <= PAYMENT_METHODS_MAX_PER_PAGE))
    errors.push({ field: 'per', message: `must be an integer from 1 to ${PAYMENT_METHODS_MAX_PER_PAGE}` });
  return { page, per };
}

function checkFilters(query: PaymentMethodListQuery, errors: FieldError[]): void {
  if (query.currency !== undefined && currencyExponent(query.currency) === undefined)
    errors.push({ field: 'currency', message: 'must be an ISO 4217 currency code such as EUR' });
  if (query.capability !== undefined && !(METHOD_CAPABILITIES as readonly string[]).includes(query.capability)) {
    errors.push({ field: 'capability', message: `must be one of ${METHOD_CAPABILITIES.join(', ')}` });
  }
  if (query.enabled !== undefined && query.enabled !== 'true' && query.enabled !== 'false')
    errors.push({ field: 'enabled', message: 'must be true or false' });
}

/** One page of a list in the /v2 envelope; links keep the filters (paths relative to the gateway's base URL). */
function page<T>(items: T[], path: string, query: PaymentMethodListQuery, paging: Paging) {
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / paging.per));
  const href = (target: number): string => {
    const params = new URLSearchParams();
    for (const key of ['enabled', 'currency', 'capability'] as const) {
      const value = query[key];
      if (value !== undefined) params.set(key, value);
    }
    params.set('page', String(target));
    params.set('per', String(paging.per));
    return `${path}?${params.toString()}`;
  };
  return {
    result: 'OK',
    data_set: items.slice((paging.page - 1) * paging.per, paging.page * paging.per),
    metadata: { per_page: paging.per, total_items: total, current_page: paging.page, total_pages: totalPages },
    links: pageLinks(href, paging.page, totalPages),
  };
}

/** Parses a decimal with at most 2 decimals into an integer of hundredths, at most `maxMinor`; pushes the problem. */
function decimalField(value: number, field: string, maxMinor: number, max: string, errors: FieldError[]): number | undefined {
  const parsed = toMinor(value, 2);
  if (!parsed.ok) {
    errors.push({
      field,
      message: parsed.problem === 'too_many_decimals' ? 'has more than 2 decimals' : amountProblemText(parsed.problem),
    });
    return undefined;
  }
  if (parsed.minor > maxMinor) {
    errors.push({ field, message: `must be at most ${max}` });
    return undefined;
  }
  return parsed.minor;
}

export interface PaymentMethodsDeps {
  store: Store<PaymentMethodsUnit>;
  clock: Clock;
  ids: Ids;
}

export class PaymentMethods {
  constructor(private readonly deps: PaymentMethodsDeps) {}

  // ---- what the rest of the gateway asks -------------------------------------------------------

  /** The effective setting of a type for a merchant, or for one of its shops. */
  async resolve(repos: PaymentMethodsUnit, merchantId: string, shopId: string | null, type: PaymentType): Promise<EffectiveMethod> {
    return this.withShopLevel(repos, merchantId, shopId, type, repos.paymentMethodSettings.get(merchantId, null, type));
  }

  /** The effective setting from the merchant's level (read, or being read) and the shop's, read alongside it. */
  private async withShopLevel(
    repos: PaymentMethodsUnit,
    merchantId: string,
    shopId: string | null,
    type: PaymentType,
    merchantLevel:
      | Awaited<ReturnType<PaymentMethodsUnit['paymentMethodSettings']['get']>>
      | ReturnType<PaymentMethodsUnit['paymentMethodSettings']['get']>,
  ): Promise<EffectiveMethod> {
    // Both levels at once (pipelined on PostgreSQL).
    const [merchant, shop] = await Promise.all([
      merchantLevel,
      shopId === null ? undefined : repos.paymentMethodSettings.get(merchantId, shopId, type),
    ]);
    return resolveMethod(catalogEntry(type) as CatalogEntry, merchantId, shopId, merchant, shop);
  }

  /** The shop a payment belongs to: its terminal's (`pos_data.terminal.id`), else none. */
  async shopOfTerminal(repos: PaymentMethodsUnit, merchantId: string, terminalId: string | null | undefined): Promise<string | null> {
    if (!terminalId) return null;
    return (await repos.shops.terminal(merchantId, terminalId))?.shopId ?? null;
  }

  /**
   * The effective setting for a payment from a terminal (or none): its shop's, else the merchant's.
   * The terminal and the merchant's setting are read at once (pipelined on PostgreSQL); the shop's
   * setting only when the terminal belongs to a shop.
   */
  async forTerminal(
    repos: PaymentMethodsUnit,
    merchantId: string,
    terminalId: string | null | undefined,
    type: PaymentType,
  ): Promise<EffectiveMethod> {
    const [shopId, merchantLevel] = await Promise.all([
      this.shopOfTerminal(repos, merchantId, terminalId),
      repos.paymentMethodSettings.get(merchantId, null, type),
    ]);
    return this.withShopLevel(repos, merchantId, shopId, type, merchantLevel);
  }

  /**
   * Why a request may not use the method (400 1004), or undefined. Catalog limits (a currency or a
   * capability the type never has) are the request validation's (1001); this refuses what the
   * merchant's or shop's setting switched off, and customers' countries the method does not serve.
   */
  refusal(method: EffectiveMethod, need: MethodRequirement, options: { existingTransaction?: boolean } = {}): ApiError | undefined {
    const where = (source: string) => (source === 'shop' ? 'this shop' : 'this merchant');
    const errors: FieldError[] = [];
    const reasons: string[] = [];
    // A refund or reversal of an earlier payment is not a new payment: a disabled type still allows it.
    if (!method.enabled && !options.existingTransaction) {
      const level = where(method.sources.enabled);
      errors.push({ field: 'payment_type', message: `is not enabled for ${level}` });
      reasons.push(`${method.type} is not enabled for ${level}`);
    } else {
      if (need.currency !== undefined && offersCurrency(method.entry, need.currency) && !acceptsCurrency(method, need.currency)) {
        const accepted = method.currencies?.join(', ') ?? '';
        const level = where(method.sources.currencies);
        errors.push({ field: 'currency', message: `${method.type} accepts only ${accepted} for ${level}` });
        reasons.push(`${method.type} does not accept ${need.currency} for ${level}`);
      }
      if (need.country !== undefined && !servesCountry(method, need.country)) {
        const level = method.sources.countries === 'default' ? '' : ` for ${where(method.sources.countries)}`;
        errors.push({ field: 'country', message: `${method.type} does not serve customers in ${need.country}${level}` });
        reasons.push(`${method.type} does not serve customers in ${need.country}${level}`);
      }
      for (const { name, field } of need.capabilities ?? []) {
        if (method.entry.capabilities[name] && !method.capabilities[name]) {
          const level = where(method.sources.capabilities[name]);
          errors.push({ field, message: `${CAPABILITY_WORDS[name]} with ${method.type} are switched off for ${level}` });
          reasons.push(`${CAPABILITY_WORDS[name]} with ${method.type} are switched off for ${level}`);
        }
      }
    }
    if (!errors.length) return undefined;
    return apiError(ErrorCode.paymentType, reasons.join('; '), errors);
  }

  /** The methods of `candidates` a customer may use here: enabled, in the currency, for the country (when known). */
  async offered(
    repos: PaymentMethodsUnit,
    merchantId: string,
    candidates: readonly PaymentType[],
    currency: string,
    country?: string,
  ): Promise<PaymentType[]> {
    const offered: PaymentType[] = [];
    for (const type of candidates) {
      if (!offersCurrency(catalogEntry(type) as CatalogEntry, currency)) continue;
      const method = await this.resolve(repos, merchantId, null, type);
      if (method.enabled && acceptsCurrency(method, currency) && (country === undefined || servesCountry(method, country)))
        offered.push(type);
    }
    return offered;
  }

  /**
   * The contactless CVM limit of a terminal's payments in the merchant's currency (the till's
   * `GET /ui/terminal`): its shop's setting, else the merchant's, else the catalog's default.
   */
  async terminalCvmLimit(merchantId: string, terminalId: string | null): Promise<{ amount: number; currency: string }> {
    return this.deps.store.read(async (r) => {
      const currency = (await r.merchants.get(merchantId))?.currency ?? 'EUR';
      const method = await this.forTerminal(r, merchantId, terminalId, 'cardpos');
      return { amount: minorToAmount(cvmLimitMinorOf(method, currency), currencyExponent(currency) ?? 2), currency };
    });
  }

  // ---- the catalog -------------------------------------------------------------------------------

  catalogList(query: PaymentMethodListQuery): Outcome<PaymentMethodList> {
    const errors: FieldError[] = [];
    checkFilters(query, errors);
    const paging = parsePaging(query, errors);
    if (errors.length) return failure(validationError(errors));
    const items = CATALOG.filter(
      (entry) =>
        (query.currency === undefined || offersCurrency(entry, query.currency)) &&
        (query.capability === undefined || entry.capabilities[query.capability as MethodCapabilityName]),
    ).map(catalogView);
    return success(page(items, pathOf('payment-methods.catalog'), query, paging));
  }

  catalogShow(type: string): Outcome<Envelope<PaymentMethod>> {
    const entry = catalogEntry(type);
    if (!entry) return failure(methodNotFound(type));
    return success({ result: 'OK', data: catalogView(entry) });
  }

  // ---- a partner's merchants and shops -----------------------------------------------------------

  /** The merchant (and shop) the partner may manage, or the 404 naming what was not found. */
  private async scope(
    repos: PaymentMethodsUnit,
    actor: PartnerActor,
    merchantId: string,
    shopId: string | null,
  ): Promise<ApiError | undefined> {
    const merchant = await repos.merchants.get(merchantId);
    // Another partner's merchant reads exactly like one that does not exist.
    if (!merchant || merchant.partnerId !== actor.partnerId) return merchantNotFound(merchantId);
    if (shopId !== null) {
      const shop = await repos.shops.get(shopId);
      if (!shop || shop.merchantId !== merchantId) return shopNotFound(shopId);
    }
    return undefined;
  }

  /**
   * The 404 of a request for a merchant (shop, payment type) the partner may not manage, or
   * undefined. The HTTP layer asks it before validating a PUT's body, so a bad body sent for another
   * partner's merchant is a 404 like any other request for it.
   */
  async access(actor: PartnerActor, merchantId: string, shopId: string | null, type?: string): Promise<ApiError | undefined> {
    const denied = await this.deps.store.read((r) => this.scope(r, actor, merchantId, shopId));
    if (denied) return denied;
    return type !== undefined && !catalogEntry(type) ? methodNotFound(type) : undefined;
  }

  private path(merchantId: string, shopId: string | null): string {
    return shopId === null
      ? pathOf('payment-methods.merchantList', { params: { merchant_id: merchantId } })
      : pathOf('payment-methods.shopList', { params: { merchant_id: merchantId, shop_id: shopId } });
  }

  async list(
    actor: PartnerActor,
    merchantId: string,
    shopId: string | null,
    query: PaymentMethodListQuery,
  ): Promise<Outcome<PaymentMethodSettingList>> {
    const errors: FieldError[] = [];
    checkFilters(query, errors);
    const paging = parsePaging(query, errors);
    const result = await this.deps.store.read(async (r) => {
      const denied = await this.scope(r, actor, merchantId, shopId);
      if (denied) return denied;
      if (errors.length) return validationError(errors);
      const merchantLevel = new Map((await r.paymentMethodSettings.listLevel(merchantId, null)).map((s) => [s.paymentType, s]));
      const shopLevel = new Map(
        shopId === null ? [] : (await r.paymentMethodSettings.listLevel(merchantId, shopId)).map((s) => [s.paymentType, s]),
      );
      return CATALOG.map((entry) => resolveMethod(entry, merchantId, shopId, merchantLevel.get(entry.type), shopLevel.get(entry.type)));
    });
    if (!Array.isArray(result)) return failure(result);
    const items = result
      .filter(
        (method) =>
          (query.enabled === undefined || method.enabled === (query.enabled === 'true')) &&
          (query.currency === undefined || (offersCurrency(method.entry, query.currency) && acceptsCurrency(method, query.currency))) &&
          (query.capability === undefined || method.capabilities[query.capability as MethodCapabilityName]),
      )
      .map(settingView);
    return success(page(items, this.path(merchantId, shopId), query, paging));
  }

  async show(
    actor: PartnerActor,
    merchantId: string,
    shopId: string | null,
    type: string,
  ): Promise<Outcome<Envelope<PaymentMethodSetting>>> {
    const result = await this.deps.store.read(async (r) => {
      const denied = await this.scope(r, actor, merchantId, shopId);
      if (denied) return denied;
      if (!catalogEntry(type)) return methodNotFound(type);
      return this.resolve(r, merchantId, shopId, type as PaymentType);
    });
    if ('error_code' in result) return failure(result);
    return success({ result: 'OK', data: settingView(result) });
  }

  /** The field problems of a PUT body for a type (the catalog's limits); every bad field at once. */
  validateSetting(type: string, body: PaymentMethodSettingRequest): FieldError[] {
    const entry = catalogEntry(type);
    const errors: FieldError[] = [];
    if (body.currencies !== undefined && body.currencies !== null) {
      const problems: string[] = [];
      if (body.currencies.length === 0) problems.push('must name at least one currency (use enabled: false to switch the method off)');
      const seen = new Set<string>();
      for (const currency of body.currencies) {
        if (typeof currency !== 'string') continue;
        if (currencyExponent(currency) === undefined) problems.push(`${currency} is not an ISO 4217 currency code`);
        else if (entry && !offersCurrency(entry, currency))
          problems.push(`${currency} is not offered by ${entry.type} (offered: ${entry.currencies?.join(', ') ?? 'all'})`);
        if (seen.has(currency)) problems.push(`${currency} is listed twice`);
        seen.add(currency);
      }
      if (problems.length) errors.push({ field: 'currencies', message: problems.join('; ') });
    }
    if (body.countries !== undefined && body.countries !== null) {
      const problems: string[] = [];
      if (body.countries.length === 0) problems.push('must name at least one country (use enabled: false to switch the method off)');
      const seen = new Set<string>();
      for (const country of body.countries) {
        if (typeof country !== 'string') continue;
        if (!isCountryCode(country)) problems.push(`${country} is not an ISO 3166-1 alpha-2 code`);
        else if (entry && !offersCountry(entry, country)) problems.push(`${country} is not served by ${entry.type}`);
        if (seen.has(country)) problems.push(`${country} is listed twice`);
        seen.add(country);
      }
      if (problems.length) errors.push({ field: 'countries', message: problems.join('; ') });
    }
    if (body.capabilities && entry) {
      for (const name of METHOD_CAPABILITIES) {
        if (body.capabilities[name] === true && !entry.capabilities[name]) {
          errors.push({ field: `capabilities.${name}`, message: `${entry.type} does not offer ${CAPABILITY_WORDS[name]}` });
        }
      }
    }
    if (typeof body.fee_fixed === 'number') decimalField(body.fee_fixed, 'fee_fixed', FEE_FIXED_MAX_MINOR, '1000', errors);
    if (typeof body.fee_percent === 'number') decimalField(body.fee_percent, 'fee_percent', 10_000, '100', errors);
    if (body.cvm_limit !== undefined && body.cvm_limit !== null) {
      if (entry && !entry.cvm) {
        errors.push({ field: 'cvm_limit', message: 'is only for cardpos (the contactless CVM limit of card-present payments)' });
      } else {
        for (const [currency, amount] of Object.entries(body.cvm_limit)) {
          const field = `cvm_limit.${currency}`;
          const exponent = currencyExponent(currency);
          if (exponent === undefined) errors.push({ field, message: 'is not an ISO 4217 currency code' });
          else if (entry && !offersCurrency(entry, currency)) errors.push({ field, message: `is not offered by ${entry.type}` });
          else if (amount !== null) {
            if (typeof amount !== 'number') errors.push({ field, message: 'must be a number or null' });
            else {
              const parsed = toMinor(amount, exponent);
              if (!parsed.ok) errors.push({ field, message: amountProblemText(parsed.problem, exponent) });
            }
          }
        }
      }
    }
    return errors;
  }

  private record(
    merchantId: string,
    shopId: string | null,
    type: string,
    body: PaymentMethodSettingRequest,
    previous: PaymentMethodSettingRecord | undefined,
    now: string,
  ): PaymentMethodSettingRecord {
    const capabilities: PaymentMethodSettingRecord['capabilities'] = {};
    for (const name of METHOD_CAPABILITIES) {
      const value = body.capabilities?.[name];
      if (typeof value === 'boolean') capabilities[name] = value;
    }
    const cvmLimitMinor: Record<string, number> = {};
    for (const [currency, amount] of Object.entries(body.cvm_limit ?? {})) {
      if (amount === null) continue;
      const parsed = toMinor(amount, currencyExponent(currency) ?? 2);
      if (parsed.ok) cvmLimitMinor[currency] = parsed.minor;
    }
    const hundredths = (value: number | null | undefined) => {
      if (typeof value !== 'number') return null;
      const parsed = toMinor(value, 2);
      return parsed.ok ? parsed.minor : null;
    };
    return {
      id: previous?.id ?? this.deps.ids.newId(),
      merchantId,
      shopId,
      paymentType: type,
      enabled: body.enabled ?? null,
      currencies: body.currencies ?? null,
      countries: body.countries ?? null,
      capabilities,
      feeFixedMinor: hundredths(body.fee_fixed),
      feePercentBasisPoints: hundredths(body.fee_percent),
      cvmLimitMinor,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
  }

  private audit(
    actor: PartnerActor,
    merchantId: string,
    shopId: string | null,
    type: string,
    action: string,
    before: PaymentMethodSettingRecord | undefined,
    after: PaymentMethodSettingRecord | undefined,
    now: string,
  ): AuditRecord {
    return {
      id: this.deps.ids.newId(),
      merchantId,
      staffId: null,
      approvedBy: null,
      action,
      subjectId: shopId ?? merchantId,
      detail: `${type} ${shopId === null ? 'merchant' : 'shop'} setting`,
      createdAt: now,
      partnerId: actor.partnerId,
      oldValue: levelValue(before),
      newValue: levelValue(after),
    };
  }

  /** PUT: this level's setting (201 when the level had none, 200 when it changed). */
  async put(
    actor: PartnerActor,
    merchantId: string,
    shopId: string | null,
    type: string,
    body: PaymentMethodSettingRequest,
  ): Promise<Outcome<Envelope<PaymentMethodSetting>>> {
    const now = this.deps.clock.now().toISOString();
    const result = await this.deps.store.run(async (tx) => {
      const denied = await this.scope(tx, actor, merchantId, shopId);
      if (denied) return denied;
      if (!catalogEntry(type)) return methodNotFound(type);
      const errors = this.validateSetting(type, body);
      if (errors.length) return validationError(errors);
      const previous = await tx.paymentMethodSettings.get(merchantId, shopId, type);
      const record = this.record(merchantId, shopId, type, body, previous, now);
      await tx.paymentMethodSettings.save(record);
      await tx.audit.record(this.audit(actor, merchantId, shopId, type, 'payment_method_set', previous, record, now));
      return { created: previous === undefined, method: await this.resolve(tx, merchantId, shopId, type as PaymentType) };
    });
    if ('error_code' in result) return failure(result);
    return (result.created ? created : success)({ result: 'OK', data: settingView(result.method) });
  }

  /** DELETE: removes this level's setting; the level below applies again. Answers the new effective setting. */
  async remove(
    actor: PartnerActor,
    merchantId: string,
    shopId: string | null,
    type: string,
  ): Promise<Outcome<Envelope<PaymentMethodSetting>>> {
    const now = this.deps.clock.now().toISOString();
    const result = await this.deps.store.run(async (tx) => {
      const denied = await this.scope(tx, actor, merchantId, shopId);
      if (denied) return denied;
      if (!catalogEntry(type)) return methodNotFound(type);
      const previous = await tx.paymentMethodSettings.get(merchantId, shopId, type);
      if (!previous || !(await tx.paymentMethodSettings.delete(merchantId, shopId, type))) {
        const level = shopId === null ? 'merchant' : 'shop';
        return apiError(ErrorCode.notFound, `Setting of ${type} not found: this ${level} has none (it inherits)`, [
          { field: 'payment_type', message: `has no ${level}-level setting to remove` },
        ]);
      }
      await tx.audit.record(this.audit(actor, merchantId, shopId, type, 'payment_method_removed', previous, undefined, now));
      return this.resolve(tx, merchantId, shopId, type as PaymentType);
    });
    if ('error_code' in result) return failure(result);
    return success({ result: 'OK', data: settingView(result) });
  }
}
