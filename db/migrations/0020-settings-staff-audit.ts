import { POSTGRES_WORDS, SQLITE_WORDS, type Words } from './words.js';

/**
 * Settings, staff and the audit log in the back office (issue 16, 4; docs/decisions.md "Back
 * office: settings, staff and audit").
 *
 * `merchants.language`: the merchant's default language (en, de, pt), beside its default currency;
 * new channels start with it. Existing merchants take the language of their first channel, else en.
 *
 * `smtp_settings`: a merchant's SMTP server as the admin set it in the back office (one row per
 * merchant; none: the host's settings, else the local test outbox). The password is sealed by the
 * vault and never answered.
 *
 * `audit_log` gets indexes for the viewer's filters by person and by action (each ends in the
 * viewer's order, newest first), and `staff_sessions` one to end every session of a staff member
 * at once when the account is disabled.
 */
const statements = (w: Words, user: string) => `
ALTER TABLE merchants ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'de', 'pt'));
UPDATE merchants SET language = COALESCE(
  (SELECT c.language FROM channels c WHERE c.merchant_id = merchants.id ORDER BY c.created_at, c.id LIMIT 1), 'en');

CREATE TABLE smtp_settings (
  merchant_id TEXT PRIMARY KEY REFERENCES merchants(id),
  host TEXT NOT NULL,
  port ${w.integer} NOT NULL CHECK (port BETWEEN 1 AND 65535),
  security TEXT NOT NULL CHECK (security IN ('starttls', 'implicit', 'none')),
  ${user} TEXT,
  password_sealed TEXT,
  mail_from TEXT NOT NULL,
  updated_at TEXT NOT NULL
)${w.strict};

CREATE INDEX audit_log_merchant_staff ON audit_log(merchant_id, staff_id, created_at, id);
CREATE INDEX audit_log_merchant_action ON audit_log(merchant_id, action, created_at, id);
CREATE INDEX staff_sessions_staff_open ON staff_sessions(staff_id, revoked_at);
`;

export const up = statements(SQLITE_WORDS, 'user');

/** PostgreSQL: the same, but "user" is quoted there (a reserved word); SQLite's text keeps the bare name it shipped with. */
export const postgres = statements(POSTGRES_WORDS, '"user"');
