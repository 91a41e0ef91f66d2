/**
 * The dashboard's periods in the shop's time zone: where today, the last 7 days and this month
 * start, and their hours or days as UTC instants. Uses the runtime's time zone data (Intl), so
 * daylight saving time and zones whose midnight is not a whole UTC hour come out right: a day is
 * from one local midnight to the next (23 or 25 hours on the days the clocks change), an hour is
 * 60 minutes from local midnight on.
 */
import type { DashboardPeriod } from '../../../contract/constants.js';

const HOUR_MS = 60 * 60 * 1000;

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

export interface Bucket {
  /** UTC instant of the bucket's start. */
  start: Date;
  /** UTC instant right after it. */
  end: Date;
  /** The start in the shop's time zone: YYYY-MM-DD (day) or YYYY-MM-DDTHH:mm (hour). */
  local: string;
}

export interface PeriodPlan {
  period: DashboardPeriod;
  bucket: 'hour' | 'day';
  from: Date;
  to: Date;
  buckets: Bucket[];
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** Whether the runtime knows this IANA time zone. */
export function isTimeZone(name: string): boolean {
  try {
    formatFor(name);
    return true;
  } catch {
    return false;
  }
}

/** The time zone this process runs in (the shop's machine for the desktop app), UTC when unknown. */
export function hostTimeZone(): string {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/** The wall-clock time of an instant in a time zone. */
export function localTime(instant: number, timeZone: string): LocalTime & { second: number } {
  const parts: Record<string, number> = {};
  for (const part of formatFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** How far the time zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const t = localTime(instant, timeZone);
  const wholeSecond = instant - (((instant % 1000) + 1000) % 1000);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - wholeSecond;
}

/**
 * The instant a wall-clock time happens in a time zone. A time the clocks skip (in the spring
 * change) is moved on by the length of the skip, so a midnight that does not exist (zones that
 * change at 00:00) gives the day's first instant; a time that happens twice gives one of the two.
 */
export function zonedInstant(year: number, month: number, day: number, hour: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day, hour);
  let instant = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(instant, timeZone);
  if (second !== instant) {
    // Near a change of offset: take whichever reading the zone agrees with; in a gap the later one.
    instant = offsetAt(second, timeZone) === wall - second ? second : Math.max(instant, second);
  }
  return instant;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
export const localDate = (t: Pick<LocalTime, 'year' | 'month' | 'day'>) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;

/** The calendar date `days` after a date (negative: before). */
function addDays(t: Pick<LocalTime, 'year' | 'month' | 'day'>, days: number): Pick<LocalTime, 'year' | 'month' | 'day'> {
  const d = new Date(Date.UTC(t.year, t.month - 1, t.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const midnight = (t: Pick<LocalTime, 'year' | 'month' | 'day'>, timeZone: string) => zonedInstant(t.year, t.month, t.day, 0, timeZone);

/**
 * The period's hours (today) or days (7d: today and the six days before; month: the 1st to today),
 * up to the one `now` is in.
 */
export function planPeriod(period: DashboardPeriod, now: Date, timeZone: string): PeriodPlan {
  const nowMs = now.getTime();
  const today = localTime(nowMs, timeZone);
  const buckets: Bucket[] = [];
  if (period === 'today') {
    const start = midnight(today, timeZone);
    const end = midnight(addDays(today, 1), timeZone);
    for (let at = start; at < end && at <= nowMs; at += HOUR_MS) {
      const t = localTime(at, timeZone);
      buckets.push({
        start: new Date(at),
        end: new Date(Math.min(at + HOUR_MS, end)),
        local: `${localDate(t)}T${pad(t.hour)}:${pad(t.minute)}`,
      });
    }
  } else {
    const first = period === '7d' ? addDays(today, -6) : { year: today.year, month: today.month, day: 1 };
    for (let date = first; ; date = addDays(date, 1)) {
      const start = midnight(date, timeZone);
      if (start > nowMs) break;
      buckets.push({ start: new Date(start), end: new Date(midnight(addDays(date, 1), timeZone)), local: localDate(date) });
    }
  }
  const from = buckets[0]?.start ?? now;
  const to = buckets.at(-1)?.end ?? now;
  return { period, bucket: period === 'today' ? 'hour' : 'day', from, to, buckets };
}
