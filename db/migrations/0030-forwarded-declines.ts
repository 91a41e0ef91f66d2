import { bothEngines } from './words.js';

/**
 * A centre's "Needs attention" list of stored sales declined when their till forwarded them (issue
 * 26, part 2): the customer left with the goods, so someone must follow it up. A row is written in
 * the unit of work that records the decline (a transaction listener), and stays until a back-office
 * user marks it handled.
 *
 * On a till: a sale passed on to the centre without an answer keeps its request (card data sealed by
 * the data key) and cashier, so that once the centre says it was charged the till keeps its copy of it.
 */
export const { up, postgres } = bothEngines(
  (w) => `
CREATE TABLE forwarded_declines (
  transaction_id TEXT PRIMARY KEY REFERENCES transactions(id),
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  till_id TEXT NOT NULL,
  staff_id TEXT,
  order_id TEXT,
  amount_minor ${w.integer} NOT NULL,
  currency TEXT NOT NULL,
  card_brand TEXT,
  card_last_four TEXT,
  message TEXT,
  stored_at TEXT NOT NULL,
  forwarded_at TEXT NOT NULL,
  handled_at TEXT,
  handled_by TEXT
)${w.strict};
CREATE INDEX forwarded_declines_open ON forwarded_declines(merchant_id, forwarded_at) WHERE handled_at IS NULL;

ALTER TABLE centre_unsettled ADD COLUMN request_sealed TEXT;
ALTER TABLE centre_unsettled ADD COLUMN staff_id TEXT;
`,
);
