/**
 * One message catalogue per staff language (D21), for the renderer (react-intl) and the pages the
 * server renders (@formatjs/intl), put together from one folder per area (contract/i18n/messages/
 * <area>/: en.ts, de.ts, pt.ts, hr.ts), so each feature's words live beside each other. Each
 * language is typed against English: a missing or an extra key does not compile, and
 * tests/unit/i18n-catalogues.test.ts checks the messages themselves (ICU syntax, the same arguments
 * in every language, no key in two areas, no English left where the language has its own word).
 */
import type { StaffLanguage } from './languages.js';
import { checkouts } from './messages/checkouts/index.js';
import { common } from './messages/common/index.js';
import { dashboard } from './messages/dashboard/index.js';
import { documents } from './messages/documents/index.js';
import { errors } from './messages/errors/index.js';
import { invoices } from './messages/invoices/index.js';
import { login } from './messages/login/index.js';
import { mail } from './messages/mail/index.js';
import { pages } from './messages/pages/index.js';
import { postbacks } from './messages/postbacks/index.js';
import { receipts } from './messages/receipts/index.js';
import { reports } from './messages/reports/index.js';
import { sales } from './messages/sales/index.js';
import { settings } from './messages/settings/index.js';
import { shell } from './messages/shell/index.js';
import { till } from './messages/till/index.js';
import { tills } from './messages/tills/index.js';
import { tokens } from './messages/tokens/index.js';
import { transactions } from './messages/transactions/index.js';
import { ui } from './messages/ui/index.js';

/** Every area, in the order their keys are merged. */
export const AREAS = {
  common,
  login,
  shell,
  errors,
  till,
  receipts,
  tills,
  sales,
  reports,
  dashboard,
  transactions,
  checkouts,
  invoices,
  tokens,
  postbacks,
  settings,
  ui,
  pages,
  documents,
  mail,
} as const;

type Areas = typeof AREAS;
type Union<T> = T extends unknown ? T : never;
/** A message's key: `area.part` (login.title, till.pin.retry). */
export type MessageId = Union<{ [A in keyof Areas]: keyof Areas[A]['en'] }[keyof Areas]> & string;

function merge(language: StaffLanguage): Readonly<Record<MessageId, string>> {
  return Object.assign({}, ...Object.values(AREAS).map((area) => area[language])) as Record<MessageId, string>;
}

export const CATALOGUES: Readonly<Record<StaffLanguage, Readonly<Record<MessageId, string>>>> = {
  en: merge('en'),
  de: merge('de'),
  pt: merge('pt'),
  hr: merge('hr'),
};
