/** The `tills` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

/** Durations in hours and minutes are written alike everywhere (`3 h 05 min`). */
export const tills = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: ['tills.duration.minutes', 'tills.duration.hours'],
    pt: ['tills.duration.minutes', 'tills.duration.hours'],
    hr: ['tills.duration.minutes', 'tills.duration.hours'],
  },
} as const satisfies Area<keyof typeof en>;
