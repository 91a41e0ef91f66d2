/**
 * A background loop for workers that poll durable queues (scheduled tasks, postbacks): one pass at
 * a time, on a timer, and at once when woken (e.g. after a commit that queued work). A wake during a
 * pass runs another pass right after it, so no work queued meanwhile waits for the timer.
 */
export class WakeableLoop {
  private timer: NodeJS.Timeout | undefined;
  /** A pass asked for by wake(): setImmediate, not setTimeout(0), which waits at least 1 ms. */
  private immediate: NodeJS.Immediate | undefined;
  private stopped = true;
  private running = false;
  private again = false;
  private current: Promise<void> = Promise.resolve();
  /** The loop's passes and exclusive() work, one after the other. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    /** One pass over the queue; resolves with how long to sleep before the next unless woken. */
    private readonly pass: () => Promise<number>,
    private readonly onError: (error: unknown) => void,
    private readonly errorDelayMs = 1000,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  /** Stops the timer and waits for a pass in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    await this.current;
  }

  /**
   * Runs `work` (a pass of the caller's own: tests, the CLI) between the loop's passes: it waits for
   * a pass in progress, and no pass starts until it ends. A pass the caller runs then never races the
   * loop's for the same claims, so when it returns, what was due has been handled by one or the
   * other. `work` must not wait for the loop.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.immediate) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.immediate = setImmediate(() => {
      this.immediate = undefined;
      this.current = this.tick();
    });
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.current = this.tick();
    }, ms);
    if (ms > 0) this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (this.stopped) return;
    this.running = true;
    let sleep = this.errorDelayMs;
    try {
      sleep = await this.exclusive(async () => {
        let next: number;
        do {
          this.again = false;
          next = await this.pass();
        } while (this.again && !this.stopped);
        return next;
      });
    } catch (error) {
      this.onError(error);
      sleep = this.errorDelayMs;
    } finally {
      this.running = false;
    }
    if (!this.stopped && !this.timer && !this.immediate) this.schedule(sleep);
  }
}
