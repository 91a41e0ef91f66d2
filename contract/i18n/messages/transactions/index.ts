/** The `transactions` messages in every staff language; `sameAsEnglish` lists the keys whose translation is rightly the English text (tests/unit/i18n-catalogues.test.ts). */
import type { Area } from '../area.js';
import { de } from './de.js';
import { en } from './en.js';
import { hr } from './hr.js';
import { pt } from './pt.js';

export const transactions = {
  en,
  de,
  pt,
  hr,
  sameAsEnglish: {
    // Arguments and punctuation only, or the word is the same: "online", "Wallet", "Name", "E-mail", "chip", "Status".
    de: [
      'transactions.filter.statusChoice',
      'transactions.filter.menuLabel',
      'transactions.detail.cardEntry',
      'transactions.entry.ecommerce',
      'transactions.status.unknown',
      'transactions.type.wallet',
      'transactions.export.filter.currency',
      'transactions.customer.name',
    ],
    pt: [
      'transactions.filter.statusChoice',
      'transactions.filter.menuLabel',
      'transactions.detail.cardEntry',
      'transactions.entry.ecommerce',
      'transactions.entry.chip',
      'transactions.customer.email',
    ],
    hr: [
      'transactions.filter.statusChoice',
      'transactions.filter.menuLabel',
      'transactions.detail.cardEntry',
      'transactions.entry.ecommerce',
      'transactions.status.unknown',
    ],
  },
} as const satisfies Area<keyof typeof en>;
