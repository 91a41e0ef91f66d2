/** Dates as the back office shows them (English, the till's time zone). */
const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** `12 Mar 2026, 14:05` in the till's time zone. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

const withSeconds = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** `12 Mar 2026, 14:05:09`: for steps that follow each other within a minute (a token's history). */
export const formatDateTimeSeconds = (iso: string) => withSeconds.format(new Date(iso));

const timeOnly = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
/** The time of day, e.g. 14:05. */
export const formatTime = (iso: string) => timeOnly.format(new Date(iso));
