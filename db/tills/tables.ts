/** The tills feature's tables, for Kysely (db/schema.ts). */
import { text, textOrNull } from '../columns.js';

export const tillTables = {
  tills: {
    merchant_id: text(),
    till_id: text(),
    name: text(),
    created_at: text(),
    retired_at: textOrNull(),
    holder_session_id: textOrNull(),
    holder_screen_id: textOrNull(),
    holder_staff_id: textOrNull(),
    held_at: textOrNull(),
    seen_at: textOrNull(),
  },
} as const;
