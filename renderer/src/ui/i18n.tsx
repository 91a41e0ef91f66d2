/**
 * The staff screens' language (D21): one message catalogue per language (contract/i18n), through
 * react-intl (ICU MessageFormat, plurals) and Intl for numbers, amounts and dates. The language is
 * the staff member's own choice (kept with their account), else the shop's (the session's
 * `merchant.language`), else this computer's (navigator.languages; in the desktop app Electron's
 * app locale), else English; `<html lang>` follows it. Screens take their words from `useT()`;
 * stores and other code outside React from `translate()` (ui/language.ts); the formatting helpers
 * (ui/format.ts, till-screen/money.ts) read the same language through `currentLocale()`. A computer whose
 * first language is the pseudo-locale `en-XA` gets the pseudo catalogue (ui/language.ts).
 */
import { useEffect, useMemo, type ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import { CATALOGUES, type MessageId } from '../../../contract/i18n/catalogues.js';
import type { MessageValues, Translate } from '../../../contract/i18n/format.js';
import { INTL_LOCALES, staffLanguage, type StaffLanguage } from '../../../contract/i18n/languages.js';
import { useSession } from '../session-store.js';
import { PSEUDO_LOCALE, pseudoMessages, setScreenLanguage } from './language.js';

export type { MessageValues } from '../../../contract/i18n/format.js';
export { currentLocale, translate } from './language.js';

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

export function LanguageProvider({ children }: { children: ReactNode }) {
  const language = useStaffLanguage();
  const pseudo = isPseudoComputer();
  setScreenLanguage({ language: pseudo ? 'en' : language, pseudo });
  useEffect(() => {
    document.documentElement.lang = pseudo ? PSEUDO_LOCALE : language;
  }, [language, pseudo]);
  return (
    <IntlProvider
      locale={pseudo ? INTL_LOCALES.en : INTL_LOCALES[language]}
      messages={pseudo ? pseudoMessages() : CATALOGUES[language]}
      defaultLocale="en-GB"
    >
      {children}
    </IntlProvider>
  );
}

/** The screens' words: `t('login.title')`, `t('login.joined', { till, tillId, shop })`. */
export function useT(): Translate {
  const intl = useIntl();
  return useMemo(() => (id: MessageId, values?: MessageValues) => intl.formatMessage({ id }, values), [intl]);
}
