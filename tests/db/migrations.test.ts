import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { DatabaseTooNewError, migrate, schemaVersion } from '../../db/migrate.js';
import { migrations, type Migration } from '../../db/migrations/index.js';
import { BASELINE_VERSION, baseline } from '../../db/postgres/baseline.js';
import { openDatabase } from '../../db/open.js';
import { postbackLogCountSql, postbackLogSql } from '../../db/postbacks/repositories.js';
import { transactionCountSql, transactionListSql } from '../../db/payments/transactions.js';
import type { OutboxPageFilter } from '../../main/core/postbacks/ports.js';
import type { TransactionFilter } from '../../main/core/payments/ports.js';
import currencyCodes from 'currency-codes';
import { currencyExponent } from '../../contract/money.js';
import { AMOUNT_SCALED_SQL, CURRENCIES_BY_EXPONENT } from '../../db/migrations/0016-transaction-search.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../db/migrations/', import.meta.url));

function freshDatabase(): Database.Database {
  return openDatabase(':memory:');
}

/** Tables and indexes (name -> columns) a migration must create. */
interface Expected {
  tables: string[];
  indexes: Record<string, string[]>;
  unique: Array<{ table: string; columns: string[] }>;
  /** Columns added to tables of earlier migrations. */
  addedColumns?: Record<string, string[]>;
  /** Indexes of earlier migrations that this one replaces. */
  droppedIndexes?: string[];
}

const expectedByVersion: Record<number, Expected> = {
  1: {
    tables: ['merchants', 'credentials', 'channels', 'idempotency_keys', 'mandates'],
    indexes: {
      credentials_merchant: ['merchant_id'],
      channels_merchant: ['merchant_id'],
      idempotency_keys_expiry: ['expires_at'],
    },
    unique: [
      { table: 'credentials', columns: ['api_key'] },
      { table: 'channels', columns: ['url_name'] },
      { table: 'idempotency_keys', columns: ['merchant_id', 'key'] },
      { table: 'mandates', columns: ['merchant_id', 'reference'] },
    ],
  },
  2: {
    tables: ['transactions', 'transaction_events', 'postback_outbox'],
    indexes: {
      transactions_merchant_created: ['merchant_id', 'created_at', 'id'],
      transactions_merchant_order: ['merchant_id', 'order_id', 'created_at', 'id'],
      transactions_merchant_status: ['merchant_id', 'status_code', 'created_at', 'id'],
      transactions_merchant_currency: ['merchant_id', 'currency', 'created_at', 'id'],
      transaction_events_transaction: ['transaction_id', 'id'],
      postback_outbox_due: ['state', 'next_attempt_at'],
    },
    unique: [{ table: 'postback_outbox', columns: ['subject_type', 'subject_id', 'sequence'] }],
  },
  3: {
    tables: ['refunds', 'scheduled_tasks', 'pin_failures', 'pin_keys', 'fee_schedules'],
    indexes: {
      refunds_transaction: ['transaction_id', 'id'],
      scheduled_tasks_due: ['state', 'due_at'],
      scheduled_tasks_subject: ['subject_id', 'kind'],
      pin_failures_card: ['merchant_id', 'card_fingerprint', 'failed_at'],
    },
    unique: [
      { table: 'pin_keys', columns: ['merchant_id', 'zone_id', 'key_id'] },
      { table: 'fee_schedules', columns: ['merchant_id', 'payment_type'] },
    ],
    addedColumns: { transactions: ['card_fingerprint'] },
  },
  4: {
    tables: ['postback_attempts'],
    indexes: {
      postback_attempts_outbox: ['outbox_id', 'id'],
      postback_outbox_merchant: ['merchant_id', 'state', 'created_at'],
    },
    unique: [],
    addedColumns: { postback_outbox: ['delivered_at', 'last_error', 'retry_from', 'window_attempts'] },
  },
  5: {
    tables: ['staff', 'staff_sessions', 'audit_log'],
    indexes: {
      staff_merchant: ['merchant_id'],
      staff_sessions_staff: ['staff_id'],
      audit_log_merchant: ['merchant_id', 'created_at'],
    },
    unique: [{ table: 'staff', columns: ['login'] }],
    addedColumns: {},
  },
  6: {
    tables: [],
    indexes: {
      transactions_merchant_created_filters: ['merchant_id', 'created_at', 'id', 'status_code', 'currency'],
      transactions_merchant_status_filters: ['merchant_id', 'status_code', 'created_at', 'id', 'currency'],
      transactions_merchant_currency_filters: ['merchant_id', 'currency', 'created_at', 'id', 'status_code'],
    },
    unique: [],
    droppedIndexes: ['transactions_merchant_created', 'transactions_merchant_status', 'transactions_merchant_currency'],
  },
  7: {
    tables: ['checkout_sessions'],
    indexes: {
      checkout_sessions_merchant: ['merchant_id', 'created_at'],
      checkout_sessions_transaction: ['transaction_id'],
    },
    unique: [],
  },
  8: {
    tables: [],
    indexes: { postback_outbox_due_order: ['state', 'next_attempt_at', 'id'] },
    unique: [],
    droppedIndexes: ['postback_outbox_due'],
  },
  9: {
    tables: ['invoices', 'invoice_number_counters', 'payment_plans'],
    indexes: {
      channels_public_id: ['public_id'],
      invoices_channel_number: ['channel_id', 'debt_claim_number', 'active'],
      invoices_one_active_number: ['channel_id', 'debt_claim_number'],
      invoices_merchant_created: ['merchant_id', 'created_at', 'id'],
      invoices_merchant_number: ['merchant_id', 'debt_claim_number', 'active', 'created_at'],
      payment_plans_invoice: ['invoice_id', 'status'],
    },
    unique: [
      { table: 'channels', columns: ['public_id'] },
      { table: 'invoices', columns: ['uuid'] },
      { table: 'invoices', columns: ['channel_id', 'debt_claim_number'] },
    ],
    addedColumns: { channels: ['public_id'] },
  },
  10: {
    tables: ['emails'],
    indexes: {
      emails_invoice_created: ['invoice_id', 'created_at', 'id'],
      emails_due: ['status', 'next_attempt_at'],
    },
    unique: [],
  },
  11: {
    tables: ['network_tokens', 'network_token_cryptograms'],
    indexes: {
      network_tokens_merchant_created: ['merchant_id', 'created_at', 'id'],
      network_tokens_merchant_card: ['merchant_id', 'card_fingerprint'],
      network_tokens_merchant_token: ['merchant_id', 'token_fingerprint'],
      network_token_cryptograms_hash: ['token_id', 'hash'],
    },
    unique: [{ table: 'network_token_cryptograms', columns: ['token_id', 'hash'] }],
  },
  12: {
    tables: ['till_attempts'],
    indexes: { till_attempts_open: ['merchant_id', 'terminal_id'] },
    unique: [{ table: 'till_attempts', columns: ['merchant_id', 'terminal_id'] }],
  },
  13: {
    tables: ['receipt_links', 'receipt_emails', 'receipt_printers', 'receipt_print_jobs'],
    indexes: {
      receipt_links_receipt: ['merchant_id', 'receipt_id'],
      receipt_emails_receipt: ['merchant_id', 'receipt_id', 'created_at'],
      receipt_emails_due: ['status', 'next_attempt_at'],
      receipt_print_jobs_receipt: ['receipt_id'],
      receipt_print_jobs_due: ['status', 'next_attempt_at'],
    },
    unique: [
      { table: 'receipt_links', columns: ['merchant_id', 'receipt_id'] },
      { table: 'receipt_print_jobs', columns: ['receipt_id'] },
    ],
  },
  14: {
    tables: ['till_ledger', 'z_reports'],
    indexes: {
      till_ledger_terminal: ['merchant_id', 'terminal_id', 'seq'],
      z_reports_close_key: ['merchant_id', 'terminal_id', 'close_key'],
    },
    unique: [
      { table: 'z_reports', columns: ['merchant_id', 'terminal_id', 'sequence'] },
      { table: 'z_reports', columns: ['merchant_id', 'terminal_id', 'close_key'] },
    ],
  },
  15: {
    tables: ['dashboard_hours'],
    indexes: {
      refunds_merchant_created: ['merchant_id', 'created_at'],
      transactions_authorized_expiry: ['merchant_id', 'expires_at'],
      postback_outbox_retrying: ['merchant_id', 'state', 'attempts'],
      invoices_merchant_expiry: ['merchant_id', 'expires_at', 'active', 'status'],
      emails_merchant_status: ['merchant_id', 'status', 'created_at'],
      network_tokens_merchant_status: ['merchant_id', 'status'],
    },
    unique: [{ table: 'dashboard_hours', columns: ['merchant_id', 'hour', 'currency', 'payment_type'] }],
  },
  16: {
    tables: [],
    indexes: {
      transactions_merchant_last_four: ['merchant_id', 'card_last_four', 'created_at', 'id'],
      transactions_merchant_type: ['merchant_id', 'payment_type', 'created_at', 'id', 'status_code', 'currency'],
      // The second column is the scaled amount, an expression (pragma_index_info names it null).
      transactions_merchant_amount: ['merchant_id', null as unknown as string, 'created_at', 'id'],
    },
    unique: [],
  },
  17: {
    tables: ['partners', 'shops', 'terminals', 'payment_method_settings'],
    indexes: {
      merchants_partner: ['partner_id'],
      shops_merchant: ['merchant_id', 'created_at'],
      terminals_shop: ['shop_id'],
      payment_method_settings_merchant: ['merchant_id', 'payment_type'],
      payment_method_settings_shop: ['shop_id', 'payment_type'],
    },
    unique: [
      { table: 'terminals', columns: ['merchant_id', 'terminal_id'] },
      { table: 'payment_method_settings', columns: ['merchant_id', 'payment_type'] },
      { table: 'payment_method_settings', columns: ['shop_id', 'payment_type'] },
    ],
    addedColumns: { credentials: ['partner_id'], merchants: ['partner_id'], audit_log: ['partner_id', 'old_value', 'new_value'] },
  },
  18: {
    tables: ['network_token_events'],
    indexes: {
      network_token_events_token: ['token_id', 'id'],
      checkout_sessions_merchant_status: ['merchant_id', 'status', 'created_at', 'id'],
    },
    unique: [],
  },
  19: {
    tables: ['postback_resends', 'postback_resend_events'],
    indexes: {
      postback_outbox_merchant_created: ['merchant_id', 'created_at', 'id'],
      postback_outbox_merchant_subject: ['merchant_id', 'subject_type', 'created_at', 'id'],
      postback_attempts_created: ['created_at', 'id'],
      emails_merchant_sent: ['merchant_id', 'status', 'sent_at'],
      receipt_emails_merchant_sent: ['merchant_id', 'status', 'sent_at'],
    },
    unique: [{ table: 'postback_resend_events', columns: ['resend_id', 'outbox_id'] }],
    addedColumns: { postback_attempts: ['request_body', 'request_headers', 'next_attempt_at'] },
  },
  20: {
    tables: ['smtp_settings'],
    indexes: {
      audit_log_merchant_staff: ['merchant_id', 'staff_id', 'created_at', 'id'],
      audit_log_merchant_action: ['merchant_id', 'action', 'created_at', 'id'],
      staff_sessions_staff_open: ['staff_id', 'revoked_at'],
    },
    unique: [],
    addedColumns: { merchants: ['language'] },
  },
  21: {
    tables: ['operation_locks'],
    indexes: {},
    unique: [],
    addedColumns: { idempotency_keys: ['claim_id'] },
  },
  22: {
    tables: [],
    indexes: {
      postback_outbox_claimable: ['next_attempt_at', 'id', 'claim_until'],
      emails_claimable: ['next_attempt_at', 'id', 'claim_until'],
      receipt_emails_claimable: ['next_attempt_at', 'id', 'claim_until'],
    },
    unique: [],
    addedColumns: {
      postback_outbox: ['claimed_by', 'claim_until'],
      emails: ['claimed_by', 'claim_until'],
      receipt_emails: ['claimed_by', 'claim_until'],
    },
    droppedIndexes: ['postback_outbox_due_order', 'emails_due', 'receipt_emails_due'],
  },
  23: {
    tables: ['auth_failures', 'manager_approvals'],
    indexes: {
      auth_failures_window: ['window_start'],
      manager_approvals_expiry: ['expires_at'],
    },
    unique: [],
  },
  24: {
    tables: ['key_check'],
    indexes: {},
    unique: [],
  },
  25: {
    tables: [],
    indexes: {},
    unique: [],
  },
  26: {
    tables: [],
    indexes: { transactions_merchant_invoice: ['merchant_id', 'invoice_number', 'created_at', 'id'] },
    unique: [],
    addedColumns: { transactions: ['invoice_number'] },
  },
  27: {
    tables: [],
    indexes: {
      postback_outbox_merchant_order: ['merchant_id', 'order_id', 'created_at', 'id'],
      postback_outbox_merchant_subject_id: ['merchant_id', 'subject_id', 'created_at', 'id'],
    },
    unique: [],
    addedColumns: { postback_outbox: ['order_id'] },
  },
  28: {
    tables: ['tills', 'gateway_instances'],
    indexes: { tills_holder: ['holder_session_id'] },
    unique: [],
  },
  29: {
    tables: ['till_invites', 'till_links', 'centre_link', 'stored_payments', 'centre_unsettled'],
    indexes: { till_links_credential: ['credential_id'], stored_payments_unforwarded: ['seq'] },
    unique: [{ table: 'till_links', columns: ['credential_id'] }],
  },
  30: {
    tables: ['forwarded_declines'],
    indexes: { forwarded_declines_open: ['merchant_id', 'forwarded_at'] },
    unique: [],
    addedColumns: { centre_unsettled: ['request_sealed', 'staff_id'] },
  },
  31: {
    tables: ['till_days', 'till_day_entries'],
    indexes: {
      transactions_merchant_till: ['merchant_id', 'till_id', 'created_at', 'id'],
      transactions_merchant_staff: ['merchant_id', 'staff_id', 'created_at', 'id'],
    },
    unique: [],
    addedColumns: { transactions: ['till_id', 'staff_id'], centre_link: ['ledger_cursor'] },
  },
  32: {
    tables: [],
    indexes: {},
    unique: [],
    addedColumns: { centre_link: ['shop_till_ids'] },
  },
  33: {
    tables: [],
    indexes: {},
    unique: [],
    addedColumns: { staff: ['language'] },
  },
  34: {
    tables: [],
    indexes: {},
    unique: [],
    addedColumns: {},
  },
  35: {
    tables: [],
    indexes: {},
    unique: [],
    addedColumns: {},
  },
};

function objectNames(db: Database.Database, type: 'table' | 'index'): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name").all(type) as Array<{
      name: string;
    }>
  ).map((r) => r.name);
}

function schemaText(db: Database.Database): string {
  return (db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all() as Array<Record<string, unknown>>)
    .map((r) => `${String(r.type)} ${String(r.name)} ${String(r.sql)}`)
    .join('\n');
}

function indexColumns(db: Database.Database, index: string): string[] {
  return (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(index) as Array<{ name: string }>).map((r) => r.name);
}

function columnNames(db: Database.Database, table: string): string[] {
  return (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>).map((r) => r.name);
}

function uniqueKeys(db: Database.Database, table: string): string[][] {
  const list = db.prepare('SELECT name, "unique" AS isUnique, origin FROM pragma_index_list(?)').all(table) as Array<{
    name: string;
    isUnique: number;
    origin: string;
  }>;
  return list.filter((i) => i.isUnique === 1).map((i) => indexColumns(db, i.name));
}

/**
 * What each shipped version runs, as the first 16 hex digits of the SHA-256 of its text: SQLite's
 * (`up`), and PostgreSQL's (`postgres ?? up`; none up to the baseline's version, which the baseline
 * stands for). A shipped migration never changes (db/migrations/index.ts): its file may be rewritten
 * (e.g. written once for both engines, db/migrations/words.ts) only while the texts stay byte for byte
 * the same. A new migration adds its line here.
 */
const SHIPPED_TEXTS: Record<number, readonly [string, string | null]> = {
  1: ['1c8b6e4010a99184', null],
  2: ['bbf6d18c51c3af13', null],
  3: ['1cebbe062c924edb', null],
  4: ['9782a58112d009d4', null],
  5: ['9833fa2c7b260110', null],
  6: ['245bf07f3e470dfb', null],
  7: ['85ee456cab734acb', null],
  8: ['fbea8635f49a820b', null],
  9: ['c5046b95a9629d72', null],
  10: ['9f29d6b10fb351ae', null],
  11: ['11aa31ec17e6c5ac', null],
  12: ['89c8001fde7d8ece', null],
  13: ['15ac09328b26036a', null],
  14: ['a941c316b47eb875', null],
  15: ['fb67c3512df40c77', null],
  16: ['8f041a764a866b20', null],
  17: ['ab2be4a4032d05fd', null],
  18: ['d6fc12193d858f1a', null],
  19: ['3e860a79f371f95f', 'f4b4d1c84efdbaf1'],
  20: ['e2c1027aa222b451', '36e1afa9efcdbd1d'],
  21: ['5cb3a652c5603c81', 'fc3d19a7e79d3790'],
  22: ['d1d19f337b93724c', 'd1d19f337b93724c'],
  23: ['2d2ba6c6f51a0b47', '30e8d29b7aaeb186'],
  24: ['edf2e1fcd8499336', '8a68803f824b0ac8'],
  25: ['9dfcd2b198dd2139', '9dfcd2b198dd2139'],
  26: ['cc559d84ac7003db', 'f5b1114a8977b90a'],
  27: ['d91533a50497b775', 'e7a74ba463c3cb8f'],
  28: ['6de9102a82b4357e', '28a38fd9d3fe2b4c'],
  29: ['71051ded5b186405', 'ca521bc726de1211'],
  30: ['e43fe64a6a492fa3', '4530099ffef8acb6'],
  31: ['d88f050df778c815', '4f1a3d4f32defef1'],
  32: ['57accae38927ab53', '57accae38927ab53'],
  33: ['92ec284b7fa2e0dd', '92ec284b7fa2e0dd'],
  34: ['17db4fd369edb924', 'dc3cf2ac3c985b48'],
  35: ['17db4fd369edb924', '4f227aae68d590a9'],
};
const SHIPPED_BASELINE = '1c50c9d3f76f7575';

/** The newest schema version (versions may leave a gap for a parallel branch, never step back). */
const LATEST = migrations.at(-1)?.version ?? 0;

describe('migrations', () => {
  test('are numbered 1..n contiguously, one file per version named NNNN-name', () => {
    assert.ok(migrations.length >= 2);
    assert.deepEqual(
      migrations.map((m) => m.version),
      migrations.map((_m, i) => i + 1),
    );
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{4}-.+\.ts$/.test(f))
      .sort();
    assert.deepEqual(
      files,
      migrations.map((m) => `${String(m.version).padStart(4, '0')}-${m.name}.ts`),
      'every migration file is listed in index.ts under its number and name',
    );
    assert.equal(new Set(migrations.map((m) => m.name)).size, migrations.length);
  });

  test('every migration has a test below', () => {
    assert.deepEqual(
      Object.keys(expectedByVersion).map(Number),
      migrations.map((m) => m.version),
      'add the tables and indexes of a new migration to expectedByVersion',
    );
  });

  test("shipped migrations' texts, and the PostgreSQL baseline's, never change", () => {
    const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
    const texts = Object.fromEntries(
      migrations.map((m) => [m.version, [digest(m.up), m.version > BASELINE_VERSION ? digest(m.postgres ?? m.up) : null] as const]),
    );
    assert.deepEqual(
      texts,
      SHIPPED_TEXTS,
      'a shipped migration changed (write a new one instead), or a new one needs its line in SHIPPED_TEXTS',
    );
    assert.equal(digest(baseline), SHIPPED_BASELINE, 'db/postgres/baseline.ts changed: existing PostgreSQL databases never run it again');
  });

  for (const migration of migrations) {
    test(`${String(migration.version).padStart(4, '0')}-${migration.name} creates its tables and indexes`, () => {
      const db = freshDatabase();
      try {
        const before = migrations.filter((m) => m.version < migration.version);
        migrate(db, before);
        const tablesBefore = objectNames(db, 'table');
        const indexesBefore = objectNames(db, 'index');
        const expected = expectedByVersion[migration.version];
        assert.ok(expected, `no expectations for migration ${migration.version}`);
        for (const [table, columns] of Object.entries(expected.addedColumns ?? {})) {
          for (const column of columns) assert.ok(!columnNames(db, table).includes(column), `${table}.${column} exists before`);
        }

        const report = migrate(db, [...before, migration]);
        assert.deepEqual(report, {
          from: before.at(-1)?.version ?? 0,
          to: migration.version,
          applied: [`${String(migration.version).padStart(4, '0')}-${migration.name}`],
        });
        assert.equal(schemaVersion(db), migration.version);

        const newTables = objectNames(db, 'table').filter((t) => !tablesBefore.includes(t));
        assert.deepEqual(newTables.sort(), [...expected.tables].sort());
        const newIndexes = objectNames(db, 'index').filter((i) => !indexesBefore.includes(i));
        assert.deepEqual(newIndexes.sort(), Object.keys(expected.indexes).sort());
        const droppedIndexes = indexesBefore.filter((i) => !objectNames(db, 'index').includes(i));
        assert.deepEqual(droppedIndexes.sort(), [...(expected.droppedIndexes ?? [])].sort());
        for (const [index, columns] of Object.entries(expected.indexes)) {
          assert.deepEqual(indexColumns(db, index), columns, `columns of ${index}`);
        }
        for (const { table, columns } of expected.unique) {
          assert.ok(
            uniqueKeys(db, table).some((key) => key.join(',') === columns.join(',')),
            `${table} has a unique key on (${columns.join(', ')})`,
          );
        }
        for (const [table, columns] of Object.entries(expected.addedColumns ?? {})) {
          for (const column of columns) assert.ok(columnNames(db, table).includes(column), `${table}.${column} added`);
        }
        // Every table is STRICT: a string in an INTEGER money column is an error, not a silent coercion.
        const strict = db.prepare('SELECT name, strict FROM pragma_table_list WHERE schema = ?').all('main') as Array<{
          name: string;
          strict: number;
        }>;
        for (const table of expected.tables) {
          assert.equal(strict.find((t) => t.name === table)?.strict, 1, `${table} is STRICT`);
        }
        assert.deepEqual(db.pragma('foreign_key_check'), []);
      } finally {
        db.close();
      }
    });
  }

  test('migrate() on a fresh database brings user_version to the number of migrations', () => {
    const db = freshDatabase();
    try {
      assert.equal(schemaVersion(db), 0);
      const report = migrate(db);
      assert.equal(schemaVersion(db), LATEST);
      assert.deepEqual(
        report.applied,
        migrations.map((m) => `${String(m.version).padStart(4, '0')}-${m.name}`),
      );
      assert.equal(report.from, 0);
      assert.equal(report.to, LATEST);
    } finally {
      db.close();
    }
  });

  test('0017 turns fee_schedules rows into merchant-level payment-method settings', () => {
    const db = freshDatabase();
    try {
      migrate(
        db,
        migrations.filter((m) => m.version < 17),
      );
      db.prepare(
        "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'x', '2026-01-01T00:00:00.000Z')",
      ).run();
      db.prepare(
        "INSERT INTO fee_schedules (merchant_id, payment_type, percent_basis_points, fixed_minor) VALUES ('m1', 'cardpos', 120, 5)",
      ).run();
      migrate(db);
      const row = db
        .prepare(
          'SELECT merchant_id, shop_id, payment_type, enabled, fee_fixed_minor, fee_percent_bp, capabilities, cvm_limit FROM payment_method_settings',
        )
        .get();
      assert.deepEqual(
        { ...(row as object) },
        {
          merchant_id: 'm1',
          shop_id: null,
          payment_type: 'cardpos',
          enabled: null,
          fee_fixed_minor: 5,
          fee_percent_bp: 120,
          capabilities: '{}',
          cvm_limit: '{}',
        },
      );
    } finally {
      db.close();
    }
  });

  test('running migrate twice applies nothing the second time', () => {
    const db = freshDatabase();
    try {
      migrate(db);
      const schema = schemaText(db);
      const second = migrate(db);
      assert.deepEqual(second, { from: LATEST, to: LATEST, applied: [] });
      assert.equal(schemaText(db), schema);
      assert.equal(schemaVersion(db), LATEST);
    } finally {
      db.close();
    }
  });

  test('all pending migrations apply in one transaction: a failing one leaves version and schema unchanged', () => {
    const broken: Migration = {
      version: LATEST + 1,
      name: 'broken',
      up: 'CREATE TABLE applied_first (x INTEGER) STRICT; CREATE TABLE broken (',
    };

    const fresh = freshDatabase();
    try {
      assert.throws(() => migrate(fresh, [...migrations, broken]), /syntax error|incomplete input/);
      assert.equal(schemaVersion(fresh), 0);
      assert.deepEqual(objectNames(fresh, 'table'), []);
      assert.deepEqual(objectNames(fresh, 'index'), []);
      assert.equal(fresh.inTransaction, false);
    } finally {
      fresh.close();
    }

    const partial = freshDatabase();
    try {
      migrate(partial, migrations.slice(0, 1));
      const schema = schemaText(partial);
      assert.throws(() => migrate(partial, [...migrations, broken]));
      assert.equal(schemaVersion(partial), 1);
      assert.equal(schemaText(partial), schema, 'migration 2 was rolled back together with the broken one');
      // The database is still usable and migrates normally afterwards.
      migrate(partial);
      assert.equal(schemaVersion(partial), LATEST);
    } finally {
      partial.close();
    }
  });

  test('a database from a newer version is refused with a clear error', () => {
    const db = freshDatabase();
    try {
      migrate(db);
      const newer = LATEST + 1;
      db.pragma(`user_version = ${newer}`);
      const schema = schemaText(db);
      assert.throws(
        () => migrate(db),
        (error: unknown) => {
          assert.ok(error instanceof DatabaseTooNewError);
          assert.equal(error.found, newer);
          assert.equal(error.supported, LATEST);
          assert.match(error.message, new RegExp(`schema version ${newer}\\b`));
          assert.match(error.message, new RegExp(`up to ${LATEST}\\b`));
          assert.match(error.message, /Upgrade the gateway/);
          return true;
        },
      );
      assert.equal(schemaVersion(db), newer);
      assert.equal(schemaText(db), schema);
    } finally {
      db.close();
    }
  });

  test('a migration list with a step back or a wrong first number is refused before touching the database', () => {
    const db = freshDatabase();
    try {
      const [first, second] = migrations;
      assert.ok(first && second);
      assert.throws(() => migrate(db, [first, { ...second, version: 1 }]), /expected 2/);
      assert.throws(() => migrate(db, [second]), /expected 1/);
      assert.equal(schemaVersion(db), 0);
      assert.deepEqual(objectNames(db, 'table'), []);
    } finally {
      db.close();
    }
  });
});

describe('migration 25 on a database whose first-run cashier is "Till 1"', () => {
  test('the untouched default becomes "Cashier"; a name an admin chose, and other logins, stay', () => {
    const db = freshDatabase();
    try {
      migrate(
        db,
        migrations.filter((m) => m.version < 25),
      );
      db.prepare(
        "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'w', '2026-01-01T00:00:00Z')",
      ).run();
      const staff = db.prepare(
        "INSERT INTO staff (id, merchant_id, login, display_name, role, password_hash, created_at) VALUES (?, 'm1', ?, ?, 'cashier', 'h', '2026-01-01T00:00:00Z')",
      );
      staff.run('s1', 'till', 'Till 1');
      staff.run('s2', 'till-2', 'Till 1');
      staff.run('s3', 'anna', 'Anna');
      migrate(db);
      assert.deepEqual(db.prepare('SELECT login, display_name FROM staff ORDER BY id').all(), [
        { login: 'till', display_name: 'Cashier' },
        { login: 'till-2', display_name: 'Till 1' },
        { login: 'anna', display_name: 'Anna' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('migration 26 on a database with paid invoices', () => {
  test("an invoice's payments get its number; other payments none", () => {
    const db = freshDatabase();
    try {
      migrate(
        db,
        migrations.filter((m) => m.version < 26),
      );
      db.prepare(
        "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'w', '2026-01-01T00:00:00Z')",
      ).run();
      db.prepare(
        "INSERT INTO channels (id, merchant_id, url_name, name, currency, language, created_at) VALUES ('c1', 'm1', 'shop', 'Shop', 'EUR', 'en', '2026-01-01T00:00:00Z')",
      ).run();
      db.prepare(
        `INSERT INTO invoices (uuid, merchant_id, channel_id, debt_claim_number, active, status, print_date, amount_minor, currency, redirect_after_payments, send_initial_email, created_at, updated_at)
         VALUES ('u-1', 'm1', 'c1', 'INV-0042', 1, 'paid', '2026-01-01', 100, 'EUR', 0, 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
      ).run();
      const invoiceId = (db.prepare("SELECT id FROM invoices WHERE uuid = 'u-1'").get() as { id: number }).id;
      const transaction = db.prepare(
        `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, order_id, currency, amount_minor, details, created_at, updated_at)
         VALUES (?, 'm1', 'cardecom', 'payment', 3, ?, 'EUR', 100, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
      );
      transaction.run('t1', 'u-1', JSON.stringify({ invoice_id: invoiceId, instalment: 1 }));
      transaction.run('t2', 'order-2', '{}');
      migrate(db);
      assert.deepEqual(db.prepare('SELECT id, invoice_number FROM transactions ORDER BY id').all(), [
        { id: 't1', invoice_number: 'INV-0042' },
        { id: 't2', invoice_number: null },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('migration 31 on a database with card-present sales', () => {
  test("a sale takes the till of its stored sale or of the till its terminal id names; other sales none; new events book under the sale's till or '*'", () => {
    const db = freshDatabase();
    try {
      migrate(
        db,
        migrations.filter((m) => m.version < 31),
      );
      db.prepare(
        "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'w', '2026-01-01T00:00:00Z')",
      ).run();
      for (const till of ['TILL-1', 'TILL-2'])
        db.prepare("INSERT INTO tills (merchant_id, till_id, name, created_at) VALUES ('m1', ?, ?, '2026-01-01T00:00:00Z')").run(
          till,
          till,
        );
      const transaction = db.prepare(
        `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, order_id, currency, amount_minor, details, created_at, updated_at)
         VALUES (?, 'm1', ?, 'payment', 3, ?, 'EUR', 100, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
      );
      const pos = (terminal: string | null) => ({
        pos: { entry_mode: 'chip', terminal: { id: terminal, type: null, attended: null, capabilities: [] } },
      });
      transaction.run('t1', 'cardpos', 'o1', JSON.stringify(pos('TILL-1')));
      transaction.run('t2', 'cardpos', 'o2', JSON.stringify(pos('T-0001')));
      transaction.run(
        't3',
        'cardpos',
        'o3',
        JSON.stringify({ ...pos('TILL-9'), stored: { till_id: 'TILL-2', seq: 1, stored_at: '2026-01-01T00:00:00Z' } }),
      );
      transaction.run('t4', 'cardpos', 'o4', JSON.stringify(pos(null)));
      transaction.run('t5', 'cardecom', 'o5', JSON.stringify(pos('TILL-1')));
      migrate(db);
      assert.deepEqual(db.prepare('SELECT id, till_id FROM transactions ORDER BY id').all(), [
        { id: 't1', till_id: 'TILL-1' },
        { id: 't2', till_id: null },
        { id: 't3', till_id: 'TILL-2' },
        { id: 't4', till_id: null },
        { id: 't5', till_id: null },
      ]);
      const event = db.prepare(
        "INSERT INTO transaction_events (id, transaction_id, type, status, amount_minor, created_at) VALUES (?, ?, 'capture', 3, 100, '2026-01-01T00:00:00Z')",
      );
      for (const id of ['t1', 't2', 't3', 't4', 't5']) event.run(`e-${id}`, id);
      assert.deepEqual(db.prepare('SELECT terminal_id, event_id FROM till_ledger ORDER BY event_id').all(), [
        { terminal_id: 'TILL-1', event_id: 'e-t1' },
        { terminal_id: '*', event_id: 'e-t2' },
        { terminal_id: 'TILL-2', event_id: 'e-t3' },
        { terminal_id: '*', event_id: 'e-t4' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('migration 18 on a database that has tokens and checkouts', () => {
  test('tokens get their history as far as their rows tell it; sessions keep every column and may lose the postback URL', () => {
    const db = freshDatabase();
    try {
      migrate(
        db,
        migrations.filter((m) => m.version < 18),
      );
      db.exec(
        `INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'x', '2026-01-01T00:00:00.000Z')`,
      );
      const token = (id: string, status: string, refreshed: string | null, updated: string) =>
        db
          .prepare(
            `INSERT INTO network_tokens (id, merchant_id, status, network, provider, card_fingerprint, card_sealed, token_fingerprint, token_sealed, payment_account_reference, last_token_refresh, created_at, updated_at)
             VALUES (?, 'm1', ?, 'visa', 'simulator', 'f', 's', 'tf', 'ts', 'PAR', ?, '2026-01-02T00:00:00.000Z', ?)`,
          )
          .run(id, status, refreshed, updated);
      token('t-new', 'requested', null, '2026-01-02T00:00:00.000Z');
      token('t-active', 'active', null, '2026-01-02T00:00:05.000Z');
      token('t-refreshed', 'suspended', '2026-01-03T00:00:00.000Z', '2026-01-04T00:00:00.000Z');
      db.exec(`INSERT INTO checkout_sessions (id, merchant_id, status, order_id, currency, amount_minor, taxes_minor, shipping_minor, total_minor, success_url, error_url, postback_url, locale, request, created_at, updated_at, expires_at)
        VALUES ('c1', 'm1', 'open', 'o-1', 'EUR', 1000, 190, 0, 1190, 'https://s/ok', 'https://s/err', 'https://s/pb', 'de', '{"order_id":"o-1"}', '2026-01-05T00:00:00.000Z', '2026-01-05T00:00:00.000Z', '2026-01-06T00:00:00.000Z')`);
      const sessionBefore = db.prepare('SELECT * FROM checkout_sessions').all();

      migrate(db);
      const history = (id: string) =>
        db.prepare('SELECT event, status, created_at FROM network_token_events WHERE token_id = ? ORDER BY id').all(id);
      assert.deepEqual(history('t-new'), [{ event: 'created', status: 'requested', created_at: '2026-01-02T00:00:00.000Z' }]);
      assert.deepEqual(history('t-active'), [
        { event: 'created', status: 'requested', created_at: '2026-01-02T00:00:00.000Z' },
        { event: 'status', status: 'active', created_at: '2026-01-02T00:00:05.000Z' },
      ]);
      assert.deepEqual(history('t-refreshed'), [
        { event: 'created', status: 'requested', created_at: '2026-01-02T00:00:00.000Z' },
        { event: 'refreshed', status: 'suspended', created_at: '2026-01-03T00:00:00.000Z' },
        { event: 'status', status: 'suspended', created_at: '2026-01-04T00:00:00.000Z' },
      ]);
      assert.deepEqual(db.prepare('SELECT * FROM checkout_sessions').all(), sessionBefore, 'every session and column as before');
      assert.deepEqual(indexColumns(db, 'checkout_sessions_merchant'), ['merchant_id', 'created_at', 'id']);
      assert.deepEqual(indexColumns(db, 'checkout_sessions_transaction'), ['transaction_id']);
      db.prepare('UPDATE checkout_sessions SET postback_url = NULL').run();
      assert.throws(() => db.prepare("UPDATE checkout_sessions SET status = 'gone'").run(), /CHECK constraint/);
      assert.equal(
        (db.prepare('SELECT strict FROM pragma_table_list WHERE name = ?').get('checkout_sessions') as { strict: number }).strict,
        1,
      );
      assert.deepEqual(db.pragma('foreign_key_check'), []);
    } finally {
      db.close();
    }
  });
});

/** A database migrated up to just before `version`, with one merchant, m1. */
function shopBefore(version: number): Database.Database {
  const db = freshDatabase();
  migrate(
    db,
    migrations.filter((m) => m.version < version),
  );
  db.exec(
    `INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'x', '2026-01-01T00:00:00.000Z')`,
  );
  return db;
}

describe('migration 19 on a database that has postbacks', () => {
  test('old attempts keep every column, have no body or headers, and the last one of a pending postback gets its retry', () => {
    const db = shopBefore(19);
    try {
      const outbox = db.prepare(
        `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
         VALUES (?, 'm1', 'transaction', ?, 1, 'http://127.0.0.1:9/pb', '{}', ?, ?, ?, '2026-01-02T00:00:00.000Z')`,
      );
      outbox.run('pending-1', 't1', 'pending', 2, '2026-01-02T00:07:00.000Z');
      outbox.run('failed-1', 't2', 'failed', 1, '2026-01-02T00:00:01.000Z');
      const attempt = db.prepare(
        `INSERT INTO postback_attempts (id, outbox_id, attempt, http_status, outcome, error, duration_ms, created_at) VALUES (?, ?, ?, 500, 'failed', 'HTTP 500', 12, ?)`,
      );
      attempt.run('a1', 'pending-1', 1, '2026-01-02T00:00:00.500Z');
      attempt.run('a2', 'pending-1', 2, '2026-01-02T00:01:01.000Z');
      attempt.run('a3', 'failed-1', 1, '2026-01-02T00:00:01.000Z');
      const before = db
        .prepare('SELECT id, outbox_id, attempt, http_status, outcome, error, duration_ms, created_at FROM postback_attempts ORDER BY id')
        .all();

      migrate(db);
      assert.deepEqual(
        db
          .prepare('SELECT id, outbox_id, attempt, http_status, outcome, error, duration_ms, created_at FROM postback_attempts ORDER BY id')
          .all(),
        before,
      );
      assert.deepEqual(db.prepare('SELECT id, request_body, request_headers, next_attempt_at FROM postback_attempts ORDER BY id').all(), [
        { id: 'a1', request_body: null, request_headers: null, next_attempt_at: null },
        { id: 'a2', request_body: null, request_headers: null, next_attempt_at: '2026-01-02T00:07:00.000Z' },
        { id: 'a3', request_body: null, request_headers: null, next_attempt_at: null },
      ]);
      assert.deepEqual(db.pragma('foreign_key_check'), []);
    } finally {
      db.close();
    }
  });
});

describe('migration 27 on a database that has postbacks', () => {
  test("each postback gets the order id its body carries: a transaction's and a checkout's; a token's none", () => {
    const db = shopBefore(27);
    try {
      const outbox = db.prepare(
        `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
         VALUES (?, 'm1', ?, ?, 1, 'http://127.0.0.1:9/pb', ?, 'delivered', 1, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z')`,
      );
      outbox.run(
        'p-transaction',
        'transaction',
        't1',
        JSON.stringify({ transaction_id: 't1', status_code: 3, order_id: 'order-1001', amount: 10, message: 'a\u0000b' }),
      );
      outbox.run('p-payout', 'transaction', 't2', JSON.stringify({ transaction_id: 't2', status_code: 2, order_id: null }));
      outbox.run(
        'p-checkout',
        'checkout',
        'c1',
        JSON.stringify({ checkout_id: 'c1', status: 'completed', transaction_id: 't1', order_id: 'WEB-7' }),
      );
      outbox.run('p-token', 'token', 'k1', JSON.stringify({ id: 'k1', status: 'active', network: 'visa', error: null }));
      const before = db.prepare('SELECT id, payload, state, created_at FROM postback_outbox ORDER BY id').all();

      migrate(db);
      assert.deepEqual(db.prepare('SELECT id, order_id FROM postback_outbox ORDER BY id').all(), [
        { id: 'p-checkout', order_id: 'WEB-7' },
        { id: 'p-payout', order_id: null },
        { id: 'p-token', order_id: null },
        { id: 'p-transaction', order_id: 'order-1001' },
      ]);
      assert.deepEqual(
        db.prepare('SELECT id, payload, state, created_at FROM postback_outbox ORDER BY id').all(),
        before,
        'nothing else changed',
      );
    } finally {
      db.close();
    }
  });
});

describe('query plans of the postback log', () => {
  const db = freshDatabase();
  migrate(db);
  const eventId = '0190aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa';
  const planOf = (filter: OutboxPageFilter) => {
    const { sql, params } = postbackLogSql('merchant-1', filter, 50, 0);
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
  };

  // The search box: one ordered read per value from its own index (an id also by the primary key),
  // at most a page each, merged; never a walk through the merchant's log, whatever else is filtered.
  const cases: Array<{ name: string; filter: OutboxPageFilter; reads: RegExp[] }> = [
    {
      name: 'search by an order id',
      filter: { search: { orderId: 'order-1001' } },
      reads: [/^SEARCH postback_outbox USING INDEX postback_outbox_merchant_order \(merchant_id=\? AND order_id=\?\)$/],
    },
    {
      name: 'search by a pasted id',
      filter: { search: { orderId: eventId, id: eventId } },
      reads: [
        /INDEX postback_outbox_merchant_order \(merchant_id=\? AND order_id=\?\)/,
        /INDEX postback_outbox_merchant_subject_id \(merchant_id=\? AND subject_id=\?\)/,
        /INDEX sqlite_autoindex_postback_outbox_1 \(id=\?\)/,
      ],
    },
    {
      name: 'search + status + kind + created range',
      filter: {
        search: { orderId: eventId, id: eventId },
        status: 'failed',
        subjectType: 'transaction',
        createdFrom: '2026-01-01T00:00:00.000Z',
        createdTo: '2026-02-01T00:00:00.000Z',
      },
      reads: [
        /postback_outbox_merchant_order \(merchant_id=\? AND order_id=\? AND created_at>\? AND created_at<\?\)/,
        /postback_outbox_merchant_subject_id \(merchant_id=\? AND subject_id=\? AND created_at>\? AND created_at<\?\)/,
        /sqlite_autoindex_postback_outbox_1 \(id=\?\)/,
      ],
    },
  ];
  for (const { name, filter, reads: expected } of cases) {
    test(`${name}: reads its indexes, in the log's order`, () => {
      const plan = planOf(filter);
      const reads = plan.filter((d) => /\bpostback_outbox\b/.test(d));
      assert.equal(reads.length, expected.length, JSON.stringify(plan));
      expected.forEach((read, i) => assert.match(reads[i] ?? '', read, JSON.stringify(plan)));
      for (const read of reads) assert.match(read, /^SEARCH postback_outbox USING INDEX /, JSON.stringify(plan));
      // Each read is in the log's order (its index ends in created_at, id): no sort before its rows
      // go on (to the page, or to the merge, which sorts what the branches give it).
      if (reads.length === 1) assert.ok(!plan.some((d) => /TEMP B-TREE/.test(d)), JSON.stringify(plan));
      else for (const read of reads) assert.match(plan[plan.indexOf(read) + 1] ?? '', /^SCAN branch\d$/, JSON.stringify(plan));
      const count = postbackLogCountSql('merchant-1', filter);
      const countPlan = (db.prepare(`EXPLAIN QUERY PLAN ${count.sql}`).all(...count.params) as Array<{ detail: string }>).map(
        (r) => r.detail,
      );
      assert.ok(
        countPlan.every((d) => !/SCAN postback_outbox/.test(d)),
        `count: ${JSON.stringify(countPlan)}`,
      );
    });
  }
});

describe("migration 33's wider merchant language", () => {
  test('a shop keeps its language, may be Croatian afterwards, and still not French; its foreign keys hold', () => {
    const db = freshDatabase();
    migrate(
      db,
      migrations.filter((m) => m.version < 33),
    );
    const now = '2026-11-29T00:00:00.000Z';
    db.prepare(
      "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at, language) VALUES ('m1', 'Bäckerei', 'EUR', 'k', ?, 'de')",
    ).run(now);
    db.prepare(
      "INSERT INTO staff (id, merchant_id, login, display_name, role, password_hash, created_at) VALUES ('s1', 'm1', 'kasia', 'Kasia', 'cashier', 'h', ?)",
    ).run(now);
    assert.throws(() => db.prepare("UPDATE merchants SET language = 'hr' WHERE id = 'm1'").run(), /CHECK/);
    migrate(db);
    assert.equal((db.prepare("SELECT language FROM merchants WHERE id = 'm1'").get() as { language: string }).language, 'de');
    db.prepare("UPDATE merchants SET language = 'hr' WHERE id = 'm1'").run();
    assert.throws(() => db.prepare("UPDATE merchants SET language = 'fr' WHERE id = 'm1'").run(), /CHECK/);
    assert.equal((db.prepare("SELECT language FROM staff WHERE id = 's1'").get() as { language: string | null }).language, null);
    db.prepare("UPDATE staff SET language = 'pt' WHERE id = 's1'").run();
    assert.throws(() => db.prepare("UPDATE staff SET language = 'xx' WHERE id = 's1'").run(), /CHECK/);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    db.close();
  });
});

describe('the scaled amount of migration 16', () => {
  test("its frozen currency lists agree with the gateway's decimals (contract/money.ts)", () => {
    for (const [exponent, codes] of Object.entries(CURRENCIES_BY_EXPONENT)) {
      for (const code of codes) assert.equal(currencyExponent(code), Number(exponent), `${code} has ${exponent} decimals`);
    }
    const listed = new Set(Object.values(CURRENCIES_BY_EXPONENT).flat());
    for (const code of currencyCodes.codes()) {
      const exponent = currencyExponent(code);
      if (exponent !== undefined && exponent !== 2)
        assert.ok(listed.has(code), `${code} (${exponent} decimals) is listed; a new migration must re-create the amount index`);
    }
  });

  test('12.50 EUR, 12.500 KWD and 1250 JPY scale as the filter does', () => {
    const db = freshDatabase();
    migrate(db);
    const scaled = (currency: string, minor: number) =>
      (
        db
          .prepare(`SELECT ${AMOUNT_SCALED_SQL.replaceAll('amount_minor', '?').replaceAll('currency', '?')} AS v`)
          .get(minor, currency, currency, currency) as { v: number }
      ).v;
    assert.equal(scaled('EUR', 1250), 125000);
    assert.equal(scaled('KWD', 12500), 125000);
    assert.equal(scaled('JPY', 1250), 12_500_000);
    assert.equal(scaled('CLF', 125000), 125000);
    db.close();
  });
});

describe('query plans of the transaction list', () => {
  const cases: Array<{ name: string; filter: Partial<TransactionFilter>; index: string }> = [
    { name: 'no filter', filter: {}, index: 'transactions_merchant_created' },
    { name: 'order_id', filter: { orderId: 'order-1' }, index: 'transactions_merchant_order' },
    { name: 'one status', filter: { statusCodes: [3] }, index: 'transactions_merchant_status' },
    { name: 'status list', filter: { statusCodes: [3, 8] }, index: 'transactions_merchant_' },
    { name: 'currency', filter: { currency: 'EUR' }, index: 'transactions_merchant_currency' },
    {
      name: 'from/to range',
      filter: { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' },
      index: 'transactions_merchant_created',
    },
    { name: 'from only', filter: { from: '2026-01-01T00:00:00.000Z' }, index: 'transactions_merchant_created' },
    {
      name: 'all filters',
      filter: {
        orderId: 'order-1',
        currency: 'EUR',
        statusCodes: [3, 8],
        from: '2026-01-01T00:00:00.000Z',
        to: '2026-02-01T00:00:00.000Z',
      },
      index: 'transactions_merchant_',
    },
  ];

  const db = freshDatabase();
  migrate(db);

  for (const { name, filter, index } of cases) {
    test(`${name}: searches an index and needs no sort`, () => {
      const { sql, params } = transactionListSql('merchant-1', { limit: 50, offset: 0, ...filter });
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
      const onTransactions = plan.filter((d) => /\btransactions\b/.test(d));
      assert.ok(onTransactions.length > 0, `plan: ${JSON.stringify(plan)}`);
      for (const detail of onTransactions) {
        assert.match(detail, /^SEARCH transactions USING (COVERING )?INDEX /, `plan: ${JSON.stringify(plan)}`);
        assert.ok(detail.includes(index), `expected ${index}*, plan: ${JSON.stringify(plan)}`);
        assert.match(detail, /merchant_id=\?/, 'the merchant is an index constraint, not a filter');
      }
      assert.ok(!plan.some((d) => /SCAN transactions(?! USING)/.test(d)), `full scan in plan: ${JSON.stringify(plan)}`);
      assert.ok(!plan.some((d) => /TEMP B-TREE/.test(d)), `sort in plan: ${JSON.stringify(plan)}`);
    });
  }

  // The back office's filters (migration 16) and keyset paging: every filter reads its own index
  // in the list's order; `starting_after` seeks in it.
  const after = { createdAt: '2026-01-15T00:00:00.000Z', id: '0190aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa' };
  const seekCases: Array<{ name: string; filter: Partial<TransactionFilter>; index: string; seek: RegExp }> = [
    {
      name: 'keyset page',
      filter: { after },
      index: 'transactions_merchant_created',
      seek: /merchant_id=\? AND \(created_at,id\)<\(\?,\?\)/,
    },
    {
      name: 'status + keyset',
      filter: { statusCodes: [6], after },
      index: 'transactions_merchant_status',
      seek: /status_code=\? AND \(created_at,id\)<\(\?,\?\)/,
    },
    { name: 'card last four', filter: { cardLastFour: '1111' }, index: 'transactions_merchant_last_four', seek: /card_last_four=\?/ },
    {
      name: 'last four + keyset',
      filter: { cardLastFour: '1111', after },
      index: 'transactions_merchant_last_four',
      seek: /card_last_four=\? AND \(created_at,id\)<\(\?,\?\)/,
    },
    {
      name: 'exact amount',
      filter: { amountScaled: { exact: 125000 } },
      index: 'transactions_merchant_amount',
      seek: /merchant_id=\? AND .*=\?/,
    },
    {
      name: 'exact amount + keyset',
      filter: { amountScaled: { exact: 125000 }, after },
      index: 'transactions_merchant_amount',
      seek: /\(created_at,id\)<\(\?,\?\)/,
    },
    {
      name: 'amount range',
      filter: { amountScaled: { min: 100000, max: 200000 } },
      index: 'transactions_merchant_created',
      seek: /merchant_id=\?/,
    },
    { name: 'one payment type', filter: { paymentTypes: ['cardpos'] }, index: 'transactions_merchant_type', seek: /payment_type=\?/ },
    {
      name: 'payment type + status',
      filter: { paymentTypes: ['dd'], statusCodes: [6] },
      index: 'transactions_merchant_type',
      seek: /payment_type=\?/,
    },
    {
      name: 'everything + keyset',
      filter: {
        statusCodes: [3],
        currency: 'EUR',
        paymentTypes: ['cardpos'],
        amountScaled: { min: 1, max: 99 },
        from: '2025-01-01T00:00:00.000Z',
        to: '2026-06-01T00:00:00.000Z',
        after,
      },
      index: 'transactions_merchant_type',
      seek: /payment_type=\? AND created_at>\? AND \(created_at,id\)<\(\?,\?\)/,
    },
  ];
  for (const { name, filter, index, seek } of seekCases) {
    test(`${name}: seeks its index and needs no sort`, () => {
      const { sql, params } = transactionListSql('merchant-1', { limit: 50, offset: 0, ...filter });
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
      assert.equal(plan.length, 1, `one index read: ${JSON.stringify(plan)}`);
      assert.match(plan[0] ?? '', new RegExp(`^SEARCH transactions USING (COVERING )?INDEX ${index}`), JSON.stringify(plan));
      assert.match(plan[0] ?? '', seek, JSON.stringify(plan));
      const count = transactionCountSql('merchant-1', { limit: 50, offset: 0, ...filter });
      const countPlan = (db.prepare(`EXPLAIN QUERY PLAN ${count.sql}`).all(...count.params) as Array<{ detail: string }>).map(
        (r) => r.detail,
      );
      assert.ok(
        countPlan.every((d) => !/SCAN transactions(?! USING)/.test(d)),
        `count: ${JSON.stringify(countPlan)}`,
      );
    });
  }

  // The search box (an id, an order id or a last four) and several payment types: one ordered read
  // per value from its own index, at most a page each, merged; never a walk through the history.
  const branchCases: Array<{ name: string; filter: Partial<TransactionFilter>; indexes: RegExp[] }> = [
    {
      name: 'search by four digits',
      filter: { search: { orderId: '1111', cardLastFour: '1111' } },
      indexes: [
        /INDEX transactions_merchant_order \(merchant_id=\? AND order_id=\?\)/,
        /INDEX transactions_merchant_last_four \(merchant_id=\? AND card_last_four=\?\)/,
      ],
    },
    {
      name: 'search by an invoice number',
      filter: { search: { orderId: 'INV-0001', invoiceNumber: 'INV-0001' }, after },
      indexes: [
        /INDEX transactions_merchant_order \(merchant_id=\? AND order_id=\? AND/,
        /INDEX transactions_merchant_invoice \(merchant_id=\? AND invoice_number=\? AND \(created_at,id\)<\(\?,\?\)\)/,
      ],
    },
    {
      name: 'search by a transaction id',
      filter: { search: { orderId: after.id, id: after.id } },
      indexes: [/INDEX sqlite_autoindex_transactions_1 \(id=\?\)/, /INDEX transactions_merchant_order/],
    },
    {
      name: 'search + status + keyset',
      filter: { search: { orderId: '1111', cardLastFour: '1111' }, statusCodes: [6], after },
      indexes: [/order_id=\? AND \(created_at,id\)<\(\?,\?\)/, /card_last_four=\? AND \(created_at,id\)<\(\?,\?\)/],
    },
    {
      name: 'two payment types',
      filter: { paymentTypes: ['dd', 'a2a'], after },
      indexes: [
        /INDEX transactions_merchant_type \(merchant_id=\? AND payment_type=\? AND \(created_at,id\)<\(\?,\?\)\)/,
        /INDEX transactions_merchant_type/,
      ],
    },
  ];
  for (const { name, filter, indexes } of branchCases) {
    test(`${name}: one index read per value, merged`, () => {
      const { sql, params } = transactionListSql('merchant-1', { limit: 50, offset: 0, ...filter });
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
      const reads = plan.filter((d) => /\btransactions\b/.test(d));
      assert.equal(reads.length, indexes.length, JSON.stringify(plan));
      indexes.forEach((index, i) => assert.match(reads[i] ?? '', index, JSON.stringify(plan)));
      for (const read of reads) assert.match(read, /^SEARCH transactions USING (COVERING )?INDEX /, JSON.stringify(plan));
      assert.ok(
        plan.some((d) => /UNION/.test(d)),
        JSON.stringify(plan),
      );
    });
  }

  test('the range filter constrains created_at in the index', () => {
    const { sql, params } = transactionListSql('merchant-1', {
      limit: 50,
      offset: 0,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-02-01T00:00:00.000Z',
    });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
    assert.match(plan, /created_at>\? AND created_at<\?/);
  });
});
