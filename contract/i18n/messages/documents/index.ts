/** The `documents` messages (the card receipt, its e-mail and page, the test print) in every language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const documents = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: ['documents.terminal', 'documents.aid', 'documents.entry_chip'],
    pt: ['documents.terminal', 'documents.aid', 'documents.total', 'documents.entry_chip'],
    hr: ['documents.terminal', 'documents.aid'],
  },
} as const satisfies Area<keyof typeof en>;
