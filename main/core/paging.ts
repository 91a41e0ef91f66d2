/**
 * The paged lists' common query parameters (`page`, `per`, `created_at[min]`, `created_at[max]`),
 * read the same way by the network token list and the back office's checkout list: every bad one is
 * named in the caller's errors, in the network token API's words. And a list's search box.
 */
import type { FieldError, PageMetadata } from '../../contract/api/common.js';
import { SEARCH_MAX_LENGTH } from '../../contract/transaction-list.js';

export interface PageQuery {
  page?: string;
  per?: string;
  'created_at[min]'?: string;
  'created_at[max]'?: string;
}

export interface PageRequest {
  page: number;
  per: number;
  /** Inclusive bounds of created_at, as ISO 8601 instants. */
  createdFrom?: string;
  createdTo?: string;
}

/** Reads page, per and the created range; pushes an error for each bad one. */
export function readPageQuery(query: PageQuery, defaultPer: number, maxPer: number, errors: FieldError[]): PageRequest {
  const page = query.page === undefined ? 1 : /^\d{1,9}$/.test(query.page) ? Number(query.page) : NaN;
  const per = query.per === undefined ? defaultPer : /^\d{1,9}$/.test(query.per) ? Number(query.per) : NaN;
  const request: PageRequest = { page, per };
  for (const [key, target] of [
    ['created_at[min]', 'createdFrom'],
    ['created_at[max]', 'createdTo'],
  ] as const) {
    const value = query[key];
    if (value === undefined) continue;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) errors.push({ field: key, message: 'must be an ISO 8601 date or timestamp' });
    else request[target] = new Date(ms).toISOString();
  }
  if (!(page >= 1)) errors.push({ field: 'page', message: 'must be an integer of at least 1' });
  if (!(per >= 1 && per <= maxPer)) errors.push({ field: 'per', message: `must be an integer from 1 to ${maxPer}` });
  return request;
}

export function pageMetadata(total: number, page: number, per: number): PageMetadata {
  return { per_page: per, total_items: total, current_page: page, total_pages: Math.max(1, Math.ceil(total / per)) };
}

/** `value` when it is one of `allowed` (or absent: undefined); else an error naming `field`. */
export function oneOf<T extends string>(
  field: string,
  value: string | undefined,
  allowed: readonly T[],
  errors: FieldError[],
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  errors.push({ field, message: `must be one of ${allowed.join(', ')}` });
  return undefined;
}

/** An id as the gateway makes them (a UUID): a search box looks such text up as an id too. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A list's `search`: the text trimmed, and as `id` (lowercased, as ids are stored) when it is one;
 * undefined when absent; an error naming `search` when empty or longer than SEARCH_MAX_LENGTH,
 * saying it `mustBe` (what the list finds by).
 */
export function readSearch(value: string | undefined, mustBe: string, errors: FieldError[]): { text: string; id?: string } | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '' || text.length > SEARCH_MAX_LENGTH) {
    errors.push({ field: 'search', message: `must be ${mustBe} (1 to ${SEARCH_MAX_LENGTH} characters)` });
    return undefined;
  }
  return UUID.test(text) ? { text, id: text.toLowerCase() } : { text };
}

/** A paged list's links: `href(page)` for this page, the first, the last, and the pages before and after it (null at either end). */
export function pageLinks(href: (page: number) => string, page: number, totalPages: number) {
  return {
    self: { href: href(page) },
    first: { href: href(1) },
    last: { href: href(totalPages) },
    prev: { href: page > 1 ? href(Math.min(page - 1, totalPages)) : null },
    next: { href: page < totalPages ? href(page + 1) : null },
  };
}
