/**
 * What a sale reads of the configuration before its unit (its terminal's shop, the payment method's
 * settings, its till, the printer's auto-print), remembered between sales while the store says it
 * cannot have changed (`Store.configurationGeneration`, docs/decisions.md "The sale's configuration,
 * remembered"). On PostgreSQL those reads are a round trip of their own for every payment; a shop's
 * configuration changes a few times a day.
 *
 * An entry is used again only while the store's generation is the one it was read at, and for at
 * most `maxAgeMs` (a bound on staleness should a change never be heard of). A value read while the
 * generation moved is used for its own request and not kept: it may predate the change. Values are
 * frozen, so a caller cannot change what the next sale is given.
 */
export interface ConfigurationCacheOptions {
  /** How long an entry may be used at most, whatever the generation says (default 1 s). */
  maxAgeMs?: number;
  /** Entries kept at most; beyond that the cache starts over (default 10,000). */
  maxEntries?: number;
  /** Milliseconds of a monotonic clock (default performance.now). */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  readAt: number;
}

export class ConfigurationCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** The generation the entries were read at. */
  private generation: number | undefined;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly generationOf: () => number | undefined,
    options: ConfigurationCacheOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 1000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** The value for `key`: remembered, or read by `load` (and remembered when nothing changed meanwhile). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const generation = this.generationOf();
    if (generation === undefined) {
      this.entries.clear();
      return load();
    }
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.readAt < this.maxAgeMs) return entry.value;
    const value = deepFreeze(await load());
    if (this.generationOf() === generation && this.generation === generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, readAt: now });
    }
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
