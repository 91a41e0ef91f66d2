/**
 * Receipts that last (decisions.md D16): the receipt itself is rebuilt from the transaction (and
 * refund) rows, so these tables hold only what a receipt adds.
 *
 * - `receipt_links`: the customer's link to a receipt page (QR code, e-mail), an unguessable token
 *   per sale or refund (`receipt_id` is the transaction id or the refund id).
 * - `receipt_emails`: the receipt e-mails of the mail queue, queued -> sent / failed like `emails`
 *   (whose rows belong to invoices); brand and last four are the only card data in the text.
 * - `receipt_printers`: each merchant's ESC/POS printer (network host and port, or a USB device
 *   file) and whether approved sales print at once; no row means no printer.
 * - `receipt_print_jobs`: the automatic print of an approved sale, written in the sale's own unit
 *   of work; one per receipt (unique), so a sale prints once however often it is read or replayed.
 */
export const up = `
CREATE TABLE receipt_links (
  token TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  receipt_id TEXT NOT NULL,
  transaction_id TEXT NOT NULL REFERENCES transactions(id),
  created_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX receipt_links_receipt ON receipt_links(merchant_id, receipt_id);
CREATE TABLE receipt_emails (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  receipt_id TEXT NOT NULL,
  transaction_id TEXT NOT NULL REFERENCES transactions(id),
  locale TEXT NOT NULL,
  recipient TEXT NOT NULL,
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
CREATE INDEX receipt_emails_receipt ON receipt_emails(merchant_id, receipt_id, created_at);
CREATE INDEX receipt_emails_due ON receipt_emails(status, next_attempt_at);
CREATE TABLE receipt_printers (
  merchant_id TEXT PRIMARY KEY REFERENCES merchants(id),
  connection TEXT NOT NULL CHECK (connection IN ('network', 'usb')),
  host TEXT,
  port INTEGER CHECK (port BETWEEN 1 AND 65535),
  device TEXT,
  characters_per_line INTEGER NOT NULL CHECK (characters_per_line BETWEEN 24 AND 64),
  auto_print INTEGER NOT NULL DEFAULT 0 CHECK (auto_print IN (0, 1)),
  updated_at TEXT NOT NULL,
  CHECK ((connection = 'network' AND host IS NOT NULL AND port IS NOT NULL) OR (connection = 'usb' AND device IS NOT NULL))
) STRICT;
CREATE TABLE receipt_print_jobs (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  receipt_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'printed', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  last_error TEXT,
  printed_at TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX receipt_print_jobs_receipt ON receipt_print_jobs(receipt_id);
CREATE INDEX receipt_print_jobs_due ON receipt_print_jobs(status, next_attempt_at);
`;
