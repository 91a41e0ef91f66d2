/** The checkouts feature's tables, for Kysely (db/schema.ts). */
import type { CheckoutStatus } from '../../contract/constants.js';
import { integer, text, textOrNull } from '../columns.js';

export const checkoutTables = {
  checkout_sessions: {
    id: text(),
    merchant_id: text(),
    status: text<CheckoutStatus>(),
    order_id: text(),
    currency: text(),
    amount_minor: integer(),
    taxes_minor: integer(),
    shipping_minor: integer(),
    total_minor: integer(),
    transaction_id: textOrNull(),
    success_url: text(),
    error_url: text(),
    postback_url: textOrNull(),
    locale: textOrNull(),
    /** JSON of the session's request. */
    request: text(),
    /** JSON of the customer's fields. */
    customer: text(),
    created_at: text(),
    updated_at: text(),
    expires_at: text(),
  },
} as const;
