/**
 * The gateway processes working on one database, and whether the request a claim stands for can
 * still answer (issue 26; docs/decisions.md "Several tills"). An idempotency claim (written only by
 * versions before issue 27) names the instance that took it. A claim of another instance is dead
 * when that instance stopped beating:
 * on SQLite at once (one process holds the data directory, so every other instance has died), on
 * PostgreSQL once its last beat is INSTANCE_DEAD_MS old. A dead claim is taken over at once, so a
 * till does not wait out a 5-minute lease for a payment whose process was killed.
 */
import type { Clock, Ids } from './kernel.js';
import type { KernelUnit, Store } from './unit-of-work.js';

/** How often an instance on a shared database says it is alive, and when its silence means it died. */
export const INSTANCE_BEAT_MS = 5_000;
export const INSTANCE_DEAD_MS = 20_000;

/** Separates the instance from the request in a claim id. */
const SEPARATOR = '|';

export class Instances {
  readonly id: string;
  private timer: ReturnType<typeof setInterval> | undefined;

  /** `exclusive`: no other process can use the database (SQLite's data-directory lock). */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    ids: Ids,
    name: string,
    private readonly exclusive: boolean,
  ) {
    this.id = `${name}/${ids.newId()}`;
  }

  /**
   * Whether a claim was left by an instance that died. A claim of an instance not seen yet counts as
   * alive for INSTANCE_DEAD_MS after it was taken (its instance may not have beaten yet); claims
   * of older versions (no instance in the id) keep their lease.
   */
  async claimIsDead(r: KernelUnit, claim: { claimId?: string | null; createdAt: string }): Promise<boolean> {
    const at = claim.claimId?.indexOf(SEPARATOR) ?? -1;
    if (!claim.claimId || at <= 0) return false;
    const owner = claim.claimId.slice(0, at);
    if (owner === this.id) return false;
    if (this.exclusive) return true;
    const since = new Date(this.clock.now().getTime() - INSTANCE_DEAD_MS).toISOString();
    if (await r.instances.alive(owner, since)) return false;
    // Not seen lately: dead, unless it has not beaten yet at all and its claim is young.
    return claim.createdAt < since || (await r.instances.known(owner));
  }

  /** Says this instance is alive now. */
  beat(): Promise<void> {
    return this.store.runAtomic((tx) => tx.instances.beat(this.id, this.clock.now().toISOString()), { quiet: true });
  }

  /** Beats now and every INSTANCE_BEAT_MS (shared databases only: nothing else can hold SQLite's). */
  start(onError: (error: unknown) => void): void {
    if (this.exclusive || this.timer) return;
    const beat = () => void this.beat().catch(onError);
    beat();
    this.timer = setInterval(beat, INSTANCE_BEAT_MS);
    this.timer.unref();
  }

  /** A clean stop: its claims are dead at once for the other instances. */
  async stop(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.store.runAtomic((tx) => tx.instances.remove(this.id), { quiet: true });
  }
}
