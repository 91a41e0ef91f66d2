/**
 * Words of the transaction screens: statuses with a tone (colour is only a second cue), payment
 * types, card and entry mode, dates. The codes are the contract's; their names are the catalogue's
 * (contract/i18n/messages/transactions), in the screens' language when they are asked for.
 */
import { asCardBrand } from '../../../contract/cards.js';
import { TransactionStatus, type TransactionStatusCode } from '../../../contract/codes.js';
import type { PaymentType, PosEntryMode } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { BRAND_NAMES } from '../till-screen/reader.js';
import { formatDate, formatDateTime, formatDateTimeSeconds, formatDayTime, formatTime } from '../ui/format.js';
import { currentLocale, translate } from '../ui/i18n.js';

export type Tone = 'ok' | 'bad' | 'neutral' | 'wait';

/** Each status's name (a new status code fails to compile until it has one). */
export const STATUS_MESSAGES: Record<TransactionStatusCode, MessageId> = {
  [TransactionStatus.started]: 'transactions.status.started',
  [TransactionStatus.pending]: 'transactions.status.pending',
  [TransactionStatus.completed]: 'transactions.status.completed',
  [TransactionStatus.authorized]: 'transactions.status.authorized',
  [TransactionStatus.reversed]: 'transactions.status.reversed',
  [TransactionStatus.declined]: 'common.declined',
  [TransactionStatus.refunded]: 'transactions.status.refunded',
  [TransactionStatus.partly_refunded]: 'transactions.status.partlyRefunded',
  [TransactionStatus.cancelled]: 'transactions.status.cancelled',
  [TransactionStatus.expired]: 'transactions.status.expired',
  [TransactionStatus.error]: 'transactions.status.error',
  [TransactionStatus.chargeback]: 'transactions.status.chargeback',
  [TransactionStatus.stored]: 'transactions.status.stored',
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

/** A status's name in the screens' language; a code this app does not know by its number. */
export function statusLabel(code: number): string {
  const id = STATUS_MESSAGES[code as TransactionStatusCode] as MessageId | undefined;
  return id ? translate(id) : translate('transactions.status.unknown', { code });
}

export function statusTone(code: number): Tone {
  return TONES[code as TransactionStatusCode] ?? 'neutral';
}

/** Each payment type's name (a new type fails to compile until it has one). */
export const PAYMENT_TYPE_MESSAGES: Record<PaymentType, MessageId> = {
  cardecom: 'transactions.type.cardecom',
  cardpos: 'transactions.type.cardpos',
  dd: 'transactions.type.dd',
  dd_b2b: 'transactions.type.ddB2b',
  wallet: 'transactions.type.wallet',
  devicewallet: 'transactions.type.devicewallet',
  a2a: 'transactions.type.a2a',
  bankredirect: 'transactions.type.bankredirect',
};

/** A payment type's name in the screens' language; a type this app does not know as the gateway sent it. */
export function paymentTypeLabel(type: string): string {
  const id = PAYMENT_TYPE_MESSAGES[type as PaymentType] as MessageId | undefined;
  return id ? translate(id) : type;
}

/** How the card was presented: a card-present entry mode, or `ecommerce` for a card not present. */
const ENTRY_MESSAGES: Record<PosEntryMode | 'ecommerce', MessageId> = {
  contactless: 'transactions.entry.contactless',
  chip: 'transactions.entry.chip',
  swipe: 'transactions.entry.swipe',
  manual: 'transactions.entry.manual',
  ecommerce: 'transactions.entry.ecommerce',
};

export function entryLabel(mode: string | null | undefined): string | null {
  if (!mode) return null;
  const id = Object.hasOwn(ENTRY_MESSAGES, mode) ? ENTRY_MESSAGES[mode as keyof typeof ENTRY_MESSAGES] : undefined;
  return id ? translate(id) : mode;
}

/** What a cell or a fact shows for no value: a dash, the same in every language. */
export const NO_VALUE = '—';

/** Parts of one line side by side (`Visa •••• 1111 · contactless`); the dot is typography, the same in every language. */
export function joined(...parts: ReadonlyArray<string | null | undefined | false>): string {
  return parts.filter(Boolean).join(' · ');
}

/** The dot between parts of a line, where one part is an element (`<strong>Reminder</strong> · Sent`). */
export const DOT = ' · ';

/** A code beside a name: `(TILL-2)`. */
export const bracketed = (text: string) => `(${text})`;

/** The first eight characters of an id, and an ellipsis: the list's short form. */
export const shortId = (id: string) => `${id.slice(0, 8)}…`;

/** `Visa •••• 1111`. */
export function cardText(brand: string | undefined, lastFour: string | undefined): string | null {
  if (!lastFour) return null;
  const known = asCardBrand(brand);
  return `${known === 'unknown' ? translate('common.card') : BRAND_NAMES[known]} •••• ${lastFour}`;
}

/** `21 Nov 2026, 10:03`, in the shop's time zone on a 24-hour clock (ui/format.ts). */
export { formatDateTime, formatDateTimeSeconds };

/** A later time beside an earlier one: `10:41` on the same day, `22 Nov, 08:15` on another. */
export function formatLater(iso: string, since: string): string {
  return formatDate(iso) === formatDate(since) ? formatTime(iso) : formatDayTime(iso);
}

const sizes = new Map<string, Intl.NumberFormat>();

/** `1.8 MB` (`1,8 MB` in German, Portuguese and Croatian): the number in the screens' language, the SI unit's symbol after it. */
export function formatBytes(bytes: number): string {
  const locale = currentLocale();
  let number = sizes.get(locale);
  if (!number) {
    number = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    sizes.set(locale, number);
  }
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${number.format(bytes / 1024)} kB`;
  return `${number.format(bytes / (1024 * 1024))} MB`;
}
