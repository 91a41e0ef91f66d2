/**
 * Claims with a lease on the postback outbox and the mail queue (issue 19; docs/decisions.md
 * "PostgreSQL: outbox and mail queue claims"), so that several instances on one database send each
 * postback attempt and each e-mail once.
 *
 * `claimed_by`: the claim that holds the row (an instance's id and its claim batch), null when none;
 * `claim_until`: when the claim's lease ends (ISO 8601 text like every timestamp). A worker claims due
 * rows in one statement (`UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED) RETURNING *` on
 * PostgreSQL), sends, and records the outcome only while the claim is still its own, clearing it. A
 * row whose lease has ended may be claimed again: a crashed instance's claims are taken over then.
 *
 * The claim query reads due rows in due order, skipping those under a live claim. Its index holds
 * only the rows waiting to be sent (partial: `state = 'pending'`, `status = 'queued'`), in due order
 * (next_attempt_at, id), with claim_until so that rows claimed by others are passed over in the
 * index. It replaces the due indexes of migrations 8, 10 and 13 (the due reads are now claims), and
 * stays small however many delivered postbacks and sent e-mails pile up.
 */
export const up = `
ALTER TABLE postback_outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE postback_outbox ADD COLUMN claim_until TEXT;
ALTER TABLE emails ADD COLUMN claimed_by TEXT;
ALTER TABLE emails ADD COLUMN claim_until TEXT;
ALTER TABLE receipt_emails ADD COLUMN claimed_by TEXT;
ALTER TABLE receipt_emails ADD COLUMN claim_until TEXT;

CREATE INDEX postback_outbox_claimable ON postback_outbox(next_attempt_at, id, claim_until) WHERE state = 'pending';
CREATE INDEX emails_claimable ON emails(next_attempt_at, id, claim_until) WHERE status = 'queued';
CREATE INDEX receipt_emails_claimable ON receipt_emails(next_attempt_at, id, claim_until) WHERE status = 'queued';
DROP INDEX postback_outbox_due_order;
DROP INDEX emails_due;
DROP INDEX receipt_emails_due;
`;
