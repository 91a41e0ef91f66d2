/**
 * The language the staff screens speak now, for code outside React (stores, the API transport,
 * format.ts): set by ui/i18n.tsx's LanguageProvider on every render, read here without importing
 * React or the session. `translate(id, values)` formats a message of the catalogues in it, or of
 * the pseudo-locale en-XA (contract/i18n/pseudo.ts).
 */
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES, type MessageId } from '../../../contract/i18n/catalogues.js';
import { intlFor, type Translate } from '../../../contract/i18n/format.js';
import { INTL_LOCALES, type StaffLanguage } from '../../../contract/i18n/languages.js';
import { PSEUDO_LOCALE, pseudoMessage } from '../../../contract/i18n/pseudo.js';

export { PSEUDO_LOCALE };

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

let pseudoCatalogue: Record<MessageId, MessageFormatElement[]> | undefined;
/** The pseudo-locale's messages, parsed (react-intl and @formatjs/intl take them as they are). */
export function pseudoMessages(): Record<MessageId, MessageFormatElement[]> {
  pseudoCatalogue ??= Object.fromEntries(Object.entries(CATALOGUES.en).map(([id, message]) => [id, pseudoMessage(message)])) as Record<
    MessageId,
    MessageFormatElement[]
  >;
  return pseudoCatalogue;
}

/** A message in the language the screens speak now (stores, effects, the transport). */
export const translate: Translate = (id, values) => {
  const intl = current.pseudo
    ? intlFor('en', pseudoMessages() as unknown as Record<MessageId, string>, PSEUDO_LOCALE)
    : intlFor(current.language);
  return intl.formatMessage({ id }, values);
};
