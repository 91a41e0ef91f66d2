/**
 * A shop's tills (issue 26, part 0; docs/decisions.md "Several tills"). Each till is its own till:
 * its id is the terminal id of its payments, the key of its card-attempt slot, its ledger and its
 * day reports. A screen (browser or desktop) takes a till for its staff session and says every
 * TILL_HEARTBEAT_SECONDS that it is still there; a till held by a live screen is not taken silently
 * by another (409, 4005, naming who has it open), only when its user asks to take it over, and the
 * screen it was taken from learns so at its next call. A till whose holder was not seen for
 * TILL_HOLD_STALE_SECONDS is free again. A screen is known by the claim the gateway gave it when it
 * took the till (a secret; only its hash is kept), never by an id it says it has: with the claim,
 * the same screen gets its till back after a reload or a new login. A till joined from another
 * computer sells there: no screen of this gateway holds it, whatever it held before the join.
 */
import { createHash } from 'node:crypto';
import type { FieldError } from '../../../contract/api/common.js';
import {
  TILL_SILENT_WARNING_MINUTES,
  type CreateTillRequest,
  type TakenTill,
  type TakeTillRequest,
  type Till,
  type TillList,
  type TillRemote,
  type UpdateTillRequest,
} from '../../../contract/api/tills.js';
import { ErrorCode } from '../../../contract/codes.js';
import { defaultTillName, TILL_HOLD_STALE_SECONDS, TILL_ID_PATTERN, TILL_RETIRE_REFUSED } from '../../../contract/constants.js';
import { apiError, created, failure, fieldError, success, validationError, type ApiError, type Outcome } from '../errors.js';
import type { AuditRecord } from '../kernel.js';
import type { Clock, Ids } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { TillLinkRecord, TillRecord, TillsUnit } from './ports.js';

/** The staff session a till is asked for by (a screen's). */
export interface TillSession {
  merchantId: string;
  sessionId: string;
  staffId: string | null;
}

/** Who changes the tills: an admin in the app, or the operator's command line (null). */
export interface TillActor {
  staffId: string | null;
}

const NAME_MAX = 60;
/** Random bytes of a till claim (base64url: 43 characters). */
const CLAIM_BYTES = 32;

/** What the gateway keeps of a till claim: its SHA-256 (hex). */
function claimHash(claim: string): string {
  return createHash('sha256').update(claim).digest('hex');
}
/** A joined till's report tells whether its books are in step only while it is this fresh (a till reports every second). */
const BOOKS_REPORT_FRESH_MS = 5_000;

function notFound(tillId: string): ApiError {
  return apiError(ErrorCode.notFound, `Till ${tillId} not found`, [{ field: 'till_id', message: 'no such till' }]);
}

function tillIdProblem(value: unknown): FieldError | undefined {
  return typeof value === 'string' && TILL_ID_PATTERN.test(value)
    ? undefined
    : { field: 'till_id', message: "must be 1 to 40 letters, digits, '-', '_' or '.', starting with a letter or digit" };
}

function nameProblem(value: unknown): FieldError | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.trim().length <= NAME_MAX
    ? undefined
    : { field: 'name', message: `must be 1 to ${NAME_MAX} characters` };
}

export class Tills {
  constructor(
    private readonly store: Store<TillsUnit>,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  /** A holder seen before this has let go of its till. */
  private staleBefore(): string {
    return new Date(this.clock.now().getTime() - TILL_HOLD_STALE_SECONDS * 1000).toISOString();
  }

  /** The holder of a till that counts: one seen recently. */
  private liveHolder(till: TillRecord): TillRecord['holder'] {
    return till.holder && till.holder.seenAt >= this.staleBefore() ? till.holder : null;
  }

  private async view(
    r: TillsUnit,
    till: TillRecord,
    sessionId: string | null,
    names?: Map<string, string>,
    shops?: Map<string, string>,
    links?: TillLinkRecord[],
  ): Promise<Till> {
    const staffNames = names ?? new Map((await r.staff.listByMerchant(till.merchantId)).map((s) => [s.id, s.displayName]));
    const terminals = shops ?? new Map((await r.shops.terminals(till.merchantId)).map((t) => [t.terminalId, t.shopId]));
    const link = (links ?? (await r.centre.links(till.merchantId))).find((l) => l.tillId === till.tillId);
    // A joined till is open on its own computer, not on a screen here (a hold from before its join counts for nothing).
    const holder = link ? null : this.liveHolder(till);
    const previous = await r.dayReports.latestZ(till.merchantId, till.tillId);
    const watermark = await r.dayReports.watermark(till.merchantId, till.tillId);
    return {
      till_id: till.tillId,
      name: till.name,
      shop_id: terminals.get(till.tillId) ?? null,
      created_at: till.createdAt,
      retired_at: till.retiredAt,
      holder: holder
        ? {
            staff_id: holder.staffId,
            staff_name: holder.staffId ? (staffNames.get(holder.staffId) ?? null) : null,
            held_at: holder.heldAt,
            seen_at: holder.seenAt,
            this_screen: holder.sessionId === sessionId,
          }
        : null,
      // A till on another computer closes its day there: its report says where it stands.
      day: link?.report?.day ?? {
        sequence: (previous?.sequence ?? 0) + 1,
        opened_at: previous?.closedAt ?? null,
        open: watermark > (previous?.toSeq ?? 0),
      },
      remote: link ? remoteView(link, this.clock.now(), await booksOf(r, link, watermark, this.clock.now())) : null,
    };
  }

  /** The merchant's tills (retired ones too when asked), and the one this session's screen holds. */
  async list(merchantId: string, sessionId: string | null, options: { retired?: boolean } = {}): Promise<TillList> {
    return this.store.read(async (r) => {
      const all = await r.tills.listByMerchant(merchantId);
      const names = new Map((await r.staff.listByMerchant(merchantId)).map((s) => [s.id, s.displayName]));
      const shops = new Map((await r.shops.terminals(merchantId)).map((t) => [t.terminalId, t.shopId]));
      const shown = all
        .filter((t) => options.retired === true || t.retiredAt === null)
        .sort(
          (a, b) => Number(a.retiredAt !== null) - Number(b.retiredAt !== null) || (a.tillId < b.tillId ? -1 : a.tillId > b.tillId ? 1 : 0),
        );
      const links = await r.centre.links(merchantId);
      const held = all.find(
        (t) => t.retiredAt === null && this.liveHolder(t)?.sessionId === sessionId && !links.some((l) => l.tillId === t.tillId),
      );
      return {
        tills: await Promise.all(shown.map((t) => this.view(r, t, sessionId, names, shops, links))),
        this_screen: held?.tillId ?? null,
      };
    });
  }

  /** The create form's checks (also when the schema refused other fields). */
  createErrors(body: Partial<Record<keyof CreateTillRequest, unknown>>): FieldError[] {
    const errors: FieldError[] = [];
    if (body.till_id !== undefined) {
      const problem = tillIdProblem(body.till_id);
      if (problem) errors.push(problem);
    }
    if (body.name !== undefined) {
      const problem = nameProblem(body.name);
      if (problem) errors.push(problem);
    }
    return errors;
  }

  /** A new till of the merchant (audited: till_create); with a shop, its terminal is assigned to it in the same unit. */
  async create(merchantId: string, input: CreateTillRequest, actor: TillActor): Promise<Outcome<Till>> {
    const errors = [tillIdProblem(input.till_id), ...(input.name !== undefined ? [nameProblem(input.name)] : [])].filter(
      (e): e is FieldError => e !== undefined,
    );
    if (errors.length) return failure(validationError(errors));
    const now = this.clock.now().toISOString();
    const record = {
      merchantId,
      tillId: input.till_id,
      name: input.name?.trim() || defaultTillName(input.till_id),
      createdAt: now,
      retiredAt: null,
    };
    const outcome = await this.store.run(async (tx): Promise<Outcome<Till>> => {
      if (!(await tx.merchants.get(merchantId)))
        return failure(apiError(ErrorCode.notFound, 'Merchant not found', [{ field: 'merchant', message: 'no such merchant' }]));
      if (input.shop_id !== undefined) {
        const shop = await tx.shops.get(input.shop_id);
        if (!shop || shop.merchantId !== merchantId)
          return failure(apiError(ErrorCode.notFound, 'Shop not found', [{ field: 'shop_id', message: 'no such shop of this merchant' }]));
      }
      if (!(await tx.tills.insert(record))) return failure(fieldError('till_id', 'is taken: the shop has a till of this id'));
      if (input.shop_id !== undefined)
        await tx.shops.assignTerminal({ merchantId, terminalId: input.till_id, shopId: input.shop_id, assignedAt: now });
      await tx.audit.record(
        this.audit(merchantId, actor, 'till_create', input.till_id, `till ${input.till_id} "${record.name}"`, null, {
          name: record.name,
          shop_id: input.shop_id ?? null,
        }),
      );
      const stored = await tx.tills.get(merchantId, input.till_id);
      return created(await this.view(tx, stored as TillRecord, null));
    });
    return outcome;
  }

  /** Renames or retires a till (audited). A till with an open card attempt or an unclosed day is not retired. */
  async update(merchantId: string, tillId: string, input: UpdateTillRequest, actor: TillActor): Promise<Outcome<Till>> {
    if (input.name !== undefined) {
      const problem = nameProblem(input.name);
      if (problem) return failure(validationError([problem]));
    }
    const now = this.clock.now().toISOString();
    return this.store.run(async (tx): Promise<Outcome<Till>> => {
      const till = await tx.tills.get(merchantId, tillId);
      if (!till) return failure(notFound(tillId));
      if (input.name !== undefined && input.name.trim() !== till.name) {
        await tx.tills.rename(merchantId, tillId, input.name.trim());
        await tx.audit.record(
          this.audit(merchantId, actor, 'till_rename', tillId, `till ${tillId} renamed`, { name: till.name }, { name: input.name.trim() }),
        );
      }
      if (input.retired === true && till.retiredAt === null) {
        if (await tx.tillAttempts.open(merchantId, tillId)) {
          return failure(
            apiError(ErrorCode.invalidState, `Till ${tillId} has a card payment whose outcome is not known yet`, [
              { field: 'retired', message: TILL_RETIRE_REFUSED.openAttempt },
            ]),
          );
        }
        const closedTo = (await tx.dayReports.latestZ(merchantId, tillId))?.toSeq ?? 0;
        if ((await tx.dayReports.watermark(merchantId, tillId)) > closedTo) {
          return failure(
            apiError(ErrorCode.invalidState, `Till ${tillId} has sales of a day that is not closed`, [
              { field: 'retired', message: TILL_RETIRE_REFUSED.dayNotClosed },
            ]),
          );
        }
        if ((await tx.tills.listByMerchant(merchantId)).filter((t) => t.retiredAt === null).length <= 1) {
          return failure(
            apiError(ErrorCode.invalidState, 'The shop keeps at least one till', [
              { field: 'retired', message: TILL_RETIRE_REFUSED.lastTill },
            ]),
          );
        }
        await tx.tills.retire(merchantId, tillId, now);
        await tx.audit.record(
          this.audit(merchantId, actor, 'till_retire', tillId, `till ${tillId} retired`, { retired_at: null }, { retired_at: now }),
        );
      }
      return success(await this.view(tx, (await tx.tills.get(merchantId, tillId)) as TillRecord, null));
    });
  }

  /**
   * This session's screen takes a till (or says it still has it: the heartbeat). Refused with 409
   * (4005) while another live screen has it, naming who, unless `take_over` or the screen presents
   * the hold's claim (the same screen after a reload or a new login); a screen that had the till
   * taken from it gets the same 409 at its next call. The answer carries a new claim whenever the
   * request did not present the hold's current one, or took the till over.
   */
  async take(session: TillSession, input: TakeTillRequest): Promise<Outcome<TakenTill>> {
    const now = this.clock.now().toISOString();
    const claim = this.ids.randomToken(CLAIM_BYTES);
    const hold = { sessionId: session.sessionId, claimHash: claimHash(claim), staffId: session.staffId, heldAt: now, seenAt: now };
    const presented = input.claim === undefined ? null : claimHash(input.claim);
    return this.store.run(async (tx): Promise<Outcome<TakenTill>> => {
      const till = await tx.tills.get(session.merchantId, input.till_id);
      if (!till) return failure(notFound(input.till_id));
      if (till.retiredAt !== null)
        return failure(apiError(ErrorCode.invalidState, `Till ${input.till_id} is retired`, [{ field: 'till_id', message: 'is retired' }]));
      // A till joined from another computer sells there, never on a screen of this gateway (D19).
      if ((await tx.centre.links(session.merchantId)).some((l) => l.tillId === input.till_id)) {
        return failure(
          apiError(ErrorCode.invalidState, `${till.name} is joined from another computer and sells there`, [
            { field: 'till_id', message: 'is a till on another computer' },
          ]),
        );
      }
      // A screen whose till was taken over gets this too at its next heartbeat: it does not take it back by itself.
      if (!(await tx.tills.take(session.merchantId, input.till_id, hold, presented, this.staleBefore(), input.take_over === true)))
        return failure(await this.inUse(tx, till));
      await tx.tills.release(session.sessionId, input.till_id);
      const taken = (await tx.tills.get(session.merchantId, input.till_id)) as TillRecord;
      return success({
        ...(await this.view(tx, taken, session.sessionId)),
        claim: taken.holder?.claimHash === hold.claimHash ? claim : null,
      });
    });
  }

  /** This session's screen lets go of its till (logout, another till chosen). */
  async release(sessionId: string): Promise<void> {
    await this.store.run((tx) => tx.tills.release(sessionId));
  }

  /** The active till this session's screen holds, if it holds one (its card-present sales are that till's, D19). */
  async heldBy(sessionId: string): Promise<string | undefined> {
    const held = await this.store.read((r) => r.tills.heldBy(sessionId));
    return held && held.retiredAt === null ? held.tillId : undefined;
  }

  /**
   * The till a session's screen sells on: the one it holds; without one, the merchant's only active
   * till of this gateway while no other screen has it open (a client that never chose, as before
   * there were tills). A till joined from another computer is not one of this gateway's.
   */
  async ofSession(session: TillSession): Promise<Outcome<string>> {
    return this.store.read(async (r): Promise<Outcome<string>> => {
      const held = await r.tills.heldBy(session.sessionId);
      if (held && held.retiredAt === null) return success(held.tillId);
      const joined = new Set((await r.centre.links(session.merchantId)).map((l) => l.tillId));
      const active = (await r.tills.listByMerchant(session.merchantId)).filter((t) => t.retiredAt === null && !joined.has(t.tillId));
      const [only] = active;
      if (active.length !== 1 || !only) {
        return failure(
          apiError(ErrorCode.validation, 'This screen has not chosen its till', [
            { field: 'till_id', message: "choose this screen's till first" },
          ]),
        );
      }
      const holder = this.liveHolder(only);
      if (holder && holder.sessionId !== session.sessionId) return failure(await this.inUse(r, only));
      return success(only.tillId);
    });
  }

  /** 409 (4005): who has the till open (the screen asking may be the one it was taken over from). */
  private async inUse(r: TillsUnit, till: TillRecord): Promise<ApiError> {
    const holder = this.liveHolder(till);
    const name = holder?.staffId
      ? (await r.staff.listByMerchant(till.merchantId)).find((s) => s.id === holder.staffId)?.displayName
      : undefined;
    return apiError(ErrorCode.tillInUse, `Till ${till.tillId} is open on another screen${name ? ` (${name})` : ''}`, [
      { field: 'till_id', message: 'is open on another screen' },
    ]);
  }

  private audit(
    merchantId: string,
    actor: TillActor,
    action: string,
    subjectId: string,
    detail: string,
    oldValue: unknown,
    newValue: unknown,
  ): AuditRecord {
    return {
      id: this.ids.newId(),
      merchantId,
      staffId: actor.staffId,
      approvedBy: null,
      action,
      subjectId,
      detail,
      createdAt: this.clock.now().toISOString(),
      oldValue,
      newValue,
    };
  }
}

/** A joined till as the centre knows it, with a warning when it went quiet or holds sales too long. */
/**
 * Whether a joined till's books are in step with this gateway's at its last report (D19): nothing
 * stored, every entry of this gateway's ledger of its sales applied, every day it closed recorded.
 */
async function booksOf(r: TillsUnit, link: TillLinkRecord, watermark: number, now: Date): Promise<TillRemote['books']> {
  const report = link.report;
  // A report older than a few heartbeats may no longer be true.
  if (!report || !link.lastSeenAt || now.getTime() - Date.parse(link.lastSeenAt) > BOOKS_REPORT_FRESH_MS) return 'catching_up';
  if (report.stored.count > 0 || (report.ledger_cursor ?? 0) < watermark) return 'catching_up';
  const recorded = (await r.centre.latestTillDay(link.merchantId, link.tillId))?.sequence ?? 0;
  return recorded >= (report.day?.sequence ?? 1) - 1 ? 'in_step' : 'catching_up';
}

function remoteView(link: TillLinkRecord, now: Date, books: TillRemote['books']): TillRemote {
  const limit = TILL_SILENT_WARNING_MINUTES * 60_000;
  const minutes = (since: string) => Math.floor((now.getTime() - Date.parse(since)) / 60_000);
  const stored = link.report?.stored ?? { count: 0, totals: [], oldest_at: null };
  const silentSince = link.lastSeenAt ?? link.joinedAt;
  const warning =
    now.getTime() - Date.parse(silentSince) > limit
      ? `Not heard from for ${minutes(silentSince)} minutes${stored.count > 0 ? `; it last reported ${stored.count} stored ${stored.count === 1 ? 'sale' : 'sales'}` : ''}: check the till and its network`
      : stored.count > 0 && stored.oldest_at && now.getTime() - Date.parse(stored.oldest_at) > limit
        ? `Holds ${stored.count} stored ${stored.count === 1 ? 'sale' : 'sales'}, the oldest for ${minutes(stored.oldest_at)} minutes: not forwarded`
        : null;
  return {
    joined_at: link.joinedAt,
    last_seen_at: link.lastSeenAt,
    last_forward_at: link.lastForwardAt,
    version: link.version,
    open_attempt: link.report?.open_attempt ?? false,
    stored,
    warning,
    limits: link.limits,
    books,
  };
}
