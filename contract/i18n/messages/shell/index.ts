/** The `shell` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const shell = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: ['shell.area.checkouts', 'shell.area.postbacks', 'shell.gateway.title', 'shell.area.gateway'],
    pt: ['shell.menu', 'shell.area.checkouts', 'shell.area.postbacks', 'shell.gateway.title', 'shell.area.gateway'],
    hr: [],
  },
} as const satisfies Area<keyof typeof en>;
