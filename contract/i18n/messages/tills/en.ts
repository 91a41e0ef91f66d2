/** The staff screens' words in English: this till and the shop: joining, the centre banner, the till gate. Keys start with `tills.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
