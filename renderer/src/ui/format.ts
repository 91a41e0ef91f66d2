/**
 * Dates and times as staff screens show them: in the shop's time zone (the session's
 * `merchant.time_zone`: the setting timeZone, which the first start sets from this computer) and on
 * one 24-hour clock, in the screens' language's forms (ui/i18n.tsx), whatever the computer's own
 * settings. Every screen formats times here.
 */
import { useSession } from '../session-store.js';
import { currentLocale } from './language.js';

type Style = 'dateTime' | 'dateTimeSeconds' | 'time' | 'dayTime' | 'date';

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  dateTime: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' },
  dateTimeSeconds: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' },
  time: { hour: '2-digit', minute: '2-digit' },
  dayTime: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' },
  date: { day: 'numeric', month: 'short', year: 'numeric' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

/** The shop's time zone while someone is logged in; else this computer's. */
export function shopTimeZone(): string | undefined {
  return useSession.getState().session?.merchant.time_zone;
}

function format(style: Style, iso: string): string {
  const zone = shopTimeZone();
  const locale = currentLocale();
  const key = `${style}|${zone ?? ''}|${locale}`;
  let formatter = formats.get(key);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat(locale, { ...OPTIONS[style], hourCycle: 'h23', ...(zone ? { timeZone: zone } : {}) });
    } catch {
      // A zone this browser does not know: the computer's own.
      formatter = new Intl.DateTimeFormat(locale, { ...OPTIONS[style], hourCycle: 'h23' });
    }
    formats.set(key, formatter);
  }
  return formatter.format(new Date(iso));
}

/** `12 Mar 2026, 14:05`. */
export const formatDateTime = (iso: string) => format('dateTime', iso);

/** `12 Mar 2026, 14:05:09`: for steps that follow each other within a minute (a token's history). */
export const formatDateTimeSeconds = (iso: string) => format('dateTimeSeconds', iso);

/** The time of day, e.g. 14:05. */
export const formatTime = (iso: string) => format('time', iso);

/** `12 Mar, 14:05`: within this year's days. */
export const formatDayTime = (iso: string) => format('dayTime', iso);

/** `12 Mar 2026`. */
export const formatDate = (iso: string) => format('date', iso);

const days = new Map<string, Intl.DateTimeFormat>();

/**
 * A calendar day that belongs to no time zone (`YYYY-MM-DD`: an invoice's print date, an
 * instalment's due date) as `12 Mar 2026`, in the screens' language: the same day wherever the shop is.
 */
export function formatDay(day: string): string {
  const locale = currentLocale();
  let formatter = days.get(locale);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...OPTIONS.date, timeZone: 'UTC' });
    days.set(locale, formatter);
  }
  return formatter.format(new Date(`${day.slice(0, 10)}T00:00:00Z`));
}
