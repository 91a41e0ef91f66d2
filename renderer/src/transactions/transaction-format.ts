/**
 * Words of the transaction screens: statuses with a tone (colour is only a second cue), payment
 * types, card and entry mode, dates. The codes are the contract's.
 */
import { asCardBrand } from '../../../contract/cards.js';
import { TransactionStatus, type TransactionStatusCode } from '../../../contract/codes.js';
import type { PaymentType } from '../../../contract/constants.js';
import { BRAND_NAMES } from '../till/reader.js';
import { formatDate, formatDateTime, formatDateTimeSeconds, formatDayTime, formatTime } from '../ui/format.js';

export type Tone = 'ok' | 'bad' | 'neutral' | 'wait';

export const STATUS_LABELS: Record<TransactionStatusCode, string> = {
  [TransactionStatus.started]: 'Started',
  [TransactionStatus.pending]: 'Pending',
  [TransactionStatus.completed]: 'Completed',
  [TransactionStatus.authorized]: 'Authorized',
  [TransactionStatus.reversed]: 'Released',
  [TransactionStatus.declined]: 'Declined',
  [TransactionStatus.refunded]: 'Refunded',
  [TransactionStatus.partly_refunded]: 'Partly refunded',
  [TransactionStatus.cancelled]: 'Cancelled',
  [TransactionStatus.expired]: 'Expired',
  [TransactionStatus.error]: 'Error',
  [TransactionStatus.chargeback]: 'Chargeback',
  [TransactionStatus.stored]: 'Stored at the till',
};

const TONES: Record<TransactionStatusCode, Tone> = {
  [TransactionStatus.started]: 'wait',
  [TransactionStatus.pending]: 'wait',
  [TransactionStatus.completed]: 'ok',
  [TransactionStatus.authorized]: 'wait',
  [TransactionStatus.reversed]: 'neutral',
  [TransactionStatus.declined]: 'bad',
  [TransactionStatus.refunded]: 'neutral',
  [TransactionStatus.partly_refunded]: 'neutral',
  [TransactionStatus.cancelled]: 'neutral',
  [TransactionStatus.expired]: 'neutral',
  [TransactionStatus.error]: 'bad',
  [TransactionStatus.chargeback]: 'bad',
  [TransactionStatus.stored]: 'wait',
};

export function statusLabel(code: number): string {
  return STATUS_LABELS[code as TransactionStatusCode] ?? `Status ${code}`;
}

export function statusTone(code: number): Tone {
  return TONES[code as TransactionStatusCode] ?? 'neutral';
}

export const PAYMENT_TYPE_LABELS: Record<PaymentType, string> = {
  cardecom: 'Card online',
  cardpos: 'Card present',
  dd: 'SEPA Direct Debit',
  dd_b2b: 'SEPA B2B debit',
  wallet: 'Wallet',
  devicewallet: 'Device wallet',
  a2a: 'Account to account',
  bankredirect: 'Bank redirect',
};

export function paymentTypeLabel(type: string): string {
  return PAYMENT_TYPE_LABELS[type as PaymentType] ?? type;
}

const ENTRY_LABELS: Record<string, string> = {
  contactless: 'contactless',
  chip: 'chip',
  swipe: 'swiped',
  manual: 'keyed in',
  ecommerce: 'online',
};

export function entryLabel(mode: string | null | undefined): string | null {
  return mode ? (ENTRY_LABELS[mode] ?? mode) : null;
}

/** `Visa •••• 1111`. */
export function cardText(brand: string | undefined, lastFour: string | undefined): string | null {
  if (!lastFour) return null;
  return `${BRAND_NAMES[asCardBrand(brand)]} •••• ${lastFour}`;
}

/** `21 Nov 2026, 10:03`, in the shop's time zone on a 24-hour clock (ui/format.ts). */
export { formatDateTime, formatDateTimeSeconds };

/** A later time beside an earlier one: `10:41` on the same day, `22 Nov, 08:15` on another. */
export function formatLater(iso: string, since: string): string {
  return formatDate(iso) === formatDate(since) ? formatTime(iso) : formatDayTime(iso);
}

/** `1.8 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export const count = new Intl.NumberFormat('en');
