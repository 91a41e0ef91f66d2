// Statements built with Kysely (db/typed-sql.ts, docs/decisions.md "Typed SQL with Kysely (issue 37)"):
// the table types of db/schema.ts match the migrated SQLite schema; a statement's per-call values
// fill its placeholders in compiled order; on PostgreSQL a compiled statement is used as it is
// (db/postgres/pg-sql.ts), and one compiled for the other engine is refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { migrate } from '../../db/migrate.js';
import { openDatabase } from '../../db/open.js';
import type { Insertable } from 'kysely';
import { tables, type Database } from '../../db/schema.js';
import { sqliteSql } from '../../db/sql.js';
import { rowPlaces, typed } from '../../db/typed-sql.js';
import { PgSession } from '../../db/postgres/pg-sql.js';
import { createPool } from '../../db/postgres/pg-store.js';
import { migratePostgres } from '../../db/postgres/migrate.js';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.js';

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

function migrated() {
  const db = openDatabase(':memory:');
  migrate(db);
  return db;
}

async function withSqlite(run: (db: ReturnType<typeof sqliteSql>) => Promise<void>): Promise<void> {
  const raw = migrated();
  try {
    await run(sqliteSql(raw));
  } finally {
    raw.close();
  }
}

describe('typed SQL (Kysely)', () => {
  test("db/schema.ts's tables are the migrated SQLite tables: every column, its type, its nullability", () => {
    const db = migrated();
    try {
      for (const [table, columns] of Object.entries(tables)) {
        const info = db.prepare(`SELECT name, type, "notnull", pk FROM pragma_table_xinfo(?)`).all(table) as ColumnInfo[];
        assert.ok(info.length > 0, `${table} is a table of the migrated schema`);
        const described = Object.entries(columns).map(([name, column]) => ({
          name,
          type: column.type,
          nullable: column.nullable,
          generated: column.generated,
        }));
        const actual = info.map((c) => ({
          name: c.name,
          type: c.type,
          // An INTEGER PRIMARY KEY is the rowid: never NULL, given by SQLite when an INSERT leaves it out.
          nullable: c.notnull === 0 && c.pk === 0,
          generated: c.pk === 1 && c.type === 'INTEGER',
        }));
        assert.deepEqual(
          [...described].sort((a, b) => a.name.localeCompare(b.name)),
          [...actual].sort((a, b) => a.name.localeCompare(b.name)),
          table,
        );
      }
    } finally {
      db.close();
    }
  });

  test('per-call values fill the placeholders in compiled order; a constant is compiled in; a missing value is refused', async () => {
    await withSqlite(async (db) => {
      const select = typed<{ b: string; a: number }>()(db, (k, p) =>
        k
          .selectFrom('network_token_events')
          .select((eb) => [
            eb.val(p('a')).as('first'),
            eb.val('constant').as('second'),
            eb.val(p('b')).as('third'),
            eb.val(p('a')).as('fourth'),
          ])
          .limit(1),
      );
      assert.equal(select.sql, 'select ? as "first", ? as "second", ? as "third", ? as "fourth" from "network_token_events" limit ?');
      assert.deepEqual(await select.all({ a: 1, b: 'x' }), []);
      const values = typed<{ b: string; a: number }>()(db, (k, p) =>
        k.selectNoFrom((eb) => [
          eb.val(p('a')).as('first'),
          eb.val('constant').as('second'),
          eb.val(p('b')).as('third'),
          eb.val(p('a')).as('fourth'),
        ]),
      );
      assert.deepEqual(await values.get({ a: 7, b: 'x' }), { first: 7, second: 'constant', third: 'x', fourth: 7 });
      assert.deepEqual(await values.get({ b: 'y', a: 8 }), { first: 8, second: 'constant', third: 'y', fourth: 8 });
      await assert.rejects(async () => values.get({ a: 1 } as { a: number; b: string }), /missing parameter b/);
    });
  });

  test("rowPlaces inserts every column db/schema.ts describes, each from the call's value of its name; the database gives a generated one", async () => {
    await withSqlite(async (db) => {
      const insert = typed<Insertable<Database['network_token_events']>>()(db, (k, p) =>
        k.insertInto('network_token_events').values(rowPlaces('network_token_events', p)),
      );
      assert.equal(insert.sql, 'insert into "network_token_events" ("token_id", "event", "status", "created_at") values (?, ?, ?, ?)');
      const read = typed<{ tokenId: string }>()(db, (k, p) =>
        k.selectFrom('network_token_events').selectAll().where('token_id', '=', p('tokenId')),
      );
      await db.prepare({ compiled: 'sqlite', sql: 'PRAGMA foreign_keys = OFF' }).run();
      await insert.run({ token_id: 'tok-1', event: 'created', status: 'active', created_at: '2026-01-01T00:00:00.000Z' });
      const [row] = await read.all({ tokenId: 'tok-1' });
      assert.deepEqual(
        { ...row, id: typeof row?.id },
        {
          id: 'number',
          token_id: 'tok-1',
          event: 'created',
          status: 'active',
          created_at: '2026-01-01T00:00:00.000Z',
        },
      );
      await assert.rejects(
        async () => insert.run({ token_id: 'tok-2', event: 'created', status: 'active' } as never),
        /missing parameter created_at/,
      );
    });
  });
});

const skip = postgresAvailable() ? false : 'PostgreSQL 15 binaries are not installed (apt-get install postgresql)';

describe('typed SQL on PostgreSQL', { skip }, () => {
  test('a statement compiled for PostgreSQL is used as it is; a typed one runs with $n parameters', async () => {
    const pool = createPool(await createTestDatabase('typed'));
    try {
      await migratePostgres(pool);
      const session = new PgSession(pool);
      // jsonb's ? operator stays an operator: nothing in the text is rewritten.
      const asIs = session.prepare({ compiled: 'postgres', sql: `SELECT '{"k": 1}'::jsonb ? $1 AS has` });
      assert.deepEqual(await asIs.get('k'), { has: true });
      assert.deepEqual(await asIs.get('other'), { has: false });
      assert.throws(() => session.prepare({ compiled: 'sqlite', sql: 'SELECT 1' }), /compiled for sqlite prepared on postgres/);
      const values = typed<{ b: string; a: number }>()(session, (k, p) =>
        k.selectNoFrom((eb) => [eb.val(p('a')).as('first'), eb.val('constant').as('second'), eb.val(p('b')).as('third')]),
      );
      assert.equal(values.sql, 'select $1 as "first", $2 as "second", $3 as "third"');
      assert.deepEqual(await values.get({ a: 7, b: 'x' }), { first: '7', second: 'constant', third: 'x' });
    } finally {
      await pool.end();
    }
  });
});
