/**
 * Formatting a message outside React (D21): the pages the server renders, the X/Z report's PDF and
 * printer lines, and the renderer's stores, which say things before a screen shows them. One
 * @formatjs/intl object per language, made once; `formatterFor('de')('till.declined', { reason })`.
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { CATALOGUES, type MessageId } from './catalogues.js';
import { INTL_LOCALES, type StaffLanguage } from './languages.js';

export type MessageValues = Record<string, string | number | boolean | Date | null | undefined>;
export type Translate = (id: MessageId, values?: MessageValues) => string;

const cache = createIntlCache();
const intls = new Map<string, IntlShape>();

/** The Intl-backed formatter of `language` (its catalogue, its locale's plurals and numbers). */
export function intlFor(
  language: StaffLanguage,
  messages: Readonly<Record<MessageId, string>> = CATALOGUES[language],
  key: string = language,
): IntlShape {
  let intl = intls.get(key);
  if (!intl) {
    intl = createIntl({ locale: INTL_LOCALES[language], defaultLocale: 'en-GB', messages }, cache);
    intls.set(key, intl);
  }
  return intl;
}

/** `t(id, values)` in `language`. */
export function formatterFor(language: StaffLanguage): Translate {
  const intl = intlFor(language);
  return (id, values) => intl.formatMessage({ id }, values);
}
