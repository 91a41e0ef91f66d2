/**
 * Durable scheduled tasks (settlement after the simulated delay, expiry of customer actions and
 * authorizations). Tasks are rows written in the same unit as the change that needs them, so a
 * restart forgets nothing. Handlers must be idempotent: a crash after the handler's unit and
 * before the task is marked done runs it again, and guarded transitions make that harmless.
 *
 * Several instances on one database run each task once: a runner claims a due task (its due time
 * moves to the end of a lease, if it still is what the runner read) before running it, and a task
 * whose runner died becomes due again when the lease ends.
 */
import type { Clock, Ids, Logger, ScheduledTask } from './kernel.js';
import type { KernelUnit, Store } from './unit-of-work.js';
import { WakeableLoop } from './wakeable-loop.js';

export type TaskHandler = (task: ScheduledTask) => Promise<void>;

const BATCH = 50;
const MAX_SLEEP_MS = 60_000;
const MAX_ATTEMPTS = 20;
/** How long a claimed task is left to its runner before another may take it. */
export const TASK_LEASE_MS = 5 * 60 * 1000;

export class Scheduler {
  private readonly handlers = new Map<string, TaskHandler>();
  private readonly loop: WakeableLoop;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly logger: Logger,
  ) {
    this.loop = new WakeableLoop(
      async () => {
        await this.runDuePass();
        const next = await this.store.read((r) => r.tasks.nextDueAt());
        return next === undefined ? MAX_SLEEP_MS : Math.min(Math.max(Date.parse(next) - this.clock.now().getTime(), 0), MAX_SLEEP_MS);
      },
      (error) => this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'scheduler pass failed'),
    );
  }

  register(kind: string, handler: TaskHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Adds a task inside the caller's unit of work; call `wake()` after it commits. */
  async schedule(tx: KernelUnit, kind: string, subjectId: string, merchantId: string, dueAt: Date): Promise<void> {
    await tx.tasks.insert({
      id: this.ids.newId(),
      kind,
      subjectId,
      merchantId,
      dueAt: dueAt.toISOString(),
      state: 'pending',
      attempts: 0,
      lastError: null,
      createdAt: this.clock.now().toISOString(),
    });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Looks for due tasks soon (after a commit that scheduled one). */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Runs every task that is due now; used by the timer and by tests that move the clock. Passes of
   * one process run one after the other: a pass started while another runs waits for it, so when
   * it returns, the tasks that were due have run, whichever of the two ran them (a task the other
   * pass claimed is not due for this one).
   */
  runDue(): Promise<number> {
    return this.loop.exclusive(() => this.runDuePass());
  }

  private async runDuePass(): Promise<number> {
    let count = 0;
    for (;;) {
      const due = await this.store.read((r) => r.tasks.due(this.clock.now().toISOString(), BATCH));
      if (due.length === 0) return count;
      for (const task of due) {
        const until = new Date(this.clock.now().getTime() + TASK_LEASE_MS).toISOString();
        if (!(await this.store.runAtomic((tx) => tx.tasks.claim(task.id, task.dueAt, until), { quiet: true }))) continue;
        await this.runTask(task);
        count += 1;
      }
      if (due.length < BATCH) return count;
    }
  }

  private async runTask(task: ScheduledTask): Promise<void> {
    const handler = this.handlers.get(task.kind);
    try {
      if (!handler) throw new Error(`no handler for task kind ${task.kind}`);
      await handler(task);
      await this.store.run((tx) => tx.tasks.finish(task.id, 'done', null));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ task_id: task.id, kind: task.kind, attempts: task.attempts + 1, error: message }, 'scheduled task failed');
      if (task.attempts + 1 >= MAX_ATTEMPTS) {
        await this.store.run((tx) => tx.tasks.finish(task.id, 'failed', message));
      } else {
        const delay = Math.min(2 ** task.attempts * 1000, 60 * 60 * 1000);
        await this.store.run((tx) => tx.tasks.retry(task.id, new Date(this.clock.now().getTime() + delay).toISOString(), message));
      }
    }
  }
}
