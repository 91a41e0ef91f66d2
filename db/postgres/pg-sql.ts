/**
 * The repositories' statements on PostgreSQL. A statement's text is translated once (cached by
 * text): `?` and `@name` parameters become `$n`, SQLite's planner hints (`INDEXED BY`) go, and
 * `INSERT OR IGNORE` becomes `ON CONFLICT DO NOTHING`. What cannot be translated so simply is
 * written for both engines by the repository (db/sql.ts `dialects`). A statement built with Kysely
 * (db/typed-sql.ts) comes compiled for PostgreSQL already and is used as it is (`asIs`).
 *
 * A PgSession runs every statement on one connection: the unit of work's, inside its transaction.
 * Statements are named (prepared): each connection parses and plans a text once, not per call.
 */
import type pg from 'pg';
import {
  compiledText,
  type CompiledSql,
  type DialectSql,
  type QueueName,
  type RunResult,
  type SqlDatabase,
  type SqlStatement,
} from '../sql.js';

interface Translated {
  /** The statement's name on every connection: PostgreSQL parses and plans it once per connection. */
  name: string;
  text: string;
  /**
   * A plain INSERT (no ON CONFLICT, no RETURNING): it changes one row or fails, so inside a unit
   * of work its answer need not be waited for (PgSession `deferWrites`).
   */
  plainInsert: boolean;
  /** Named parameters in `$n` order; undefined for positional ones. */
  names: string[] | undefined;
}

const cache = new Map<string, Translated>();

/** Translates one SQLite statement text to PostgreSQL (exported for tests). */
export function translate(sql: string): Translated {
  const cached = cache.get(sql);
  if (cached) return cached;
  let text = sql.replace(/\s+INDEXED BY\s+\w+/gi, '');
  if (/^\s*INSERT\s+OR\s+IGNORE\s+INTO/i.test(text)) {
    text = `${text.replace(/^(\s*)INSERT\s+OR\s+IGNORE\s+INTO/i, '$1INSERT INTO').replace(/;?\s*$/, '')} ON CONFLICT DO NOTHING`;
  }
  if (/\bINSERT\s+OR\s+REPLACE\b|\bjson_extract\b|\bjson_each\b|\bstrftime\b|\bjulianday\b|\bIFNULL\b/i.test(text)) {
    throw new Error(`SQLite-only SQL needs a PostgreSQL text (dialects()): ${text.slice(0, 120)}`);
  }
  const names: string[] = [];
  let positional = 0;
  let out = '';
  // Walk the text outside quotes: a ? or @name inside a string literal is not a parameter.
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "'" || ch === '"') {
      const end = text.indexOf(ch, i + 1);
      const stop = end === -1 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop - 1;
    } else if (ch === '?') {
      positional += 1;
      out += `$${positional}`;
    } else if (ch === '@' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
      const name = (match as RegExpExecArray)[0];
      let index = names.indexOf(name);
      if (index === -1) {
        names.push(name);
        index = names.length - 1;
      }
      out += `$${index + 1}`;
      i += name.length;
    } else {
      out += ch;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`a statement mixes ? and @name parameters: ${text.slice(0, 120)}`);
  const plainInsert = /^\s*INSERT\s+INTO\b/i.test(out) && !/\bON\s+CONFLICT\b|\bRETURNING\b/i.test(out);
  const translated = { name: `tillgate_${cache.size + 1}`, text: out, names: names.length > 0 ? names : undefined, plainInsert };
  cache.set(sql, translated);
  return translated;
}

/**
 * A statement compiled for PostgreSQL already (db/sql.ts `CompiledSql`, built by db/typed-sql.ts):
 * its `$n` text as it is, named and cached like a translated one.
 */
export function asIs(sql: string): Translated {
  const key = `\0compiled\0${sql}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const plainInsert = /^\s*INSERT\s+INTO\b/i.test(sql) && !/\bON\s+CONFLICT\b|\bRETURNING\b/i.test(sql);
  const translated = { name: `tillgate_${cache.size + 1}`, text: sql, names: undefined, plainInsert };
  cache.set(key, translated);
  return translated;
}

function values(translated: Translated, params: unknown[]): unknown[] {
  if (!translated.names) return params;
  const named = (params[0] ?? {}) as Record<string, unknown>;
  return translated.names.map((name) => {
    if (!(name in named)) throw new Error(`missing named parameter @${name}`);
    return named[name];
  });
}

export type Queryable = Pick<pg.ClientBase, 'query'>;

/** Streams corked until the end of the current tick (`corked`). */
const corkedStreams = new WeakSet<object>();

/**
 * Runs `submit` with the client's socket corked until the end of this tick: pg writes each message
 * of a statement (Parse, Bind, Describe, Execute, Sync) with a write call of its own, five system
 * calls a statement, and a third of a payment's CPU on PostgreSQL went into them. Corked, every
 * statement sent within one tick (a unit's BEGIN, its deferred INSERTs and the next awaited
 * statement) leaves in one write. The socket is pg's own (`connection.stream`); a client without
 * one is used as it is.
 */
export function corked<T>(client: Queryable, submit: () => T): T {
  const stream = (client as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
  if (stream?.cork && stream.uncork && !corkedStreams.has(stream)) {
    corkedStreams.add(stream);
    stream.cork();
    process.nextTick(() => {
      corkedStreams.delete(stream);
      stream.uncork?.();
    });
  }
  return submit();
}

/**
 * Statements on one connection (the unit of work's). With `deferWrites` (a unit of work on a
 * pipelining connection), a plain INSERT is sent without waiting for its answer: the statements
 * after it follow it down the connection at once, PostgreSQL runs them in order, and `settle()`
 * (before COMMIT) waits for every answer and throws the first failure. A failed statement makes
 * PostgreSQL refuse the rest of the transaction; the error thrown is then the first one (a
 * serialization failure stays retryable), not "current transaction is aborted".
 */
export class PgSession implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  /** Queues this session's statements wrote to (SqlDatabase.touch). */
  readonly touched = new Set<QueueName>();
  /** The statements of this session, each prepared (translated, bound to the connection) once. */
  private readonly statements = new Map<string, SqlStatement>();
  private pending: Array<Promise<unknown>> = [];
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly client: Queryable,
    private readonly deferWrites = false,
  ) {}

  /** Sends a statement whose answer the unit does not wait for (BEGIN, a plain INSERT). */
  defer(sent: Promise<unknown>): void {
    this.pending.push(sent.catch((error: unknown) => (this.failure ??= { error })));
  }

  /** Waits for every deferred statement; throws the first failure. */
  async settle(): Promise<void> {
    if (this.pending.length > 0) {
      await Promise.all(this.pending);
      this.pending = [];
    }
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure.error;
  }

  /** A statement the unit waits for; when it fails after a deferred one did, the earlier error is the one thrown. */
  private async awaited<T>(sent: Promise<T>): Promise<T> {
    try {
      return await sent;
    } catch (error) {
      await this.settle();
      throw error;
    }
  }

  /** Forgets what a failed unit left (its connection is rolled back, or dropped). */
  reset(): void {
    this.pending = [];
    this.failure = undefined;
    this.touched.clear();
  }

  touch(queue: QueueName): void {
    this.touched.add(queue);
  }

  prepare(sql: string | DialectSql | CompiledSql): SqlStatement {
    const translated =
      typeof sql === 'string' ? translate(sql) : 'compiled' in sql ? asIs(compiledText(sql, 'postgres')) : translate(sql.postgres);
    let statement = this.statements.get(translated.name);
    if (!statement) {
      statement = this.statement(translated);
      this.statements.set(translated.name, statement);
    }
    return statement;
  }

  private statement(translated: Translated): SqlStatement {
    const query = (params: unknown[]) =>
      corked(this.client, () => this.client.query({ name: translated.name, text: translated.text, values: values(translated, params) }));
    const deferred = this.deferWrites && translated.plainInsert;
    return {
      get: async (...params) => (await this.awaited(query(params))).rows[0],
      all: async (...params) => (await this.awaited(query(params))).rows,
      run: async (...params): Promise<RunResult> => {
        if (!deferred) return { changes: (await this.awaited(query(params))).rowCount ?? 0 };
        this.defer(query(params));
        return { changes: 1 };
      },
    };
  }
}
