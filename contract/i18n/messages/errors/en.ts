/** The staff screens' words in English: the staff-facing text of the API's errors the screens show. Keys start with `errors.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
