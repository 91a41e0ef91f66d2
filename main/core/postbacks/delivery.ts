/**
 * Postback delivery (interface.md "Postbacks", decisions.md D7): at-least-once from the durable
 * outbox. Each due record is signed and POSTed; 2xx within the timeout is delivered, anything
 * else is retried after 1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h, then every 24 h until 3 days
 * have passed (all scaled by the retry scale), then failed. Every attempt is recorded with its
 * HTTP status and an event-log entry of type `postback`. Concurrency is bounded overall and per
 * receiver, so a slow receiver delays only its own postbacks and never the API.
 */
import type { Clock, Ids, Logger, OutboxRecord, PostbackAttemptRecord, Store, Vault } from '../ports.js';
import { WakeableLoop } from '../wakeable-loop.js';
import { signPostback } from './signing.js';

const MINUTE = 60_000;
export const RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360, 720].map((m) => m * MINUTE);
export const LATER_RETRY_MS = 24 * 60 * MINUTE;
export const GIVE_UP_AFTER_MS = 3 * 24 * 60 * MINUTE;

export type SendResult =
  | { kind: 'response'; status: number }
  | { kind: 'network_error'; message: string }
  | { kind: 'refused'; message: string };

/** Sends one HTTP POST; never throws. The adapter enforces the address policy and the timeout. */
export interface PostbackSender {
  send(request: { url: string; body: string; headers: Record<string, string>; timeoutMs: number }): Promise<SendResult>;
}

export interface DeliverySettings {
  retryScale: number;
  timeoutMs: number;
  concurrency: number;
  perReceiver: number;
  /** Idle poll interval; wake() shortens it after a commit that queued postbacks. */
  pollMs: number;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = { retryScale: 1, timeoutMs: 10_000, concurrency: 32, perReceiver: 4, pollMs: 250 };

/** When to try again after `failedAttempts` failures, or null to give up. */
export function nextAttemptAt(createdAt: Date, now: Date, failedAttempts: number, scale: number): Date | null {
  const delay = (RETRY_DELAYS_MS[failedAttempts - 1] ?? LATER_RETRY_MS) * scale;
  const next = new Date(now.getTime() + delay);
  return next.getTime() - createdAt.getTime() > GIVE_UP_AFTER_MS * scale ? null : next;
}

function receiverOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export class PostbackDelivery {
  private readonly inFlight = new Set<string>();
  private readonly perReceiver = new Map<string, number>();
  private readonly loop: WakeableLoop;
  private lastDeepScan = Number.NEGATIVE_INFINITY;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly vault: Vault,
    private readonly sender: PostbackSender,
    private readonly logger: Logger,
    private readonly settings: DeliverySettings,
  ) {
    this.loop = new WakeableLoop(
      () => this.pump(),
      (error) => this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'postback pump failed'),
      settings.pollMs,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops taking new work and waits for attempts in flight to be recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.running]);
  }

  wake(): void {
    this.loop.wake();
  }

  /** Starts every due attempt that fits in the concurrency limits; resolves with the poll interval. */
  private async pump(): Promise<number> {
    const free = this.settings.concurrency - this.inFlight.size;
    if (free <= 0) return this.settings.pollMs;
    const now = this.clock.now().toISOString();
    let limit = free + this.inFlight.size + 64;
    for (;;) {
      const due = await this.store.read((r) => r.outbox.due(now, limit));
      for (const record of due) {
        if (this.inFlight.size >= this.settings.concurrency) break;
        if (this.inFlight.has(record.id)) continue;
        const receiver = receiverOf(record.url);
        if ((this.perReceiver.get(receiver) ?? 0) >= this.settings.perReceiver) continue;
        this.launch(record, receiver);
      }
      // A full page with free slots left means records in flight or of busy receivers filled
      // it: look further, so that a backlog for a slow receiver never holds back the others.
      // Such deeper scans run at most once per poll interval.
      if (due.length < limit || this.inFlight.size >= this.settings.concurrency) break;
      if (performance.now() - this.lastDeepScan < this.settings.pollMs) break;
      this.lastDeepScan = performance.now();
      limit *= 4;
    }
    return this.settings.pollMs;
  }

  private launch(record: OutboxRecord, receiver: string): void {
    this.inFlight.add(record.id);
    this.perReceiver.set(receiver, (this.perReceiver.get(receiver) ?? 0) + 1);
    const task = this.attempt(record)
      .catch((error: unknown) => {
        this.logger.error({ event_id: record.id, error: error instanceof Error ? error.message : String(error) }, 'postback attempt could not be recorded');
      })
      .finally(() => {
        this.inFlight.delete(record.id);
        const left = (this.perReceiver.get(receiver) ?? 1) - 1;
        if (left <= 0) this.perReceiver.delete(receiver);
        else this.perReceiver.set(receiver, left);
        this.running.delete(task);
        this.wake();
      });
    this.running.add(task);
  }

  /** One delivery attempt of one record, recorded in one unit of work. */
  async attempt(record: OutboxRecord): Promise<void> {
    const merchant = await this.store.read((r) => r.merchants.get(record.merchantId));
    if (!merchant) throw new Error(`merchant ${record.merchantId} not found`);
    const started = this.clock.now();
    const previousValid = merchant.previousWebhookKeySealed && merchant.previousWebhookKeyUntil && merchant.previousWebhookKeyUntil > started.toISOString();
    const attemptNumber = record.attempts + 1;
    const signed = signPostback(
      record.payload,
      { eventId: record.id, sequence: record.sequence, attempt: attemptNumber, timestampSeconds: Math.floor(started.getTime() / 1000) },
      {
        current: this.vault.open(merchant.webhookKeySealed),
        ...(previousValid ? { previous: this.vault.open(merchant.previousWebhookKeySealed as string) } : {}),
      },
    );
    const t0 = performance.now();
    const result = await this.sender.send({ url: record.url, body: signed.rawBody, headers: signed.headers, timeoutMs: this.settings.timeoutMs });
    const durationMs = Math.round(performance.now() - t0);
    const now = this.clock.now();

    const delivered = result.kind === 'response' && result.status >= 200 && result.status < 300;
    const refused = result.kind === 'refused';
    const failure = delivered ? null : result.kind === 'response' ? `HTTP ${result.status}` : result.message;
    const next = delivered || refused ? null : nextAttemptAt(new Date(record.retryFrom ?? record.createdAt), now, (record.windowAttempts ?? record.attempts) + 1, this.settings.retryScale);
    const state: OutboxRecord['state'] = delivered ? 'delivered' : next ? 'pending' : 'failed';
    const attempt: PostbackAttemptRecord = {
      id: this.ids.newId(),
      outboxId: record.id,
      attempt: attemptNumber,
      httpStatus: result.kind === 'response' ? result.status : null,
      outcome: delivered ? 'delivered' : refused ? 'refused' : 'failed',
      error: failure,
      durationMs,
      createdAt: now.toISOString(),
    };
    const message = delivered
      ? `delivered: HTTP ${(result as { status: number }).status} in ${durationMs} ms (attempt ${attemptNumber})`
      : `${failure} (attempt ${attemptNumber}); ${next ? `next attempt at ${next.toISOString()}` : 'no more attempts'}`;

    await this.store.run(async (tx) => {
      await tx.outbox.appendAttempt(attempt);
      await tx.outbox.settle(record.id, state, (next ?? now).toISOString(), failure, delivered ? now.toISOString() : null);
      if (record.subjectType === 'transaction') {
        await tx.events.append({
          id: this.ids.newId(),
          transactionId: record.subjectId,
          type: 'postback',
          status: typeof record.payload.status_code === 'number' ? record.payload.status_code : 0,
          amountMinor: 0,
          executionDate: null,
          message,
          createdAt: now.toISOString(),
        });
      }
    });
    if (!delivered) this.logger.info({ event_id: record.id, attempt: attemptNumber, outcome: attempt.outcome, error: failure }, 'postback not delivered');
  }

  /** Runs every due attempt now and waits for them (tests and the CLI). */
  async drain(): Promise<void> {
    for (;;) {
      const due = await this.store.read((r) => r.outbox.due(this.clock.now().toISOString(), 100));
      const fresh = due.filter((record) => !this.inFlight.has(record.id));
      if (fresh.length === 0 && this.running.size === 0) return;
      for (const record of fresh) this.launch(record, receiverOf(record.url));
      await Promise.allSettled([...this.running]);
    }
  }
}
