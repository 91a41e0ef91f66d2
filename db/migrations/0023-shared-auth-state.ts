import { bothEngines } from './words.js';

/**
 * State of authentication that several instances on one database share (issue 19; docs/decisions.md
 * "Lock-out, credential cache and manager approvals across instances"). Before, both lived in one
 * process's memory, so each instance behind a load balancer counted its own guesses and honoured
 * its own approvals.
 *
 * `auth_failures`: one row per lock-out bucket (an API key and source address, a source's unknown
 * keys, a staff login). `count` holds the attempts of the window that began at `window_start`, each
 * counted when it starts (a presumed failure; a success gives its slot back); `locked_until` is set
 * when the count reaches the limit. Rows whose window and lock are over are purged.
 *
 * `manager_approvals`: a manager's approval of one action at the till, single use, for two minutes.
 * `id` is the SHA-256 of the token (the token itself is never stored); `used_at` is set by the one
 * conditional update that uses it, and `used_for` names the idempotency key of the request that used
 * it (a retry with that key may use it again until it expires).
 */
export const { up, postgres } = bothEngines(
  (w) => `
CREATE TABLE auth_failures (
  bucket TEXT PRIMARY KEY,
  count ${w.integer} NOT NULL CHECK (count >= 0),
  window_start TEXT NOT NULL,
  locked_until TEXT
)${w.strict};
CREATE INDEX auth_failures_window ON auth_failures(window_start);

CREATE TABLE manager_approvals (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  action TEXT NOT NULL,
  approver_id TEXT NOT NULL REFERENCES staff(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  used_for TEXT
)${w.strict};
CREATE INDEX manager_approvals_expiry ON manager_approvals(expires_at);
`,
);
