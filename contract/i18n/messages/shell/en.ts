/** The staff screens' words in English: the frame: header, menu, areas, idle lock, language control, session messages. Keys start with `shell.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
