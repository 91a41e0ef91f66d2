/**
 * The repositories' statements on PostgreSQL, each text used as it is: built with Kysely and
 * compiled for PostgreSQL (db/typed-sql.ts), written for this engine from terms (db/list-filter.ts),
 * or the PostgreSQL text of a statement written for both engines (db/sql.ts `dialects`). Nothing is
 * translated from SQLite's SQL.
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

interface Named {
  /** The statement's name on every connection: PostgreSQL parses and plans it once per connection. */
  name: string;
  text: string;
  /**
   * A plain INSERT (no ON CONFLICT, no RETURNING): it changes one row or fails, so inside a unit
   * of work its answer need not be waited for (PgSession `deferWrites`).
   */
  plainInsert: boolean;
}

const named = new Map<string, Named>();

/** A PostgreSQL text as it is, named (prepared) once per text; exported for tests. */
export function namedStatement(text: string): Named {
  const cached = named.get(text);
  if (cached) return cached;
  const plainInsert = /^\s*INSERT\s+INTO\b/i.test(text) && !/\bON\s+CONFLICT\b|\bRETURNING\b/i.test(text);
  const statement = { name: `tillgate_${named.size + 1}`, text, plainInsert };
  named.set(text, statement);
  return statement;
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
  /** The statements of this session, each prepared (named, bound to the connection) once. */
  private readonly statements = new Map<string, SqlStatement>();
  private pending: Array<Promise<unknown>> = [];
  private failure: { error: unknown } | undefined;
  /** SqlDatabase.optimistic: set by the store for each attempt of a unit. */
  optimistic = false;

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
  reset(optimistic = false): void {
    this.pending = [];
    this.failure = undefined;
    this.touched.clear();
    this.optimistic = optimistic && this.deferWrites;
  }

  touch(queue: QueueName): void {
    this.touched.add(queue);
  }

  prepare(sql: DialectSql | CompiledSql): SqlStatement {
    const target = namedStatement('compiled' in sql ? compiledText(sql, 'postgres') : sql.postgres);
    let statement = this.statements.get(target.name);
    if (!statement) {
      statement = this.statement(target);
      this.statements.set(target.name, statement);
    }
    return statement;
  }

  private statement(target: Named): SqlStatement {
    const query = (params: unknown[]) =>
      corked(this.client, () => this.client.query({ name: target.name, text: target.text, values: params }));
    const deferred = this.deferWrites && target.plainInsert;
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
