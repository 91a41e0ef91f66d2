/** The `settings` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

/** Punctuation around a field's or the gateway's words, the same in every language. */
const FRAMES = ['settings.problem.others', 'settings.problem.because', 'settings.problem.plain'] as const;

export const settings = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: [
      ...FRAMES,
      'settings.optional',
      'settings.field.name',
      'settings.staff.name',
      'settings.staff.pin',
      'settings.smtp.port',
      'settings.audit.person',
      'settings.audit.details',
      'settings.audit.partner',
      'settings.audit.system',
      'settings.audit.action.export',
    ],
    pt: [...FRAMES, 'settings.section.smtp', 'settings.staff.pin'],
    hr: [...FRAMES, 'settings.staff.pin', 'settings.smtp.port', 'settings.audit.partner'],
  },
} as const satisfies Area<keyof typeof en>;
