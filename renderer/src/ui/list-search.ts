/**
 * Reading a list's place from its URL search (TanStack Router hands it as plain values): trimmed
 * text, a calendar day, a page number; and a day range as the inclusive ISO instants the API's
 * `created_at[min]` / `created_at[max]` take (the till's own midnight to the last millisecond).
 */
import { isCalendarDate } from '../../../contract/text-rules.js';

export function searchText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** One of `allowed`, or undefined. */
export function searchOneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.find((option) => option === value);
}

/** A `YYYY-MM-DD` day that exists (contract/text-rules.ts), or undefined. */
export function searchDay(value: unknown): string | undefined {
  const text = searchText(value);
  return text && isCalendarDate(text) ? text : undefined;
}

/** A page above 1, or undefined (the first page). */
export function searchPage(value: unknown): number | undefined {
  const page = typeof value === 'number' ? value : Number(searchText(value) ?? Number.NaN);
  return Number.isInteger(page) && page > 1 && page < 1_000_000 ? page : undefined;
}

/** The first instant of a day in the till's time zone, as ISO 8601. */
export const dayStartIso = (day: string) => new Date(`${day}T00:00:00`).toISOString();
/** The last millisecond of a day in the till's time zone, as ISO 8601. */
export const dayEndIso = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();

/** A filter changed: the search without empty values and back on the first page. */
export function filtered<S extends { page?: number }>(search: S, change: Partial<S>): S {
  const next: S = { ...search, ...change };
  delete next.page;
  for (const key of Object.keys(next) as Array<keyof S>) if (next[key] === undefined || next[key] === '') delete next[key];
  return next;
}
