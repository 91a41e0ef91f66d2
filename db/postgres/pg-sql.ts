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
import { corked, PreparedBatch, PreparedQuery } from './pg-query.js';
import { writesConfiguration } from '../configuration-tables.js';
import type { CommitGroups } from './commit-groups.js';
import {
  announcing,
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
  /**
   * The table of a plain `INSERT INTO t (...) VALUES (...)` that reads no table (no SELECT): such
   * statements of a unit can run as one statement (`combined`), none of them seeing the others.
   */
  valuesInto: string | undefined;
  /** The highest parameter number in the text ($n). */
  width: number;
  /** A SELECT: it writes nothing, so it may share a Sync with others (PgSession `send`). */
  select: boolean;
}

const named = new Map<string, Named>();

/** A PostgreSQL text as it is, named (prepared) once per text; exported for tests. */
export function namedStatement(text: string): Named {
  const cached = named.get(text);
  if (cached) return cached;
  const plainInsert = /^\s*INSERT\s+INTO\b/i.test(text) && !/\bON\s+CONFLICT\b|\bRETURNING\b/i.test(text);
  const into =
    plainInsert && !/\bSELECT\b|;/i.test(text) ? /^\s*INSERT\s+INTO\s+("[^"]+"|[\w.]+)\s*\([^)]*\)\s*VALUES\b/i.exec(text) : null;
  const statement = {
    name: `tillgate_${named.size + 1}`,
    text,
    plainInsert,
    valuesInto: into?.[1]?.replace(/"/g, '').toLowerCase(),
    width: parameterCount(text),
    select: /^\s*SELECT\b/i.test(text),
  };
  named.set(text, statement);
  return statement;
}

/** `text` with every parameter `$n` outside quotes renumbered `$(n + offset)`. */
function shiftParameters(text: string, offset: number): string {
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (token, n: string | undefined) =>
    n === undefined ? token : `$${Number(n) + offset}`,
  );
}

function parameterCount(text: string): number {
  let highest = 0;
  for (const match of text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, '').matchAll(/\$(\d+)/g))
    highest = Math.max(highest, Number(match[1]));
  return highest;
}

const combinations = new Map<string, Named>();

/**
 * Several `valuesInto` INSERTs, into different tables, as one statement: the first ones as
 * data-modifying WITH clauses of the last (`WITH s1 AS (INSERT ...), s2 AS (...) INSERT ...`), their
 * parameters numbered after one another. PostgreSQL inserts every row or none; constraints and AFTER
 * triggers see all of them (they run at the statement's end). Named like any text, once per list.
 */
export function combined(statements: readonly Named[]): Named {
  const key = statements.map((statement) => statement.name).join('+');
  let statement = combinations.get(key);
  if (!statement) {
    let offset = 0;
    const texts = statements.map((part) => {
      const shifted = shiftParameters(part.text, offset);
      offset += part.width;
      return shifted;
    });
    const last = texts.pop() ?? '';
    statement = namedStatement(`WITH ${texts.map((inner, i) => `s${i + 1} AS (${inner})`).join(', ')} ${last}`);
    combinations.set(key, statement);
  }
  return statement;
}

/** The most statements one combined statement holds. */
const MOST_COMBINED = 8;

/** Held INSERTs in order, in groups that each run as one statement (`combined`). */
function groups(held: readonly Held[]): Held[][] {
  const result: Held[][] = [];
  // The tables of the last group while it can take more.
  let tables: Set<string> | undefined;
  for (const entry of held) {
    // Values that do not fit the text are sent on their own, for PostgreSQL to refuse as it would.
    const table = fitsValues(entry) ? entry.target.valuesInto : undefined;
    const open = result.at(-1);
    if (table !== undefined && open && tables && !tables.has(table) && open.length < MOST_COMBINED) {
      open.push(entry);
      tables.add(table);
    } else {
      result.push([entry]);
      tables = table === undefined ? undefined : new Set([table]);
    }
  }
  return result;
}

/** A group of held INSERTs as the one statement that runs them, with its values. */
function statementOf(group: readonly Held[]): Held {
  const [only] = group;
  if (group.length === 1 && only) return only;
  return { target: combined(group.map((entry) => entry.target)), params: group.flatMap((entry) => entry.params) };
}

/** An `INSERT ... VALUES` that reads nothing, given as many values as its text takes. */
function fitsValues(entry: Held): boolean {
  return entry.target.valuesInto !== undefined && entry.params.length === entry.target.width;
}

/**
 * A plain INSERT held by its unit, with its values. The values are read when it is sent (at the
 * unit's next awaited statement or its end): a unit does not change an object after passing it.
 */
interface Held {
  target: Named;
  params: unknown[];
}

export type Queryable = Pick<pg.ClientBase, 'query'>;

/**
 * Statements on one connection (the unit of work's). With `deferWrites` (a unit of work on a
 * pipelining connection), a plain INSERT is held, not sent: the unit goes on at once, and the held
 * INSERTs leave just before the unit's next awaited statement or at its end, combined where they can
 * be (`combined`). BEGIN is held too, until the unit sends its first statement: a unit whose only
 * statements are plain INSERTs that combine into one (a sale: its transaction, its event and its
 * idempotency record) runs as that one statement on its own, in PostgreSQL's implicit transaction,
 * without BEGIN and COMMIT (docs/decisions.md "A payment's round trips on PostgreSQL"),
 * committed together with other units' such statements when the store gives its CommitGroups
 * (commit-groups.ts). Otherwise PostgreSQL runs what was sent in order, and `finish()` sends COMMIT
 * behind it, waits for every answer and throws the first failure. A failed statement makes PostgreSQL refuse the rest of the
 * transaction; the error thrown is then the first one (a serialization failure stays retryable), not
 * "current transaction is aborted".
 */
export class PgSession implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  /** Queues this session's statements wrote to (SqlDatabase.touch). */
  readonly touched = new Set<QueueName>();
  /** The unit ran a statement that writes the configuration (SqlDatabase.configurationWritten). */
  wroteConfiguration = false;
  /** The statements of this session, each prepared (named, bound to the connection) once. */
  private readonly statements = new Map<string, SqlStatement>();
  private pending: Array<Promise<unknown>> = [];
  private failure: { error: unknown } | undefined;
  /** The unit of work's transaction: its BEGIN, and whether it has been sent. */
  private unit: { begin: string; begun: boolean } | undefined;
  /** Plain INSERTs of the unit not sent yet. */
  private held: Held[] = [];
  /** Reads outside a unit waiting for the end of the tick (`send`). */
  private batch: PreparedQuery[] = [];
  /** SqlDatabase.optimistic: set by the store for each attempt of a unit. */
  optimistic = false;

  constructor(
    private readonly client: Queryable,
    private readonly deferWrites = false,
    /** Units that end as one statement commit with others (db/postgres/commit-groups.ts). */
    private readonly groups?: CommitGroups,
  ) {}

  /** Whether a transaction is open on the connection (BEGIN sent): a failed unit then rolls it back. */
  get begun(): boolean {
    return this.unit?.begun ?? false;
  }

  private send(target: Named, params: unknown[]): Promise<pg.QueryResult> {
    // A pool (tools, tests) runs each query on a client it picks: pg's own query config.
    if (!('connection' in this.client)) return this.client.query({ name: target.name, text: target.text, values: params });
    // A client: a query that keeps the statement's row description (PreparedQuery).
    const query = new PreparedQuery(target.name, target.text, params);
    if (this.deferWrites && !this.unit && target.select && query.known((this.client as { connection: unknown }).connection)) {
      // Outside a unit (readEach): the reads of this tick leave together, with one Sync. Only reads:
      // a write sharing their implicit transaction would be undone by a read's failure.
      if (this.batch.length === 0) process.nextTick(() => this.sendBatch());
      this.batch.push(query);
      return query.done;
    }
    this.sendBatch();
    this.submit(query);
    return query.done;
  }

  /** Hands a query object to pg's client (which then answers through the object, not a promise). */
  private submit(query: PreparedQuery | PreparedBatch): void {
    corked(this.client, () => void this.client.query(query as unknown as pg.QueryConfig));
  }

  /** Sends the reads gathered outside a unit (`send`), as one batch when there are several. */
  sendBatch(): void {
    const parts = this.batch;
    if (parts.length === 0) return;
    this.batch = [];
    const [only] = parts;
    this.submit(only && parts.length === 1 ? only : new PreparedBatch(parts));
  }

  /** Sends a statement whose answer the unit does not wait for (BEGIN, a held INSERT). */
  private defer(sent: Promise<unknown>): void {
    this.pending.push(sent.catch((error: unknown) => (this.failure ??= { error })));
  }

  /** Sends BEGIN and the held INSERTs, unanswered, ahead of the statement about to be sent. */
  private flush(): void {
    const unit = this.unit;
    if (!unit) return;
    if (!unit.begun) {
      unit.begun = true;
      this.defer(corked(this.client, () => this.client.query(unit.begin)));
    }
    const held = this.held;
    this.held = [];
    for (const group of groups(held)) this.defer(this.sendGroup(group));
  }

  private sendGroup(group: readonly Held[]): Promise<pg.QueryResult> {
    const { target, params } = statementOf(group);
    return this.send(target, params);
  }

  /** Waits for every statement sent unanswered; throws the first failure. */
  private async settle(): Promise<void> {
    if (this.pending.length > 0) {
      await Promise.all(this.pending);
      this.pending = [];
    }
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure.error;
  }

  /**
   * Ends the unit of work: COMMIT behind what it sent and held, its answer checked; or, when the
   * unit sent nothing and its held INSERTs make one statement, that statement on its own.
   */
  async finish(): Promise<void> {
    const unit = this.unit;
    if (!unit) return;
    if (!unit.begun) {
      const parts = groups(this.held);
      const [only] = parts;
      if (!only) return;
      // Only INSERTs that read nothing go without the unit's isolation (an INSERT ... SELECT keeps it).
      if (parts.length === 1 && only.every(fitsValues)) {
        this.held = [];
        if (!this.groups || !('connection' in this.client)) {
          await this.sendGroup(only);
          return;
        }
        const { target, params } = statementOf(only);
        await this.groups.commit(this.client as pg.PoolClient, target.name, target.text, params, () => this.sendGroup(only));
        return;
      }
    }
    this.flush();
    const commit = corked(this.client, () => this.client.query('COMMIT'));
    commit.catch(() => undefined);
    await this.settle();
    const committed = await commit;
    if (committed.command !== 'COMMIT') throw new Error(`the unit of work ended with ${committed.command} instead of COMMIT`);
  }

  /** A statement the unit waits for; when it fails after an unanswered one did, the earlier error is the one thrown. */
  private async awaited<T>(sent: Promise<T>): Promise<T> {
    try {
      return await sent;
    } catch (error) {
      await this.settle();
      throw error;
    }
  }

  /**
   * Forgets what a failed unit left (its connection is rolled back, or dropped) and, with `begin`,
   * starts the next unit of work: its BEGIN is held (sent before its first statement).
   */
  reset(optimistic = false, begin?: string): void {
    this.pending = [];
    this.failure = undefined;
    this.held = [];
    this.touched.clear();
    this.wroteConfiguration = false;
    this.optimistic = optimistic && this.deferWrites;
    this.unit = begin === undefined ? undefined : { begin, begun: false };
  }

  touch(queue: QueueName): void {
    this.touched.add(queue);
  }

  configurationWritten(): void {
    this.wroteConfiguration = true;
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
    const query = (params: unknown[]) => {
      this.flush();
      return this.awaited(this.send(target, params));
    };
    const held = this.deferWrites && target.plainInsert;
    const statement: SqlStatement = {
      get: async (...params) => (await query(params)).rows[0],
      all: async (...params) => (await query(params)).rows,
      run: async (...params): Promise<RunResult> => {
        if (!held || !this.unit) return { changes: (await query(params)).rowCount ?? 0 };
        this.held.push({ target, params });
        return { changes: 1 };
      },
    };
    return writesConfiguration(target.text) ? announcing(statement, () => this.configurationWritten()) : statement;
  }
}
