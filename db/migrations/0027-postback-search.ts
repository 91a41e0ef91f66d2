/**
 * What a postback is about, searchable (issue 25, item 8; docs/decisions.md "Back office: postbacks
 * and outbox").
 *
 * `postback_outbox.order_id`: the order id the postback's body carries (a transaction's, or a
 * checkout session's; null for network tokens, which have none), written with the postback from now
 * on and filled in here from the bodies already stored.
 *
 * Two indexes for the log's search box, each ending in the log's order (created_at, id) so that a
 * page of matches is read in order without a sort: by order id, and by subject id (a pasted
 * transaction, token or checkout id). An event id is found by the primary key.
 */
const statements = (backfill: string) => `
ALTER TABLE postback_outbox ADD COLUMN order_id TEXT;
${backfill}

CREATE INDEX postback_outbox_merchant_order ON postback_outbox(merchant_id, order_id, created_at, id);
CREATE INDEX postback_outbox_merchant_subject_id ON postback_outbox(merchant_id, subject_id, created_at, id);
`;

export const up = statements(
  `UPDATE postback_outbox SET order_id = json_extract(payload, '$.order_id') WHERE json_type(payload, '$.order_id') = 'text';`,
);

/**
 * PostgreSQL: the same column and indexes; the backfill reads the bodies with PostgreSQL's JSON
 * operators (SQLite's json_extract is not there). PostgreSQL reads no JSON text with an escaped
 * NUL (a backslash and u0000) anywhere in it; such a body is passed over rather than failing the
 * migration (none should exist: what a body says is also stored in rows that cannot hold a NUL).
 */
export const postgres = statements(`UPDATE postback_outbox SET order_id = payload::json ->> 'order_id'
  WHERE CASE WHEN position('\\u0000' IN payload) = 0 THEN json_typeof(payload::json -> 'order_id') = 'string' ELSE false END;`);
