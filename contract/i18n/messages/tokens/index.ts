/** The `tokens` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const tokens = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: ['tokens.statusLine', 'tokens.field.token', 'tokens.detail.title', 'tokens.form.cvv', 'tokens.form.fieldProblem'],
    pt: [
      'tokens.statusLine',
      'tokens.field.token',
      'tokens.detail.title',
      'tokens.form.cvv',
      'tokens.form.fieldProblem',
      'tokens.form.email',
    ],
    hr: ['tokens.statusLine', 'tokens.field.token', 'tokens.detail.title', 'tokens.form.cvv', 'tokens.form.fieldProblem'],
  },
} as const satisfies Area<keyof typeof en>;
