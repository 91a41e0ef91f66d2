/**
 * The back office's transaction search (docs/decisions.md "Back office: transactions"): the list
 * filters by a card's last four digits, by payment type and by amount, and each of those gets an
 * index that ends in (created_at, id) like the list's order, so a filtered page is read in order
 * from its own index, without a sort, and keyset paging (`starting_after`) seeks straight to the
 * page (page 2,000 costs what page 1 costs).
 *
 * The amount index is on an expression: the amount in ten-thousandths of a unit of the row's own
 * currency (`amount_minor` times 10^(4 - exponent)), so one value finds 12.50 EUR, 12.500 KWD and no
 * JPY (12.5 yen cannot exist) without knowing the currencies beforehand. The currency lists are
 * frozen here, as a migration never changes; the repository's query uses this very text (SQLite
 * matches an expression index only to the same expression), and tests/db/migrations.test.ts checks
 * the lists against contract/money.ts, so a currency whose decimals change shows up as a failing
 * test that asks for a new migration.
 */

/** ISO 4217 currencies with 0, 3 and 4 decimals (the rest have 2), as of currency-codes 2.2.0. */
export const CURRENCIES_BY_EXPONENT: Readonly<Record<0 | 3 | 4, readonly string[]>> = {
  0: ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'],
  3: ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'],
  4: ['CLF', 'UYW'],
};

const list = (codes: readonly string[]) => codes.map((code) => `'${code}'`).join(',');

/** The amount of a transactions row in ten-thousandths of its currency's unit (the index's expression). */
export const AMOUNT_SCALED_SQL =
  `(amount_minor * CASE WHEN currency IN (${list(CURRENCIES_BY_EXPONENT[0])}) THEN 10000 ` +
  `WHEN currency IN (${list(CURRENCIES_BY_EXPONENT[3])}) THEN 10 WHEN currency IN (${list(CURRENCIES_BY_EXPONENT[4])}) THEN 1 ELSE 100 END)`;

export const up = `
CREATE INDEX transactions_merchant_last_four ON transactions(merchant_id, card_last_four, created_at, id);
CREATE INDEX transactions_merchant_type ON transactions(merchant_id, payment_type, created_at, id, status_code, currency);
CREATE INDEX transactions_merchant_amount ON transactions(merchant_id, ${AMOUNT_SCALED_SQL}, created_at, id);
`;
