/** The staff screens' words in English: the transaction list, detail, filters, export and money actions. Keys start with `transactions.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
