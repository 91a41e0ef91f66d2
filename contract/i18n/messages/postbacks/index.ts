/** The `postbacks` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const postbacks = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: [
      'postbacks.statusLine',
      'postbacks.kind.checkout',
      'postbacks.duration',
      'postbacks.title',
      'postbacks.back',
      'postbacks.list.what',
      'postbacks.list.rowLabel',
      'postbacks.field.postback',
      'postbacks.detail.pending',
      'postbacks.headers.header',
      'postbacks.outbox.postbacks',
      'postbacks.outbox.attemptAt',
      'postbacks.outbox.answerIn',
    ],
    pt: [
      'postbacks.statusLine',
      'postbacks.kind.checkout',
      'postbacks.duration',
      'postbacks.title',
      'postbacks.back',
      'postbacks.list.what',
      'postbacks.list.rowLabel',
      'postbacks.field.postback',
      'postbacks.detail.pending',
      'postbacks.outbox.emails',
      'postbacks.outbox.postbacks',
      'postbacks.outbox.email',
      'postbacks.outbox.attemptAt',
    ],
    hr: [
      'postbacks.statusLine',
      'postbacks.duration',
      'postbacks.list.what',
      'postbacks.list.rowLabel',
      'postbacks.field.postback',
      'postbacks.detail.pending',
      'postbacks.outbox.attemptAt',
    ],
  },
} as const satisfies Area<keyof typeof en>;
