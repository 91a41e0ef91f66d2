/**
 * Amounts on every staff screen: minor units while typing, decimals on the wire, and on screen in
 * the screens' language (ui/i18n.tsx): `1,234.50 EUR` in English, `1.234,50 €` in German and
 * Croatian, `1 234,50 €` in Portuguese, the forms each country's terminals print. The currency's
 * decimals and the conversions are the gateway's own (contract/money.ts); this file only formats and
 * handles the keypad.
 */
import { exponentOf } from '../../../contract/money.js';
import { currentLocale } from '../ui/language.js';

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, currency: string, style: 'number' | 'money'): Intl.NumberFormat {
  const key = `${locale}|${currency}|${style}`;
  let format = formats.get(key);
  if (!format) {
    const exponent = exponentOf(currency);
    const digits = { minimumFractionDigits: exponent, maximumFractionDigits: exponent };
    format =
      style === 'money' && !locale.startsWith('en')
        ? new Intl.NumberFormat(locale, { ...digits, style: 'currency', currency, currencyDisplay: 'symbol' })
        : new Intl.NumberFormat(locale, digits);
    formats.set(key, format);
  }
  return format;
}

/** The number part, grouped in the screens' language (or `locale`'s): `1,234.50`, `1.234,50`. */
export function formatNumber(amount: number, currency: string, locale: string = currentLocale()): string {
  return numberFormat(locale, currency, 'number').format(amount);
}

/**
 * `12.00 EUR` in English (the code after the number, as before D21); `12,00 €` in German, Portuguese
 * and Croatian. In the screens' language, or in `locale`'s (the customer's receipt: the shop's).
 */
export function formatMoney(amount: number, currency: string, locale: string = currentLocale()): string {
  if (locale.startsWith('en')) return `${formatNumber(amount, currency, locale)} ${currency}`;
  return numberFormat(locale, currency, 'money').format(amount);
}

/** Most digits the keypad takes: 999,999,999.99 in a two-decimal currency, the gateway's largest amount. */
export const MAX_AMOUNT_DIGITS = 11;

/** One keypad press on the typed digits, POS style: 1, 2, 0, 0 → 12.00. */
export function pressAmountKey(digits: string, key: string): string {
  if (key === 'back') return digits.slice(0, -1);
  if (key === 'clear') return '';
  if (!/^\d{1,2}$/.test(key)) return digits;
  const next = `${digits}${key}`.replace(/^0+/, '');
  return next.length > MAX_AMOUNT_DIGITS ? digits : next;
}

/** A typed amount (`12.50` or `12,50`) in a currency's decimals; undefined when it is not one. */
export function parseAmount(text: string, currency: string): number | undefined {
  const exponent = exponentOf(currency);
  const normalized = text.trim().replace(',', '.');
  const pattern = exponent > 0 ? new RegExp(`^\\d{1,9}(\\.\\d{1,${exponent}})?$`) : /^\d{1,9}$/;
  return pattern.test(normalized) ? Number(normalized) : undefined;
}
