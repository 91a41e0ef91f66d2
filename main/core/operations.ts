/**
 * Runs one state-changing operation: its single unit of work commits the state change, the event
 * log entry, the postback outbox record and the idempotency record together. Operations that end
 * without committing (e.g. "not found") still record their reply for the idempotency key.
 */
import { toReply, type Outcome } from './errors.js';
import { isStorable, type Idempotency, type IdempotencyScope } from './idempotency/idempotency.js';
import type { Repositories, Store } from './ports.js';

export interface OperationContext {
  merchantId: string;
  idempotency?: IdempotencyScope;
  /** The staff member whose session sent the request (a till's cashier); absent for API credentials. */
  staffId?: string;
}

export class Operation {
  private recorded = false;

  constructor(
    private readonly store: Store,
    private readonly idempotency: Idempotency,
    readonly context: OperationContext,
  ) {}

  /** The operation's one write unit; its outcome is the reply stored for the idempotency key. */
  async commit<T>(work: (tx: Repositories) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const outcome = await this.store.run(async (tx) => {
      const result = await work(tx);
      await this.recordIn(tx, result);
      return result;
    });
    this.committed();
    return outcome;
  }

  /** Called once the operation has its outcome: records it if `commit` did not. */
  async finish<T>(outcome: Outcome<T>): Promise<Outcome<T>> {
    if (!this.recorded && this.context.idempotency && isStorable(toReply(outcome))) {
      await this.store.run((tx) => this.recordIn(tx, outcome));
      this.committed();
    }
    return outcome;
  }

  /** The reply replaced the key's claim in a committed unit: the request's end has no claim to remove. */
  private committed(): void {
    if (this.recorded && this.context.idempotency) this.context.idempotency.replyStored = true;
  }

  private async recordIn<T>(tx: Repositories, outcome: Outcome<T>): Promise<void> {
    const scope = this.context.idempotency;
    if (this.recorded || !scope) return;
    const reply = toReply(outcome);
    if (!isStorable(reply)) return;
    await tx.idempotency.save(this.idempotency.record(scope, reply));
    this.recorded = true;
  }
}

export class Operations {
  constructor(
    private readonly store: Store,
    private readonly idempotency: Idempotency,
  ) {}

  async perform<T>(context: OperationContext, body: (operation: Operation) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const operation = new Operation(this.store, this.idempotency, context);
    return operation.finish(await body(operation));
  }
}
