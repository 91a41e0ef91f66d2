/**
 * Runs one state-changing operation: its single unit of work commits the state change, the event
 * log entry, the postback outbox record, the audit entry of a staff member's change and the
 * idempotency record together. Operations that end without committing (e.g. "not found") still
 * record their answer for the idempotency key.
 */
import { answerOf, type Answer, type Outcome } from '../errors.js';
import { IdempotencyConflict, IdempotencyKeyTaken, inFlight, isStorable, type Idempotency, type IdempotencyScope } from './idempotency.js';
import type { Clock, Ids } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { IdempotencyUnit } from './ports.js';

export interface OperationContext {
  merchantId: string;
  idempotency?: IdempotencyScope;
  /** The staff member whose session sent the request (a till's cashier); absent for API credentials. */
  staffId?: string;
  /** The manager whose single-use approval a cashier's change used (X-Manager-Approval). */
  approvedBy?: string;
  /**
   * The till the request comes from, where the gateway knows it: a joined till's own credential, or
   * the till a till screen holds. A card-present sale made by it is that till's (D19).
   */
  tillId?: string;
  /** `tillId` is a joined till's, from its own credential: its sales may not name another till (D20). */
  tillCredential?: boolean;
  /** The caller means a card-present sale that repeats an earlier one (X-Repeat-Sale: confirmed). */
  repeatConfirmed?: boolean;
  /** A staff member's change that the audit log keeps: written in the change's own unit of work. */
  audit?: AuditIntent;
  /**
   * The answer's body as JSON as the transport will send it (the HTTP route's serializer), made
   * once: the idempotency record stores these bytes, and the reply sends them. Undefined: the
   * record stores JSON.stringify's.
   */
  serialize?: (answer: Answer) => string | undefined;
}

/** What the audit log says of a change: its action, and its subject and detail from what it did. */
export interface AuditIntent {
  action: string;
  describe(value: unknown): { subjectId: string | null; detail: string | null };
}

export interface OperationDeps {
  /** Where an operation that committed nothing records its answer. */
  store: Store<IdempotencyUnit>;
  idempotency: Idempotency;
  ids: Ids;
  clock: Clock;
}

export class Operation {
  private recorded = false;
  private audited = false;

  constructor(
    private readonly deps: OperationDeps,
    readonly context: OperationContext,
  ) {}

  /**
   * The operation's one write unit; its outcome is the answer stored for the idempotency key, and a
   * staff member's change is audited in it: the change and its audit entry commit together or not
   * at all. What the unit wrote counts once it committed: a unit the store runs again (PostgreSQL
   * after a serialization failure) writes the answer and the entry again. `store`: the calling
   * feature's, so `work` sees the unit through that feature's view.
   */
  async commit<T, Unit extends IdempotencyUnit>(store: Store<Unit>, work: (tx: Unit) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    let recorded = false;
    let audited = false;
    const result = await store.run(async (tx) => {
      const result = await work(tx);
      audited = result.ok && !this.audited ? await this.auditIn(tx, result.value) : false;
      recorded = this.recorded ? false : await this.recordIn(tx, result);
      return result;
    });
    if (recorded) this.recorded = true;
    if (audited) this.audited = true;
    return result;
  }

  /** Writes the audit entry of a staff member's change in `tx`; true when it wrote one. */
  private async auditIn(tx: IdempotencyUnit, value: unknown): Promise<boolean> {
    const { audit, staffId, merchantId, approvedBy } = this.context;
    if (!audit || !staffId) return false;
    const { subjectId, detail } = audit.describe(value);
    const at = this.deps.clock.now().toISOString();
    await tx.audit.record({
      id: this.deps.ids.newId(),
      merchantId,
      staffId,
      approvedBy: approvedBy ?? null,
      action: audit.action,
      subjectId,
      detail,
      createdAt: at,
    });
    return true;
  }

  /** Called once the operation has its outcome: records it if `commit` did not. */
  async finish<T>(outcome: Outcome<T>): Promise<Outcome<T>> {
    if (!this.recorded && this.context.idempotency && isStorable(answerOf(outcome))) {
      await this.deps.store.run((tx) => this.recordIn(tx, outcome));
      this.recorded = true;
    }
    return outcome;
  }

  /** Takes the key with the answer in the unit (the claim is the answer: idempotency.ts); true when it did. */
  private async recordIn<T>(tx: IdempotencyUnit, outcome: Outcome<T>): Promise<boolean> {
    const scope = this.context.idempotency;
    if (!scope) return false;
    const answer = answerOf(outcome);
    if (!isStorable(answer)) return false;
    const json = this.context.serialize?.(answer);
    if (json !== undefined) answer.json = json;
    await this.deps.idempotency.take(tx, scope, answer);
    return true;
  }
}

export class Operations {
  constructor(private readonly deps: OperationDeps) {}

  /**
   * Runs the operation. When its unit found the key taken (an answer stored earlier by any
   * instance, or a fence), nothing of it committed and IdempotencyConflict says what to answer. An
   * answer that is never stored (a refused request, a failure) is not given for a key that holds
   * an answer already: that one is (nothing was looked up before: Idempotency.start).
   */
  async perform<T>(context: OperationContext, body: (operation: Operation) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    for (let attempt = 1; ; attempt++) {
      const operation = new Operation(this.deps, context);
      try {
        const outcome = await body(operation);
        if (context.idempotency && !isStorable(answerOf(outcome))) {
          const settled = await this.deps.idempotency.settle(context.idempotency);
          if (settled) throw new IdempotencyConflict(settled);
        }
        return await operation.finish(outcome);
      } catch (error) {
        if (!(error instanceof IdempotencyKeyTaken) || !context.idempotency) throw error;
        const settled = await this.deps.idempotency.settle(context.idempotency);
        // The key held nothing live any more (a dead process's claim, removed; a record that expired
        // meanwhile): the operation runs once more, and then answers as a request in flight.
        if (settled || attempt >= 2) throw new IdempotencyConflict(settled ?? inFlight());
      }
    }
  }
}
