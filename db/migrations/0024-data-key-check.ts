import { bothEngines } from './words.js';

/**
 * The data-key check (issue 19; docs/decisions.md "Moving to PostgreSQL, and one data key").
 *
 * `key_check` holds one sealed canary, written by the first gateway that starts on the database
 * and opened by every start after it (serve, migrate, the account commands, the desktop app). An
 * instance whose data key cannot open it refuses to start, before it writes anything, instead of
 * failing payment by payment on sealed card data it cannot read.
 */
export const { up, postgres } = bothEngines(
  (w) => `
CREATE TABLE key_check (
  id ${w.integer} PRIMARY KEY CHECK (id = 1),
  sealed TEXT NOT NULL,
  created_at TEXT NOT NULL
)${w.strict};
`,
);
