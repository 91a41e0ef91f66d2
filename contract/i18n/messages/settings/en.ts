/** The staff screens' words in English: Settings: profile, staff, tills, shops, channels, SMTP, credentials, audit log. Keys start with `settings.` (contract/i18n/catalogues.ts). */
export const en = {
} as const;
