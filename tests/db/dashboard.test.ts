// Migration 0015 and db/dashboard-repositories.ts on a :memory: database: the hourly rollup always
// equals the same sums taken from the transactions and refunds themselves (after inserts, every
// kind of status and money change, deletes, and for rows that existed before the migration); a
// range that does not start or end on a whole UTC hour is read exactly; and every dashboard query
// searches an index (no full scan of a table).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { prng } from '../../bench/seed.js';
import { DASHBOARD_SQL, createDashboardRepository, splitRanges } from '../../db/dashboard/repositories.js';
import { sqliteSql } from '../../db/sql.js';
import { migrate } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { openDatabase } from '../../db/open.js';
import { createPaymentRepositories, createTransactionMovements } from '../../db/payments/repositories.js';
import type { DashboardFigureRow } from '../../main/core/dashboard/ports.js';

const MERCHANTS = ['m1', 'm2'];
const CURRENCIES = ['EUR', 'USD', 'JPY'];
const TYPES = ['cardpos', 'cardecom', 'dd'];
const OPERATIONS = ['payment', 'payment', 'payment', 'authorize', 'authorize', 'register', 'payout'];
const STATUSES = [1, 2, 3, 3, 3, 4, 4, 5, 6, 6, 7, 8, 9, 10, 11, 12];
const START = Date.parse('2026-03-01T00:00:00.000Z');

function database(upTo = migrations.length): Database.Database {
  const db = openDatabase(':memory:');
  migrate(db, migrations.slice(0, upTo));
  for (const id of MERCHANTS) {
    db.prepare(
      "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES (?, 'Shop', 'EUR', 'x', '2026-01-01T00:00:00.000Z')",
    ).run(id);
  }
  return db;
}

interface Seeded {
  ids: string[];
}

/** Transactions of every kind over 3 days, some with refunds. */
function seedRows(db: Database.Database, random: () => number, count: number, prefix: string): Seeded {
  const insert = db.prepare(
    `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, currency, amount_minor, authorized_minor, captured_minor, refunded_minor,
       reason_code, created_at, updated_at, expires_at)
     VALUES (@id, @merchant, @type, @operation, @status, @currency, @amount, @authorized, @captured, @refunded, @reason, @created, @created, @expires)`,
  );
  const refund = db.prepare(
    'INSERT INTO refunds (id, transaction_id, merchant_id, amount_minor, status_code, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const ids: string[] = [];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  for (let i = 0; i < count; i += 1) {
    const id = `${prefix}${String(i).padStart(5, '0')}`;
    const status = pick(STATUSES);
    const operation = pick(OPERATIONS);
    const amount = random() < 0.08 ? 0 : 100 + Math.floor(random() * 10_000);
    const approved = [3, 4, 5, 7, 8, 12].includes(status) || (status === 10 && random() < 0.5);
    const captured = [3, 7, 8, 12].includes(status) ? amount : 0;
    const refunded = status === 7 ? captured : status === 8 ? Math.floor(captured / 2) : 0;
    const created = new Date(START + Math.floor(random() * 3 * 24 * 60) * 60_000 + Math.floor(random() * 60_000)).toISOString();
    const merchant = pick(MERCHANTS);
    insert.run({
      id,
      merchant,
      type: pick(TYPES),
      operation,
      status,
      currency: pick(CURRENCIES),
      amount,
      authorized: approved ? amount : 0,
      captured,
      refunded,
      reason: status === 6 ? (random() < 0.4 ? '1A' : '51') : null,
      created,
      expires: status === 4 ? new Date(Date.parse(created) + 7 * 86_400_000).toISOString() : null,
    });
    if (refunded > 0) {
      const at = new Date(Date.parse(created) + Math.floor(random() * 30) * 3_600_000).toISOString();
      refund.run(`r${id}`, id, merchant, refunded, 1, at);
      if (random() < 0.3) refund.run(`x${id}`, id, merchant, 5, 2, at); // a refund the processor refused
    }
    ids.push(id);
  }
  return { ids };
}

const FIGURE_KEYS = ['payments', 'approved', 'declined', 'captured', 'capturedMinor', 'refunds', 'refundedMinor'] as const;

/** The rollup's rows per merchant, hour, currency and type, without all-zero rows. */
function rollup(db: Database.Database): string[] {
  return (
    db
      .prepare(
        `SELECT merchant_id, hour, currency, payment_type, payments, approved, declined, captured, captured_minor, refunds, refunded_minor FROM dashboard_hours
         WHERE payments <> 0 OR refunds <> 0 OR captured_minor <> 0 OR refunded_minor <> 0 ORDER BY 1, 2, 3, 4`,
      )
      .all() as Array<Record<string, unknown>>
  ).map((r) => Object.values(r).join(' '));
}

/** The same rows recomputed from the tables, one range per UTC hour of the seeded days. */
function recomputed(db: Database.Database): string[] {
  const hours = Array.from({ length: 6 * 24 }, (_unused, h) => [
    h,
    new Date(START + h * 3_600_000).toISOString(),
    new Date(START + (h + 1) * 3_600_000).toISOString(),
  ]);
  const lines: string[] = [];
  for (const merchant of MERCHANTS) {
    const rows = [
      ...(db.prepare(DASHBOARD_SQL.transactionPieces).all(JSON.stringify(hours), merchant) as Array<Record<string, unknown>>),
      ...(db.prepare(DASHBOARD_SQL.refundPieces).all(JSON.stringify(hours), merchant) as Array<Record<string, unknown>>),
    ];
    const merged = new Map<string, number[]>();
    for (const r of rows) {
      const key = `${merchant} ${new Date(START + Number(r.range) * 3_600_000).toISOString().slice(0, 13)} ${String(r.currency)} ${String(r.payment_type)}`;
      const values = ['payments', 'approved', 'declined', 'captured', 'captured_minor', 'refunds', 'refunded_minor'].map((c) =>
        Number(r[c]),
      );
      const seen = merged.get(key);
      merged.set(key, seen ? seen.map((v, i) => v + (values[i] ?? 0)) : values);
    }
    for (const [key, values] of merged) if (values.some((v) => v !== 0)) lines.push(`${key} ${values.join(' ')}`);
  }
  return lines.sort();
}

function assertRollupExact(db: Database.Database, when: string): void {
  const expected = recomputed(db);
  assert.ok(expected.length > 20, 'the data covers many hours');
  assert.deepEqual(rollup(db), expected, `rollup after ${when}`);
}

describe('migration 0015: the dashboard rollup', () => {
  test('equals the sums from the tables after inserts, every kind of change and deletes', async () => {
    const db = database();
    try {
      const random = prng(15);
      const { ids } = seedRows(db, random, 1500, 't');
      assertRollupExact(db, 'inserts');

      const moves = createTransactionMovements(sqliteSql(db));
      const { refunds } = createPaymentRepositories(sqliteSql(db));
      const now = '2026-03-05T00:00:00.000Z';
      for (const id of ids) {
        const row = db.prepare('SELECT * FROM transactions WHERE id = ?').get(id) as Record<string, number | string>;
        const amount = Number(row.amount_minor);
        const r = random();
        if (row.status_code === 4 && r < 0.3) await moves.addCapture(id, Math.max(1, Math.floor(amount / 3)), 3, now);
        else if (row.status_code === 4 && r < 0.5) await moves.addReversal(id, amount, now);
        else if (row.status_code === 4 && r < 0.7)
          await moves.transition(id, [4], { statusCode: 10, message: 'expired', expiresAt: null }, now);
        else if ((row.status_code === 3 || row.status_code === 8) && Number(row.captured_minor) > Number(row.refunded_minor) && r < 0.4) {
          const part = Math.max(1, Math.floor((Number(row.captured_minor) - Number(row.refunded_minor)) / 2));
          if (await moves.addRefund(id, part, now)) {
            await refunds.insert({
              id: `n${id}`,
              transactionId: id,
              merchantId: String(row.merchant_id),
              amountMinor: part,
              statusCode: 1,
              merchantRefundId: null,
              merchantReference: null,
              executionDate: null,
              processorReference: null,
              createdAt: now,
            });
          }
        } else if (row.status_code === 1 && r < 0.5) {
          await moves.transition(
            id,
            [1],
            {
              statusCode: r < 0.25 ? 6 : 3,
              reasonCode: r < 0.1 ? '1A' : null,
              capturedMinor: r < 0.25 ? 0 : amount,
              authorizedMinor: r < 0.25 ? 0 : amount,
            },
            now,
          );
        } else if (row.status_code === 2 && r < 0.5) {
          await moves.transition(id, [2], { statusCode: r < 0.25 ? 12 : 3, capturedMinor: amount }, now);
        }
      }
      assertRollupExact(db, 'captures, reversals, expiries, refunds and outcomes');
      // A refund counts under its transaction's currency and type, in the hour of its own: a
      // transaction keeps its merchant, time, currency and payment type.
      const first = db.prepare('SELECT merchant_id FROM transactions WHERE id = ?').get(ids[0]) as { merchant_id: string };
      const otherMerchant = MERCHANTS.find((m) => m !== first.merchant_id) as string;
      for (const [column, value] of [
        ['currency', 'CHF'],
        ['payment_type', 'wallet'],
        ['created_at', '2026-03-04T00:00:00.000Z'],
        ['merchant_id', otherMerchant],
      ]) {
        assert.throws(
          () => db.prepare(`UPDATE transactions SET ${column} = ? WHERE id = ?`).run(value, ids[0]),
          /keeps its merchant, creation time, currency and payment type/,
        );
      }
      db.prepare("UPDATE transactions SET currency = currency, message = 'same' WHERE id = ?").run(ids[0]);

      db.prepare(
        'UPDATE refunds SET status_code = 2 WHERE id IN (SELECT id FROM refunds WHERE status_code = 1 ORDER BY id LIMIT 40)',
      ).run();
      db.prepare(
        "UPDATE refunds SET created_at = '2026-03-02T10:30:00.000Z' WHERE id IN (SELECT id FROM refunds WHERE status_code = 1 ORDER BY id DESC LIMIT 40)",
      ).run();
      assertRollupExact(db, 'refund changes');

      db.prepare('DELETE FROM refunds WHERE id IN (SELECT id FROM refunds ORDER BY id LIMIT 60)').run();
      db.prepare(
        'DELETE FROM transactions WHERE id IN (SELECT id FROM transactions WHERE id NOT IN (SELECT transaction_id FROM refunds) ORDER BY id DESC LIMIT 80)',
      ).run();
      assertRollupExact(db, 'deletes');
    } finally {
      db.close();
    }
  });

  test('rolls up the transactions and refunds that existed before it', () => {
    // The schema just before the dashboard's migration, whichever number later migrations reach.
    const db = database(migrations.findIndex((m) => m.name === 'dashboard'));
    try {
      seedRows(db, prng(99), 800, 'old');
      migrate(db);
      assertRollupExact(db, 'the migration');
      seedRows(db, prng(100), 200, 'new');
      assertRollupExact(db, 'the migration and new rows');
    } finally {
      db.close();
    }
  });
});

describe('dashboard figures', () => {
  test('a range that does not start or end on a whole UTC hour reads the part hours from the tables, exactly', async () => {
    const db = database();
    try {
      seedRows(db, prng(7), 2000, 't');
      const repository = createDashboardRepository(sqliteSql(db));
      // Local days of Asia/Kolkata (UTC+05:30) and a few odd ranges.
      const ranges = [
        { from: '2026-02-28T18:30:00.000Z', to: '2026-03-01T18:30:00.000Z' },
        { from: '2026-03-01T18:30:00.000Z', to: '2026-03-02T18:30:00.000Z' },
        { from: '2026-03-02T10:15:00.000Z', to: '2026-03-02T10:45:00.000Z' },
        { from: '2026-03-02T10:45:00.000Z', to: '2026-03-02T12:05:00.000Z' },
        { from: '2026-03-03T00:00:00.000Z', to: '2026-03-04T00:00:00.000Z' },
      ];
      const split = splitRanges(ranges);
      assert.deepEqual(split.hours[0], [0, '2026-02-28T19', '2026-03-01T18']);
      assert.deepEqual(
        split.pieces.filter((p) => p[0] === 0),
        [
          [0, '2026-02-28T18:30:00.000Z', '2026-02-28T19:00:00.000Z'],
          [0, '2026-03-01T18:00:00.000Z', '2026-03-01T18:30:00.000Z'],
        ],
      );
      assert.deepEqual(
        split.pieces.filter((p) => p[0] === 2),
        [[2, '2026-03-02T10:15:00.000Z', '2026-03-02T10:45:00.000Z']],
      );
      assert.equal(split.pieces.filter((p) => p[0] === 4).length, 0, 'a whole-hour range is read from the rollup alone');

      const figures = await repository.figures('m1', ranges);
      const exact = [
        ...(db.prepare(DASHBOARD_SQL.transactionPieces).all(JSON.stringify(ranges.map((r, i) => [i, r.from, r.to])), 'm1') as Array<
          Record<string, number>
        >),
        ...(db.prepare(DASHBOARD_SQL.refundPieces).all(JSON.stringify(ranges.map((r, i) => [i, r.from, r.to])), 'm1') as Array<
          Record<string, number>
        >),
      ];
      const total = (rows: Array<Record<string, number>> | DashboardFigureRow[], range: number, key: (typeof FIGURE_KEYS)[number]) => {
        const column = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        return (rows as Array<Record<string, number>>)
          .filter((r) => Number(r.range) === range)
          .reduce((sum, r) => sum + Number(r[key] ?? r[column] ?? 0), 0);
      };
      for (let range = 0; range < ranges.length; range += 1) {
        for (const key of FIGURE_KEYS) assert.equal(total(figures, range, key), total(exact, range, key), `range ${range} ${key}`);
      }
      assert.ok(total(figures, 0, 'payments') > 100 && total(figures, 0, 'refunds') >= 3, 'the first day has payments and refunds');
      assert.ok(total(figures, 2, 'payments') > 0 && total(figures, 3, 'payments') > 0, 'the odd ranges have payments');
      assert.ok(
        figures.every((r) => r.payments + r.refunds > 0 || r.capturedMinor + r.refundedMinor !== 0),
        'no empty rows',
      );
    } finally {
      db.close();
    }
  });
});

describe('query plans of the dashboard', () => {
  const db = database();
  const ranges = JSON.stringify([[0, '2026-03-01T00', '2026-03-02T00']]);
  const pieces = JSON.stringify([[0, '2026-03-01T00:30:00.000Z', '2026-03-01T01:00:00.000Z']]);
  const now = '2026-03-01T00:00:00.000Z';
  const cases: Array<{ name: keyof typeof DASHBOARD_SQL; params: unknown[]; uses: Record<string, RegExp> }> = [
    {
      name: 'hours',
      params: [ranges, 'm1'],
      uses: { dashboard_hours: /SEARCH h USING PRIMARY KEY \(merchant_id=\? AND hour>\? AND hour<\?\)/ },
    },
    {
      name: 'transactionPieces',
      params: [pieces, 'm1'],
      uses: {
        transactions: /SEARCH t USING INDEX transactions_merchant_created_filters \(merchant_id=\? AND created_at>\? AND created_at<\?\)/,
      },
    },
    {
      name: 'refundPieces',
      params: [pieces, 'm1'],
      uses: {
        refunds: /SEARCH f USING INDEX refunds_merchant_created \(merchant_id=\? AND created_at>\? AND created_at<\?\)/,
        transactions: /SEARCH t USING INDEX sqlite_autoindex_transactions_1 \(id=\?\)/,
      },
    },
    {
      name: 'postbacksRetrying',
      params: ['m1'],
      uses: {
        postback_outbox:
          /SEARCH postback_outbox USING COVERING INDEX postback_outbox_retrying \(merchant_id=\? AND state=\? AND attempts>\?\)/,
      },
    },
    {
      name: 'postbacksFailed',
      params: ['m1'],
      uses: { postback_outbox: /SEARCH postback_outbox USING COVERING INDEX postback_outbox_merchant \(merchant_id=\? AND state=\?\)/ },
    },
    {
      name: 'invoicesExpiringCount',
      params: ['m1', now, now],
      uses: {
        invoices: /SEARCH invoices USING COVERING INDEX invoices_merchant_expiry \(merchant_id=\? AND expires_at>\? AND expires_at<\?\)/,
      },
    },
    {
      name: 'invoicesExpiring',
      params: ['m1', now, now, 5],
      uses: { invoices: /SEARCH invoices USING INDEX invoices_merchant_expiry \(merchant_id=\? AND expires_at>\? AND expires_at<\?\)/ },
    },
    {
      name: 'emailsFailedCount',
      params: ['m1'],
      uses: {
        e: /SEARCH e USING INDEX emails_merchant_(status|sent) \(merchant_id=\? AND status=\?\)/,
        later: /SEARCH later USING COVERING INDEX emails_invoice_created \(invoice_id=\?/,
      },
    },
    {
      name: 'emailsFailed',
      params: ['m1', 5],
      uses: {
        e: /SEARCH e USING INDEX emails_merchant_(status|sent) \(merchant_id=\? AND status=\?\)/,
        i: /SEARCH i USING INTEGER PRIMARY KEY/,
      },
    },
    {
      name: 'tokensSuspended',
      params: ['m1'],
      uses: {
        network_tokens: /SEARCH network_tokens USING COVERING INDEX network_tokens_merchant_status \(merchant_id=\? AND status=\?\)/,
      },
    },
    {
      name: 'authorizationsExpiringCount',
      params: ['m1', now, now],
      uses: {
        transactions:
          /SEARCH transactions USING COVERING INDEX transactions_authorized_expiry \(merchant_id=\? AND expires_at>\? AND expires_at<\?\)/,
      },
    },
    {
      name: 'authorizationsExpiring',
      params: ['m1', now, now, 5],
      uses: {
        transactions:
          /SEARCH transactions USING INDEX transactions_authorized_expiry \(merchant_id=\? AND expires_at>\? AND expires_at<\?\)/,
      },
    },
  ];
  for (const { name, params, uses } of cases) {
    test(`${name}: searches its index, scans no table`, () => {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${DASHBOARD_SQL[name]}`).all(...params) as Array<{ detail: string }>).map(
        (r) => r.detail,
      );
      for (const [table, pattern] of Object.entries(uses)) {
        assert.ok(
          plan.some((detail) => pattern.test(detail)),
          `${table}: expected ${String(pattern)}, plan: ${JSON.stringify(plan)}`,
        );
      }
      // Only the list of ranges (json_each, a few dozen entries) is scanned.
      for (const detail of plan.filter((d) => /^SCAN /.test(d)))
        assert.match(detail, /^SCAN json_each VIRTUAL TABLE/, `full scan in plan: ${JSON.stringify(plan)}`);
      assert.ok(!plan.some((d) => /TEMP B-TREE FOR ORDER BY/.test(d)), `sort in plan: ${JSON.stringify(plan)}`);
    });
  }
});
