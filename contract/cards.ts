/**
 * What anyone holding a card number may tell from it, the same at the till, in the gateway and in
 * the Test environment: whether it passes the Luhn check, and its brand from the BIN; and what the
 * network token API says about a card number and an expiry it refuses, in its own words, so a form
 * can say it before sending. Node-free.
 */
import { TOKEN_NETWORKS } from './constants.js';

export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'unknown'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** Luhn (mod 10) check of a card number of 12 to 19 digits. Self-contained: the hosted pages' script holds its source (main/http/pages/assets.ts). */
export function luhnValid(pan: string): boolean {
  if (!/^\d{12,19}$/.test(pan)) return false;
  let sum = 0;
  for (let i = 0; i < pan.length; i += 1) {
    let digit = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The card brand from the BIN (leading digits): 4 visa; 51-55, 2221-2720 mastercard; 34, 37 amex; 6011, 65 discover.
 * Self-contained: the hosted pages' script holds its source (main/http/pages/assets.ts).
 */
export function cardBrand(pan: string): CardBrand {
  if (!/^\d+$/.test(pan)) return 'unknown';
  if (pan.startsWith('4')) return 'visa';
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if (pan.length >= 2 && two >= 51 && two <= 55) return 'mastercard';
  if (pan.length >= 4 && four >= 2221 && four <= 2720) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  if (pan.startsWith('6011') || pan.startsWith('65')) return 'discover';
  return 'unknown';
}

/** A brand name as received (a transaction's `card_brand`), or `unknown` for one this list lacks. */
export function asCardBrand(value: string | null | undefined): CardBrand {
  return (CARD_BRANDS as readonly (string | null | undefined)[]).includes(value) ? (value as CardBrand) : 'unknown';
}

const PAN_LIKE = /\b(\d{6})\d{3,9}(\d{4})\b/g;

/** Masks digit runs of 13 to 19 digits (card and token numbers) to the first 6 and last 4. */
export function maskPans(text: string): string {
  return text.replace(PAN_LIKE, (_m, first: string, last: string) => `${first}…${last}`);
}

/** Why `POST /v2/network_tokens` refuses this `card_number` (its words), or null when it takes it. */
export function tokenCardNumberProblem(pan: string): string | null {
  if (!/^\d{12,19}$/.test(pan)) return 'must be 12 to 19 digits';
  if (!luhnValid(pan)) return 'is not a valid card number (Luhn check failed)';
  if (!(TOKEN_NETWORKS as readonly string[]).includes(cardBrand(pan))) return 'only visa and mastercard cards can be tokenized';
  return null;
}

/**
 * Why a card's `expiry_month` and `expiry_year` are refused (the network token API's words, by
 * field); empty when the card is valid in the month of `now` (UTC) or later.
 */
export function cardExpiryProblems(month: number, year: number, now: Date): { expiry_month?: string; expiry_year?: string } {
  const problems: { expiry_month?: string; expiry_year?: string } = {};
  const monthOk = Number.isInteger(month) && month >= 1 && month <= 12;
  if (!monthOk) problems.expiry_month = 'must be an integer from 1 to 12';
  const yearOk = Number.isInteger(year) && year >= 1000 && year <= 9999;
  if (!yearOk) problems.expiry_year = 'must be a four-digit year with century, e.g. 2030';
  else if (year < now.getUTCFullYear() || (monthOk && year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1))
    problems.expiry_year = 'the card has expired';
  return problems;
}
