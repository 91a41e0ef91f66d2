/** The staff screens' words in English: the dashboard. Keys start with `dashboard.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
