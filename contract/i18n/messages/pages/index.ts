/** The `pages` messages (the hosted pages customers pay on) in every language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const pages = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: ['pages.test_mode', 'pages.optional', 'pages.cvc', 'pages.method_wallet', 'pages.iban', 'pages.bic'],
    pt: ['pages.total', 'pages.subtotal', 'pages.cvc', 'pages.checkout_title', 'pages.iban', 'pages.bic'],
    hr: ['pages.test_mode', 'pages.cvc', 'pages.iban', 'pages.bic'],
  },
} as const satisfies Area<keyof typeof en>;
