/**
 * Hears, on a connection of its own, that another instance changed the configuration a sale reads
 * before its unit (migration 35: a statement trigger on those tables sends NOTIFY on
 * `tillgate_configuration` when the change commits), and counts it, so what this instance remembers
 * of it is not used again (Store.configurationGeneration, main/core/configuration-cache.ts).
 *
 * LISTEN is session state: through a transaction pooler (PgBouncer in transaction mode) the
 * connection would not hear. So the listener proves it hears before it is trusted: after LISTEN it
 * sends a notification of its own through the pool and waits for it. Until it heard its own, and from
 * the moment its connection fails until a new one heard its own again, `generation()` answers
 * undefined and nothing is remembered. A lost connection is opened again after `retryMs`, doubled
 * after each failure in a row (up to a minute).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export const CONFIGURATION_CHANNEL = 'tillgate_configuration';

export interface ConfigurationListenerOptions {
  /** Wait between a failed or lost connection and the next (default 1 s). */
  retryMs?: number;
  /** How long the listener waits to hear its own notification (default 5 s). */
  helloTimeoutMs?: number;
  /** Told each time the listener cannot connect or hear (a log line); the listener tries again. */
  onError?: (error: unknown) => void;
}

export class ConfigurationListener {
  private count = 0;
  private hearing = false;
  private closed = false;
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly retryMs: number;
  /** The next wait before connecting again: doubled after each failure, up to a minute. */
  private delay: number;
  private readonly helloTimeoutMs: number;

  constructor(
    private readonly url: string,
    /** Where the listener's own notification is sent from: the store's pool. */
    private readonly pool: pg.Pool,
    private readonly options: ConfigurationListenerOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 1000;
    this.delay = this.retryMs;
    this.helloTimeoutMs = options.helloTimeoutMs ?? 5000;
  }

  /** A number that changes with every change heard of, and undefined while the listener does not hear. */
  generation(): number | undefined {
    return this.hearing ? this.count : undefined;
  }

  /** This instance changed the configuration itself (its unit ended): counted at once, not when heard. */
  changed(): void {
    this.count++;
  }

  start(): void {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, application_name: 'tillgate-configuration' });
    this.client = client;
    const hello = randomUUID();
    let heard: () => void = () => undefined;
    const heardHello = new Promise<void>((resolve) => (heard = resolve));
    client.on('notification', (message) => {
      if (message.channel !== CONFIGURATION_CHANNEL) return;
      this.count++;
      if (message.payload === hello) heard();
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the configuration listener connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CONFIGURATION_CHANNEL}`);
      await this.pool.query('SELECT pg_notify($1, $2)', [CONFIGURATION_CHANNEL, hello]);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the configuration listener did not hear its own notification')), this.helloTimeoutMs);
        // A process stopping meanwhile does not wait for it.
        timer.unref();
      });
      try {
        await Promise.race([heardHello, timedOut]);
      } finally {
        clearTimeout(timer);
      }
      if (this.client === client && !this.closed) {
        this.hearing = true;
        this.delay = this.retryMs;
      }
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.hearing = false;
    this.count++;
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.onError?.(error);
    this.retry = setTimeout(() => void this.connect(), this.delay);
    this.retry.unref();
    this.delay = Math.min(this.delay * 2, 60_000);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.hearing = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
