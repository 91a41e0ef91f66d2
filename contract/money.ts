/**
 * Money (decisions.md D1), for the core and the renderer alike: the API speaks decimals, the
 * gateway holds integer minor units using the ISO 4217 exponent of the currency. Conversion goes
 * through the decimal text of the number, never through float arithmetic. Node-free.
 */
import currencyCodes from 'currency-codes';
import { MAX_AMOUNT_TEXT } from './constants.js';

// Codes that are ISO 4217 entries but not spendable currencies (funds, metals, testing).
const NON_SPENDABLE = new Set(['XAU', 'XAG', 'XPT', 'XPD', 'XTS', 'XXX', 'XBA', 'XBB', 'XBC', 'XBD', 'XSU', 'XUA', 'XDR']);

/** Decimal places of a spendable ISO 4217 currency (EUR 2, JPY 0, KWD 3); undefined for anything else. */
export function currencyExponent(currency: string): number | undefined {
  if (!/^[A-Z]{3}$/.test(currency) || NON_SPENDABLE.has(currency)) return undefined;
  const entry = currencyCodes.code(currency);
  return entry ? entry.digits : undefined;
}

/** Decimal places of a currency the gateway answered with; 2 for a code it would not accept. */
export function exponentOf(currency: string): number {
  return currencyExponent(currency) ?? 2;
}

export function isCurrency(currency: string): boolean {
  return currencyExponent(currency) !== undefined;
}

export type AmountProblem = 'not_a_number' | 'negative' | 'too_many_decimals' | 'too_large';

const problemText: Record<AmountProblem, string> = {
  not_a_number: 'must be a finite number',
  negative: 'must not be negative',
  too_many_decimals: 'has more decimals than the currency allows',
  too_large: `must not exceed ${MAX_AMOUNT_TEXT}`,
};

export function amountProblemText(problem: AmountProblem, exponent?: number): string {
  if (problem === 'too_many_decimals' && exponent !== undefined) {
    return `has more than ${exponent} decimal${exponent === 1 ? '' : 's'}, the most the currency allows`;
  }
  return problemText[problem];
}

/** Exact decimal text of a JS number ("1e-7" becomes "0.0000001"). */
export function decimalText(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, intPart, fracPart = '', expText] = match;
  const exp = Number(expText);
  const digits = (intPart ?? '') + fracPart;
  const pointAt = (intPart ?? '').length + exp;
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return `${sign}${digits}${'0'.repeat(pointAt - digits.length)}`;
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

function compareDecimal(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  const ain = ai.replace(/^0+(?=\d)/, '');
  const bin = bi.replace(/^0+(?=\d)/, '');
  if (ain.length !== bin.length) return ain.length - bin.length;
  if (ain !== bin) return ain < bin ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const ap = af.padEnd(width, '0');
  const bp = bf.padEnd(width, '0');
  return ap === bp ? 0 : ap < bp ? -1 : 1;
}

export type MinorResult = { ok: true; minor: number } | { ok: false; problem: AmountProblem };

/** Parses a decimal text ("10.55", "-3", "0.5") into minor units of a currency exponent. */
export function decimalTextToMinor(text: string, exponent: number, options: { allowNegative?: boolean } = {}): MinorResult {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return { ok: false, problem: 'not_a_number' };
  const [, sign, intPart = '0', rawFrac = ''] = match;
  if (sign === '-' && !options.allowNegative && /[1-9]/.test(intPart + rawFrac)) return { ok: false, problem: 'negative' };
  const frac = rawFrac.replace(/0+$/, '');
  if (frac.length > exponent) return { ok: false, problem: 'too_many_decimals' };
  const magnitude = `${intPart}${frac ? `.${frac}` : ''}`;
  if (compareDecimal(magnitude, MAX_AMOUNT_TEXT) > 0) return { ok: false, problem: 'too_large' };
  const minor = Number(intPart) * 10 ** exponent + Number(frac.padEnd(exponent, '0') || '0');
  return { ok: true, minor: sign === '-' ? -minor : minor };
}

/** Converts an API amount (a JSON number) into minor units. */
export function toMinor(value: number, exponent: number): MinorResult {
  if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, problem: 'not_a_number' };
  return decimalTextToMinor(decimalText(value), exponent);
}

/** Decimal text of minor units ("0.39"), as `included_fees` is given. */
export function minorToText(minor: number, exponent: number): string {
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  if (exponent === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** Minor units as the API's decimal number (exact for every amount within the limit). */
export function minorToAmount(minor: number, exponent: number): number {
  return Number(minorToText(minor, exponent));
}

/**
 * Minor units of an amount in a currency, e.g. 12.5 EUR -> 1250, exactly (through the decimal text).
 * A sum may be negative or above the largest amount; more decimals than the currency has are
 * rounded half away from zero.
 */
export function toMinorUnits(amount: number, currency: string): number {
  const exponent = exponentOf(currency);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimalText(amount));
  if (!match) throw new RangeError(`${amount} is not an amount`);
  const [, sign, whole = '0', fraction = ''] = match;
  let minor = Number(whole) * 10 ** exponent + Number(fraction.padEnd(exponent, '0').slice(0, exponent) || '0');
  if ((fraction[exponent] ?? '0') >= '5') minor += 1;
  return sign === '-' && minor !== 0 ? -minor : minor;
}

/** The API's decimal amount of minor units of a currency, e.g. 1250 EUR -> 12.5. */
export function fromMinorUnits(minor: number, currency: string): number {
  return minorToAmount(minor, exponentOf(currency));
}

/** The largest amount the API accepts (999,999,999.99) in minor units of a currency: 999,999,999 in JPY. */
export function maxAmountMinor(currency: string): number {
  const exponent = exponentOf(currency);
  const [whole = '', fraction = ''] = MAX_AMOUNT_TEXT.split('.');
  return Number(whole) * 10 ** exponent + Number(fraction.padEnd(exponent, '0').slice(0, exponent) || '0');
}

/** A spendable ISO 4217 currency as pickers list it: code, English name, decimal places. */
export interface CurrencyInfo {
  code: string;
  name: string;
  exponent: number;
}

/** Every currency the gateway accepts (currencyExponent defined), by code: for currency pickers. */
export function currencyList(): CurrencyInfo[] {
  return currencyCodes.data
    .filter((entry) => currencyExponent(entry.code) !== undefined)
    .map((entry) => ({ code: entry.code, name: entry.currency, exponent: entry.digits }))
    .sort((a, b) => a.code.localeCompare(b.code));
}
