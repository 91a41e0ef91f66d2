/** The staff screens' words in English: Today's sales and its refund and receipt dialogs. Keys start with `sales.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
