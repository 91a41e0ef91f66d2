/**
 * The Test environment's movable clock (`--sim-clock movable`, issue 26): the system's time plus an
 * offset that only grows, so a test can rehearse a two-hour outage or a stored sale reaching the age
 * limit in seconds (POST /test/clock). Never the clock of a gateway that takes real money.
 */
import type { Clock } from '../core/kernel.js';

export class MovableClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves the clock forward; the total offset. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
    return this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }
}
