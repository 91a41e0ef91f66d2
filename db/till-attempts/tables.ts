/** The till-attempts feature's tables, for Kysely (db/schema.ts). */
import { integer, text, textOrNull } from '../columns.js';

export const tillAttemptTables = {
  till_attempts: {
    id: text(),
    merchant_id: text(),
    terminal_id: text(),
    staff_id: textOrNull(),
    order_id: text(),
    idempotency_key: text(),
    amount_minor: integer(),
    currency: text(),
    created_at: text(),
    updated_at: text(),
    resolved_at: textOrNull(),
    outcome: textOrNull<'approved' | 'not_charged'>(),
    transaction_id: textOrNull(),
  },
} as const;
