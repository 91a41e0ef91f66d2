/** Amounts at the till: minor units while typing, decimals on the wire, `12.00 EUR` on screen. */

const exponents = new Map<string, number>();

/** Decimal places of a currency (EUR 2, JPY 0, KWD 3), from the platform's ISO 4217 data. */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    try {
      exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      exponent = 2;
    }
    exponents.set(currency, exponent);
  }
  return exponent;
}

/** The number part, grouped: `1,234.50`. */
export function formatNumber(amount: number, currency: string): string {
  const exponent = currencyExponent(currency);
  return new Intl.NumberFormat('en', { minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(amount);
}

/** `12.00 EUR`. */
export function formatMoney(amount: number, currency: string): string {
  return `${formatNumber(amount, currency)} ${currency}`;
}

export function minorToAmount(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  return Number((minor / 10 ** exponent).toFixed(exponent));
}

export function amountToMinor(amount: number, currency: string): number {
  return Math.round(amount * 10 ** currencyExponent(currency));
}

/** Most digits the keypad takes: 999,999,999.99 in a two-decimal currency, the gateway's largest amount. */
export const MAX_AMOUNT_DIGITS = 11;

/** The gateway's largest amount (999,999,999.99) in minor units of a currency: 999,999,999 in JPY. */
export function maxAmountMinor(currency: string): number {
  const scale = 10 ** currencyExponent(currency);
  return 999_999_999 * scale + Math.floor((99 * scale) / 100);
}

/** One keypad press on the typed digits, POS style: 1, 2, 0, 0 → 12.00. */
export function pressAmountKey(digits: string, key: string): string {
  if (key === 'back') return digits.slice(0, -1);
  if (key === 'clear') return '';
  if (!/^\d{1,2}$/.test(key)) return digits;
  const next = `${digits}${key}`.replace(/^0+/, '');
  return next.length > MAX_AMOUNT_DIGITS ? digits : next;
}
