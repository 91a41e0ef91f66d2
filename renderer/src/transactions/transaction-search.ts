/**
 * The transaction list's place in its URL (`#/transactions?status=6,11&type=cardpos&from=2026-11-01`):
 * every filter of GET /rest/transactions, so a reload, a bookmark, a deep link or back/forward keep
 * them. Days are the browser's local days; the API gets them as instants.
 */
import { OTHER_TERMINALS_BOOK, PAYMENT_TYPES, TILL_ID_PATTERN, type PaymentType } from '../../../contract/constants.js';
import { isStatusCode } from '../../../contract/codes.js';
import { searchDay } from '../ui/list-search.js';

export interface TransactionListSearch {
  /** The search box: a transaction id, an order id, an invoice number, a card's last four or a till's id. */
  q?: string;
  /** Status codes, comma-separated (`6` or `6,11`). */
  status?: string;
  /** Payment types, comma-separated (`cardpos,cardecom`). */
  type?: string;
  currency?: string;
  /** A card's last four digits. */
  card?: string;
  order_id?: string;
  /** Exact amount, or a range (decimal text). */
  amount?: string;
  amount_min?: string;
  amount_max?: string;
  /** Local days, `YYYY-MM-DD`. */
  from?: string;
  to?: string;
  /** A till's card-present sales (its id, `TILL-2`), or `*` for those of no till (Other terminals). */
  till?: string;
  /** The sales a member of staff took (their staff id). */
  cashier?: string;
}

const AMOUNT = /^\d{1,9}(\.\d{1,4})?$/;

/** Only what the API would take: anything else in a typed-in URL is dropped, not sent. */
export function transactionListSearch(search: Record<string, unknown>): TransactionListSearch {
  const text = (value: unknown): string | undefined => {
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const result: TransactionListSearch = {};
  const q = text(search.q);
  if (q && q.length <= 128) result.q = q;
  const status = text(search.status)
    ?.split(',')
    .map((code) => code.trim())
    .filter((code) => /^\d{1,2}$/.test(code) && isStatusCode(Number(code)));
  if (status?.length) result.status = [...new Set(status)].join(',');
  const types = text(search.type)
    ?.split(',')
    .map((type) => type.trim())
    .filter((type): type is PaymentType => (PAYMENT_TYPES as readonly string[]).includes(type));
  if (types?.length) result.type = [...new Set(types)].join(',');
  const currency = text(search.currency)?.toUpperCase();
  if (currency && /^[A-Z]{3}$/.test(currency)) result.currency = currency;
  const card = text(search.card);
  if (card && /^\d{4}$/.test(card)) result.card = card;
  const order = text(search.order_id);
  if (order && order.length <= 255) result.order_id = order;
  for (const key of ['amount', 'amount_min', 'amount_max'] as const) {
    const value = text(search[key]);
    if (value && AMOUNT.test(value)) result[key] = value;
  }
  const from = searchDay(search.from);
  if (from) result.from = from;
  const to = searchDay(search.to);
  if (to) result.to = to;
  const till = text(search.till);
  if (till && (till === OTHER_TERMINALS_BOOK || TILL_ID_PATTERN.test(till))) result.till = till;
  const cashier = text(search.cashier);
  if (cashier && /^[\x21-\x7e]{1,64}$/.test(cashier)) result.cashier = cashier;
  return result;
}

export function listOf(value: string | undefined): string[] {
  return value ? value.split(',') : [];
}

/** The start of a local day as an instant (`2026-11-01` in Berlin -> `2026-10-31T23:00:00.000Z`). */
export function localDayStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1).toISOString();
}

/** The last millisecond of a local day as an instant. */
export function localDayEnd(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1).getTime() - 1).toISOString();
}

/** The offset of an IANA time zone at an instant, in minutes. */
function offsetMinutes(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(ms))
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const local = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The instant a day starts in a time zone (`2026-11-01` in Asia/Kolkata -> `2026-10-31T18:30:00.000Z`). */
export function zonedDayStart(day: string, timeZone: string): string {
  const [y, m, d] = day.split('-').map(Number);
  const guess = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  let instant = guess - offsetMinutes(guess, timeZone) * 60_000;
  // The offset at the first guess may differ from the offset at the day's start (a change between).
  instant = guess - offsetMinutes(instant, timeZone) * 60_000;
  return new Date(instant).toISOString();
}

/** The next day (`2026-11-30` -> `2026-12-01`). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1)).toISOString().slice(0, 10);
}

/** The query of GET /rest/transactions (and its export) for a place in the list; days in `timeZone` or the browser's. */
export function apiQuery(search: TransactionListSearch, timeZone?: string): URLSearchParams {
  const query = new URLSearchParams();
  if (search.q) query.set('search', search.q);
  if (search.status) query.set('status', search.status);
  if (search.type) query.set('payment_type', search.type);
  if (search.currency) query.set('currency', search.currency);
  if (search.card) query.set('card_last_four', search.card);
  if (search.order_id) query.set('order_id', search.order_id);
  if (search.amount) query.set('amount', search.amount);
  if (search.amount_min) query.set('amount_min', search.amount_min);
  if (search.amount_max) query.set('amount_max', search.amount_max);
  if (search.from) query.set('from', timeZone ? zonedDayStart(search.from, timeZone) : localDayStart(search.from));
  if (search.till) query.set('till_id', search.till);
  if (search.cashier) query.set('staff_id', search.cashier);
  if (search.to)
    query.set(
      'to',
      timeZone ? new Date(Date.parse(zonedDayStart(nextDay(search.to), timeZone)) - 1).toISOString() : localDayEnd(search.to),
    );
  return query;
}

/** Whether any filter is set. */
export function isFiltered(search: TransactionListSearch): boolean {
  return Object.values(search).some((value) => value !== undefined && value !== '');
}
