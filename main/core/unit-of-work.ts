/**
 * The unit of work: the kernel's ports every unit may use (`KernelUnit`) and the store that runs
 * units of work on SQLite or PostgreSQL (`Store`). Each feature sees a unit through its own view,
 * `Store<XUnit>` with `XUnit` in main/core/<feature>/ports.ts: the repositories of the tables it owns,
 * the kernel's ports, and the narrow ports it declares for what it needs of other features (decisions.md
 * "Feature modules"). This file names no feature; gateway.ts composes every view into one unit and
 * db/repositories.ts implements it. Repositories are async so that a PostgreSQL adapter implements them
 * unchanged; the SQLite adapter resolves synchronously.
 */
import type { AuditLog, InstanceRepository, OperationLockRepository, Outbox, TaskRepository } from './kernel.js';

/** What every unit of work may use, whichever feature runs it: the kernel's tables. */
export interface KernelUnit {
  /** The audit log: who changed what (appended in the unit of the change). */
  audit: AuditLog;
  /** Postbacks queued in the unit of the change they report. */
  outbox: Outbox;
  tasks: TaskRepository;
  operationLocks: OperationLockRepository;
  /** The gateway processes on the database (claims of one that stopped are dead). */
  instances: InstanceRepository;
}

/**
 * Units of work. `run` executes `work` atomically and resolves only after the unit is durably
 * committed; no network or file I/O may happen inside `work` (processor calls, postbacks and
 * e-mails happen outside it). `read` gives consistent reads outside any write unit.
 */
export interface Store<Unit extends KernelUnit = KernelUnit> {
  run<T>(work: (tx: Unit) => Promise<T>): Promise<T>;
  /**
   * A unit of work whose statements are each atomic on their own and depend on no earlier read of
   * the unit: conditional upserts and updates of one row (lock-out counters, single-use approvals,
   * leases) and claims of queue rows (`FOR UPDATE SKIP LOCKED`). On PostgreSQL it runs at READ
   * COMMITTED: units racing for one row queue on its row lock and each sees the version the one
   * before committed (PostgreSQL re-checks an UPDATE's or upsert's condition on it), and claimers
   * pass over each other's locked rows, instead of failing a serialization check and running again
   * (those retries made a burst of guesses at one lock-out bucket from two instances about twice as
   * slow, tests/db/postgres-auth.test.ts). On SQLite it is `run`. `quiet`: wakes no commit listener
   * (a claim or a lease queues nothing new).
   */
  runAtomic<T>(work: (tx: Unit) => Promise<T>, options?: { quiet?: boolean }): Promise<T>;
  read<T>(work: (repos: Unit) => Promise<T>): Promise<T>;
  /**
   * Reads that need no snapshot in common, e.g. one statement: on PostgreSQL each statement runs on
   * its own (autocommit, one round trip, no BEGIN and COMMIT); on SQLite it is `read`.
   */
  readEach<T>(work: (repos: Unit) => Promise<T>): Promise<T>;
  /**
   * Whether what was read of the configuration a sale reads before its unit (its terminal's shop,
   * the payment method's settings, its till, the printer's auto-print) may be used again: a number
   * that changes whenever any of it may have changed, or undefined when the store cannot tell now
   * (read it again). Used by ConfigurationCache (configuration-cache.ts).
   */
  configurationGeneration?(): number | undefined;
  /**
   * A unit of work this store is running, handed to one feature's hook by another feature (a payment's
   * change, followed in the same unit by the checkout or invoice it pays), seen through this store's
   * view. Every unit the adapters run holds every feature's repositories, so this is that same object;
   * anything that is not one of their units is refused (an Error).
   */
  viewOf(tx: KernelUnit): Unit;
  close(): Promise<void>;
}
