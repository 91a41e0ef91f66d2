/** The staff screens' words in English: the till: keypad, card prompt, PIN, results, banners, store-and-forward, shortcuts help. Keys start with `till.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
