/** The staff screens' words in English: checkouts. Keys start with `checkouts.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
