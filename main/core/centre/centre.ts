/**
 * The centre's side of joined tills (issue 26, parts 1 and 2; docs/decisions.md "Tills joined to a
 * centre"). An admin invites a till with a one-time pairing code; the till joins with it and gets an
 * API credential of its own (a merchant credential: the till is a client of the centre's API like POS
 * software, and revoking it cuts the till off). A joined till reports every few seconds (the centre
 * lists its tills with what they hold) and forwards the sales it stored while the centre was away.
 *
 * Forwarding is exactly once: the till gives each stored sale its transaction id when it stores it,
 * and the centre creates the transaction under that id. A second forward of the same sale (a replayed
 * batch, a cut connection, a restarted till or centre) finds the transaction and answers how it ended;
 * concurrent forwards of one sale queue on its idempotency claim. Timing is never the key.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  ForwardAnswer,
  ForwardEntry,
  ForwardResult,
  HeartbeatAnswer,
  JoinAnswer,
  JoinRequest,
  Replica,
  StoreLimits,
  TillInvite,
  TillReport,
} from '../../../contract/api/centre.js';
import type { TransactionResponse } from '../../../contract/api/payments.js';
import { currencyExponent, minorToText, toMinor } from '../../../contract/money.js';
import { ErrorCode, statusName, TransactionStatus as S } from '../../../contract/codes.js';
import { apiError, created, failure, success, type Outcome } from '../errors.js';
import { IdempotencyConflict, type Idempotency } from '../idempotency/idempotency.js';
import type { Authenticator } from '../merchants/authenticator.js';
import { hashPassword } from '../merchants/credentials.js';
import type { Operations } from '../idempotency/operation-runner.js';
import type { Payments } from '../payments/payments.js';
import type { AuditRecord } from '../kernel.js';
import type { Clock, Ids } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { TransactionRecord } from '../payments/ports.js';
import { defaultTillName, TILL_STAFF_ROLES } from '../../../contract/constants.js';
import type { CentreFence, CentreUnit, TillLinkRecord } from './ports.js';
import { ledgerFor, recordTillDays } from './till-days.js';

/** The answer to a forwarded sale whose id cannot be used, whatever holds it. */
const ID_CONFLICT = 'conflict: transaction_id cannot be used; store the sale under a new id';
/** The decline text of a forwarded sale the centre does not authorize (D20): it shows in "Needs attention". */
export const OVER_LIMITS = "Over the till's limits";
/** How far ahead of the centre's clock a till's clock may run before a sale it stored counts as "still to come". */
const CLOCK_SKEW_MS = 5 * 60_000;

/** What a till may store unless the centre says otherwise (issue 26). */
export const DEFAULT_STORE_LIMITS: StoreLimits = { per_payment: 100, total_per_currency: 1000, count: 200, age_hours: 24 };
export const INVITE_VALID_MS = 24 * 60 * 60 * 1000;
/** How much of the certificate fingerprint a pairing code carries (hex digits): enough that no other certificate matches it. */
const PINNED_HEX = 32;

export interface CentreDeps {
  store: Store<CentreUnit>;
  clock: Clock;
  ids: Ids;
  payments: Payments;
  operations: Operations;
  idempotency: Idempotency;
  /** Lock-out of pairing-code guesses per source, shared with the logins' (D20). */
  auth: Pick<Authenticator, 'begin'>;
  /** The SHA-256 fingerprint of this gateway's HTTPS certificate, or null on plain HTTP (loopback). */
  fingerprint: () => string | null;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The lock-out bucket of pairing attempts from one source address. */
export function joinLockKey(source: string): string {
  return `join ${source}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function invalidCode(): ReturnType<typeof apiError> {
  return apiError(
    ErrorCode.notFound,
    "This pairing code is unknown, used or expired: make a new one on the shop's gateway (Settings -> Tills)",
    [{ field: 'code', message: 'is unknown, used or expired' }],
  );
}

/** The pairing code's secret and, for a centre on HTTPS, the fingerprint it pins. */
export function parsePairingCode(code: string): { secret: string; pinned: string | null } {
  const [secret = '', pinned] = code.trim().split('.');
  return { secret: secret.replaceAll('-', '').toUpperCase(), pinned: pinned ? pinned.toLowerCase() : null };
}

/** Whether a certificate fingerprint (colon hex) is the one a pairing code pins. */
export function fingerprintMatches(fingerprint: string, pinned: string): boolean {
  const hex = fingerprint.replaceAll(':', '').toLowerCase().slice(0, PINNED_HEX);
  return hex.length === pinned.length && timingSafeEqual(Buffer.from(hex), Buffer.from(pinned));
}

export class Centre {
  private readonly credentialTills = new Map<string, string | null>();

  constructor(private readonly deps: CentreDeps) {
    // A stored sale declined when forwarded goes on "Needs attention" in the unit that records it.
    deps.payments.onTransactionChange(async (change, t) => {
      const tx = deps.store.viewOf(change);
      const stored = t.details.stored;
      if (!stored || (t.statusCode !== S.declined && t.statusCode !== S.error)) return;
      await tx.centre.recordDecline({
        transactionId: t.id,
        merchantId: t.merchantId,
        tillId: stored.till_id,
        staffId: t.details.staff_id ?? null,
        orderId: t.orderId,
        amountMinor: t.amountMinor,
        currency: t.currency,
        cardBrand: t.cardBrand,
        cardLastFour: t.cardLastFour,
        message: t.message,
        storedAt: stored.stored_at,
        forwardedAt: t.updatedAt,
      });
    });
  }

  /**
   * What a joined till may store while the centre is away (admin; audited `till_limits`). The till
   * gets them with its next report's answer, within a second or two.
   */
  async setLimits(
    merchantId: string,
    tillId: string,
    limits: StoreLimits,
    actor: { staffId: string | null },
  ): Promise<Outcome<{ till_id: string; limits: StoreLimits }>> {
    return this.deps.store.run(async (tx) => {
      const before = (await tx.centre.links(merchantId)).find((l) => l.tillId === tillId);
      if (!before || !(await tx.centre.setLimits(merchantId, tillId, limits))) {
        return failure(
          apiError(ErrorCode.notFound, `Till ${tillId} is not joined from another computer`, [
            { field: 'till_id', message: 'is not a joined till' },
          ]),
        );
      }
      await tx.audit.record({
        ...this.audit(merchantId, actor.staffId, 'till_limits', tillId, `store-and-forward limits of ${tillId}`),
        oldValue: before.limits,
        newValue: limits,
      });
      return success({ till_id: tillId, limits });
    });
  }

  /** A back-office user followed a forwarded decline up (audited: forwarded_decline_handled). */
  async handleDecline(
    merchantId: string,
    transactionId: string,
    actor: { staffId: string | null },
  ): Promise<Outcome<{ transaction_id: string; handled_at: string }>> {
    const now = this.deps.clock.now().toISOString();
    return this.deps.store.run(async (tx) => {
      if (!(await tx.centre.handleDecline(merchantId, transactionId, now, actor.staffId))) {
        return failure(
          apiError(ErrorCode.notFound, 'No open forwarded decline with this id', [
            { field: 'transaction_id', message: 'is not an open forwarded decline' },
          ]),
        );
      }
      await tx.audit.record(
        this.audit(
          merchantId,
          actor.staffId,
          'forwarded_decline_handled',
          transactionId,
          `forwarded decline ${transactionId} marked handled`,
        ),
      );
      return success({ transaction_id: transactionId, handled_at: now });
    });
  }

  /**
   * A one-time pairing code for a till of the merchant (created where it does not exist yet; audited
   * `till_invite`). Only its SHA-256 is kept; it is valid 24 hours.
   */
  async invite(merchantId: string, tillId: string, actor: { staffId: string | null }): Promise<Outcome<TillInvite>> {
    const now = this.deps.clock.now();
    // 100 random bits in base32 (no 0/O or 1/I to mix up), in groups of four: typed in at the till.
    const bytes = randomBytes(14);
    let secret = '';
    for (let bit = 0; bit < 100; bit += 5) secret += BASE32[((bytes.readUInt16BE(Math.floor(bit / 8)) >> (11 - (bit % 8))) & 31) as number];
    const fingerprint = this.deps.fingerprint();
    const pinned = fingerprint ? `.${fingerprint.replaceAll(':', '').toLowerCase().slice(0, PINNED_HEX)}` : '';
    const code = `${secret.match(/.{4}/g)?.join('-') ?? secret}${pinned}`;
    const expiresAt = new Date(now.getTime() + INVITE_VALID_MS).toISOString();
    const made = await this.deps.store.run(async (tx): Promise<Outcome<TillInvite>> => {
      if (!(await tx.merchants.get(merchantId)))
        return failure(apiError(ErrorCode.notFound, 'Merchant not found', [{ field: 'merchant', message: 'no such merchant' }]));
      const till = await tx.tills.get(merchantId, tillId);
      if (till?.retiredAt)
        return failure(apiError(ErrorCode.invalidState, `Till ${tillId} is retired`, [{ field: 'till_id', message: 'is retired' }]));
      if (
        !till &&
        !(await tx.tills.insert({ merchantId, tillId, name: defaultTillName(tillId), createdAt: now.toISOString(), retiredAt: null }))
      ) {
        return failure(apiError(ErrorCode.validation, 'Invalid request: till_id', [{ field: 'till_id', message: 'could not be created' }]));
      }
      await tx.centre.insertInvite({ codeHash: sha256(secret), merchantId, tillId, createdAt: now.toISOString(), expiresAt, usedAt: null });
      await tx.audit.record(
        this.audit(merchantId, actor.staffId, 'till_invite', tillId, `pairing code for till ${tillId}, valid until ${expiresAt}`),
      );
      return created({ code, till_id: tillId, merchant_id: merchantId, expires_at: expiresAt });
    });
    return made;
  }

  /**
   * A till joins with its code (used once): it gets a credential of its own and what it needs to
   * sell. A till that joins again (a new code) replaces its earlier link, whose credential is revoked.
   * Guessing is locked out per source like a staff login (D20): each attempt takes a slot of the
   * source's lock-out bucket first, and the code is checked (one SHA-256 and an indexed read) before
   * the credential's slow hash is made.
   */
  async join(source: string, input: JoinRequest): Promise<Outcome<JoinAnswer>> {
    const { secret } = parsePairingCode(input.code);
    const codeHash = sha256(secret);
    const start = await this.deps.auth.begin(joinLockKey(source));
    if (!start.ok) return failure(start.error);
    if (!(await this.deps.store.read((r) => r.centre.openInvite(codeHash, this.deps.clock.now().toISOString())))) {
      start.attempt.failed();
      return failure(invalidCode());
    }
    const now = this.deps.clock.now().toISOString();
    const apiKey = `tg_till_${this.deps.ids.randomToken(15)}`;
    const apiPassword = this.deps.ids.randomToken(24);
    const passwordHash = await hashPassword(apiPassword);
    const joined = await this.deps.store.run(async (tx): Promise<Outcome<JoinAnswer>> => {
      const invite = await tx.centre.useInvite(codeHash, now);
      if (!invite) return failure(invalidCode());
      const merchant = await tx.merchants.get(invite.merchantId);
      const till = await tx.tills.get(invite.merchantId, invite.tillId);
      if (!merchant || !till || till.retiredAt) return failure(invalidCode());
      const credentialId = this.deps.ids.newId();
      await tx.credentials.insert({
        id: credentialId,
        merchantId: merchant.id,
        kind: 'merchant',
        apiKey,
        passwordHash,
        createdAt: now,
        revokedAt: null,
      });
      const replaced = await tx.centre.link({
        merchantId: merchant.id,
        tillId: till.tillId,
        credentialId,
        joinedAt: now,
        lastSeenAt: now,
        lastForwardAt: null,
        version: input.till_version,
        report: null,
        limits: DEFAULT_STORE_LIMITS,
      });
      if (replaced) await tx.credentials.revoke(replaced, now);
      await tx.audit.record(
        this.audit(
          merchant.id,
          null,
          'till_join',
          till.tillId,
          `till ${till.tillId} joined (version ${input.till_version})${replaced ? '; its earlier link was revoked' : ''}`,
        ),
      );
      return success({
        merchant_id: merchant.id,
        merchant_name: merchant.name,
        currency: merchant.currency,
        till_id: till.tillId,
        till_name: till.name,
        api_key: apiKey,
        api_password: apiPassword,
        limits: DEFAULT_STORE_LIMITS,
      });
    });
    if (joined.ok) await start.attempt.succeeded();
    else start.attempt.failed();
    return joined;
  }

  /** The joined till an API credential belongs to, if it is one. */
  linkOf(credentialId: string): Promise<TillLinkRecord | undefined> {
    return this.deps.store.read((r) => r.centre.linkByCredential(credentialId));
  }

  /**
   * The till whose own credential this is (null: POS software's or a partner's), remembered: a
   * credential never changes its till (a till that joins again gets a new credential), and a
   * revoked one no longer authenticates. The sale's till comes from it (D19).
   */
  async tillOfCredential(credentialId: string): Promise<string | null> {
    const known = this.credentialTills.get(credentialId);
    if (known !== undefined) return known;
    const tillId = (await this.linkOf(credentialId))?.tillId ?? null;
    if (this.credentialTills.size >= 10_000) this.credentialTills.clear();
    this.credentialTills.set(credentialId, tillId);
    return tillId;
  }

  /**
   * Whether a staff member a joined till names (X-Till-Staff, the cashier logged in there) is one of
   * its merchant's, active: the sale is then recorded as theirs. Honoured only from a till's credential.
   */
  async tillStaff(credentialId: string, staffId: string): Promise<boolean> {
    const link = await this.linkOf(credentialId);
    return link !== undefined && (await this.isTillStaff(link.merchantId, staffId));
  }

  /**
   * A till's report: recorded (the centre's list of tills shows it), with the days it closed (D19);
   * answers its limits, the replica's digest, the last of its days recorded and the entries of the
   * centre's ledger of its sales after the position it reported.
   */
  async heartbeat(link: TillLinkRecord, report: TillReport): Promise<HeartbeatAnswer> {
    const now = this.deps.clock.now().toISOString();
    const { days, ...seen } = report;
    await this.deps.store.runAtomic((tx) => tx.centre.seen(link.merchantId, link.tillId, now, report.version, seen), { quiet: true });
    const daysRecorded = await recordTillDays(this.deps.store, this.deps.clock, link, days);
    return {
      limits: link.limits,
      replica_digest: (await this.replica(link.merchantId)).digest,
      days_recorded: daysRecorded,
      ...(report.ledger_cursor !== undefined ? { ledger: await ledgerFor(this.deps.store, link, report.ledger_cursor) } : {}),
    };
  }

  /**
   * What a till keeps to let staff log in and POS software authenticate while the centre is away,
   * and no more (D20): POS software's credentials, the staff who log in at a till (cashiers and
   * managers, active; never an admin), the shop's till ids. What it leaves out, the till deletes.
   */
  async replica(merchantId: string): Promise<Replica> {
    return this.deps.store.read(async (r) => {
      const merchant = await r.merchants.get(merchantId);
      if (!merchant) throw new Error(`replica of an unknown merchant ${merchantId}`);
      const content = {
        merchant: { merchant_id: merchant.id, name: merchant.name, currency: merchant.currency, created_at: merchant.createdAt },
        till_ids: (await r.tills.listByMerchant(merchantId))
          .filter((t) => t.retiredAt === null)
          .map((t) => t.tillId)
          .sort(),
        // A till's own credentials stay at the centre: they are for talking to it, not for POS software.
        credentials: (await r.credentials.listByMerchant(merchantId))
          .filter((c) => !c.apiKey.startsWith('tg_till_'))
          .map((c) => ({
            credential_id: c.id,
            api_key: c.apiKey,
            password_hash: c.passwordHash,
            created_at: c.createdAt,
            revoked_at: c.revokedAt,
          })),
        staff: (await r.staff.listByMerchant(merchantId))
          .filter((s) => s.disabledAt === null && TILL_STAFF_ROLES.includes(s.role))
          .map((s) => ({
            staff_id: s.id,
            login: s.login,
            display_name: s.displayName,
            role: s.role,
            password_hash: s.passwordHash,
            pin_hash: s.pinHash,
            created_at: s.createdAt,
            disabled_at: s.disabledAt,
          })),
      };
      return { digest: sha256(JSON.stringify(content)), ...content };
    });
  }

  /**
   * The sales a till stored, in its order: each is created under the transaction id the till gave it,
   * once. A sale whose id is taken by something else is refused, never charged; one still being
   * forwarded by a concurrent request is left out of the answer (the till sends it again).
   */
  async forward(link: TillLinkRecord, entries: ForwardEntry[]): Promise<ForwardAnswer> {
    const results: ForwardResult[] = [];
    for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
      const result = await this.forwardOne(link, entry);
      if (result) results.push(result);
    }
    await this.deps.store.runAtomic((tx) => tx.centre.forwarded(link.merchantId, link.tillId, this.deps.clock.now().toISOString()), {
      quiet: true,
    });
    return { results };
  }

  private async forwardOne(link: TillLinkRecord, entry: ForwardEntry): Promise<ForwardResult | undefined> {
    const refuse = (refused: string): ForwardResult => ({
      seq: entry.seq,
      transaction_id: entry.transaction_id,
      status_code: S.error,
      status: 'error',
      message: refused,
      refused,
    });
    if (entry.request.payment_type !== 'cardpos') return refuse(`only card-present sales of till ${link.tillId} are forwarded`);
    const known = await this.settled(link, entry);
    if (known !== null) return known;
    // Concurrent forwards of one sale (two batches in flight) queue on its key; a replay answers the same.
    const key = `forward:${link.tillId}:${entry.transaction_id}`;
    const started = await this.deps.idempotency.start(link.merchantId, key, entry.transaction_id);
    if (started.kind === 'reject') return undefined;
    try {
      // Another request may have created it between the first look and the claim.
      const again = await this.settled(link, entry);
      if (again !== null) return again;
      // The centre trusts nothing the till says that it can check (D20): the cashier must be one of
      // the till's own merchant's staff (else the sale has none, and says a cashier was refused), the
      // sale within the limits and age the centre set and not naming another till; a breach is not
      // authorized (a decline: "Needs attention" and the postback, as any forwarded decline).
      const staffId = entry.staff_id !== null && (await this.isTillStaff(link.merchantId, entry.staff_id)) ? entry.staff_id : null;
      const breach = await this.breachOf(link, entry);
      const outcome = await this.deps.operations.perform(
        { merchantId: link.merchantId, idempotency: started.scope, tillId: link.tillId, ...(staffId ? { staffId } : {}) },
        (operation) =>
          this.deps.payments.create(operation, 'payment', entry.request, {
            transactionId: entry.transaction_id,
            details: {
              stored: {
                till_id: link.tillId,
                seq: entry.seq,
                stored_at: entry.stored_at,
                forwarded_at: this.deps.clock.now().toISOString(),
                ...(entry.staff_id !== null && staffId === null ? { staff_refused: true } : {}),
              },
            },
            ...(breach ? { declineWith: breach } : {}),
          }),
      );
      if (!outcome.ok) return refuse(outcome.error.errors.map((e) => `${e.field} ${e.message}`).join('; ') || outcome.error.message);
      return resultOf(entry.seq, outcome.value);
    } catch (error) {
      // Another instance forwarded the same sale at the same moment and committed it first.
      if (error instanceof IdempotencyConflict) return (await this.settled(link, entry)) ?? undefined;
      throw error;
    } finally {
      await started.release();
    }
  }

  /** Whether a staff member a till names is one of its merchant's, active, who may work at a till. */
  private isTillStaff(merchantId: string, staffId: string): Promise<boolean> {
    return this.deps.store.read(async (r) => {
      const staff = await r.staff.get(staffId);
      return staff !== undefined && staff.merchantId === merchantId && staff.disabledAt === null && TILL_STAFF_ROLES.includes(staff.role);
    });
  }

  /**
   * How a forwarded sale breaks what the centre set for its till, if it does: over the amount a
   * stored sale may have, stored longer ago than a sale may wait (or at a time still to come), or
   * naming another till's terminal id. The till checks the same before it stores; a till that does
   * not is not believed.
   */
  private async breachOf(link: TillLinkRecord, entry: ForwardEntry): Promise<{ code: string; text: string } | undefined> {
    const { limits } = link;
    const exponent = currencyExponent(String(entry.request.currency)) ?? 2;
    const amount = toMinor(Number(entry.request.amount), exponent);
    const perPayment = toMinor(limits.per_payment, exponent);
    if (amount.ok && perPayment.ok && amount.minor > perPayment.minor) {
      return {
        code: '61',
        text: `${OVER_LIMITS}: a stored sale may be at most ${minorToText(perPayment.minor, exponent)} ${String(entry.request.currency)}`,
      };
    }
    const now = this.deps.clock.now().getTime();
    const storedAt = Date.parse(entry.stored_at);
    if (!(storedAt >= now - limits.age_hours * 3_600_000))
      return { code: '54', text: `${OVER_LIMITS}: stored more than ${limits.age_hours} h before it was forwarded` };
    if (storedAt > now + CLOCK_SKEW_MS) return { code: '54', text: `${OVER_LIMITS}: stored at a time still to come` };
    const terminal = entry.request.pos_data?.terminal?.id;
    if (terminal && terminal !== link.tillId && (await this.deps.store.read((r) => r.tills.get(link.merchantId, terminal))) !== undefined) {
      return { code: '58', text: `${OVER_LIMITS}: names ${terminal}, another till` };
    }
    return undefined;
  }

  /**
   * A till lost the answer to a sale it sent here: fences its key (a request with it that has not
   * arrived yet never runs afterwards) and says whether it ran. Only the till's own keys.
   */
  async fence(link: TillLinkRecord, key: string): Promise<Outcome<CentreFence>> {
    if (!key.startsWith(`till:${link.tillId}:`)) {
      return failure(
        apiError(ErrorCode.validation, 'Invalid request: idempotency_key', [
          { field: 'idempotency_key', message: `must be one of till ${link.tillId}'s keys (till:${link.tillId}:...)` },
        ]),
      );
    }
    const fence = await this.deps.idempotency.fence(link.merchantId, key);
    if (fence.kind === 'in_flight') return success({ state: 'in_flight' });
    // A fenced key, or one whose answer was a refusal the fence left: it never ran.
    if (fence.kind === 'fenced') return success({ state: 'not_run' });
    return success({ state: 'processed', answer: fence.answer });
  }

  /** How an already forwarded sale ended; a refusal when its id belongs to something else; null when it is new. */
  private async settled(link: TillLinkRecord, entry: ForwardEntry): Promise<ForwardResult | null> {
    const existing = await this.deps.store.read((r) => r.transactions.getById(entry.transaction_id));
    if (!existing) return null;
    const stored = existing.details.stored;
    // Whoever's it is (another merchant's, another till's, another sale's), the answer is the same
    // conflict, and says nothing of what holds the id.
    if (existing.merchantId !== link.merchantId || stored?.till_id !== link.tillId || stored.seq !== entry.seq) {
      return {
        seq: entry.seq,
        transaction_id: entry.transaction_id,
        status_code: S.error,
        status: 'error',
        message: ID_CONFLICT,
        refused: ID_CONFLICT,
      };
    }
    return fromRecord(entry.seq, existing);
  }

  private audit(merchantId: string, staffId: string | null, action: string, subjectId: string, detail: string): AuditRecord {
    return {
      id: this.deps.ids.newId(),
      merchantId,
      staffId,
      approvedBy: null,
      action,
      subjectId,
      detail,
      createdAt: this.deps.clock.now().toISOString(),
    };
  }
}

function resultOf(seq: number, answer: TransactionResponse): ForwardResult {
  return { seq, transaction_id: answer.transaction_id, status_code: answer.status_code, status: answer.status, message: answer.message };
}

function fromRecord(seq: number, t: TransactionRecord): ForwardResult {
  return { seq, transaction_id: t.id, status_code: t.statusCode, status: statusName(t.statusCode), message: t.message };
}
