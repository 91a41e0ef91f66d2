/**
 * A named (prepared) statement's execution on pg's connection, described once per process.
 *
 * pg sends each execution of a prepared statement as Bind, Describe, Execute and Sync: PostgreSQL
 * answers the Describe with the statement's row description every time, and pg parses it and builds
 * the row parsers again (`Result.addFields`), and first copies the query's config property by
 * property (`cloneQueryConfig`). A prepared statement's row description does not change while it
 * exists (PostgreSQL refuses to run it otherwise: "cached plan must not change result type"), so
 * the first execution's is kept, by statement name (one text each, db/postgres/pg-sql.ts), with its
 * parsers; every later execution on a connection where the statement is prepared sends Bind,
 * Execute and Sync only and reads its rows with the kept parsers. A statement that answers no rows
 * (an INSERT without RETURNING) is kept as such.
 *
 * It is a pg.Query, so a pipelining client takes it like its own; the first execution on each
 * connection (Parse, Describe) is pg's own code path.
 */
import pg from 'pg';
import utils from 'pg/lib/utils.js';

interface Description {
  fields: Array<{ name: string; format?: string }>;
  parsers: Array<(value: unknown) => unknown> | undefined;
  empty: object | null;
}

/** By statement name: its row description and parsers, or `null` for a statement without rows. */
const descriptions = new Map<string, Description | null>();

/** The parts of pg's Query and Result this class reads or sets (pg/lib/query.js, result.js). */
interface QueryInternals {
  name: string;
  text: string;
  callback: (error: Error | null, result?: pg.QueryResult) => void;
  values: unknown[];
  portal: string;
  binary: boolean;
  _accumulateRows: boolean;
  _result: { fields: unknown[]; _parsers: unknown[] | undefined; _prebuiltEmptyResultObject: object | null };
  hasBeenParsed(connection: unknown): boolean;
  handleError(error: unknown, connection: unknown): void;
  handleRowDescription(message: { fields: Description['fields'] }): void;
  handleCommandComplete(message: unknown, connection: unknown): void;
  handleDataRow(message: unknown): void;
  handleReadyForQuery(connection: unknown): void;
  submit(connection: unknown): Error | null;
}

interface Connection {
  stream: { cork?: () => void; uncork?: () => void };
  bind(config: object): void;
  execute(config: object): void;
  sync(): void;
  close(config: object): void;
}

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
export function corked<T>(client: Pick<pg.ClientBase, 'query'>, submit: () => T): T {
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

const Base = pg.Query as unknown as new (text: string) => QueryInternals;

export class PreparedQuery extends Base {
  /** Whether this execution sent Describe and so learns the statement's description. */
  private describes = false;
  private described = false;
  /** The answer (`client.query` returns the query itself for a query object). */
  readonly done: Promise<pg.QueryResult>;

  constructor(name: string, text: string, values: unknown[]) {
    // A text, not a config object: pg then makes its config without copying one.
    super(text);
    this.name = name;
    this.values = values;
    this.done = new Promise((resolve, reject) => {
      this.callback = (error, result) => (error ? reject(error) : resolve(result as pg.QueryResult));
    });
  }

  /** Whether this execution can go without Parse and Describe on `connection` (the statement is prepared there, its description kept). */
  known(connection: unknown): boolean {
    return descriptions.has(this.name) && this.hasBeenParsed(connection);
  }

  override submit(connection: unknown): Error | null {
    if (!this.known(connection)) {
      this.describes = true;
      return super.submit(connection);
    }
    const con = connection as Connection;
    con.stream.cork?.();
    try {
      if (this.bindAndExecute(con)) con.sync();
    } finally {
      con.stream.uncork?.();
    }
    return null;
  }

  /**
   * Bind and Execute, with the kept description made this execution's. False when a value could not
   * be sent: as pg's own prepare, the exchange then ends at once (Sync) and the query fails.
   */
  bindAndExecute(con: Connection): boolean {
    const known = descriptions.get(this.name);
    if (known) {
      this._result.fields = known.fields;
      this._result._parsers = known.parsers;
      this._result._prebuiltEmptyResultObject = known.empty;
    }
    this._accumulateRows = true;
    try {
      con.bind({ portal: this.portal, statement: this.name, values: this.values, binary: this.binary, valueMapper: utils.prepareValue });
    } catch (error) {
      con.sync();
      this.handleError(error, con);
      return false;
    }
    con.execute({ portal: this.portal });
    return true;
  }

  override handleRowDescription(message: { fields: Description['fields'] }): void {
    super.handleRowDescription(message);
    this.described = true;
    if (this.describes && !descriptions.has(this.name)) {
      const result = this._result;
      descriptions.set(this.name, {
        fields: message.fields,
        parsers: result._parsers as Description['parsers'],
        empty: result._prebuiltEmptyResultObject,
      });
    }
  }

  override handleCommandComplete(message: unknown, connection: unknown): void {
    // Described, and no row description came: the statement answers no rows.
    if (this.describes && !this.described && !descriptions.has(this.name)) descriptions.set(this.name, null);
    super.handleCommandComplete(message, connection);
  }
}

/**
 * Executions of statements whose descriptions are kept (`PreparedQuery.known`), sent with one Sync:
 * PostgreSQL runs them one after another in one implicit transaction and answers them all in one
 * write, with one ReadyForQuery, where a Sync each would make a transaction, an answer and a wake-up
 * each. When one fails, PostgreSQL skips the rest up to the Sync and rolls back all of them.
 *
 * - `answered: 'each'`, for reads that do not depend on each other (PgStore.readEach): each part's
 *   answer is given at its CommandComplete; when one fails, the parts after it fail with its error.
 * - `answered: 'at-commit'`, for writes of several units committed together
 *   (db/postgres/commit-groups.ts): a CommandComplete comes before the commit, so no part is answered
 *   before the ReadyForQuery that follows it; when any fails, every part fails with its error.
 */
export class PreparedBatch extends Base {
  private next = 0;
  private failed = false;

  constructor(
    private readonly parts: PreparedQuery[],
    private readonly answered: 'each' | 'at-commit' = 'each',
  ) {
    super(parts.map((part) => part.text).join(';\n'));
    this.callback = () => undefined;
  }

  override submit(connection: unknown): Error | null {
    const con = connection as Connection;
    con.stream.cork?.();
    try {
      for (const part of this.parts) {
        if (!part.bindAndExecute(con)) {
          // That part has failed and ended the exchange (Sync): nothing after it was sent, nothing
          // commits, and the answers to the parts sent before it are left unread.
          this.failed = true;
          const error = new Error('a statement of its batch could not be sent');
          for (const other of this.parts) if (other !== part) other.handleError(error, con);
          return null;
        }
      }
      con.sync();
    } finally {
      con.stream.uncork?.();
    }
    return null;
  }

  override handleRowDescription(): void {
    // No Describe is sent: none comes.
  }

  override handleDataRow(message: unknown): void {
    this.parts[this.next]?.handleDataRow(message);
  }

  override handleCommandComplete(message: unknown, connection: unknown): void {
    const part = this.parts[this.next++];
    if (!part || this.failed) return;
    part.handleCommandComplete(message, connection);
    if (this.answered === 'each') part.handleReadyForQuery(connection);
  }

  override handleError(error: unknown, connection: unknown): void {
    if (this.failed) return;
    this.failed = true;
    for (const part of this.parts.slice(this.answered === 'each' ? this.next : 0)) part.handleError(error, connection);
  }

  override handleReadyForQuery(connection: unknown): void {
    if (this.failed) return;
    // Every part answered is the usual case: no error made (an Error's stack trace is costly).
    if (this.next < this.parts.length)
      this.handleError(new Error('PostgreSQL ended the batch before answering every statement'), connection);
    else if (this.answered === 'at-commit') for (const part of this.parts) part.handleReadyForQuery(connection);
  }
}
