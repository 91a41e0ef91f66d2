/** The `checkouts` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const checkouts = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    // German and Portuguese shops say "Checkout" too (docs/glossary.md); "Postbacks" and "E-mail" are the same word; "{field}: {message}" is punctuation.
    de: [
      'checkouts.title',
      'checkouts.checkout',
      'checkouts.back',
      'checkouts.detail.title',
      'checkouts.detail.postbacks',
      'checkouts.form.said',
    ],
    pt: [
      'checkouts.title',
      'checkouts.checkout',
      'checkouts.back',
      'checkouts.detail.title',
      'checkouts.detail.postbacks',
      'checkouts.form.said',
      'checkouts.form.email',
    ],
    hr: ['checkouts.form.said', 'checkouts.form.postbackUrl'],
  },
} as const satisfies Area<keyof typeof en>;
