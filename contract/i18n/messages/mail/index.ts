/** The `mail` messages (the invoice e-mail and its reminder) in every language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const mail = { en, de, pt, hr, sameAsEnglish: { de: [], pt: [], hr: [] } } as const satisfies Area<keyof typeof en>;
