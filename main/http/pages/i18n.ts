/**
 * Languages of the hosted pages (en, de, pt, hr; docs/api.md). Their words are the
 * `pages` area of the shared catalogues (contract/i18n/messages/pages/, D21), formatted by
 * contract/i18n/format.ts; this module only chooses the language (`?lang=`, then the session's or
 * transaction's locale, then Accept-Language, then English) and formats amounts and country names.
 */
import { formatterFor, type Translate } from '../../../contract/i18n/format.js';
import type { pages } from '../../../contract/i18n/messages/pages/index.js';
import {
  firstStaffLanguage,
  INTL_LOCALES,
  isStaffLanguage,
  LANGUAGE_NAMES,
  STAFF_LANGUAGES,
  type StaffLanguage,
} from '../../../contract/i18n/languages.js';
import { acceptedLanguages } from '../staff-language.js';

export { LANGUAGE_NAMES };
export type { Translate };

/** The pages speak the staff languages. */
export const LANGUAGES = STAFF_LANGUAGES;
export type Lang = StaffLanguage;

/** A message of the hosted pages (`pages.card_title`). */
export type PageMessage = keyof (typeof pages)['en'];

export const isLang = isStaffLanguage;

/** The best supported language of an Accept-Language header, or undefined. */
export function fromAcceptLanguage(header: string | undefined): Lang | undefined {
  return firstStaffLanguage(acceptedLanguages(header));
}

export function chooseLanguage(query: unknown, locale: string | null | undefined, acceptLanguage: string | undefined): Lang {
  if (isLang(query)) return query;
  const fromLocale = locale?.toLowerCase().split(/[-_]/)[0];
  if (isLang(fromLocale)) return fromLocale;
  return fromAcceptLanguage(acceptLanguage) ?? 'en';
}

/** The pages' messages in `lang`: `t('pages.pay_to', { merchant })`. */
export function translator(lang: Lang): Translate {
  return formatterFor(lang);
}

/** The BCP 47 tag of `lang` for Intl (amounts, dates, country names). */
export function intlLocale(lang: Lang): string {
  return INTL_LOCALES[lang];
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** A decimal amount for display, e.g. "€12.50" (en) or "12,50 €" (de). Display only: no arithmetic. */
export function formatMoney(lang: Lang, amount: number, currency: string): string {
  const key = `${lang}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(INTL_LOCALES[lang], { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat(INTL_LOCALES[lang], { minimumFractionDigits: 2 });
    }
    moneyFormats.set(key, format);
  }
  return format.resolvedOptions().style === 'currency' ? format.format(amount) : `${format.format(amount)} ${currency}`;
}

const regionNames = new Map<Lang, Intl.DisplayNames>();

export function countryName(lang: Lang, code: string): string {
  let names = regionNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([INTL_LOCALES[lang]], { type: 'region' });
    regionNames.set(lang, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
