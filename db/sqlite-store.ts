/**
 * The Store port on better-sqlite3 with group commit: every unit of work queued during one
 * event-loop turn runs in its own SAVEPOINT inside one transaction, and one COMMIT (one fsync
 * under synchronous=FULL) makes them all durable before any of their promises resolves.
 * A unit that throws is rolled back to its savepoint alone.
 *
 * Units must not await real I/O: the repositories resolve synchronously, so a whole batch runs
 * within one macrotask and no other request can observe uncommitted state. Breaking that rule
 * (or nesting units) fails loudly instead of corrupting isolation: a unit that lets the event loop
 * turn is rolled back and rejected with UnitOfWorkMisuseError, whether or not anything collided.
 */
import type Database from 'better-sqlite3';
import type { KernelUnit, Store } from '../main/core/unit-of-work.js';
import { StorageUnavailableError } from '../main/core/kernel.js';
import { createRepositories, wholeUnit, type Repositories } from './repositories.js';
import { sqliteSql, type QueueName } from './sql.js';

interface Pending {
  work: (tx: Repositories) => Promise<unknown>;
  /** A claim (store.claim): wakes no commit listener unless another unit of the batch does. */
  quiet: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** SQLite's words for "cannot write here" become the core's StorageUnavailableError. */
export function storageError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  if (code === 'SQLITE_FULL') return new StorageUnavailableError('full');
  if (code.startsWith('SQLITE_READONLY')) return new StorageUnavailableError('read_only');
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN') return new StorageUnavailableError('io');
  return error;
}

export class UnitOfWorkMisuseError extends Error {
  override name = 'UnitOfWorkMisuseError';
}

export class SqliteStore implements Store<Repositories> {
  readonly repositories: Repositories;
  private queue: Pending[] = [];
  private scheduled = false;
  private inBatch = false;
  private closed = false;
  private idle: Promise<void> = Promise.resolve();
  private readonly commitListeners: Array<{ listener: () => void; queue: QueueName | undefined }> = [];
  /** Queues written by the batch's units that are not quiet (SqlDatabase.touch). */
  private touched = new Set<QueueName>();
  /** The unit running now is quiet: its writes to a queue wake nobody (a worker giving claims back). */
  private quietUnit = false;
  /** Prepared once: exec() would parse them again for every unit. */
  private readonly tx: Record<'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit' | 'rollback', Database.Statement>;

  /** Store.configurationGeneration: this process's count of configuration writes it ran or saw. */
  private generation = 0;
  /** A unit of the running batch wrote the configuration (SqlDatabase.configurationWritten). */
  private configurationWritten = false;
  /** SQLite's count of commits by other connections (another process: the administrative commands). */
  private readonly dataVersion: Database.Statement;
  private seenDataVersion: unknown;

  constructor(readonly db: Database.Database) {
    this.repositories = createRepositories(
      sqliteSql(
        db,
        (queue) => {
          if (!this.quietUnit) this.touched.add(queue);
        },
        () => {
          this.configurationWritten = true;
        },
      ),
    );
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.seenDataVersion = this.dataVersion.get();
    this.tx = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT unit'),
      release: db.prepare('RELEASE unit'),
      rollbackTo: db.prepare('ROLLBACK TO unit'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
  }

  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.enqueue(work, false);
  }

  private enqueue<T>(work: (tx: Repositories) => Promise<T>, quiet: boolean): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    if (this.inBatch) {
      return Promise.reject(
        new UnitOfWorkMisuseError('store.run was called while a unit of work is open (nested unit, or a unit awaited I/O)'),
      );
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, quiet, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.idle = this.flush();
        });
      }
    });
  }

  /** SQLite has one writer: every unit is as atomic as a single statement already. */
  runAtomic<T>(work: (tx: Repositories) => Promise<T>, options: { quiet?: boolean } = {}): Promise<T> {
    return this.enqueue(work, options.quiet ?? false);
  }

  /**
   * Called after a durable commit: with `queue`, only when a unit of the batch that is not quiet
   * wrote to that queue (to wake its worker); without, after every batch with a unit not quiet.
   */
  onCommit(listener: () => void, queue?: QueueName): void {
    this.commitListeners.push({ listener, queue });
  }

  async read<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    if (this.inBatch) throw new UnitOfWorkMisuseError('store.read was called while a unit of work is open');
    return work(this.repositories);
  }

  readEach<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.read(work);
  }

  /**
   * Changes when this process's units wrote the configuration (counted when their batch ends) or
   * another process committed anything to the database (`PRAGMA data_version`, one statement that
   * reads no page): outside a batch this connection sees only committed state, so what was read at
   * one generation is what the database holds while it lasts.
   */
  configurationGeneration(): number {
    const version = this.dataVersion.get();
    if (version !== this.seenDataVersion) {
      this.seenDataVersion = version;
      this.generation++;
    }
    return this.generation;
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    this.inBatch = true;
    try {
      this.tx.begin.run();
      for (const item of batch) {
        this.tx.savepoint.run();
        this.quietUnit = item.quiet;
        // A unit that awaits real I/O lets the event loop turn: this probe then runs before the
        // unit ends, and the unit fails at once instead of only when another caller collides with it.
        let yielded = false;
        const probe = setImmediate(() => {
          yielded = true;
        });
        try {
          const value = await item.work(this.repositories);
          clearImmediate(probe);
          if (yielded)
            throw new UnitOfWorkMisuseError(
              'a unit of work awaited I/O: it let the event loop turn before it ended (do the I/O before or after the unit)',
            );
          this.tx.release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          clearImmediate(probe);
          this.tx.rollbackTo.run();
          this.tx.release.run();
          outcomes.push({ ok: false, error: storageError(error) });
        }
      }
      this.tx.commit.run();
    } catch (error) {
      // Nothing of the batch was committed (e.g. the disk filled up at COMMIT): every unit fails,
      // none was acknowledged, and the next batch starts afresh once the disk has room again.
      try {
        if (this.db.inTransaction) this.tx.rollback.run();
      } catch {
        // SQLite rolls a failed transaction back itself when it cannot go on.
      }
      this.inBatch = false;
      this.touched = new Set();
      this.endConfigurationWrites();
      const failure = storageError(error);
      for (const item of batch) item.reject(failure);
      return;
    }
    this.inBatch = false;
    this.endConfigurationWrites();
    const touched = this.touched;
    this.touched = new Set();
    const loud = batch.some((item) => !item.quiet);
    for (const { listener, queue } of this.commitListeners) if (queue ? touched.has(queue) : loud) listener();
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome?.error);
    });
  }

  /** At a batch's end: a unit that wrote the configuration makes what was read of it stale. */
  private endConfigurationWrites(): void {
    if (!this.configurationWritten) return;
    this.configurationWritten = false;
    this.generation++;
  }

  /** Waits for queued units to commit, then closes the database. */
  viewOf(tx: KernelUnit): Repositories {
    return wholeUnit(tx);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    while (this.scheduled || this.queue.length > 0 || this.inBatch) {
      await new Promise((resolve) => setImmediate(resolve));
      await this.idle;
    }
    this.closed = true;
    this.db.close();
  }
}

/**
 * Gives back every claim on the outbox and the mail queues (migration 22). On SQLite one process
 * owns the data directory (instance-lock.ts), so at its start any claim left is a dead process's:
 * its postbacks and e-mails are sent now instead of when the lease would end. Only claimed rows
 * are waiting ones, which the partial `_claimable` indexes hold.
 */
export function releaseQueueClaims(db: Database.Database): number {
  let released = 0;
  db.transaction(() => {
    released += db
      .prepare("UPDATE postback_outbox SET claimed_by = NULL, claim_until = NULL WHERE state = 'pending' AND claimed_by IS NOT NULL")
      .run().changes;
    released += db
      .prepare("UPDATE emails SET claimed_by = NULL, claim_until = NULL WHERE status = 'queued' AND claimed_by IS NOT NULL")
      .run().changes;
    released += db
      .prepare("UPDATE receipt_emails SET claimed_by = NULL, claim_until = NULL WHERE status = 'queued' AND claimed_by IS NOT NULL")
      .run().changes;
  })();
  return released;
}
