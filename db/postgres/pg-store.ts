/**
 * The Store port on PostgreSQL. Every unit of work is one SERIALIZABLE transaction on a pooled
 * connection: PostgreSQL then guarantees what SQLite's single writer gives the core, that units
 * behave as if they ran one at a time, across every instance on the database. A unit that loses a
 * serialization race (40001) or a deadlock (40P01) is rolled back and run again; units do no I/O
 * outside the database (ports.ts), so running one again is safe.
 *
 * BIGINT and NUMERIC results come back as JavaScript numbers (money is integer minor units, far
 * below 2^53); a value beyond that range fails loudly instead of losing precision.
 */
import pg from 'pg';
import type { KernelUnit, Store } from '../../main/core/unit-of-work.js';
import { StorageUnavailableError } from '../../main/core/kernel.js';
import { createRepositories, wholeUnit, type Repositories } from '../repositories.js';
import type { QueueName } from '../sql.js';
import { ConfigurationListener } from './configuration-listener.js';
import { PgSession } from './pg-sql.js';
import { CommitGroups } from './commit-groups.js';

const MAX_ATTEMPTS = 12;

function exactNumber(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) && !(Number.isFinite(value) && !/^-?\d+$/.test(text))) {
    throw new RangeError(`a database number does not fit a JavaScript number exactly: ${text}`);
  }
  return value;
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return exactNumber;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

export interface PgPoolOptions {
  /** Connections this instance may hold (default 10). */
  max?: number;
  applicationName?: string;
  /**
   * Send a statement without waiting for the one before to be answered (the serving store, whose
   * units defer BEGIN and plain INSERTs: PgSession). Tools (migrations, import, export) do not.
   */
  pipeline?: boolean;
}

export function createPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'tillgate',
    types,
    connectionTimeoutMillis: 10_000,
    ...(options.pipeline ? { pipeline: true } : {}),
  } as pg.PoolConfig);
  // An idle connection the server dropped must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

const RETRYABLE = new Set(['40001', '40P01']);
const UNIQUE_VIOLATION = '23505';

/** A lost connection or a server going away becomes the core's "storage unavailable" (503). */
export function pgStorageError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  // pg's own words for a socket that closed under a query, or a client that lost it before
  // (pg/lib/client.js): no SQLSTATE, no errno.
  if (code === undefined && error instanceof Error && /^Connection terminated|is not queryable$/.test(error.message)) {
    return new StorageUnavailableError('io');
  }
  if (typeof code !== 'string') return error;
  if (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT'
  ) {
    return new StorageUnavailableError('io');
  }
  if (code === '53100') return new StorageUnavailableError('full');
  if (code === '25006') return new StorageUnavailableError('read_only');
  return error;
}

export class PgStore implements Store<Repositories> {
  private readonly commitListeners: Array<{ listener: () => void; queue: QueueName | undefined }> = [];
  private closed = false;

  /**
   * Each pooled connection's repositories, built once: building every repository's statements for
   * each unit of work cost more CPU than some of the units' statements.
   */
  private readonly sessions = new WeakMap<pg.PoolClient, { session: PgSession; repositories: Repositories }>();

  /** Hears other instances' configuration changes (Store.configurationGeneration); none: nothing is remembered. */
  private readonly configuration: ConfigurationListener | undefined;

  /** Units that end as one statement commit together (db/postgres/commit-groups.ts). */
  readonly groups = new CommitGroups();

  constructor(
    readonly pool: pg.Pool,
    options: { listen?: { url: string; onError?: (error: unknown) => void } } = {},
  ) {
    if (options.listen) {
      this.configuration = new ConfigurationListener(options.listen.url, pool, { onError: options.listen.onError });
      this.configuration.start();
    }
  }

  /**
   * Changes when a unit of this instance wrote the configuration (counted when the unit ends) or the
   * listener heard another's; undefined while the listener does not hear, or without one.
   */
  configurationGeneration(): number | undefined {
    return this.configuration?.generation();
  }

  /** After a commit of a unit that is not quiet: with `queue`, only when the unit wrote to that queue. */
  onCommit(listener: () => void, queue?: QueueName): void {
    this.commitListeners.push({ listener, queue });
  }

  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN ISOLATION LEVEL SERIALIZABLE', work, true);
  }

  /**
   * Units of single statements, each atomic on their own (counters, single-use approvals, leases,
   * queue claims): READ COMMITTED, so units racing for one row wait on its row lock and each sees
   * the version committed before it (PostgreSQL re-checks an UPDATE's or upsert's condition on that
   * version), and claimers with FOR UPDATE SKIP LOCKED take disjoint rows, where SERIALIZABLE would
   * fail all but one of them and run them again. `quiet`: no commit listener is woken (a claim or a
   * lease queues nothing new; waking the workers after each of their own claims kept them busy).
   */
  runAtomic<T>(work: (tx: Repositories) => Promise<T>, options: { quiet?: boolean } = {}): Promise<T> {
    return this.transaction('BEGIN ISOLATION LEVEL READ COMMITTED', work, !(options.quiet ?? false));
  }

  read<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work, false);
  }

  /**
   * Each statement on its own on one pooled connection (autocommit): one round trip, no BEGIN or
   * COMMIT; the statements started in one tick go with one Sync (PgSession `send`).
   */
  async readEach<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('the store is closed');
    const client = await this.connect();
    let broken = false;
    const { session, repositories } = this.repositoriesOf(client);
    try {
      return await work(repositories);
    } catch (error) {
      const mapped = pgStorageError(error);
      // A lost connection is not given back to the pool.
      broken = mapped instanceof StorageUnavailableError;
      throw mapped;
    } finally {
      // Reads the work started and left unawaited leave now, not on the next holder's connection.
      session.sendBatch();
      client.release(broken || undefined);
    }
  }

  private async transaction<T>(begin: string, work: (tx: Repositories) => Promise<T>, writes: boolean): Promise<T> {
    if (this.closed) throw new Error('the store is closed');
    // Optimistic plain INSERTs (SqlDatabase.optimistic) until one of them met a unique violation.
    let optimistic = true;
    for (let attempt = 1; ; attempt++) {
      const client = await this.connect();
      let broken = false;
      const { session, repositories } = this.repositoriesOf(client, optimistic, begin);
      try {
        // The connection pipelines: BEGIN and the unit's plain INSERTs are held and leave, unanswered,
        // with its next statement; COMMIT follows the last of them in the same write, or the unit is
        // one statement on its own (PgSession).
        const value = await this.writing(session, () => work(repositories).then(async (value) => (await session.finish(), value)));
        // Before the connection goes back to the pool, where the next unit clears `touched`.
        if (writes) for (const { listener, queue } of this.commitListeners) if (!queue || session.touched.has(queue)) listener();
        client.release();
        return value;
      } catch (error) {
        if (session.begun) {
          try {
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          }
        } else broken = pgStorageError(error) instanceof StorageUnavailableError;
        client.release(broken);
        const code = (error as { code?: unknown } | null)?.code;
        if (code === UNIQUE_VIOLATION && optimistic && attempt < MAX_ATTEMPTS) {
          // An optimistic INSERT met a row: run the unit again the careful way, at once.
          optimistic = false;
          continue;
        }
        if (typeof code === 'string' && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) {
          // Back off a little, at random, so the racing units do not collide again in step.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)));
          continue;
        }
        throw pgStorageError(error);
      }
    }
  }

  /** Runs a unit's work; when it wrote the configuration, counts that once it ended, committed or not. */
  private async writing<T>(session: PgSession, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      if (session.wroteConfiguration) this.configuration?.changed();
    }
  }

  /** A pooled connection; failing to get one is "storage unavailable". */
  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw pgStorageError(error);
    }
  }

  private repositoriesOf(client: pg.PoolClient, optimistic = false, begin?: string): { session: PgSession; repositories: Repositories } {
    let entry = this.sessions.get(client);
    if (!entry) {
      // pg-pool listens for a connection's errors only while it is idle. A checked-out connection
      // whose socket closes while it runs no query (a unit between statements, a group's member
      // waiting for its group) would otherwise throw from an 'error' event nobody hears. Its next
      // query fails instead ("not queryable": storage unavailable), and pg-pool drops it on release.
      client.on('error', () => undefined);
      const session = new PgSession(client, true, this.groups);
      entry = { session, repositories: createRepositories(session) };
      this.sessions.set(client, entry);
    }
    entry.session.reset(optimistic, begin);
    return entry;
  }

  viewOf(tx: KernelUnit): Repositories {
    return wholeUnit(tx);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.configuration?.close();
    await this.pool.end();
  }
}
