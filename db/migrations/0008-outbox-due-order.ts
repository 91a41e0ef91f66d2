/**
 * The postback pump's due query orders by (next_attempt_at, id). With id in the index it reads the
 * first due records in order; before, every record due at the same instant (a backlog made due at
 * once, e.g. by resend_failed or a restart after an outage) was sorted again on each pump, which
 * took 20 ms and more per pump with 20,000 such records (docs/benchmarks.md, postback drain).
 */
export const up = `
CREATE INDEX postback_outbox_due_order ON postback_outbox(state, next_attempt_at, id);
DROP INDEX postback_outbox_due;
`;
