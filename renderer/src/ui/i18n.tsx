/**
 * The staff screens' language (D21): one message catalogue per language (contract/i18n), through
 * react-intl (ICU MessageFormat, plurals) and Intl for numbers, amounts and dates. The language is
 * the shop's (the session's `merchant.language`), else this computer's (navigator.languages), else
 * English (the staff member's own choice comes first once their account keeps one); `<html lang>` follows it. Screens take their words from `useT()`; the formatting helpers
 * (ui/format.ts, ui/money.ts) read the same language through `currentLocale()`.
 */
import { useEffect, useMemo, type ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import { CATALOGUES, type MessageId } from '../../../contract/i18n/catalogues.js';
import { INTL_LOCALES, staffLanguage, type StaffLanguage } from '../../../contract/i18n/languages.js';
import { useSession } from '../session-store.js';

let current: StaffLanguage = 'en';

/** The BCP 47 tag of the screens' language now (for Intl outside React: format.ts). */
export function currentLocale(): string {
  return INTL_LOCALES[current];
}

/** This computer's languages, best first. */
function computerLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages.length > 0 ? navigator.languages : [navigator.language];
}

/** The language of the screens for whoever is logged in (or this computer's, before anyone is). */
export function useStaffLanguage(): StaffLanguage {
  const shop = useSession((s) => s.session?.merchant.language);
  return staffLanguage({ shop, computer: computerLanguages() });
}

export function LanguageProvider({ children }: { children: ReactNode }) {
  const language = useStaffLanguage();
  current = language;
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return (
    <IntlProvider locale={INTL_LOCALES[language]} messages={CATALOGUES[language]} defaultLocale="en-GB">
      {children}
    </IntlProvider>
  );
}

export type MessageValues = Record<string, string | number | boolean | Date | null | undefined>;

/** The screens' words: `t('login.title')`, `t('login.joined', { till, tillId, shop })`. */
export function useT(): (id: MessageId, values?: MessageValues) => string {
  const intl = useIntl();
  return useMemo(() => (id: MessageId, values?: MessageValues) => intl.formatMessage({ id }, values), [intl]);
}
