/** The kernel's tables (db/kernel.ts), for Kysely (db/schema.ts). */
import { integer, text, textOrNull } from './columns.js';

export const kernelTables = {
  audit_log: {
    id: text(),
    merchant_id: text(),
    staff_id: textOrNull(),
    approved_by: textOrNull(),
    action: text(),
    subject_id: textOrNull(),
    detail: textOrNull(),
    created_at: text(),
    partner_id: textOrNull(),
    /** JSON of the subject before the change. */
    old_value: textOrNull(),
    /** JSON of the subject after the change. */
    new_value: textOrNull(),
  },
  scheduled_tasks: {
    id: text(),
    kind: text(),
    subject_id: text(),
    merchant_id: text(),
    due_at: text(),
    state: text<'pending' | 'done' | 'failed'>(),
    attempts: integer(),
    last_error: textOrNull(),
    created_at: text(),
  },
  operation_locks: {
    lock_key: text(),
    holder: text(),
    expires_at: text(),
  },
  gateway_instances: {
    id: text(),
    started_at: text(),
    seen_at: text(),
  },
} as const;
