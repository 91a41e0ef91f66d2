/**
 * The gateway's catalog of payment methods (decisions.md D5, D15): what each payment type can do,
 * in which currencies and customers' countries, and the defaults a merchant without settings of
 * its own gets (enabled, fees, the contactless CVM limit). The last level of every setting's
 * resolution (shop -> merchant -> catalog default).
 */
import {
  DEFAULT_CVM_LIMIT,
  METHOD_CAPABILITIES,
  PAYMENT_TYPES,
  type MethodCapabilityName,
  type PaymentType,
} from '../../../contract/constants.js';
import { currencyExponent } from '../../../contract/money.js';
import { DEFAULT_FEES } from './fees.js';
import { CAPABILITIES } from './payment-types.js';

/** The euro area and the microstates that use the euro by agreement. */
export const EURO_COUNTRIES: readonly string[] = [
  'AT',
  'BE',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
  'AD',
  'MC',
  'SM',
  'VA',
];

/** The SEPA schemes' countries and territories (EEA, Switzerland, the United Kingdom and the rest). */
export const SEPA_COUNTRIES: readonly string[] = [
  ...EURO_COUNTRIES,
  'BG',
  'CZ',
  'DK',
  'HU',
  'PL',
  'RO',
  'SE',
  'IS',
  'LI',
  'NO',
  'CH',
  'GB',
  'GI',
  'GG',
  'JE',
  'IM',
  'AX',
  'GF',
  'GP',
  'MQ',
  'RE',
  'YT',
  'PM',
  'BL',
  'MF',
].sort();

/**
 * Default contactless CVM limits in major units: about 50 EUR in each currency, rounded to a
 * number people use there, so that a 500 JPY tap (about 3 EUR) does not ask for the PIN. A
 * currency not listed falls back to DEFAULT_CVM_LIMIT (50) units; set cvm_limit for it.
 */
export const DEFAULT_CVM_LIMITS: Readonly<Record<string, number>> = {
  EUR: 50,
  USD: 50,
  GBP: 50,
  CHF: 50,
  JPY: 7000,
  CNY: 400,
  HKD: 400,
  TWD: 1700,
  KRW: 70000,
  SGD: 70,
  MYR: 250,
  THB: 1900,
  IDR: 850000,
  PHP: 3000,
  VND: 1300000,
  INR: 4500,
  AUD: 80,
  NZD: 90,
  CAD: 75,
  SEK: 550,
  NOK: 550,
  DKK: 350,
  ISK: 7500,
  PLN: 200,
  CZK: 1250,
  HUF: 20000,
  RON: 250,
  BGN: 100,
  RSD: 6000,
  ILS: 200,
  AED: 200,
  SAR: 200,
  QAR: 200,
  KWD: 15,
  BHD: 20,
  OMR: 20,
  JOD: 35,
  ZAR: 1000,
  MAD: 550,
  BRL: 300,
  MXN: 1000,
  CLP: 50000,
  COP: 200000,
  PEN: 200,
};

export interface CatalogEntry {
  type: PaymentType;
  name: string;
  description: string;
  /** null: every ISO 4217 currency. */
  currencies: readonly string[] | null;
  /** null: customers of every country. */
  countries: readonly string[] | null;
  capabilities: Readonly<Record<MethodCapabilityName, boolean>>;
  defaultEnabled: boolean;
  /** Fixed fee in hundredths of a currency unit (scaled to the payment currency). */
  feeFixedMinor: number;
  feePercentBasisPoints: number;
  /** Whether the method has a contactless CVM limit (cardpos). */
  cvm: boolean;
}

const NAMES: Record<PaymentType, string> = {
  cardecom: 'Card, online',
  cardpos: 'Card, present',
  dd: 'SEPA Direct Debit',
  dd_b2b: 'SEPA Direct Debit (B2B)',
  wallet: 'Wallet',
  devicewallet: 'Device wallet',
  a2a: 'Account-to-account',
  bankredirect: 'Bank redirect',
};

const COUNTRIES: Record<PaymentType, readonly string[] | null> = {
  cardecom: null,
  cardpos: null,
  dd: SEPA_COUNTRIES,
  dd_b2b: SEPA_COUNTRIES,
  wallet: null,
  devicewallet: null,
  a2a: SEPA_COUNTRIES,
  bankredirect: EURO_COUNTRIES,
};

export const CATALOG: readonly CatalogEntry[] = PAYMENT_TYPES.map((type) => {
  const caps = CAPABILITIES[type];
  return {
    type,
    name: NAMES[type],
    description: caps.description,
    currencies: caps.currencies,
    countries: COUNTRIES[type],
    capabilities: {
      payout: caps.payout,
      partial_refund: caps.partialRefund,
      partial_reversal: caps.partialReversal,
      recurring: caps.recurring,
      subscription: caps.subscription,
    },
    defaultEnabled: true,
    feeFixedMinor: DEFAULT_FEES[type].fixedMinor,
    feePercentBasisPoints: DEFAULT_FEES[type].percentBasisPoints,
    cvm: type === 'cardpos',
  };
});

const BY_TYPE = new Map(CATALOG.map((entry) => [entry.type as string, entry]));

export function catalogEntry(type: string): CatalogEntry | undefined {
  return BY_TYPE.get(type);
}

export function offersCurrency(entry: CatalogEntry, currency: string): boolean {
  return currencyExponent(currency) !== undefined && (entry.currencies === null || entry.currencies.includes(currency));
}

export function offersCountry(entry: CatalogEntry, country: string): boolean {
  return entry.countries === null || entry.countries.includes(country);
}

/** The default CVM limit of a currency, in its minor units. */
export function defaultCvmLimitMinor(currency: string): number {
  const exponent = currencyExponent(currency) ?? 2;
  return (DEFAULT_CVM_LIMITS[currency] ?? DEFAULT_CVM_LIMIT) * 10 ** exponent;
}

export { METHOD_CAPABILITIES };
