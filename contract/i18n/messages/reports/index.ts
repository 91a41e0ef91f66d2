/** The `reports` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const reports = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    // Chip and PDF are the words there too; "Z 3" is a closed day's number; "Total EUR" in Portuguese.
    de: ['reports.entry.chip', 'reports.action.pdf', 'reports.past.z'],
    pt: ['reports.entry.chip', 'reports.action.pdf', 'reports.past.z', 'reports.print.total'],
    hr: ['reports.action.pdf', 'reports.past.z'],
  },
} as const satisfies Area<keyof typeof en>;
