/** The staff screens' words in English: shared back-office parts: tables, pagers, filters, forms, dialogs. Keys start with `ui.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
