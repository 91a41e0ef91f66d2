/**
 * One operation at a time per key (e.g. per transaction), so that check -> processor call ->
 * guarded update cannot interleave for the same transaction inside this process.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async with<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
