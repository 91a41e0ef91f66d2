/** The `common` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const common = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: { de: ['common.status'], pt: ['common.total'], hr: ['common.status'] },
} as const satisfies Area<keyof typeof en>;
