/** The idempotency feature's tables, for Kysely (db/schema.ts). */
import { integer, text, textOrNull } from '../columns.js';

export const idempotencyTables = {
  idempotency_keys: {
    merchant_id: text(),
    key: text(),
    fingerprint: text(),
    /** The HTTP status the answer is given with; 0 for a claim (db/idempotency/repositories.ts). */
    status: integer(),
    /** JSON of the answer's body. */
    body: text(),
    created_at: text(),
    expires_at: text(),
    claim_id: textOrNull(),
  },
} as const;
