/**
 * Invoice e-mails (docs/api.md "Invoice e-mails"; docs/decisions.md "Invoices"): the durable mail
 * queue. A row is written in the same unit of work as the invoice (or the reminder request) and
 * moves queued -> sent / failed; `test_outbox` marks mails kept locally because no SMTP server is
 * configured.
 */
export const up = `
CREATE TABLE emails (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  invoice_id INTEGER NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  email_type TEXT NOT NULL CHECK (email_type IN ('initial', 'reminder')),
  locale TEXT NOT NULL,
  recipient TEXT NOT NULL,
  sender TEXT,
  subject TEXT NOT NULL,
  body_text TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  sent_at TEXT,
  last_error TEXT,
  test_outbox INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX emails_invoice_created ON emails(invoice_id, created_at, id);
CREATE INDEX emails_due ON emails(status, next_attempt_at);
`;
