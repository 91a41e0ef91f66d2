/**
 * The schema's history, one module per version, forward-only: a shipped migration's statements
 * never change (tests/db/migrations.test.ts holds each version's texts to their digest), and shipped
 * columns are never dropped or renamed. Add a file and a line here.
 *
 * One statement of the schema per migration, for both engines (docs/decisions.md "One schema for
 * both engines (issue 37)"): a migration's `up` runs on SQLite and on PostgreSQL alike. A table's
 * words that the engines spell differently (64-bit integers, SQLite's STRICT) are written once
 * through ./words.ts (`bothEngines`). Only a migration whose SQL really differs on PostgreSQL (JSON
 * functions, PL/pgSQL triggers, a reserved word) carries a `postgres` text, with a comment saying
 * why; tests/db/schema-parity.test.ts compares what the two engines end up with.
 */
import * as m0001 from './0001-merchants.js';
import * as m0002 from './0002-transactions.js';
import * as m0003 from './0003-payments.js';
import * as m0004 from './0004-postbacks.js';
import * as m0005 from './0005-staff.js';
import * as m0006 from './0006-list-indexes.js';
import * as m0007 from './0007-checkouts.js';
import * as m0008 from './0008-outbox-due-order.js';
import * as m0009 from './0009-invoices.js';
import * as m0010 from './0010-emails.js';
import * as m0011 from './0011-network-tokens.js';
import * as m0012 from './0012-till-attempts.js';
import * as m0013 from './0013-receipts.js';
import * as m0014 from './0014-day-close.js';
import * as m0015 from './0015-dashboard.js';
import * as m0016 from './0016-transaction-search.js';
import * as m0017 from './0017-merchant-management.js';
import * as m0018 from './0018-backoffice-tokens-checkouts.js';
import * as m0019 from './0019-postback-log.js';
import * as m0020 from './0020-settings-staff-audit.js';
import * as m0021 from './0021-instance-coordination.js';
import * as m0022 from './0022-outbox-claims.js';
import * as m0023 from './0023-shared-auth-state.js';
import * as m0024 from './0024-data-key-check.js';
import * as m0025 from './0025-person-names.js';
import * as m0026 from './0026-invoice-number-search.js';
import * as m0027 from './0027-postback-search.js';
import * as m0028 from './0028-tills.js';
import * as m0029 from './0029-centre-and-tills.js';
import * as m0030 from './0030-forwarded-declines.js';
import * as m0031 from './0031-sale-tills.js';
import * as m0032 from './0032-till-authority.js';
import * as m0033 from './0033-staff-languages.js';
import * as m0034 from './0034-ledger-settled-cut.js';
import * as m0035 from './0035-configuration-notify.js';

export interface Migration {
  version: number;
  name: string;
  /** The statements: SQLite's, and PostgreSQL's too unless `postgres` is given. */
  up: string;
  /**
   * PostgreSQL's statements where they differ from `up`. Versions up to db/postgres/baseline.ts's
   * never run on PostgreSQL: the baseline stands for them.
   */
  postgres?: string;
}

export const migrations: readonly Migration[] = [
  { version: 1, name: 'merchants', up: m0001.up },
  { version: 2, name: 'transactions', up: m0002.up },
  { version: 3, name: 'payments', up: m0003.up },
  { version: 4, name: 'postbacks', up: m0004.up },
  { version: 5, name: 'staff', up: m0005.up },
  { version: 6, name: 'list-indexes', up: m0006.up },
  { version: 7, name: 'checkouts', up: m0007.up },
  { version: 8, name: 'outbox-due-order', up: m0008.up },
  { version: 9, name: 'invoices', up: m0009.up },
  { version: 10, name: 'emails', up: m0010.up },
  { version: 11, name: 'network-tokens', up: m0011.up },
  { version: 12, name: 'till-attempts', up: m0012.up },
  { version: 13, name: 'receipts', up: m0013.up },
  { version: 14, name: 'day-close', up: m0014.up },
  { version: 15, name: 'dashboard', up: m0015.up },
  { version: 16, name: 'transaction-search', up: m0016.up },
  { version: 17, name: 'merchant-management', up: m0017.up },
  { version: 18, name: 'backoffice-tokens-checkouts', up: m0018.up },
  { version: 19, name: 'postback-log', up: m0019.up, postgres: m0019.postgres },
  { version: 20, name: 'settings-staff-audit', up: m0020.up, postgres: m0020.postgres },
  { version: 21, name: 'instance-coordination', up: m0021.up, postgres: m0021.postgres },
  { version: 22, name: 'outbox-claims', up: m0022.up },
  { version: 23, name: 'shared-auth-state', up: m0023.up, postgres: m0023.postgres },
  { version: 24, name: 'data-key-check', up: m0024.up, postgres: m0024.postgres },
  { version: 25, name: 'person-names', up: m0025.up },
  { version: 26, name: 'invoice-number-search', up: m0026.up, postgres: m0026.postgres },
  { version: 27, name: 'postback-search', up: m0027.up, postgres: m0027.postgres },
  { version: 28, name: 'tills', up: m0028.up, postgres: m0028.postgres },
  { version: 29, name: 'centre-and-tills', up: m0029.up, postgres: m0029.postgres },
  { version: 30, name: 'forwarded-declines', up: m0030.up, postgres: m0030.postgres },
  { version: 31, name: 'sale-tills', up: m0031.up, postgres: m0031.postgres },
  { version: 32, name: 'till-authority', up: m0032.up },
  { version: 33, name: 'staff-languages', up: m0033.up },
  { version: 34, name: 'ledger-settled-cut', up: m0034.up, postgres: m0034.postgres },
  { version: 35, name: 'configuration-notify', up: m0035.up, postgres: m0035.postgres },
];
