/**
 * Staff of the desktop UI (decisions.md D9): accounts with roles cashier, back_office and admin,
 * login by password or PIN, sessions that expire (30 minutes idle, 12 hours at most), manager
 * approvals for actions a cashier may not do alone, and the audit log of those actions.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { FieldError } from '../../../contract/api/common.js';
import type { ResetStaffSecret } from '../../../contract/api/settings.js';
import type {
  Approval,
  CreatedStaff,
  LoginRequest,
  OwnLanguage,
  OwnLanguageRequest,
  Session,
  StaffMember,
} from '../../../contract/api/staff.js';
import { ErrorCode } from '../../../contract/codes.js';
import { STAFF_ROLES, type StaffRole } from '../../../contract/constants.js';
import { isStaffLanguage, STAFF_LANGUAGES } from '../../../contract/i18n/languages.js';
import { apiError, created, failure, fieldError, success, validationError, type Outcome } from '../errors.js';
import type { Authenticator, Principal, StaffIdentity } from '../merchants/authenticator.js';
import { hashPassword, openHash, verifyPassword } from '../merchants/credentials.js';
import type { AuditRecord } from '../kernel.js';
import type { StaffRecord, StaffUnit } from './ports.js';
import type { Clock, Ids, Vault } from '../kernel.js';
import type { Store } from '../unit-of-work.js';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;
const APPROVAL_TTL_MS = 2 * 60 * 1000;

export interface CreateStaffInput {
  merchantId: string;
  role: string;
  login?: string;
  displayName?: string;
  password?: string;
  pin?: string;
}

/** Lock-out key of a staff login (as typed: any characters, so encoded). */
export function staffLockKey(login: string): string {
  return `staff ${encodeURIComponent(login.toLowerCase())}`;
}

/** The stored id of a session or approval token: its SHA-256 (the token itself is never stored). */
function sessionId(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Names that read like a till's (Till 1, TILL-2, till, Register 3), which a person's name must not. */
function readsLikeATill(name: string): boolean {
  return /^\s*(till|terminal|register|checkout|pos)[\s_-]*\d*\s*$/i.test(name);
}

const ROLE_NAMES: Readonly<Record<StaffRole, string>> = { cashier: 'Cashier', back_office: 'Back office', admin: 'Administrator' };

/** A display name when none is given: the login, unless it reads like a till (the first-run login `till`). */
function defaultDisplayName(login: string, role: StaffRole): string {
  return readsLikeATill(login) ? `${ROLE_NAMES[role] ?? 'Staff'} (${login})` : login;
}

export class Staff {
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly store: Store<StaffUnit>,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly auth: Authenticator,
    /** The shop's time zone (IANA), in which its staff screens show times. */
    private readonly timeZone: string = 'UTC',
    /** Opens the hashes a joined till keeps sealed (D20); without it a sealed hash verifies nothing. */
    private readonly vault?: Pick<Vault, 'open'>,
  ) {}

  /** The create form's field checks (also when the schema refused other fields); the login's uniqueness is checked on create. */
  createErrors(input: {
    role?: unknown;
    login?: unknown;
    password?: unknown;
    pin?: unknown;
    display_name?: unknown;
    displayName?: unknown;
  }): FieldError[] {
    const errors: FieldError[] = [];
    const name = input.display_name ?? input.displayName;
    if (typeof name === 'string' && readsLikeATill(name))
      errors.push({
        field: 'display_name',
        message:
          "must be a person's name: one that reads like a till's (Till 1, TILL-2) would mix up people and tills on receipts and reports",
      });
    if (typeof input.role === 'string' && !(STAFF_ROLES as readonly string[]).includes(input.role))
      errors.push({ field: 'role', message: 'must be cashier, back_office or admin' });
    if (typeof input.login === 'string' && !/^[a-z0-9][a-z0-9._-]{1,39}$/.test(input.login))
      errors.push({ field: 'login', message: 'must be 2 to 40 lower-case letters, digits, dot, dash or underscore' });
    if (typeof input.password === 'string' && input.password.length < 8)
      errors.push({ field: 'password', message: 'must be at least 8 characters' });
    if (typeof input.pin === 'string' && !/^\d{4,8}$/.test(input.pin)) errors.push({ field: 'pin', message: 'must be 4 to 8 digits' });
    return errors;
  }

  /**
   * A new staff account. A password not given is generated and answered once; `actor` (an admin in
   * the back office) writes `staff_create` to the audit log in the same unit of work.
   */
  async create(input: CreateStaffInput, actor?: { staffId: string }): Promise<Outcome<CreatedStaff>> {
    const login =
      input.login ??
      `${input.role}-${this.ids
        .randomToken(3)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, 'x')}`;
    const password = input.password ?? this.ids.randomToken(12);
    const errors = this.createErrors({ ...input, login, password });
    if (errors.length) return failure(validationError(errors));
    const merchant = await this.store.read((r) => r.merchants.get(input.merchantId));
    if (!merchant) return failure(fieldError('merchant', 'no such merchant'));
    const [passwordHash, pinHash] = await Promise.all([
      hashPassword(password),
      input.pin ? hashPassword(input.pin) : Promise.resolve(null),
    ]);
    const record: StaffRecord = {
      id: this.ids.newId(),
      merchantId: merchant.id,
      login,
      displayName: input.displayName?.trim() || defaultDisplayName(login, input.role as StaffRole),
      role: input.role as StaffRole,
      passwordHash,
      pinHash,
      createdAt: this.clock.now().toISOString(),
      disabledAt: null,
    };
    const inserted = await this.store.run(async (tx) => {
      if (await tx.staff.findByLogin(login)) return false;
      await tx.staff.insert(record);
      if (actor) {
        const values = { login, display_name: record.displayName, role: record.role, pin: pinHash ? 'set' : 'not set' };
        await tx.audit.record({
          ...this.auditRecord(merchant.id, actor.staffId, null, 'staff_create', record.id, `${record.role} ${login}`),
          oldValue: null,
          newValue: values,
        });
      }
      return true;
    });
    if (!inserted) return failure(fieldError('login', 'is taken'));
    return created({ staff_id: record.id, login, password, role: record.role, merchant_id: merchant.id });
  }

  /**
   * An admin renews a staff member's password or PIN (given, or generated and answered once). The
   * member's other sessions end (whoever knew the old secret is logged out); audited.
   */
  async resetSecret(
    actor: { merchantId: string; staffId: string; sessionId: string },
    staffId: string,
    input: { secret: string; value?: string },
  ): Promise<Outcome<ResetStaffSecret>> {
    const secret = input.secret === 'pin' ? 'pin' : 'password';
    const generated = input.value === undefined;
    const value = input.value ?? (secret === 'pin' ? String(randomInt(0, 1_000_000)).padStart(6, '0') : this.ids.randomToken(12));
    const problem =
      secret === 'pin'
        ? /^\d{4,8}$/.test(value)
          ? undefined
          : 'must be 4 to 8 digits for a PIN'
        : value.length >= 8
          ? undefined
          : 'must be at least 8 characters for a password';
    if (problem) return failure(validationError([{ field: 'value', message: problem }]));
    const hash = await hashPassword(value);
    const now = this.clock.now().toISOString();
    const ended = await this.store.run(async (tx) => {
      const member = await tx.staff.get(staffId);
      if (!member || member.merchantId !== actor.merchantId) return undefined;
      if (secret === 'pin') await tx.staff.setPinHash(member.id, hash);
      else await tx.staff.setPasswordHash(member.id, hash);
      const count = await tx.staff.revokeSessionsOf(member.id, now, actor.sessionId);
      const detail = `${secret} ${generated ? 'generated' : 'set'} for ${member.login}; ${count} session${count === 1 ? '' : 's'} ended`;
      await tx.audit.record(
        this.auditRecord(
          actor.merchantId,
          actor.staffId,
          null,
          secret === 'pin' ? 'staff_reset_pin' : 'staff_reset_password',
          member.id,
          detail,
        ),
      );
      return count;
    });
    if (ended === undefined) return failure(apiError(ErrorCode.notFound, 'Staff member not found'));
    return success({ staff_id: staffId, secret, value: generated ? value : null, sessions_ended: ended });
  }

  /**
   * An admin disables a staff account: it cannot log in, and its sessions end at once (resolve()
   * refuses a disabled member's session; they are revoked too). Not one's own account. Audited.
   */
  async disable(actor: { merchantId: string; staffId: string }, staffId: string): Promise<Outcome<StaffMember>> {
    if (staffId === actor.staffId) return failure(apiError(ErrorCode.invalidState, 'You cannot disable your own account'));
    const now = this.clock.now().toISOString();
    const outcome = await this.store.run(async (tx): Promise<Outcome<undefined>> => {
      const member = await tx.staff.get(staffId);
      if (!member || member.merchantId !== actor.merchantId) return failure(apiError(ErrorCode.notFound, 'Staff member not found'));
      if (member.disabledAt) return failure(apiError(ErrorCode.invalidState, 'This account is disabled already'));
      await tx.staff.disable(member.id, now);
      const count = await tx.staff.revokeSessionsOf(member.id, now);
      await tx.audit.record({
        ...this.auditRecord(
          actor.merchantId,
          actor.staffId,
          null,
          'staff_disable',
          member.id,
          `${member.role} ${member.login}; ${count} session${count === 1 ? '' : 's'} ended`,
        ),
        oldValue: { disabled: false },
        newValue: { disabled: true },
      });
      return success(undefined);
    });
    if (!outcome.ok) return outcome;
    const member = (await this.list(actor.merchantId)).find((m) => m.staff_id === staffId);
    return member ? success(member) : failure(apiError(ErrorCode.notFound, 'Staff member not found'));
  }

  async list(merchantId: string): Promise<StaffMember[]> {
    const rows = await this.store.read((r) => r.staff.listByMerchant(merchantId));
    return rows.map((s) => ({
      staff_id: s.id,
      login: s.login,
      display_name: s.displayName,
      role: s.role,
      has_pin: s.pinHash !== null,
      created_at: s.createdAt,
      disabled: s.disabledAt !== null,
    }));
  }

  /**
   * Checks login + password or PIN. Failures count toward a lock-out of that login, not of the
   * address: at a till every client (the screen, the local POS software) shares 127.0.0.1, so a
   * cashier mistyping a PIN must not lock out the shop's API. `source` is kept for the audit.
   */
  private async verify(_source: string, input: LoginRequest): Promise<Outcome<StaffRecord>> {
    if ((input.password === undefined) === (input.pin === undefined)) {
      return failure(validationError([{ field: 'password', message: 'give either password or pin' }]));
    }
    // The attempt takes its slot before the slow check: parallel guesses cannot exceed the limit.
    const start = await this.auth.begin(staffLockKey(input.login));
    if (!start.ok) return failure(start.error);
    const staff = await this.store.read((r) => r.staff.findByLogin(input.login));
    const secret = input.password ?? input.pin ?? '';
    const stored = input.password !== undefined ? staff?.passwordHash : staff?.pinHash;
    const hash = stored ? openHash(this.vault, stored) : undefined;
    // Unknown logins cost the same scrypt work, so timing does not tell which logins exist.
    const valid = await verifyPassword(secret, staff && hash && !staff.disabledAt ? hash : await this.dummyHash());
    if (!staff || !hash || staff.disabledAt || !valid) {
      start.attempt.failed();
      return failure(apiError(ErrorCode.unauthenticated, 'Wrong login, password or PIN'));
    }
    await start.attempt.succeeded();
    return success(staff);
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= hashPassword(randomBytes(16).toString('base64'));
    return this.dummy;
  }

  async login(source: string, input: LoginRequest): Promise<Outcome<{ token: string; session: Session }>> {
    const verified = await this.verify(source, input);
    if (!verified.ok) return verified;
    const staff = verified.value;
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_MAX_MS).toISOString();
    await this.store.run(async (tx) => {
      await tx.staff.insertSession({
        id: sessionId(token),
        staffId: staff.id,
        createdAt: now.toISOString(),
        lastSeenAt: now.toISOString(),
        expiresAt,
        revokedAt: null,
      });
      await tx.audit.record(
        this.auditRecord(staff.merchantId, staff.id, null, 'login', null, input.pin !== undefined ? 'pin' : 'password'),
      );
    });
    const info = await this.sessionInfo(staff, expiresAt);
    return success({ token, session: info });
  }

  private async sessionInfo(staff: StaffRecord, expiresAt: string): Promise<Session> {
    const merchant = await this.store.read((r) => r.merchants.get(staff.merchantId));
    return {
      staff: {
        staff_id: staff.id,
        login: staff.login,
        display_name: staff.displayName,
        role: staff.role,
        language: staff.language ?? null,
      },
      merchant: {
        merchant_id: staff.merchantId,
        name: merchant?.name ?? '',
        currency: merchant?.currency ?? 'EUR',
        time_zone: this.timeZone,
        language: merchant?.language ?? 'en',
      },
      expires_at: expiresAt,
      idle_timeout_seconds: SESSION_IDLE_MS / 1000,
    };
  }

  /** The principal of a session token, or undefined when unknown, revoked, idle or expired. */
  async resolve(token: string): Promise<Principal | undefined> {
    const id = sessionId(token);
    const now = this.clock.now();
    const found = await this.store.read(async (r) => {
      const session = await r.staff.getSession(id);
      const staff = session ? await r.staff.get(session.staffId) : undefined;
      return session && staff ? { session, staff } : undefined;
    });
    if (!found) return undefined;
    const { session, staff } = found;
    const idleSince = now.getTime() - Date.parse(session.lastSeenAt);
    if (session.revokedAt || staff.disabledAt || session.expiresAt <= now.toISOString() || idleSince > SESSION_IDLE_MS) return undefined;
    if (idleSince > TOUCH_EVERY_MS) await this.store.run((tx) => tx.staff.touchSession(id, now.toISOString()));
    const identity: StaffIdentity = { id: staff.id, login: staff.login, displayName: staff.displayName, role: staff.role, sessionId: id };
    return { kind: 'staff', credentialId: id, merchantId: staff.merchantId, staff: identity };
  }

  async current(principal: Principal): Promise<Session | undefined> {
    if (!principal.staff) return undefined;
    const staff = await this.store.read((r) => r.staff.get(principal.staff?.id ?? ''));
    const session = await this.store.read((r) => r.staff.getSession(principal.credentialId));
    return staff && session ? this.sessionInfo(staff, session.expiresAt) : undefined;
  }

  async logout(token: string): Promise<void> {
    const id = sessionId(token);
    await this.store.run(async (tx) => {
      await tx.staff.revokeSession(id, this.clock.now().toISOString());
      // The screen's till is free for the next cashier at once, not after its hold goes stale.
      await tx.tills.release(id);
    });
  }

  /**
   * Staff set or change their own PIN (for the till login and for approving refunds), confirmed
   * with their password. A wrong password counts toward the login's lock-out like a failed login;
   * it answers 403 naming `password`, since the session itself is fine.
   */
  async setOwnPin(source: string, principal: Principal, input: { password: string; pin: string }): Promise<Outcome<{ has_pin: true }>> {
    const login = principal.staff?.login;
    if (!login) return failure(apiError(ErrorCode.forbidden, 'Only a staff session can set its PIN'));
    if (!/^\d{4,8}$/.test(input.pin)) return failure(validationError([{ field: 'pin', message: 'must be 4 to 8 digits' }]));
    const verified = await this.verify(source, { login, password: input.password });
    if (!verified.ok) {
      return verified.error.error_code === ErrorCode.unauthenticated
        ? failure(
            apiError(ErrorCode.forbidden, 'The password is wrong: the PIN was not changed', [{ field: 'password', message: 'is wrong' }]),
          )
        : verified;
    }
    const staff = verified.value;
    const pinHash = await hashPassword(input.pin);
    await this.store.run(async (tx) => {
      await tx.staff.setPinHash(staff.id, pinHash);
      await tx.audit.record(this.auditRecord(staff.merchantId, staff.id, null, staff.pinHash ? 'pin_changed' : 'pin_set', staff.id, null));
    });
    return success({ has_pin: true as const });
  }

  /** The staff member's own language for the staff screens (D21); null follows the shop's. */
  async setOwnLanguage(principal: Principal, input: OwnLanguageRequest): Promise<Outcome<OwnLanguage>> {
    const staffId = principal.staff?.id;
    if (!staffId) return failure(apiError(ErrorCode.forbidden, 'Only a staff session has its own language'));
    const language = input.language;
    if (language !== null && !isStaffLanguage(language)) {
      return failure(validationError([{ field: 'language', message: `must be one of ${STAFF_LANGUAGES.join(', ')}, or null` }]));
    }
    await this.store.run((tx) => tx.staff.setLanguage(staffId, language));
    return success({ language });
  }

  /**
   * A manager (back_office or admin of the same merchant) approves one action of a cashier, with
   * login and PIN or password. The single-use token is valid for two minutes; the database keeps
   * its SHA-256, so any instance can honour it, once.
   */
  async approve(source: string, principal: Principal, action: string, input: LoginRequest): Promise<Outcome<Approval>> {
    const verified = await this.verify(source, input);
    // The cashier's own session is fine; only the approval failed (403, not a "logged out" 401).
    if (!verified.ok) {
      return verified.error.error_code === ErrorCode.unauthenticated
        ? failure(
            apiError(ErrorCode.forbidden, 'Approval refused: wrong manager login, password or PIN', [
              { field: 'login', message: 'wrong login, password or PIN' },
            ]),
          )
        : verified;
    }
    const approver = verified.value;
    if (approver.merchantId !== principal.merchantId || approver.role === 'cashier') {
      return failure(apiError(ErrorCode.forbidden, 'Approval needs a back-office or admin account of this shop'));
    }
    const token = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + APPROVAL_TTL_MS).toISOString();
    await this.store.run((tx) =>
      tx.staff.insertApproval({
        id: sessionId(token),
        merchantId: approver.merchantId,
        action,
        approverId: approver.id,
        createdAt: now.toISOString(),
        expiresAt,
      }),
    );
    return success({ approval_token: token, approver: approver.displayName, expires_at: expiresAt });
  }

  /**
   * Uses up an approval; returns the approver's staff id when it is valid for this merchant and
   * action. A request sent again with the same idempotency key (a retry after a lost answer) may use
   * it again until it expires; any other request may not. Used by one conditional update, so of
   * requests racing on several instances one uses it.
   */
  async consumeApproval(token: string, merchantId: string, action: string, idempotencyKey?: string): Promise<string | undefined> {
    const id = sessionId(token);
    const now = this.clock.now().toISOString();
    return this.store.runAtomic(
      async (tx) =>
        (await tx.staff.useApproval(id, merchantId, action, now, idempotencyKey ?? null)) ??
        (idempotencyKey === undefined ? undefined : await tx.staff.approvalUsedFor(id, merchantId, action, now, idempotencyKey)),
    );
  }

  /** Deletes approvals that have expired (any instance may). */
  async purgeExpiredApprovals(): Promise<number> {
    const now = this.clock.now().toISOString();
    return this.store.runAtomic((tx) => tx.staff.deleteExpiredApprovals(now));
  }

  auditRecord(
    merchantId: string,
    staffId: string | null,
    approvedBy: string | null,
    action: string,
    subjectId: string | null,
    detail: string | null,
  ): AuditRecord {
    return { id: this.ids.newId(), merchantId, staffId, approvedBy, action, subjectId, detail, createdAt: this.clock.now().toISOString() };
  }

  async recordAudit(record: AuditRecord): Promise<void> {
    await this.store.run((tx) => tx.audit.record(record));
  }

  /** The latest audit entries, each with the display names of who did it and who approved it. */
  async audit(merchantId: string, limit = 100): Promise<Array<AuditRecord & { staffName: string | null; approvedByName: string | null }>> {
    return this.store.read(async (r) => {
      const [records, members] = [await r.staff.listAudit(merchantId, limit), await r.staff.listByMerchant(merchantId)];
      const names = new Map(members.map((m) => [m.id, m.displayName]));
      const nameOf = (id: string | null) => (id === null ? null : (names.get(id) ?? null));
      return records.map((record) => ({ ...record, staffName: nameOf(record.staffId), approvedByName: nameOf(record.approvedBy) }));
    });
  }
}
