/**
 * The staff screens' language (D21): one message catalogue per language (contract/i18n), through
 * react-intl (ICU MessageFormat, plurals) and Intl for numbers, amounts and dates. The language is
 * the staff member's own choice (kept with their account), else the shop's (the session's
 * `merchant.language`), else this computer's (navigator.languages), else English; `<html lang>`
 * follows it. Screens take their words from `useT()`; stores and other code outside React from
 * `translate()`; the formatting helpers (ui/format.ts, ui/money.ts) read the same language through
 * `currentLocale()`.
 *
 * A computer whose first language is the pseudo-locale `en-XA` gets English made longer and
 * accented (`[Ţĥé ţîļļ ···]`): a browser test in it finds text no catalogue holds (plain English)
 * and text cut off by a 40 % longer translation.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { useEffect, useMemo, type ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import { CATALOGUES, type MessageId } from '../../../contract/i18n/catalogues.js';
import { intlFor, type MessageValues, type Translate } from '../../../contract/i18n/format.js';
import { INTL_LOCALES, staffLanguage, type StaffLanguage } from '../../../contract/i18n/languages.js';
import { useSession } from '../session-store.js';

export type { MessageValues } from '../../../contract/i18n/format.js';

/** The pseudo-locale's tag (as Android and Chromium name theirs). */
export const PSEUDO_LOCALE = 'en-XA';

interface ScreenLanguage {
  readonly language: StaffLanguage;
  readonly pseudo: boolean;
}

let current: ScreenLanguage = { language: 'en', pseudo: false };

/** The BCP 47 tag of the screens' language now (for Intl outside React: format.ts). */
export function currentLocale(): string {
  return INTL_LOCALES[current.language];
}

/** This computer's languages, best first. */
function computerLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages.length > 0 ? navigator.languages : [navigator.language];
}

function isPseudoComputer(): boolean {
  return computerLanguages()[0]?.toLowerCase() === PSEUDO_LOCALE.toLowerCase();
}

/** The language of the screens for whoever is logged in (or this computer's, before anyone is). */
export function useStaffLanguage(): StaffLanguage {
  const own = useSession((s) => s.session?.staff.language);
  const shop = useSession((s) => s.session?.merchant.language);
  return staffLanguage({ own, shop, computer: computerLanguages() });
}

const ACCENTS: Readonly<Record<string, string>> = {
  a: 'á', c: 'ç', e: 'é', g: 'ĝ', h: 'ĥ', i: 'î', l: 'ļ', n: 'ñ', o: 'ö', r: 'ŕ', s: 'š', t: 'ţ', u: 'ü', y: 'ý', z: 'ž',
  A: 'Å', C: 'Ç', E: 'É', I: 'Î', N: 'Ñ', O: 'Ö', S: 'Š', T: 'Ţ', U: 'Ü', Z: 'Ž',
};

/** A message's literal text accented and 40 % longer, its arguments, plurals and selects kept. */
function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: element.value.replace(/[A-Za-z]/g, (c) => ACCENTS[c] ?? c) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: pseudoElements(option.value) }]));
      return { ...element, options };
    }
    if (element.type === TYPE.tag) return { ...element, children: pseudoElements(element.children) };
    return element;
  });
}

function pseudoMessage(message: string): MessageFormatElement[] {
  const padding = '·'.repeat(Math.max(1, Math.round(message.length * 0.4)));
  return [{ type: TYPE.literal, value: '[' }, ...pseudoElements(parse(message)), { type: TYPE.literal, value: ` ${padding}]` }];
}

let pseudoCatalogue: Record<string, MessageFormatElement[]> | undefined;
function pseudoMessages(): Record<string, MessageFormatElement[]> {
  pseudoCatalogue ??= Object.fromEntries(Object.entries(CATALOGUES.en).map(([id, message]) => [id, pseudoMessage(message)]));
  return pseudoCatalogue;
}

export function LanguageProvider({ children }: { children: ReactNode }) {
  const language = useStaffLanguage();
  const pseudo = isPseudoComputer();
  current = { language: pseudo ? 'en' : language, pseudo };
  useEffect(() => {
    document.documentElement.lang = pseudo ? PSEUDO_LOCALE : language;
  }, [language, pseudo]);
  return (
    <IntlProvider locale={pseudo ? INTL_LOCALES.en : INTL_LOCALES[language]} messages={pseudo ? pseudoMessages() : CATALOGUES[language]} defaultLocale="en-GB">
      {children}
    </IntlProvider>
  );
}

/** The screens' words: `t('login.title')`, `t('login.joined', { till, tillId, shop })`. */
export function useT(): Translate {
  const intl = useIntl();
  return useMemo(() => (id: MessageId, values?: MessageValues) => intl.formatMessage({ id }, values), [intl]);
}

/** The same words outside React (stores, effects), in the language the screens speak now. */
export const translate: Translate = (id, values) => {
  const intl = current.pseudo ? intlFor('en', pseudoMessages() as unknown as Record<MessageId, string>, PSEUDO_LOCALE) : intlFor(current.language);
  return intl.formatMessage({ id }, values);
};
