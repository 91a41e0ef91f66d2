/**
 * The tables that statements built with Kysely (db/typed-sql.ts) read and write. Each feature
 * describes its own tables at run time in db/<feature>/tables.ts (db/columns.ts: each column's
 * SQLite type, whether it may be NULL, and its TypeScript type); `tables` joins them and `Database`
 * (Kysely's table types) is derived from it. tests/db/typed-sql.test.ts checks the description
 * against the migrated SQLite schema (`pragma table_xinfo`), so the row types cannot drift from the
 * migrations; tests/db/schema-parity.test.ts keeps PostgreSQL's schema the same.
 *
 * docs/decisions.md "Typed SQL with Kysely".
 */
import type { Generated } from 'kysely';
import type { Column } from './columns.js';
import { centreTables } from './centre/tables.js';
import { checkoutTables } from './checkouts/tables.js';
import { idempotencyTables } from './idempotency/tables.js';
import { invoiceTables } from './invoices/tables.js';
import { kernelTables } from './kernel-tables.js';
import { mailTables } from './mail/tables.js';
import { mandateTables } from './mandates/tables.js';
import { merchantTables } from './merchants/tables.js';
import { networkTokenTables } from './network-tokens/tables.js';
import { paymentMethodTables } from './payment-methods/tables.js';
import { paymentTables } from './payments/tables.js';
import { postbackTables } from './postbacks/tables.js';
import { receiptTables } from './receipts/tables.js';
import { reportTables } from './reports/tables.js';
import { staffTables } from './staff/tables.js';
import { tillAttemptTables } from './till-attempts/tables.js';
import { tillTables } from './tills/tables.js';

export const tables = {
  ...centreTables,
  ...checkoutTables,
  ...idempotencyTables,
  ...invoiceTables,
  ...kernelTables,
  ...mailTables,
  ...mandateTables,
  ...merchantTables,
  ...networkTokenTables,
  ...paymentMethodTables,
  ...paymentTables,
  ...postbackTables,
  ...receiptTables,
  ...reportTables,
  ...staffTables,
  ...tillAttemptTables,
  ...tillTables,
} as const;

type ColumnType<C> =
  C extends Column<infer T, infer Nullable, infer IsGenerated>
    ? IsGenerated extends true
      ? Generated<T>
      : Nullable extends true
        ? T | null
        : T
    : never;

/** Kysely's table types, from `tables`. */
export type Database = {
  [Table in keyof typeof tables]: { -readonly [Name in keyof (typeof tables)[Table]]: ColumnType<(typeof tables)[Table][Name]> };
};
