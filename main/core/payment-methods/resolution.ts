/**
 * How a payment method's effective setting is resolved (decisions.md D15): every field comes from
 * the shop's setting, else the merchant's, else the catalog's default. The two maps resolve key by
 * key: each capability, and each currency of `cvm_limit`. Pure: no I/O.
 */
import type { FieldSources, PaymentMethodSetting, SettingSource } from '../../../contract/api/payment-methods.js';
import { METHOD_CAPABILITIES, type MethodCapabilityName, type PaymentType } from '../../../contract/constants.js';
import { currencyExponent, minorToAmount } from '../../../contract/money.js';
import type { FeeSchedule, PaymentMethodSettingRecord } from './ports.js';
import { feesOf } from './fees.js';
import { DEFAULT_CVM_LIMITS, defaultCvmLimitMinor, type CatalogEntry } from './catalog.js';

export interface EffectiveMethod {
  entry: CatalogEntry;
  type: PaymentType;
  merchantId: string;
  shopId: string | null;
  enabled: boolean;
  currencies: readonly string[] | null;
  countries: readonly string[] | null;
  capabilities: Record<MethodCapabilityName, boolean>;
  fees: FeeSchedule;
  /** The CVM limits the levels set (minor units); other currencies use the catalog's defaults. */
  cvmLimitMinor: Record<string, number>;
  sources: {
    enabled: SettingSource;
    currencies: SettingSource;
    countries: SettingSource;
    capabilities: Record<MethodCapabilityName, SettingSource>;
    feeFixed: SettingSource;
    feePercent: SettingSource;
    cvmLimit: Record<string, SettingSource>;
  };
  updatedAt: string | null;
}

/** The levels of a resolution, nearest first: the shop's setting, then the merchant's. */
interface Level {
  source: SettingSource;
  record: PaymentMethodSettingRecord;
}

function pick<T>(
  levels: Level[],
  value: (record: PaymentMethodSettingRecord) => T | null | undefined,
  fallback: T,
): { value: T; source: SettingSource } {
  for (const level of levels) {
    const v = value(level.record);
    if (v !== null && v !== undefined) return { value: v, source: level.source };
  }
  return { value: fallback, source: 'default' };
}

export function resolveMethod(
  entry: CatalogEntry,
  merchantId: string,
  shopId: string | null,
  merchantLevel: PaymentMethodSettingRecord | undefined,
  shopLevel: PaymentMethodSettingRecord | undefined,
): EffectiveMethod {
  const levels: Level[] = [];
  if (shopLevel) levels.push({ source: 'shop', record: shopLevel });
  if (merchantLevel) levels.push({ source: 'merchant', record: merchantLevel });
  const enabled = pick(levels, (r) => r.enabled, entry.defaultEnabled);
  const currencies = pick<readonly string[] | null>(levels, (r) => r.currencies, entry.currencies);
  const countries = pick<readonly string[] | null>(levels, (r) => r.countries, entry.countries);
  const feeFixed = pick(levels, (r) => r.feeFixedMinor, entry.feeFixedMinor);
  const feePercent = pick(levels, (r) => r.feePercentBasisPoints, entry.feePercentBasisPoints);
  const capabilities = {} as Record<MethodCapabilityName, boolean>;
  const capabilitySources = {} as Record<MethodCapabilityName, SettingSource>;
  for (const name of METHOD_CAPABILITIES) {
    // A capability the catalog does not offer stays off whatever a level says.
    const resolved = pick(levels, (r) => r.capabilities[name], entry.capabilities[name]);
    capabilities[name] = entry.capabilities[name] && resolved.value;
    capabilitySources[name] = resolved.source;
  }
  const cvmLimitMinor: Record<string, number> = {};
  const cvmSources: Record<string, SettingSource> = {};
  if (entry.cvm) {
    for (const level of [...levels].reverse()) {
      for (const [currency, minor] of Object.entries(level.record.cvmLimitMinor)) {
        cvmLimitMinor[currency] = minor;
        cvmSources[currency] = level.source;
      }
    }
  }
  const updated = levels.map((l) => l.record.updatedAt).sort();
  return {
    entry,
    type: entry.type,
    merchantId,
    shopId,
    enabled: enabled.value,
    currencies: currencies.value,
    countries: countries.value,
    capabilities,
    fees: { fixedMinor: feeFixed.value, percentBasisPoints: feePercent.value },
    cvmLimitMinor,
    sources: {
      enabled: enabled.source,
      currencies: currencies.source,
      countries: countries.source,
      capabilities: capabilitySources,
      feeFixed: feeFixed.source,
      feePercent: feePercent.source,
      cvmLimit: cvmSources,
    },
    updatedAt: updated.at(-1) ?? null,
  };
}

export function acceptsCurrency(method: EffectiveMethod, currency: string): boolean {
  return method.currencies === null || method.currencies.includes(currency);
}

export function servesCountry(method: EffectiveMethod, country: string): boolean {
  return method.countries === null || method.countries.includes(country);
}

/** The contactless CVM limit of a currency, in its minor units: the levels', else the catalog's default. */
export function cvmLimitMinorOf(method: EffectiveMethod, currency: string): number {
  return method.cvmLimitMinor[currency] ?? defaultCvmLimitMinor(currency);
}

/** `included_fees` of a charge, in minor units of its currency. */
export function feesMinorOf(method: EffectiveMethod, amountMinor: number, exponent: number): number {
  return feesOf(method.fees, amountMinor, exponent);
}

/** Hundredths (fee_fixed) or basis points (fee_percent) as the API's decimal number. */
const hundredths = (value: number): number => minorToAmount(value, 2);

/** The API view of an effective setting. */
export function settingView(method: EffectiveMethod): PaymentMethodSetting {
  let cvmLimit: Record<string, number> | null = null;
  let cvmSources: Record<string, SettingSource> | null = null;
  if (method.entry.cvm) {
    const listed = method.currencies ?? Object.keys(DEFAULT_CVM_LIMITS);
    const currencies = [
      ...new Set([
        ...listed,
        ...Object.keys(method.cvmLimitMinor).filter((c) => method.currencies === null || method.currencies.includes(c)),
      ]),
    ].sort();
    cvmLimit = {};
    cvmSources = {};
    for (const currency of currencies) {
      cvmLimit[currency] = minorToAmount(cvmLimitMinorOf(method, currency), currencyExponent(currency) ?? 2);
      cvmSources[currency] = method.sources.cvmLimit[currency] ?? 'default';
    }
  }
  const fieldSources: FieldSources = {
    enabled: method.sources.enabled,
    currencies: method.sources.currencies,
    countries: method.sources.countries,
    capabilities: { ...method.sources.capabilities },
    fee_fixed: method.sources.feeFixed,
    fee_percent: method.sources.feePercent,
    cvm_limit: cvmSources,
  };
  return {
    payment_type: method.type,
    merchant_id: method.merchantId,
    shop_id: method.shopId,
    enabled: method.enabled,
    currencies: method.currencies === null ? null : [...method.currencies],
    countries: method.countries === null ? null : [...method.countries],
    capabilities: { ...method.capabilities },
    fee_fixed: hundredths(method.fees.fixedMinor),
    fee_percent: hundredths(method.fees.percentBasisPoints),
    cvm_limit: cvmLimit,
    source: method.sources.enabled,
    field_sources: fieldSources,
    updated_at: method.updatedAt,
  };
}
