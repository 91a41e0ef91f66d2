/** Dates as the back office shows them (English, the till's time zone). */
const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** `12 Mar 2026, 14:05` in the till's time zone. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
