/**
 * Statements built with Kysely, typed by the schema (db/schema.ts), run through the SqlDatabase
 * (db/sql.ts) as the hand-written ones are: Kysely only builds and compiles SQL here ("splitting
 * query building and execution" in its docs: a DummyDriver, which never connects), so units of
 * work, group commit, pipelining and PgSession's prepared statements stay as they are.
 *
 * A statement is compiled once, when the repository is created (as db.prepare is called then),
 * for the database's engine: SQLite's text with `?`, PostgreSQL's with `$n`, used as is
 * (db/sql.ts `CompiledSql`, never translated by db/postgres/pg-sql.ts). Values that vary per call
 * are placeholders: `p('name')` stands for a value in the compiled statement, and each call's
 * parameters are put in the compiled order from one object of named values. Values written in the
 * builder itself (a constant) are compiled in as parameters of every call. Where the engines need
 * different SQL (a date function, jsonb), the builder is given the engine (`dialect`) and writes
 * that piece with Kysely's `sql` tag for each.
 *
 * docs/decisions.md "Typed SQL with Kysely (issue 37)".
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
  type Insertable,
} from 'kysely';
import { tables, type Database } from './schema.js';
import type { Dialect, RunResult, SqlDatabase } from './sql.js';

export type QueryBuilder = Kysely<Database>;

const builders: Record<Dialect, QueryBuilder> = {
  sqlite: new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  postgres: new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
};

/** A value of the compiled statement given per call, by name (`p('name')`). */
class Placeholder {
  constructor(readonly name: string) {}
}

/** Stands for the per-call value `name` of P where the builder takes a value. */
export type Placeholders<P> = <K extends keyof P & string>(name: K) => P[K];

/** A compiled statement: its values per call by name, its rows typed by the builder. */
export interface TypedStatement<P, R> {
  get(params: P): Promise<R | undefined>;
  all(params: P): Promise<R[]>;
  run(params: P): Promise<RunResult>;
  /** The compiled text (for tests and for reading). */
  readonly sql: string;
}

const p = <K extends string>(name: K): never => new Placeholder(name) as never;

/** Compiles `build`'s statement for `dialect`: its text, and per parameter a placeholder or a constant. */
export function compileFor<O>(
  dialect: Dialect,
  build: (k: QueryBuilder, p: Placeholders<Record<string, unknown>>, dialect: Dialect) => Compilable<O>,
): { sql: string; parameters: readonly unknown[] } {
  const { sql, parameters } = build(builders[dialect], p, dialect).compile();
  return { sql, parameters };
}

/**
 * Compiles a statement once for `db`'s engine and prepares it. P names the values each call gives;
 * the rows are the builder's (`selectAll()` of a table is its row type in db/schema.ts).
 *
 *   const byRef = typed<{ merchantId: string; reference: string }>()(db, (k, p) =>
 *     k.selectFrom('mandates').selectAll().where('merchant_id', '=', p('merchantId')).where('reference', '=', p('reference')));
 *   const row = await byRef.get({ merchantId, reference });
 */
export function typed<P extends object = Record<never, never>>() {
  return <O>(db: SqlDatabase, build: (k: QueryBuilder, p: Placeholders<P>, dialect: Dialect) => Compilable<O>): TypedStatement<P, O> => {
    const { sql, parameters } = compileFor(
      db.dialect,
      build as (k: QueryBuilder, p: Placeholders<Record<string, unknown>>, dialect: Dialect) => Compilable<O>,
    );
    const statement = db.prepare({ compiled: db.dialect, sql });
    const args = (params: P): unknown[] =>
      parameters.map((value) => {
        if (!(value instanceof Placeholder)) return value;
        if (!(value.name in params)) throw new Error(`missing parameter ${value.name}`);
        const given = (params as Record<string, unknown>)[value.name];
        if (given === undefined) throw new Error(`parameter ${value.name} is undefined`);
        return given;
      });
    return {
      sql,
      get: async (params) => (await statement.get(...args(params))) as O | undefined,
      all: async (params) => (await statement.all(...args(params))) as O[],
      run: async (params) => statement.run(...args(params)),
    };
  };
}

/**
 * Statements whose text depends on a call's shape (which filters are set, how many values an IN
 * list has): one compiled statement per shape, compiled on its first use and kept (as
 * db/sql.ts `preparedOnce` keeps texts built from a list's filters).
 */
export function byShape<Shape, P extends object, O>(
  db: SqlDatabase,
  build: (shape: Shape, k: QueryBuilder, p: Placeholders<P>, dialect: Dialect) => Compilable<O>,
): (shape: Shape) => TypedStatement<P, O> {
  const compiled = new Map<string, TypedStatement<P, O>>();
  return (shape) => {
    const key = JSON.stringify(shape);
    let statement = compiled.get(key);
    if (!statement) {
      statement = typed<P>()(db, (k, p, dialect) => build(shape, k, p, dialect));
      compiled.set(key, statement);
    }
    return statement;
  };
}

/** Values of an IN list, by name: `from0`, `from1`, ... */
export type Listed<Name extends string, T> = Record<`${Name}${number}`, T>;

export const listed = <Name extends string, T>(name: Name, values: readonly T[]): Listed<Name, T> =>
  Object.fromEntries(values.map((value, i) => [`${name}${i}`, value])) as Listed<Name, T>;

export const placesOf = <Name extends string, T>(name: Name, count: number, p: Placeholders<Listed<Name, T>>): T[] =>
  Array.from({ length: count }, (_, i) => p(`${name}${i}`));

/** The columns of `table` an INSERT gives (the database gives the generated ones), from db/schema.ts. */
const insertedColumns = (table: keyof Database): string[] =>
  Object.entries(tables[table])
    .filter(([, column]) => !column.generated)
    .map(([name]) => name);

/**
 * A whole row of `table` as placeholders of the same names, for an INSERT of every column:
 * `k.insertInto(table).values(rowPlaces(table, p))`, each call giving the row's values.
 */
export function rowPlaces<T extends keyof Database>(table: T, p: Placeholders<Insertable<Database[T]>>): Insertable<Database[T]> {
  const place = p as unknown as (name: string) => unknown;
  return Object.fromEntries(insertedColumns(table).map((name) => [name, place(name)])) as Insertable<Database[T]>;
}
