/**
 * Raw SQL for tests that read or arrange stored state directly, on whichever engine the gateway
 * runs (TEST_ENGINE=postgres or SQLite): `sqlOf(gateway).get/all/run`, with better-sqlite3's
 * parameters (`?` or one object of `@name`s). On PostgreSQL each statement is its own transaction
 * on the gateway's pool, its parameters numbered for PostgreSQL by `numbered()` below (tests only:
 * the repositories write each engine's text, db/sql.ts), and BIGINT columns and COUNT(*) come back
 * as numbers, as on SQLite. Where the SQL itself differs (JSON functions), pass both texts:
 * `dialects({ sqlite, postgres })`.
 *
 * What is about SQLite itself (its files, WAL, pragmas) uses `sqliteDb()`, in a test marked
 * `sqliteOnly(...)`, which says why it does not run on PostgreSQL.
 */
import type Database from 'better-sqlite3';
import type { Composition, GatewayStore } from '../../main/compose.js';
import { PgStore } from '../../db/postgres/pg-store.js';
import { SqliteStore } from '../../db/sqlite-store.js';
import type { DialectSql, Dialect, SqlDatabase } from '../../db/sql.js';

export type Row = Record<string, unknown>;

export interface TestSql {
  readonly dialect: Dialect;
  get<T = Row>(sql: string | DialectSql, ...params: unknown[]): Promise<T | undefined>;
  all<T = Row>(sql: string | DialectSql, ...params: unknown[]): Promise<T[]>;
  run(sql: string | DialectSql, ...params: unknown[]): Promise<{ changes: number }>;
}

interface HasComposition {
  composition: Composition<GatewayStore>;
}

/**
 * A test's statement for PostgreSQL: `?` and `@name` outside quotes become `$n`, and the names in
 * `$n` order (undefined for positional parameters).
 */
export function numbered(sql: string): { text: string; names: string[] | undefined } {
  const names: string[] = [];
  let positional = 0;
  let text = '';
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i] as string;
    const name = ch === '@' ? /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))?.[0] : undefined;
    if (ch === "'" || ch === '"') {
      const end = sql.indexOf(ch, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      text += sql.slice(i, stop);
      i = stop - 1;
    } else if (ch === '?') {
      text += `$${++positional}`;
    } else if (name) {
      if (!names.includes(name)) names.push(name);
      text += `$${names.indexOf(name) + 1}`;
      i += name.length;
    } else {
      text += ch;
    }
  }
  return { text, names: names.length > 0 ? names : undefined };
}

type TestStatement = ReturnType<SqlDatabase['prepare']>;

/** A test's statements: SQL text, or both engines' texts. */
interface TestDatabase {
  readonly dialect: Dialect;
  prepare(sql: string | DialectSql): TestStatement;
}

/** Each statement on its own on the pool (autocommit), with better-sqlite3's kinds of parameters. */
function postgresSql(store: PgStore): TestDatabase {
  return {
    dialect: 'postgres',
    prepare: (sql) => {
      const { text, names } = numbered(typeof sql === 'string' ? sql : sql.postgres);
      const query = async (params: unknown[]) => {
        const named = (params[0] ?? {}) as Record<string, unknown>;
        return store.pool.query(text, names ? names.map((name) => named[name]) : params);
      };
      return {
        get: async (...params) => (await query(params)).rows[0] as unknown,
        all: async (...params) => (await query(params)).rows as unknown[],
        run: async (...params) => ({ changes: (await query(params)).rowCount ?? 0 }),
      };
    },
  };
}

function sqlDatabase(store: GatewayStore): TestDatabase {
  if (store instanceof PgStore) return postgresSql(store);
  if (store instanceof SqliteStore) {
    const db = store.db;
    return { dialect: 'sqlite', prepare: (sql) => db.prepare(typeof sql === 'string' ? sql : sql.sqlite) as unknown as TestStatement };
  }
  throw new Error('sqlOf: an unknown store');
}

/** Raw SQL on the database of a test gateway (a TestGateway, a Harness, or anything with a composition). */
export function sqlOf(gateway: HasComposition): TestSql {
  const db = sqlDatabase(gateway.composition.store);
  return {
    dialect: db.dialect,
    get: async <T>(sql: string | DialectSql, ...params: unknown[]) => (await db.prepare(sql).get(...params)) as T | undefined,
    all: async <T>(sql: string | DialectSql, ...params: unknown[]) => (await db.prepare(sql).all(...params)) as T[],
    run: async (sql, ...params) => ({ changes: (await db.prepare(sql).run(...params)).changes }),
  };
}

/** The `n` of `SELECT COUNT(*) AS n ...`, on either engine. */
export async function countOf(gateway: HasComposition, sql: string, ...params: unknown[]): Promise<number> {
  const row = await sqlOf(gateway).get<{ n: number }>(sql, ...params);
  if (typeof row?.n !== 'number') throw new Error(`countOf: no number n from ${sql}`);
  return row.n;
}

export const onPostgres = (): boolean => process.env.TEST_ENGINE === 'postgres';

/** Test options for a test about SQLite itself: skipped, with the reason, on a PostgreSQL run. */
export function sqliteOnly(reason: string): { skip: string | false } {
  return { skip: onPostgres() ? `SQLite only: ${reason}` : false };
}

/**
 * Test options for tests of `gateway` processes on a data directory (its SQLite database): run in
 * the SQLite pass, skipped with the reason in the PostgreSQL pass.
 */
export function dataDirectoryOnly(what: string): { skip: string | false } {
  return {
    skip: onPostgres() ? `SQLite only: ${what} on a data directory, where the gateway processes keep their SQLite database` : false,
  };
}

/** Test options for tests the database engine plays no part in: run once, in the SQLite pass. */
export function engineIndependent(what: string): { skip: string | false } {
  return { skip: onPostgres() ? `${what} does not depend on the database engine: tested in the SQLite pass` : false };
}

/** The better-sqlite3 handle of a gateway on SQLite (tests marked sqliteOnly). */
export function sqliteDb(gateway: HasComposition): Database.Database {
  const store = gateway.composition.store;
  if (!(store instanceof SqliteStore)) throw new Error('sqliteDb: this gateway runs on PostgreSQL; mark the test sqliteOnly(...)');
  return store.db;
}
