/**
 * SQL of lists read as branches, newest first (created_at, id descending): the transactions list
 * (db/payments/transactions.ts) and the postback log (db/postbacks/repositories.ts). A branch is one
 * read of a table, from the index SQLite is to read where the planner needs telling (INDEXED BY,
 * SQLite's alone: Kysely cannot write it, so these statements are written here for each engine), with
 * its conditions. A filter may need several branches (a search box's values, each on its own index),
 * merged in the list's order.
 *
 * A condition is a term (`term\`order_id = ${value}\``): its text and its values apart, so that a
 * statement is written for one engine at a time with that engine's places (`?` on SQLite, `$1`,
 * `$2`, ... on PostgreSQL) and its values in the order of the text. The result is a statement
 * compiled for that engine (db/sql.ts `CompiledSql`).
 */
import type { CompiledSql, Dialect } from './sql.js';

/** A condition: text around values (a template literal's parts). */
export interface Term {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

/** A condition with its values as places: term`created_at >= ${from}`. */
export const term = (strings: TemplateStringsArray, ...values: unknown[]): Term => ({ strings: [...strings], values });

/** `expression IN (values...)`. */
export const inList = (expression: string, values: readonly unknown[]): Term => ({
  strings: [`${expression} IN (`, ...values.slice(1).map(() => ', '), ')'],
  values,
});

/** `expression op value`, for an expression that is not a plain column. */
export const compare = (expression: string, op: '=' | '>=' | '<=', value: unknown): Term => ({
  strings: [`${expression} ${op} `, ''],
  values: [value],
});

/** A condition written in, with no values. */
export const written = (text: string): Term => ({ strings: [text], values: [] });

/** One read of a list: a table, the index SQLite is to read (if named), and its conditions. */
export interface Branch {
  table: string;
  index?: string;
  where: readonly Term[];
}

/** A statement for one engine and its values in the order of its text. */
export interface WrittenSql {
  statement: CompiledSql;
  /** The statement's text (`statement.sql`). */
  sql: string;
  params: unknown[];
}

/** Writes SQL for one engine: each value's place in order (`?`, or `$n`), and the values. */
export function sqlWriter(dialect: Dialect) {
  const params: unknown[] = [];
  const value = (v: unknown): string => {
    params.push(v);
    return dialect === 'sqlite' ? '?' : `$${params.length}`;
  };
  const render = (t: Term): string => t.strings.map((s, i) => (i < t.values.length ? s + value(t.values[i]) : s)).join('');
  const source = (b: Branch): string => (b.index && dialect === 'sqlite' ? `${b.table} INDEXED BY ${b.index}` : b.table);
  const where = (b: Branch): string => b.where.map(render).join(' AND ');
  const done = (sql: string): WrittenSql => ({ statement: { compiled: dialect, sql }, sql, params });
  return { params, value, render, source, where, done };
}

const NEWEST_FIRST = 'ORDER BY created_at DESC, id DESC';

/**
 * A page of the rows the branches read, newest first. Several branches each read at most what the
 * page needs from their own index and are merged by `union`: UNION (a row two branches match
 * appears once), or UNION ALL where no row can match two (PostgreSQL then merges them in order).
 */
export function branchPageSql(
  dialect: Dialect,
  branches: readonly Branch[],
  limit: number,
  offset: number,
  union: ' UNION ' | ' UNION ALL ' = ' UNION ',
): WrittenSql {
  const w = sqlWriter(dialect);
  const [only] = branches;
  if (branches.length === 1 && only) {
    return w.done(
      `SELECT * FROM ${w.source(only)} WHERE ${w.where(only)} ${NEWEST_FIRST} LIMIT ${w.value(limit)} OFFSET ${w.value(offset)}`,
    );
  }
  const parts = branches.map(
    (b, i) =>
      `SELECT * FROM (SELECT * FROM ${w.source(b)} WHERE ${w.where(b)} ${NEWEST_FIRST} LIMIT ${w.value(limit + offset)}) AS branch${i}`,
  );
  return w.done(`${parts.join(union)} ${NEWEST_FIRST} LIMIT ${w.value(limit)} OFFSET ${w.value(offset)}`);
}

/** Counts the rows the branches read (a row two branches match counts once). */
export function branchCountSql(dialect: Dialect, branches: readonly Branch[]): WrittenSql {
  const w = sqlWriter(dialect);
  const [only] = branches;
  if (branches.length === 1 && only) return w.done(`SELECT COUNT(*) AS n FROM ${w.source(only)} WHERE ${w.where(only)}`);
  const parts = branches.map((b) => `SELECT id FROM ${w.source(b)} WHERE ${w.where(b)}`);
  return w.done(`SELECT COUNT(*) AS n FROM (${parts.join(' UNION ')}) AS matches`);
}
