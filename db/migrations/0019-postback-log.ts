import { bothEngines } from './words.js';

/**
 * The back office's postback log and the Test environment's outbox (issue 16, 3; docs/decisions.md
 * "Back office: postbacks and outbox").
 *
 * `postback_attempts` keeps, from now on, what each attempt sent: the signed body as sent
 * (`request_body`, the raw bytes' text), the headers it was signed with (`request_headers`, a JSON
 * object: webhook-id, webhook-timestamp, webhook-signature, ...) and the retry it scheduled
 * (`next_attempt_at`, null when it was the last). Attempts made before this migration have no body
 * or headers (they were never kept and cannot be signed again after the fact: the signature covers
 * that attempt's timestamp and key); the last attempt of a postback still pending gets the retry its
 * postback waits for.
 *
 * `postback_resends` and `postback_resend_events`: "resend all failed since" as a job the back
 * office polls: which postbacks it queued again, so its progress (attempted, delivered, failing
 * again) is read from their attempts and states.
 *
 * Indexes for the log's filters in its order (created_at, id), and for the test outbox, which reads
 * sent e-mails and attempts newest first.
 */
export const { up, postgres } = bothEngines(
  (w) => `
ALTER TABLE postback_attempts ADD COLUMN request_body TEXT;
ALTER TABLE postback_attempts ADD COLUMN request_headers TEXT;
ALTER TABLE postback_attempts ADD COLUMN next_attempt_at TEXT;
UPDATE postback_attempts SET next_attempt_at = (SELECT o.next_attempt_at FROM postback_outbox o WHERE o.id = postback_attempts.outbox_id)
  WHERE outcome = 'failed'
    AND outbox_id IN (SELECT id FROM postback_outbox WHERE state = 'pending')
    AND attempt = (SELECT MAX(a.attempt) FROM postback_attempts a WHERE a.outbox_id = postback_attempts.outbox_id);

CREATE TABLE postback_resends (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  staff_id TEXT,
  since TEXT NOT NULL,
  total ${w.integer} NOT NULL,
  created_at TEXT NOT NULL
)${w.strict};
CREATE TABLE postback_resend_events (
  resend_id TEXT NOT NULL REFERENCES postback_resends(id),
  outbox_id TEXT NOT NULL REFERENCES postback_outbox(id),
  PRIMARY KEY (resend_id, outbox_id)
)${w.strictWithoutRowid};

CREATE INDEX postback_outbox_merchant_created ON postback_outbox(merchant_id, created_at, id);
CREATE INDEX postback_outbox_merchant_subject ON postback_outbox(merchant_id, subject_type, created_at, id);
CREATE INDEX postback_attempts_created ON postback_attempts(created_at, id);
CREATE INDEX emails_merchant_sent ON emails(merchant_id, status, sent_at);
CREATE INDEX receipt_emails_merchant_sent ON receipt_emails(merchant_id, status, sent_at);
`,
);
