/**
 * A till's side of its centre (issue 26, parts 1 and 2; docs/decisions.md "Tills joined to a
 * centre"). A gateway joins a centre with a pairing code and from then on is a till: it reports to the
 * centre every second, keeps a replica of the staff and API credentials (so logins and POS software
 * keep working while the centre is away), sends its card-present sales to the centre while it answers,
 * and stores them while it does not: durably, in its own journal, before the approval shows, under
 * the limits the centre set. It forwards what it stored, in order, as soon as the centre answers; the
 * centre creates each under the transaction id the till gave it, so every stored sale reaches it once.
 *
 * A sale passed on to the centre without an answer may have been charged there: it is never stored;
 * a retry with its key waits until the centre answers (`centre_unsettled`).
 */
import type { ForwardEntry, JoinAnswer, JoinSummary, Replica, TillLinkStatus, TillReport } from '../../../contract/api/centre.js';
import type { PaymentRequest, TransactionResponse } from '../../../contract/api/payments.js';
import type { Transaction } from '../../../contract/api/transactions.js';
import { ErrorCode, TransactionStatus as S } from '../../../contract/codes.js';
import { CENTRE_OUTCOME_UNKNOWN } from '../../../contract/constants.js';
import { currencyExponent, minorToAmount, toMinor } from '../../../contract/money.js';
import { apiError, failure, success, type Answer, type Outcome } from '../errors.js';
import type { IdempotencyFence } from '../idempotency/idempotency.js';
import { sealHash } from '../merchants/credentials.js';
import type { Clock, Ids, Logger, Vault } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { CentreUnit } from './ports.js';
import { answerView, CHARGED, declineView, storedView } from './till-views.js';
import { applyCentreLedger, keepRefundCopy, keepSaleCopy, saleOf } from './till-copies.js';
import { daysToSend } from './till-days.js';
import { centreAway, storeSale, type UnitOfWork } from './stored-sales.js';
import {
  CentreAwayError,
  CentreRefusedError,
  type CentreAccess,
  type CentreConnection,
  type CentreFence,
  type CentreLinkRecord,
  type RelayedAnswer,
  type RelayedRequest,
} from './ports.js';

/** How often a till reports, and so how soon it notices the centre is away (or back). */
export const LINK_BEAT_MS = 1000;
/** A report that takes longer than this counts as the centre being away. */
export const LINK_TIMEOUT_MS = 2000;
const FORWARD_BATCH = 50;

export interface TillLinkDeps {
  store: Store<CentreUnit>;
  clock: Clock;
  ids: Ids;
  vault: Vault;
  logger: Logger;
  connection: CentreConnection;
  version: string;
}

/** How a till's sale ended, as its attempt (main/core/till-attempts/attempts.ts) needs it. */
export type AttemptSettlement =
  { state: 'in_progress' } | { state: 'approved'; transaction: Transaction } | { state: 'not_charged'; transaction: Transaction | null };

export type LinkState = { name: 'unlinked' } | { name: 'online'; since: string } | { name: 'away'; since: string; reason: string };

export class TillLink {
  private link: CentreLinkRecord | undefined;
  private loading: Promise<void> | undefined;
  private access: CentreAccess | undefined;
  private state: LinkState = { name: 'unlinked' };
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking: Promise<void> | undefined;
  /** The last of this till's closed days its centre has recorded (from its last heartbeat answer; unknown before the first). */
  private daysRecorded: number | undefined;

  constructor(private readonly deps: TillLinkDeps) {}

  /** Reads the link once (a gateway that never joined stays unlinked and sells as before). */
  ready(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<void> {
    this.link = await this.deps.store.read((r) => r.journal.link());
    if (!this.link) return;
    this.access = {
      url: this.link.centreUrl,
      fingerprint: this.link.fingerprint,
      apiKey: this.link.apiKey,
      apiPassword: this.deps.vault.open(this.link.apiPasswordSealed),
    };
    // Away until the centre has answered once.
    this.state = { name: 'away', since: this.deps.clock.now().toISOString(), reason: 'not checked yet' };
  }

  get linked(): boolean {
    return this.link !== undefined;
  }

  get status(): LinkState {
    return this.state;
  }

  get tillId(): string | undefined {
    return this.link?.tillId;
  }

  /** What the cashier screen shows of the link: the centre's state, what is stored here, the declines not seen yet. */
  async linkStatus(): Promise<TillLinkStatus> {
    await this.ready();
    const link = this.link;
    const { pending, declines } = await this.deps.store.read(async (r) => ({
      pending: await r.journal.pending(),
      declines: link ? await r.journal.unseenDeclines() : [],
    }));
    const state = this.state;
    const ageLimitAt =
      link && pending.oldestAt ? new Date(Date.parse(pending.oldestAt) + link.limits.age_hours * 3_600_000).toISOString() : null;
    return {
      joined: link !== undefined,
      state: state.name,
      since: state.name === 'unlinked' ? null : state.since,
      reason: state.name === 'away' ? state.reason : null,
      centre_url: link?.centreUrl ?? null,
      till_id: link?.tillId ?? null,
      limits: link?.limits ?? null,
      stored: {
        count: pending.count,
        totals: pending.totals.map((t) => ({
          currency: t.currency,
          amount: minorToAmount(t.amountMinor, currencyExponent(t.currency) ?? 2),
        })),
        oldest_at: pending.oldestAt,
        age_limit_at: ageLimitAt,
      },
      declines: declines.map(declineView),
    };
  }

  /** The cashier has seen a forwarded decline (it stays in the centre's "Needs attention" until settled there). */
  async declineSeen(transactionId: string): Promise<Outcome<TillLinkStatus>> {
    const stored = await this.deps.store.read((r) => r.journal.byTransaction(transactionId));
    if (!stored || stored.forwardedAt === null || stored.outcomeStatusCode === S.completed) {
      return failure(
        apiError(ErrorCode.notFound, 'No forwarded decline with this id at this till', [
          { field: 'transaction_id', message: 'is not a forwarded decline of this till' },
        ]),
      );
    }
    if (stored.seenAt === null) await this.deps.store.run((tx) => tx.journal.markSeen(stored.seq, this.deps.clock.now().toISOString()));
    return success(await this.linkStatus());
  }

  /** Joins the centre with a pairing code: the link, the credential (sealed) and the replica, stored here. */
  async join(url: string, code: string): Promise<Outcome<JoinSummary>> {
    if (this.link)
      return failure(
        apiError(ErrorCode.invalidState, `This gateway is a till of ${this.link.centreUrl} already`, [
          { field: 'centre', message: 'is joined already' },
        ]),
      );
    let joined: { answer: JoinAnswer; fingerprint: string | null };
    try {
      joined = await this.deps.connection.join(url, code, this.deps.version);
    } catch (error) {
      if (error instanceof CentreAwayError) return failure(centreAway(`The centre at ${url} does not answer: ${error.message}`));
      if (error instanceof CentreRefusedError) {
        const errors = error.errors.length ? error.errors : [{ field: 'code', message: error.message }];
        return failure(apiError(error.reason === 'not_found' ? ErrorCode.notFound : ErrorCode.validation, error.message, errors));
      }
      throw error;
    }
    const { answer, fingerprint } = joined;
    const record: CentreLinkRecord = {
      centreUrl: url,
      fingerprint,
      merchantId: answer.merchant_id,
      tillId: answer.till_id,
      apiKey: answer.api_key,
      apiPasswordSealed: this.deps.vault.seal(answer.api_password),
      limits: answer.limits,
      joinedAt: this.deps.clock.now().toISOString(),
      replicaDigest: null,
      ledgerCursor: 0,
      shopTillIds: [],
    };
    const access = { url, fingerprint, apiKey: answer.api_key, apiPassword: answer.api_password };
    const replica = await this.deps.connection.replica(access);
    await this.deps.store.run(async (tx) => {
      await tx.journal.saveLink(record);
      await this.keepReplica(tx, replica);
      // The cashier screen here is this till, and no other: nothing to choose.
      if (!(await tx.tills.get(answer.merchant_id, answer.till_id))) {
        await tx.tills.insert({
          merchantId: answer.merchant_id,
          tillId: answer.till_id,
          name: answer.till_name,
          createdAt: record.joinedAt,
          retiredAt: null,
        });
      }
    });
    this.loading = this.load();
    await this.loading;
    return success({
      centre_url: url,
      merchant_id: answer.merchant_id,
      merchant_name: answer.merchant_name,
      till_id: answer.till_id,
      till_name: answer.till_name,
      fingerprint,
      limits: answer.limits,
    });
  }

  /** Reports every LINK_BEAT_MS; forwards what is stored once the centre answers. */
  async start(): Promise<void> {
    await this.ready();
    if (!this.link || this.timer) return;
    const tick = () => {
      this.ticking ??= this.tick().finally(() => {
        this.ticking = undefined;
      });
    };
    tick();
    this.timer = setInterval(tick, LINK_BEAT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** One report, then forwarding while the centre answers; exported for tests (runs what the timer runs). */
  async tick(): Promise<void> {
    const access = this.access;
    const link = this.link;
    if (!access || !link) return;
    try {
      const answer = await this.deps.connection.heartbeat(access, await this.report());
      this.online();
      if (JSON.stringify(answer.limits) !== JSON.stringify(link.limits)) {
        await this.deps.store.run((tx) => tx.journal.setLimits(answer.limits));
        link.limits = answer.limits;
      }
      if (answer.replica_digest !== link.replicaDigest) await this.refreshReplica(access, link);
      if (answer.days_recorded !== undefined) this.daysRecorded = answer.days_recorded;
      const ledger = answer.ledger;
      if (ledger && (ledger.entries.length > 0 || ledger.cursor > link.ledgerCursor)) {
        // Copies of what the centre holds of this till's sales that the till has none of (D19).
        await this.deps.store.run((tx) => applyCentreLedger(tx, this.deps, link, ledger));
        link.ledgerCursor = Math.max(link.ledgerCursor, ledger.cursor);
      }
      await this.forwardAll(access, link);
    } catch (error) {
      if (error instanceof CentreAwayError) this.away(error.message);
      else if (error instanceof CentreRefusedError) this.away(`the centre refused this till: ${error.message}`);
      else this.deps.logger.error({ err: error }, 'till link: report or forwarding failed');
    }
  }

  /** The centre did not answer a request: the till stores from now on, until a report gets through. */
  away(reason: string): void {
    if (this.state.name !== 'away') {
      this.deps.logger.warn({ reason }, 'centre away: card-present sales are stored');
      this.state = { name: 'away', since: this.deps.clock.now().toISOString(), reason };
    }
  }

  private online(): void {
    if (this.state.name !== 'online') {
      this.deps.logger.info({}, 'centre answers: sales go to it again');
      this.state = { name: 'online', since: this.deps.clock.now().toISOString() };
    }
  }

  private async refreshReplica(access: CentreAccess, link: CentreLinkRecord): Promise<void> {
    const replica = await this.deps.connection.replica(access);
    await this.deps.store.run((tx) => this.keepReplica(tx, replica));
    link.replicaDigest = replica.digest;
    link.shopTillIds = replica.till_ids;
  }

  /**
   * Keeps the centre's replica (D20): as the centre gives it, deletions included, with the staff's
   * password and PIN hashes sealed by this gateway's data key, so a copied data file alone gives
   * nothing to guess PINs against (docs/reliability.md "A stolen till").
   */
  private async keepReplica(tx: CentreUnit, replica: Replica): Promise<void> {
    const vault = this.deps.vault;
    const staff = replica.staff.map((p) => ({
      ...p,
      password_hash: sealHash(vault, p.password_hash),
      pin_hash: p.pin_hash === null ? null : sealHash(vault, p.pin_hash),
    }));
    const at = this.deps.clock.now().toISOString();
    const merchantId = replica.merchant.merchant_id;
    await tx.merchants.keepReplica(replica.merchant, vault.seal(this.deps.ids.randomToken(32)));
    await tx.credentials.keepReplica(merchantId, replica.credentials, at);
    await tx.staff.keepReplica(merchantId, staff, at);
    await tx.journal.setShopTills(replica.till_ids);
    await tx.journal.setReplicaDigest(replica.digest);
  }

  /** Sends what is stored, oldest first, batch after batch, while the centre answers. */
  private async forwardAll(access: CentreAccess, link: CentreLinkRecord): Promise<void> {
    for (;;) {
      const batch = await this.deps.store.read((r) => r.journal.unforwarded(FORWARD_BATCH));
      if (batch.length === 0) return;
      const entries: ForwardEntry[] = batch.map((p) => ({
        seq: p.seq,
        transaction_id: p.transactionId,
        stored_at: p.storedAt,
        staff_id: p.staffId,
        request: JSON.parse(this.deps.vault.open(p.requestSealed as string)) as PaymentRequest,
      }));
      const answer = await this.deps.connection.forward(access, entries);
      const now = this.deps.clock.now().toISOString();
      await this.deps.store.run(async (tx) => {
        for (const result of answer.results) {
          if (!(await tx.journal.settle(result.seq, now, result.status_code, result.refused ?? result.message))) continue;
          // This till's copy of the sale ends as it ended at the centre (its day report counted it as taken).
          await tx.transactions.transition(
            result.transaction_id,
            [S.stored],
            { statusCode: result.status_code, message: result.refused ?? result.message },
            now,
          );
        }
      });
      const declined = answer.results.filter((r) => r.status_code !== S.completed);
      if (declined.length)
        this.deps.logger.warn({ till: link.tillId, declined: declined.map((r) => r.seq) }, 'stored sales declined when forwarded');
      // Left out of the answer: still being forwarded by an earlier request; the next report sends them again.
      if (answer.results.length < entries.length) return;
    }
  }

  /**
   * Passes a request on to the centre as it came (POS software's API calls other than a sale); a
   * centre that does not answer is away (CentreAwayError).
   */
  async relay(request: RelayedRequest): Promise<RelayedAnswer> {
    if (!this.access) throw new Error('relay at a till that is not joined');
    if (this.state.name !== 'online') throw new CentreAwayError(this.state.name === 'away' ? this.state.reason : 'not joined');
    try {
      return await this.deps.connection.relay(this.access, request);
    } catch (error) {
      if (error instanceof CentreAwayError) this.away(error.message);
      throw error;
    }
  }

  /**
   * A request of this till's staff (a refund at the cashier screen) passed on to the centre with the
   * till's own credential, naming the staff member (X-Till-Staff); the till checked their session and
   * any manager approval first.
   */
  async relayForStaff(request: RelayedRequest, staffId: string): Promise<RelayedAnswer> {
    const access = this.access;
    if (!access) throw new Error('relay at a till that is not joined');
    const basic = `Basic ${Buffer.from(`${access.apiKey}:${access.apiPassword}`).toString('base64')}`;
    return this.relay({ ...request, headers: { ...request.headers, authorization: basic, 'x-till-staff': staffId } });
  }

  /** A follow-up (refund, capture, reversal) of a sale still stored here waits until it is forwarded. */
  async heldHere(transactionId: string): Promise<boolean> {
    const stored = await this.deps.store.read((r) => r.journal.byTransaction(transactionId));
    return stored !== undefined && stored.forwardedAt === null;
  }

  /** A refund the centre made of one of this till's sales at the till's request, on the till's copy (its day report counts it). */
  async keepRefund(answer: unknown, merchantReference: string | null): Promise<void> {
    if (typeof answer !== 'object' || answer === null || !('refund_id' in answer)) return;
    const refund = answer as {
      refund_id: string;
      transaction_id: string;
      status_code: number;
      amount: number;
      currency: string;
      merchant_refund_id: string | null;
    };
    if (refund.status_code !== 1) return;
    const minor = toMinor(refund.amount, currencyExponent(refund.currency) ?? 2);
    if (!minor.ok) return;
    const at = this.deps.clock.now().toISOString();
    await this.deps.store.run((tx) =>
      keepRefundCopy(tx, {
        refundId: refund.refund_id,
        transactionId: refund.transaction_id,
        amountMinor: minor.minor,
        merchantReference,
        merchantRefundId: refund.merchant_refund_id,
        at,
      }),
    );
  }

  /** What the till tells the centre: what it holds now. */
  async report(): Promise<TillReport> {
    const link = this.link;
    const daysRecorded = this.daysRecorded;
    const { pending, open, day, days } = await this.deps.store.read(async (r) => {
      // The till closes its own day (its copies): the centre shows what the till says of it.
      const previous = link ? await r.dayReports.latestZ(link.merchantId, link.tillId) : undefined;
      const watermark = link ? await r.dayReports.watermark(link.merchantId, link.tillId) : 0;
      return {
        pending: await r.journal.pending(),
        open: link ? (await r.tillAttempts.open(link.merchantId, link.tillId)) !== undefined : false,
        day: { sequence: (previous?.sequence ?? 0) + 1, opened_at: previous?.closedAt ?? null, open: watermark > (previous?.toSeq ?? 0) },
        // The days the centre has not recorded yet, with the entries each counted (D19).
        days: link && daysRecorded !== undefined ? await daysToSend(r, link, daysRecorded) : [],
      };
    });
    return {
      version: this.deps.version,
      stored: {
        count: pending.count,
        oldest_at: pending.oldestAt,
        totals: pending.totals.map((t) => ({
          currency: t.currency,
          amount: minorToAmount(t.amountMinor, currencyExponent(t.currency) ?? 2),
        })),
      },
      open_attempt: open,
      day,
      ...(link ? { ledger_cursor: link.ledgerCursor } : {}),
      ...(days.length > 0 ? { days } : {}),
    };
  }

  /**
   * A card-present sale at this till: sent to the centre while it answers; stored while it does not
   * (within the limits). `key`: the request's idempotency key (a retry of a sale whose answer from the
   * centre was lost is never stored).
   */
  async pay(
    request: PaymentRequest,
    key: string | undefined,
    staffId: string | null,
    unit: UnitOfWork = (work) => this.deps.store.run(work),
    repeatConfirmed = false,
  ): Promise<Outcome<TransactionResponse> | { forwarded: Answer }> {
    const access = this.access;
    if (!access || !this.link) throw new Error('pay at a till that is not joined');
    const scoped = key === undefined ? undefined : `till:${this.link.tillId}:${key}`;
    const wasUnsettled = scoped !== undefined && (await this.unsettled(scoped));
    if (this.state.name === 'online' || wasUnsettled) {
      // Marked before it leaves: a till killed while the centre charges knows to ask the centre
      // (settleAttempt) instead of taking the sale for not charged. One local commit per sale.
      if (scoped !== undefined && !wasUnsettled) {
        const sealed = this.deps.vault.seal(JSON.stringify(request));
        await this.deps.store.run((tx) => tx.journal.markUnsettled(scoped, this.deps.clock.now().toISOString(), sealed, staffId));
      }
      try {
        const answer = await this.deps.connection.pay(access, request, scoped, staffId, repeatConfirmed);
        await this.deps.store.run(async (tx) => {
          if (scoped !== undefined) await tx.journal.clearUnsettled(scoped);
          await keepSaleCopy(tx, this.deps, this.link, request, answer, staffId);
        });
        return { forwarded: answer };
      } catch (error) {
        if (!(error instanceof CentreAwayError)) throw error;
        this.away(error.message);
        if (error.maybeDelivered || wasUnsettled) {
          return failure(
            apiError(
              ErrorCode.centreAway,
              'The centre did not answer after the payment was sent: it may have been charged there. Send it again with the same Idempotency-Key once the centre answers; it is not stored meanwhile.',
              [{ field: 'centre', message: CENTRE_OUTCOME_UNKNOWN }],
            ),
          );
        }
        // It never reached the centre: nothing to ask it later.
        if (scoped !== undefined) await this.deps.store.run((tx) => tx.journal.clearUnsettled(scoped));
      }
    }
    return storeSale(this.deps, this.link, request, staffId, unit, key === undefined && !repeatConfirmed);
  }

  /**
   * How a sale of this till's cashier screen ended (its attempt; `key` the key it was sent with at
   * this till, `local` this till's fence of it). The till's own answer tells, where it has one: the
   * centre's answer as it came back, or the stored sale (with how it ended when forwarded). A sale
   * sent to the centre whose answer was lost is asked of the centre, which fences its key; while the
   * centre is away it stays in progress: nothing is charged again before the outcome is known.
   */
  async settleAttempt(key: string, local: IdempotencyFence): Promise<AttemptSettlement> {
    if (!this.link || !this.access) throw new Error('settleAttempt at a till that is not joined');
    if (local.kind === 'in_flight') return { state: 'in_progress' };
    if (local.kind === 'processed') {
      const answered = await this.settlementOf(local.answer);
      if (answered) return answered;
    }
    const scoped = `till:${this.link.tillId}:${key}`;
    if (!(await this.unsettled(scoped))) return { state: 'not_charged', transaction: null };
    if (this.state.name !== 'online') return { state: 'in_progress' };
    let fence: CentreFence;
    try {
      fence = await this.deps.connection.fence(this.access, scoped);
    } catch (error) {
      if (error instanceof CentreAwayError) {
        this.away(error.message);
        return { state: 'in_progress' };
      }
      throw error;
    }
    if (fence.state === 'in_flight') return { state: 'in_progress' };
    const sent = await this.deps.store.read((r) => r.journal.unsettled(scoped));
    await this.deps.store.run(async (tx) => {
      // Charged at the centre after all: the till keeps its copy, as if the answer had come.
      if (sent?.requestSealed && fence.state === 'processed') {
        await keepSaleCopy(
          tx,
          this.deps,
          this.link,
          JSON.parse(this.deps.vault.open(sent.requestSealed)) as PaymentRequest,
          fence.answer,
          sent.staffId,
        );
      }
      await tx.journal.clearUnsettled(scoped);
    });
    if (fence.state === 'processed') return (await this.settlementOf(fence.answer)) ?? { state: 'not_charged', transaction: null };
    return { state: 'not_charged', transaction: null };
  }

  /** A sale's answer (the centre's, or this till's stored sale) as a settlement; undefined for an error answer. */
  private async settlementOf(reply: Answer): Promise<AttemptSettlement | undefined> {
    const answer = saleOf(reply);
    if (!answer) return undefined;
    const stored = await this.deps.store.read((r) => r.journal.byTransaction(answer.transaction_id));
    const transaction = stored ? storedView(stored) : answerView(answer, this.deps.clock.now().toISOString());
    return CHARGED.has(transaction.status_code) ? { state: 'approved', transaction } : { state: 'not_charged', transaction };
  }

  private unsettled(key: string): Promise<boolean> {
    return this.deps.store.read((r) => r.journal.isUnsettled(key));
  }
}
