/**
 * Invoices (docs/api.md "Invoices"; docs/decisions.md "Invoices"): the invoices themselves, a
 * per-channel counter for generated numbers (INV-0001, ...), payment plans (whose existence
 * restricts amount/active changes and deletion), and an integer public id for channels (the
 * invoice's `channel_id` is an Integer in the interface; channels.id is text).
 */
export const up = `
ALTER TABLE channels ADD COLUMN public_id INTEGER;
UPDATE channels SET public_id = rowid;
CREATE UNIQUE INDEX channels_public_id ON channels(public_id);
CREATE TRIGGER channels_public_id_assign AFTER INSERT ON channels WHEN NEW.public_id IS NULL
BEGIN
  UPDATE channels SET public_id = (SELECT COALESCE(MAX(public_id), 0) + 1 FROM channels) WHERE id = NEW.id;
END;

CREATE TABLE invoices (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid TEXT NOT NULL UNIQUE,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  channel_id TEXT NOT NULL REFERENCES channels(id),
  debt_claim_number TEXT NOT NULL,
  active INTEGER NOT NULL CHECK (active IN (0, 1)),
  status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'paid', 'partly_paid')),
  print_date TEXT NOT NULL,
  first_name TEXT,
  last_name TEXT,
  company TEXT,
  email TEXT,
  phone TEXT,
  tax_id TEXT,
  customer_id TEXT,
  address TEXT,
  address2 TEXT,
  postal_code TEXT,
  city TEXT,
  state TEXT,
  country TEXT,
  amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
  currency TEXT NOT NULL,
  description TEXT,
  redirect_after_payments INTEGER NOT NULL CHECK (redirect_after_payments IN (0, 1)),
  success_url TEXT,
  error_url TEXT,
  expires_in INTEGER,
  expires_in_unit TEXT CHECK (expires_in_unit IN ('minutes', 'hours', 'days')),
  expires_at TEXT,
  locale TEXT CHECK (locale IN ('en', 'de', 'pt')),
  send_initial_email INTEGER NOT NULL CHECK (send_initial_email IN (0, 1)),
  initial_email_type TEXT CHECK (initial_email_type IN ('initial', 'reminder')),
  import_id INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX invoices_channel_number ON invoices(channel_id, debt_claim_number, active);
CREATE UNIQUE INDEX invoices_one_active_number ON invoices(channel_id, debt_claim_number) WHERE active = 1;
CREATE INDEX invoices_merchant_created ON invoices(merchant_id, created_at, id);
CREATE INDEX invoices_merchant_number ON invoices(merchant_id, debt_claim_number, active, created_at);

CREATE TABLE invoice_number_counters (
  channel_id TEXT PRIMARY KEY REFERENCES channels(id),
  last_number INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE payment_plans (
  id TEXT PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('active', 'completed', 'cancelled', 'failed')),
  installments INTEGER NOT NULL CHECK (installments >= 2),
  interval_unit TEXT NOT NULL CHECK (interval_unit IN ('week', 'month')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX payment_plans_invoice ON payment_plans(invoice_id, status);
`;
