/**
 * The languages staff screens speak (D21): English, German, Portuguese (Portugal) and Croatian, and
 * how a screen chooses one: the staff member's own choice, else the shop's language, else the
 * computer's (Accept-Language, navigator.languages, the desktop's locale), else English. Plain data,
 * shared by the renderer and the pages the server renders.
 */

export const STAFF_LANGUAGES = ['en', 'de', 'pt', 'hr'] as const;
export type StaffLanguage = (typeof STAFF_LANGUAGES)[number];

/** The BCP 47 tag each language formats numbers, amounts, dates and plurals with (Intl). */
export const INTL_LOCALES: Readonly<Record<StaffLanguage, string>> = { en: 'en-GB', de: 'de-DE', pt: 'pt-PT', hr: 'hr-HR' };

/** Each language in its own words, as a language chooser lists it. */
export const LANGUAGE_NAMES: Readonly<Record<StaffLanguage, string>> = { en: 'English', de: 'Deutsch', pt: 'Português', hr: 'Hrvatski' };

export function isStaffLanguage(value: unknown): value is StaffLanguage {
  return typeof value === 'string' && (STAFF_LANGUAGES as readonly string[]).includes(value);
}

/** The first of `tags` (BCP 47, best first: navigator.languages, or Accept-Language ranked) that is a staff language. */
export function firstStaffLanguage(tags: readonly string[]): StaffLanguage | undefined {
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isStaffLanguage(primary)) return primary;
  }
  return undefined;
}

/** The language of a staff screen (D21): theirs, else the shop's, else the computer's, else English. */
export function staffLanguage(choice: { own?: string | null; shop?: string | null; computer?: readonly string[] }): StaffLanguage {
  if (isStaffLanguage(choice.own)) return choice.own;
  if (isStaffLanguage(choice.shop)) return choice.shop;
  return firstStaffLanguage(choice.computer ?? []) ?? 'en';
}
