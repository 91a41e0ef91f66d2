/** The `receipts` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

/** Terminal and AID as card slips print them everywhere, USB, Port in German and Croatian, Total and E-mail in Portuguese. */
export const receipts = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    de: ['receipts.paper.terminal', 'receipts.paper.aid', 'receipts.printer.connection.usb', 'receipts.printer.port'],
    pt: ['receipts.paper.terminal', 'receipts.paper.aid', 'receipts.paper.total', 'receipts.email', 'receipts.printer.connection.usb'],
    hr: ['receipts.paper.terminal', 'receipts.paper.aid', 'receipts.printer.connection.usb', 'receipts.printer.port'],
  },
} as const satisfies Area<keyof typeof en>;
