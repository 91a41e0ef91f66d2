// Migration 0014 (with 0031's rule: the sale's till, else '*') on a :memory: database: the till
// ledger numbers exactly the counted events of card-present transactions, in insert (commit) order,
// under the sale's till or the other terminals' book, and refuses changes; a Z report
// continues its till's chain and never changes; the report queries read the ledger by its index.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { migrate } from '../../db/migrate.js';
import { openDatabase } from '../../db/open.js';

function database(): Database.Database {
  const db = openDatabase(':memory:');
  migrate(db);
  db.prepare(
    "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'x', '2026-01-01T00:00:00Z')",
  ).run();
  db.prepare(
    "INSERT INTO staff (id, merchant_id, login, display_name, role, password_hash, created_at) VALUES ('s1', 'm1', 'boss', 'Boss', 'back_office', 'x', '2026-01-01T00:00:00Z')",
  ).run();
  return db;
}

function transaction(
  db: Database.Database,
  id: string,
  paymentType: string,
  details: Record<string, unknown>,
  tillId: string | null = null,
): void {
  db.prepare(
    `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, currency, amount_minor, details, till_id, created_at, updated_at)
     VALUES (?, 'm1', ?, 'payment', 3, 'EUR', 1000, ?, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
  ).run(id, paymentType, JSON.stringify(details), tillId);
}

let eventCounter = 0;
function event(db: Database.Database, transactionId: string, type: string, status = 3): string {
  eventCounter += 1;
  const id = `e${String(eventCounter).padStart(4, '0')}`;
  db.prepare(
    "INSERT INTO transaction_events (id, transaction_id, type, status, amount_minor, created_at) VALUES (?, ?, ?, ?, 1000, '2026-01-01T00:00:00Z')",
  ).run(id, transactionId, type, status);
  return id;
}

const ledger = (db: Database.Database) =>
  db.prepare('SELECT seq, merchant_id, terminal_id, event_id FROM till_ledger ORDER BY seq').all() as Array<{
    seq: number;
    terminal_id: string;
    event_id: string;
  }>;

describe('migration 0014: the till ledger and Z reports', () => {
  test("the ledger takes the sale, decline and refund events of card-present transactions, in order, under the sale's till or '*'", () => {
    const db = database();
    try {
      transaction(db, 't1', 'cardpos', { pos: { entry_mode: 'contactless', terminal: { id: 'TILL-1' } } }, 'TILL-1');
      transaction(db, 't2', 'cardecom', {});
      transaction(db, 't3', 'cardpos', { pos: { entry_mode: 'chip', terminal: { id: null } } });
      // The terminal id the request sent does not choose the book: the sale's till does.
      transaction(db, 't4', 'cardpos', { pos: { entry_mode: 'swipe', terminal: { id: 'T-0001' } } }, 'TILL-2');
      const a = event(db, 't1', 'authorization', 4);
      const c = event(db, 't1', 'capture');
      event(db, 't1', 'postback');
      event(db, 't2', 'capture');
      const o = event(db, 't3', 'capture');
      const d = event(db, 't4', 'reauthorization', 6);
      const r = event(db, 't1', 'refund', 7);
      assert.deepEqual(
        ledger(db).map((l) => [l.seq, l.terminal_id, l.event_id]),
        [
          [1, 'TILL-1', a],
          [2, 'TILL-1', c],
          [3, '*', o],
          [4, 'TILL-2', d],
          [5, 'TILL-1', r],
        ],
      );
      assert.throws(() => db.prepare('UPDATE till_ledger SET terminal_id = ?').run('X'), /append-only/);
      assert.throws(() => db.prepare('DELETE FROM till_ledger').run(), /append-only/);
    } finally {
      db.close();
    }
  });

  test('a Z report continues its till chain and never changes', () => {
    const db = database();
    try {
      const insert = db.prepare(
        `INSERT INTO z_reports (id, merchant_id, terminal_id, sequence, from_seq, to_seq, closed_at, closed_by, figures)
         VALUES (?, 'm1', ?, ?, ?, ?, '2026-01-01T20:00:00Z', 's1', '{}')`,
      );
      assert.throws(() => insert.run('z0', 'TILL-1', 2, 0, 5), /must follow/, 'the first is No. 1');
      insert.run('z1', 'TILL-1', 1, 0, 5);
      assert.throws(() => insert.run('z2', 'TILL-1', 2, 4, 9), /must follow/, 'starts where the previous ended');
      assert.throws(() => insert.run('z2', 'TILL-1', 3, 5, 9), /must follow/, 'no gap in the numbers');
      insert.run('z2', 'TILL-1', 2, 5, 9);
      insert.run('z3', 'TILL-2', 1, 0, 2);
      assert.throws(() => insert.run('z4', 'TILL-1', 2, 9, 9), /must follow|UNIQUE/);
      assert.throws(() => db.prepare("UPDATE z_reports SET figures = '{\"x\":1}' WHERE id = 'z1'").run(), /never changes/);
      assert.throws(() => db.prepare("DELETE FROM z_reports WHERE id = 'z1'").run(), /never changes/);
    } finally {
      db.close();
    }
  });

  test("the report queries read the till's ledger range by its index", () => {
    const db = database();
    try {
      const plan = (sql: string) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('m1', 'TILL-1', 0, 10) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
      const groups = plan(`SELECT e.type, t.currency, COUNT(*), SUM(e.amount_minor) FROM till_ledger l
        JOIN transaction_events e ON e.id = l.event_id JOIN transactions t ON t.id = e.transaction_id
        WHERE l.merchant_id = ? AND l.terminal_id = ? AND l.seq > ? AND l.seq <= ? GROUP BY 1, 2`);
      assert.match(
        groups,
        /SEARCH l USING (COVERING )?INDEX till_ledger_terminal \(merchant_id=\? AND terminal_id=\? AND seq>\? AND seq<\?\)/,
      );
      assert.match(groups, /SEARCH e USING INDEX sqlite_autoindex_transaction_events_1 \(id=\?\)/);
      assert.match(groups, /SEARCH t USING INDEX sqlite_autoindex_transactions_1 \(id=\?\)/);
      assert.doesNotMatch(groups, /SCAN (l|e|t)\b/);
      const watermark = (
        db
          .prepare('EXPLAIN QUERY PLAN SELECT MAX(seq) FROM till_ledger WHERE merchant_id = ? AND terminal_id = ?')
          .all('m1', 'TILL-1') as Array<{ detail: string }>
      )
        .map((r) => r.detail)
        .join('\n');
      assert.match(watermark, /till_ledger_terminal/);
    } finally {
      db.close();
    }
  });
});
