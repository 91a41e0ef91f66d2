/** The `till` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

/** Key legends as the keyboards of each country print them, OK as every PIN pad labels it, the chip, and a line that is only card data. */
export const till = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: [
      'till.key.enter',
      'till.key.esc',
      'till.sale.optional',
      'till.card.line',
      'till.entry.chip',
      'till.pin.ok',
      'till.shortcuts.pin.ok',
    ],
    pt: ['till.key.enter', 'till.key.esc', 'till.key.delete', 'till.card.line', 'till.entry.chip', 'till.pin.ok', 'till.shortcuts.pin.ok'],
    hr: [
      'till.key.enter',
      'till.key.esc',
      'till.key.backspace',
      'till.key.delete',
      'till.card.line',
      'till.pin.ok',
      'till.shortcuts.pin.ok',
    ],
  },
} as const satisfies Area<keyof typeof en>;
