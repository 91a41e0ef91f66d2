/** The staff screens' words in English: invoices. Keys start with `invoices.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
