/** The staff screens' words in English: postbacks, the test outbox and the webhook key. Keys start with `postbacks.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
