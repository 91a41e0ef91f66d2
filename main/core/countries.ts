/** ISO 3166-1 alpha-2 country codes, as payments, payment methods and network tokens check them. */
import countries from 'i18n-iso-countries';

const COUNTRIES = new Set(Object.keys(countries.getAlpha2Codes()));

export function isCountryCode(value: string): boolean {
  return COUNTRIES.has(value);
}
