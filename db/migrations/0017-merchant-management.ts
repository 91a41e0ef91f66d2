/**
 * Merchant management (decisions.md D15, issue 17): partners with their own credentials and the
 * merchants they manage, shops of a merchant, the `cardpos` terminals assigned to a shop, and the
 * payment-method settings per merchant (`shop_id` NULL) and per shop. A setting's columns are NULL
 * where the level inherits; maps and lists are JSON. Audit entries gain the partner who acted and
 * the old and new values.
 *
 * `fee_schedules` (migration 3) had no writer; its rows, if any, become merchant-level fee
 * settings here, and the table is no longer read.
 */
export const up = `
CREATE TABLE partners (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

ALTER TABLE credentials ADD COLUMN partner_id TEXT REFERENCES partners(id);
ALTER TABLE merchants ADD COLUMN partner_id TEXT REFERENCES partners(id);
CREATE INDEX merchants_partner ON merchants(partner_id);

CREATE TABLE shops (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX shops_merchant ON shops(merchant_id, created_at);

-- A terminal id (pos_data.terminal.id) belongs to at most one shop of its merchant.
CREATE TABLE terminals (
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  terminal_id TEXT NOT NULL,
  shop_id TEXT NOT NULL REFERENCES shops(id),
  assigned_at TEXT NOT NULL,
  PRIMARY KEY (merchant_id, terminal_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX terminals_shop ON terminals(shop_id);

CREATE TABLE payment_method_settings (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  shop_id TEXT REFERENCES shops(id),
  payment_type TEXT NOT NULL,
  enabled INTEGER CHECK (enabled IN (0, 1)),
  currencies TEXT,
  countries TEXT,
  capabilities TEXT NOT NULL DEFAULT '{}',
  fee_fixed_minor INTEGER CHECK (fee_fixed_minor >= 0),
  fee_percent_bp INTEGER CHECK (fee_percent_bp BETWEEN 0 AND 10000),
  cvm_limit TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX payment_method_settings_merchant ON payment_method_settings(merchant_id, payment_type) WHERE shop_id IS NULL;
CREATE UNIQUE INDEX payment_method_settings_shop ON payment_method_settings(shop_id, payment_type) WHERE shop_id IS NOT NULL;

INSERT INTO payment_method_settings (id, merchant_id, shop_id, payment_type, fee_fixed_minor, fee_percent_bp, created_at, updated_at)
SELECT lower(hex(randomblob(16))), merchant_id, NULL, payment_type, fixed_minor, percent_basis_points,
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM fee_schedules;

ALTER TABLE audit_log ADD COLUMN partner_id TEXT REFERENCES partners(id);
ALTER TABLE audit_log ADD COLUMN old_value TEXT;
ALTER TABLE audit_log ADD COLUMN new_value TEXT;
`;
