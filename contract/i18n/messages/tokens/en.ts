/** The staff screens' words in English: network tokens. Keys start with `tokens.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
