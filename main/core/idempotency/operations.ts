/**
 * Runs one state-changing operation: its single unit of work commits the state change, the event
 * log entry, the postback outbox record and the idempotency record together. Operations that end
 * without committing (e.g. "not found") still record their answer for the idempotency key.
 */
import { answerOf, type Outcome } from '../errors.js';
import { IdempotencyConflict, IdempotencyKeyTaken, isStorable, type Idempotency, type IdempotencyScope } from './idempotency.js';
import type { Repositories, Store } from '../unit-of-work.js';

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

  /** The operation's one write unit; its outcome is the answer stored for the idempotency key. */
  async commit<T>(work: (tx: Repositories) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    return this.store.run(async (tx) => {
      const result = await work(tx);
      await this.recordIn(tx, result);
      return result;
    });
  }

  /** Called once the operation has its outcome: records it if `commit` did not. */
  async finish<T>(outcome: Outcome<T>): Promise<Outcome<T>> {
    if (!this.recorded && this.context.idempotency && isStorable(answerOf(outcome))) {
      await this.store.run((tx) => this.recordIn(tx, outcome));
    }
    return outcome;
  }

  /** Takes the key with the answer in the unit (the claim is the answer: idempotency.ts). */
  private async recordIn<T>(tx: Repositories, outcome: Outcome<T>): Promise<void> {
    const scope = this.context.idempotency;
    if (this.recorded || !scope) return;
    const answer = answerOf(outcome);
    if (!isStorable(answer)) return;
    await this.idempotency.take(tx, scope, answer);
    this.recorded = true;
  }
}

export class Operations {
  constructor(
    private readonly store: Store,
    private readonly idempotency: Idempotency,
  ) {}

  /**
   * Runs the operation. When its unit found the key taken (another instance's answer committed
   * first, or a fence), nothing of it committed and IdempotencyConflict says what to answer.
   */
  async perform<T>(context: OperationContext, body: (operation: Operation) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const operation = new Operation(this.store, this.idempotency, context);
    try {
      return await operation.finish(await body(operation));
    } catch (error) {
      if (error instanceof IdempotencyKeyTaken && context.idempotency) throw new IdempotencyConflict(await this.idempotency.settle(context.idempotency));
      throw error;
    }
  }
}
