/**
 * One message catalogue per staff language (D21), for the renderer (react-intl) and the pages the
 * server renders (@formatjs/intl). Each language is typed against the English one: a missing or an
 * extra key does not compile, and tests/unit/i18n-catalogues.test.ts checks the messages themselves
 * (ICU syntax, the same arguments in every language).
 */
import type { StaffLanguage } from './languages.js';
import { de } from './messages/de.js';
import { en, type MessageId } from './messages/en.js';
import { hr } from './messages/hr.js';
import { pt } from './messages/pt.js';

export type { MessageId } from './messages/en.js';

export const CATALOGUES: Readonly<Record<StaffLanguage, Readonly<Record<MessageId, string>>>> = { en, de, pt, hr };
