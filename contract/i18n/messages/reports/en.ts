/** The staff screens' words in English: Close the day, X/Z reports (screen, PDF, printer lines) and the shop's day. Keys start with `reports.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
