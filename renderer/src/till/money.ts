/**
 * Amounts at the till: minor units while typing, decimals on the wire, `12.00 EUR` on screen. The
 * currency's decimals and the conversions are the gateway's own (contract/money.ts); this file only
 * formats and handles the keypad.
 */
import { exponentOf } from '../../../contract/money.js';

/** The number part, grouped: `1,234.50`. */
export function formatNumber(amount: number, currency: string): string {
  const exponent = exponentOf(currency);
  return new Intl.NumberFormat('en', { minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(amount);
}

/** `12.00 EUR`. */
export function formatMoney(amount: number, currency: string): string {
  return `${formatNumber(amount, currency)} ${currency}`;
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
