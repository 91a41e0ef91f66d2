/**
 * The language the staff screens speak now, for code outside React (stores, the API transport,
 * format.ts): set by ui/i18n.tsx's LanguageProvider on every render, read here without importing
 * React or the session. `translate(id, values)` formats a message of the catalogues in it.
 *
 * The pseudo-locale `en-XA`: English accented and 40 % longer (`[Ţĥé ţîļļ ···]`), its arguments,
 * plurals and selects kept, so a browser test in it finds text no catalogue holds and text cut off.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES, type MessageId } from '../../../contract/i18n/catalogues.js';
import { intlFor, type Translate } from '../../../contract/i18n/format.js';
import { INTL_LOCALES, type StaffLanguage } from '../../../contract/i18n/languages.js';

/** The pseudo-locale's tag (as Android and Chromium name theirs). */
export const PSEUDO_LOCALE = 'en-XA';

export interface ScreenLanguage {
  readonly language: StaffLanguage;
  readonly pseudo: boolean;
}

let current: ScreenLanguage = { language: 'en', pseudo: false };

export function setScreenLanguage(next: ScreenLanguage): void {
  current = next;
}

export function screenLanguage(): ScreenLanguage {
  return current;
}

/** The BCP 47 tag of the screens' language now (for Intl outside React: format.ts, money.ts). */
export function currentLocale(): string {
  return INTL_LOCALES[current.language];
}

const ACCENTS: Readonly<Record<string, string>> = {
  a: 'á', c: 'ç', e: 'é', g: 'ĝ', h: 'ĥ', i: 'î', l: 'ļ', n: 'ñ', o: 'ö', r: 'ŕ', s: 'š', t: 'ţ', u: 'ü', y: 'ý', z: 'ž',
  A: 'Å', C: 'Ç', E: 'É', I: 'Î', N: 'Ñ', O: 'Ö', S: 'Š', T: 'Ţ', U: 'Ü', Z: 'Ž',
};

/** A message's literal text accented, its arguments, plurals and selects kept. */
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

let pseudoCatalogue: Record<MessageId, MessageFormatElement[]> | undefined;
/** The pseudo-locale's messages, parsed (react-intl and @formatjs/intl take them as they are). */
export function pseudoMessages(): Record<MessageId, MessageFormatElement[]> {
  pseudoCatalogue ??= Object.fromEntries(Object.entries(CATALOGUES.en).map(([id, message]) => [id, pseudoMessage(message)])) as Record<MessageId, MessageFormatElement[]>;
  return pseudoCatalogue;
}

/** A message in the language the screens speak now (stores, effects, the transport). */
export const translate: Translate = (id, values) => {
  const intl = current.pseudo ? intlFor('en', pseudoMessages() as unknown as Record<MessageId, string>, PSEUDO_LOCALE) : intlFor(current.language);
  return intl.formatMessage({ id }, values);
};
