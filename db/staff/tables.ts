/** The staff feature's tables, for Kysely (db/schema.ts), and the audit log its viewer reads. */
import { text, textOrNull } from '../columns.js';
import type { StaffRole } from '../../contract/constants.js';
import type { StaffLanguage } from '../../contract/i18n/languages.js';

export const staffTables = {
  staff: {
    id: text(),
    merchant_id: text(),
    login: text(),
    display_name: text(),
    role: text<StaffRole>(),
    password_hash: text(),
    pin_hash: textOrNull(),
    created_at: text(),
    disabled_at: textOrNull(),
    language: textOrNull<StaffLanguage>(),
  },
  staff_sessions: {
    id: text(),
    staff_id: text(),
    created_at: text(),
    last_seen_at: text(),
    expires_at: text(),
    revoked_at: textOrNull(),
  },
  manager_approvals: {
    id: text(),
    merchant_id: text(),
    action: text(),
    approver_id: text(),
    created_at: text(),
    expires_at: text(),
    used_at: textOrNull(),
    used_for: textOrNull(),
  },
} as const;
