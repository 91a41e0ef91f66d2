/** The mandates feature's tables, for Kysely (db/schema.ts). */
import { integer, text, textOrNull } from '../columns.js';

export const mandateTables = {
  mandates: {
    id: text(),
    merchant_id: text(),
    reference: text(),
    payment_type: text<'dd' | 'dd_b2b'>(),
    recurring: integer<0 | 1>(),
    first_name: textOrNull(),
    last_name: textOrNull(),
    account_holder: text(),
    iban_sealed: text(),
    iban_last_four: text(),
    bic: textOrNull(),
    email: textOrNull(),
    mandate_date: text(),
    created_at: text(),
  },
} as const;
