/**
 * An invoice's payments carry the invoice's number (issue 25): shop staff search "INV-0001", not the
 * payment's order id (a UUID the pay page makes). The number is the one the invoice had when it was
 * paid; payments made before are filled in from their invoice. Only invoice payments have one, so
 * the search index holds those rows only.
 */
const statements = (backfill: string) => `
ALTER TABLE transactions ADD COLUMN invoice_number TEXT;
${backfill}
CREATE INDEX transactions_merchant_invoice ON transactions(merchant_id, invoice_number, created_at, id) WHERE invoice_number IS NOT NULL;
`;

export const up =
  statements(`UPDATE transactions SET invoice_number = (SELECT i.debt_claim_number FROM invoices i WHERE i.id = json_extract(transactions.details, '$.invoice_id'))
WHERE json_extract(details, '$.invoice_id') IS NOT NULL;`);

/** PostgreSQL: the same column and index; the backfill reads the details' JSON with PostgreSQL's operators (SQLite's json_extract is not there). */
export const postgres = statements(`UPDATE transactions t SET invoice_number = i.debt_claim_number FROM invoices i
WHERE jsonb_typeof(t.details::jsonb -> 'invoice_id') = 'number' AND i.id = (t.details::jsonb ->> 'invoice_id')::bigint;`);
