/** The staff screens' words in English: receipts the till shows, prints or e-mails, and the printer dialog. Keys start with `receipts.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
