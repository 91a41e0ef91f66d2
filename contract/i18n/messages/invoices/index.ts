/** The `invoices` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const invoices = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    // The same word ("Name", "E-mail"), or arguments and punctuation only.
    de: ['invoices.detail.name', 'invoices.payments.resultWithMessage', 'invoices.emailView.withError'],
    pt: [
      'invoices.email',
      'invoices.emails',
      'invoices.payments.resultWithMessage',
      'invoices.emailView.label',
      'invoices.emailView.withError',
    ],
    hr: ['invoices.payments.resultWithMessage', 'invoices.emailView.withError'],
  },
} as const satisfies Area<keyof typeof en>;
