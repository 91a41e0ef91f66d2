/**
 * What the repositories need of a SQL engine: better-sqlite3's `prepare(sql).get/all/run`, with
 * results that may come as promises. The repositories await every call, so one text of each
 * repository serves both engines: on SQLite the values are there at once (better-sqlite3 is
 * synchronous, and a unit of work stays within one event-loop turn, see sqlite-store.ts); on
 * PostgreSQL each call is a query on the unit's connection (db/postgres/pg-sql.ts).
 *
 * A statement is given for the database's engine and used as it is (nothing is translated): built
 * with Kysely and compiled for it (db/typed-sql.ts, `CompiledSql`), written for it from terms
 * (db/list-filter.ts, also `CompiledSql`), or written by hand for both engines
 * (`prepare(dialects({ sqlite, postgres }))`: `?` places on SQLite, `$n` on PostgreSQL). Values are
 * positional.
 */
import type Database from 'better-sqlite3';
import { writesConfiguration } from './configuration-tables.js';

export type Row = Record<string, unknown>;
export type MaybePromise<T> = T | Promise<T>;

export interface RunResult {
  changes: number;
}

export interface SqlStatement {
  get(...params: unknown[]): MaybePromise<unknown>;
  all(...params: unknown[]): MaybePromise<unknown[]>;
  run(...params: unknown[]): MaybePromise<RunResult>;
}

export type Dialect = 'sqlite' | 'postgres';

/** A statement written by hand for each engine: `?` places in SQLite's text, `$1`, `$2`, ... in PostgreSQL's. */
export interface DialectSql {
  sqlite: string;
  postgres: string;
}

/**
 * A statement compiled for one engine (db/typed-sql.ts): `?` parameters on SQLite, `$n` on
 * PostgreSQL, positional. prepare() uses its text as it is (db/postgres/pg-sql.ts).
 */
export interface CompiledSql {
  compiled: Dialect;
  sql: string;
}

/** The text of a compiled statement, checked to be compiled for `dialect`. */
export function compiledText(sql: CompiledSql, dialect: Dialect): string {
  if (sql.compiled !== dialect) throw new Error(`a statement compiled for ${sql.compiled} prepared on ${dialect}`);
  return sql.sql;
}

/** The queues whose workers a commit wakes (sqlite-store.ts, pg-store.ts `onCommit`). */
export type QueueName = 'postbacks' | 'mail' | 'prints';

export interface SqlDatabase {
  readonly dialect: Dialect;
  prepare(sql: DialectSql | CompiledSql): SqlStatement;
  /**
   * Says that the unit wrote to a queue's table (a new row, one due again, one settled), so the
   * store wakes that queue's worker after the commit. Commits that touch no queue wake nobody.
   */
  touch?(queue: QueueName): void;
  /**
   * Says that the unit ran a statement that writes the configuration a sale reads before its unit
   * (db/configuration-tables.ts): the store then drops what it remembers of it (Store
   * `configurationGeneration`) when the unit ends, committed or not.
   */
  configurationWritten?(): void;
  /**
   * True on PostgreSQL while a unit of work runs its first attempt on a pipelining connection, whose
   * plain INSERTs are sent without waiting for their answers (db/postgres/pg-sql.ts): a repository
   * may then write the likely case as a plain INSERT, whose unique violation fails the unit when it
   * ends, instead of a statement whose answer the unit must wait for. The store runs a unit that
   * failed so once more with this false (db/postgres/pg-store.ts).
   */
  readonly optimistic?: boolean;
}

export const dialects = (texts: DialectSql): DialectSql => texts;

/** A statement that says it ran (`SqlDatabase.configurationWritten`) before it runs. */
export function announcing(statement: SqlStatement, written: () => void): SqlStatement {
  return {
    get: (...params) => (written(), statement.get(...params)),
    all: (...params) => (written(), statement.all(...params)),
    run: (...params) => (written(), statement.run(...params)),
  };
}

/**
 * better-sqlite3 as a SqlDatabase: its statements as they are (prepared once, synchronous); those
 * that write the configuration also call `configurationWritten`.
 */
export function sqliteSql(db: Database.Database, touch?: (queue: QueueName) => void, configurationWritten?: () => void): SqlDatabase {
  return {
    dialect: 'sqlite',
    prepare: (sql) => {
      const text = 'compiled' in sql ? compiledText(sql, 'sqlite') : sql.sqlite;
      const statement = db.prepare(text) as unknown as SqlStatement;
      return configurationWritten && writesConfiguration(text) ? announcing(statement, configurationWritten) : statement;
    },
    ...(touch ? { touch } : {}),
    ...(configurationWritten ? { configurationWritten } : {}),
  };
}

/** A statement per text, prepared on its first use: for texts written from a list's filters (db/list-filter.ts). */
export function preparedOnce(db: SqlDatabase): (sql: CompiledSql) => SqlStatement {
  const prepared = new Map<string, SqlStatement>();
  return (sql) => {
    let statement = prepared.get(sql.sql);
    if (!statement) {
      statement = db.prepare(sql);
      prepared.set(sql.sql, statement);
    }
    return statement;
  };
}
