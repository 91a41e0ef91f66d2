import { bothEngines } from './words.js';

/**
 * Each till its own till (issue 26, part 0; docs/decisions.md "Several tills").
 *
 * `tills`: a shop's tills, each an id (its terminal id: pos_data.terminal.id, the key of its attempt
 * slot, its ledger and its X/Z reports) and a name. Every merchant has TILL-1 ("Till 1"), the till
 * every screen was before. A retired till takes no sale; its past stays.
 *
 * A till is held by one screen at a time: the staff session that took it, the screen (a browser or
 * desktop, by an id it keeps) and when that screen was last seen. Another screen takes it only when
 * it is free, when its holder was not seen for a while, or when its user says "use it here anyway";
 * the screen it was taken from learns so at its next call.
 *
 * `gateway_instances`: each running gateway process and when it was last seen. An idempotency claim
 * names its instance (`claim_id` starts with the instance id), so a claim whose instance stopped
 * beating is dead at once instead of after its 5-minute lease: a till does not wait on a payment
 * whose process died.
 */
export const { up, postgres } = bothEngines(
  (w) => `
CREATE TABLE tills (
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  till_id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT,
  holder_session_id TEXT,
  holder_screen_id TEXT,
  holder_staff_id TEXT,
  held_at TEXT,
  seen_at TEXT,
  PRIMARY KEY (merchant_id, till_id)
)${w.strict};
CREATE INDEX tills_holder ON tills(holder_session_id) WHERE holder_session_id IS NOT NULL;
INSERT INTO tills (merchant_id, till_id, name, created_at) SELECT id, 'TILL-1', 'Till 1', created_at FROM merchants;

CREATE TABLE gateway_instances (
  id TEXT PRIMARY KEY,
  started_at TEXT NOT NULL,
  seen_at TEXT NOT NULL
)${w.strict};
`,
);
