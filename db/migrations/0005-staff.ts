/** Staff accounts of the desktop UI (decisions.md D9), their sessions, manager approvals and the audit log. */
export const up = `
CREATE TABLE staff (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  login TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('cashier', 'back_office', 'admin')),
  password_hash TEXT NOT NULL,
  pin_hash TEXT,
  created_at TEXT NOT NULL,
  disabled_at TEXT
) STRICT;
CREATE INDEX staff_merchant ON staff(merchant_id);

CREATE TABLE staff_sessions (
  id TEXT PRIMARY KEY,
  staff_id TEXT NOT NULL REFERENCES staff(id),
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;
CREATE INDEX staff_sessions_staff ON staff_sessions(staff_id);

CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  staff_id TEXT REFERENCES staff(id),
  approved_by TEXT REFERENCES staff(id),
  action TEXT NOT NULL,
  subject_id TEXT,
  detail TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX audit_log_merchant ON audit_log(merchant_id, created_at);
`;
