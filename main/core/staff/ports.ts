/**
 * Staff, their sessions, managers' single-use approvals and the audit log. Adapter: db/.
 */
import type { Replica } from '../../../contract/api/centre.js';
import type { StaffRole } from '../../../contract/constants.js';
import type { StaffLanguage } from '../../../contract/i18n/languages.js';
import type { AuditRecord } from '../kernel.js';
import type { KernelUnit } from '../unit-of-work.js';
import type { MerchantRepository } from '../merchants/ports.js';
import type { TillRepository } from '../tills/ports.js';

export interface StaffRecord {
  id: string;
  merchantId: string;
  login: string;
  displayName: string;
  role: StaffRole;
  passwordHash: string;
  pinHash: string | null;
  createdAt: string;
  disabledAt: string | null;
  /** Their own language for the staff screens (D21); null or absent: the shop's. */
  language?: StaffLanguage | null;
}

export interface StaffSessionRecord {
  /** SHA-256 of the session token; the token itself is only in the cookie. */
  id: string;
  staffId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

/** A manager's single-use approval of one action at the till (migration 23). */
export interface ApprovalRecord {
  /** SHA-256 of the approval token; the token itself is only given to the till. */
  id: string;
  merchantId: string;
  action: string;
  approverId: string;
  createdAt: string;
  expiresAt: string;
}

export interface StaffRepository {
  insert(staff: StaffRecord): Promise<void>;
  findByLogin(login: string): Promise<StaffRecord | undefined>;
  get(id: string): Promise<StaffRecord | undefined>;
  listByMerchant(merchantId: string): Promise<StaffRecord[]>;
  setPinHash(id: string, pinHash: string): Promise<void>;
  /** The staff member's own language for the staff screens; null: the shop's. */
  setLanguage(id: string, language: StaffLanguage | null): Promise<void>;
  insertSession(session: StaffSessionRecord): Promise<void>;
  getSession(id: string): Promise<StaffSessionRecord | undefined>;
  touchSession(id: string, lastSeenAt: string): Promise<void>;
  revokeSession(id: string, at: string): Promise<void>;
  listAudit(merchantId: string, limit: number): Promise<AuditRecord[]>;
  setPasswordHash(id: string, passwordHash: string): Promise<void>;
  disable(id: string, at: string): Promise<void>;
  /** Ends every open session of a staff member but `exceptSessionId`; returns how many ended. */
  revokeSessionsOf(staffId: string, at: string, exceptSessionId?: string): Promise<number>;
  /** One page of the audit log, newest first, and how many entries match. */
  auditPage(merchantId: string, filter: AuditFilter): Promise<{ records: AuditRecord[]; total: number }>;
  /** The actions the merchant's audit log holds, by name. */
  auditActions(merchantId: string): Promise<string[]>;
  insertApproval(approval: ApprovalRecord): Promise<void>;
  /**
   * Uses an approval of this merchant and action that is unused and not expired at `now`, in one
   * conditional update (so across instances it is used once), recording `usedFor` (the request's
   * idempotency key, or null); answers the approver's staff id, or undefined when it was not usable.
   */
  useApproval(id: string, merchantId: string, action: string, now: string, usedFor: string | null): Promise<string | undefined>;
  /** The approver of an approval already used by a request with idempotency key `usedFor`, while it has not expired. */
  approvalUsedFor(id: string, merchantId: string, action: string, now: string, usedFor: string): Promise<string | undefined>;
  /** Deletes approvals that expired before `now`; returns how many. */
  deleteExpiredApprovals(now: string): Promise<number>;
  /**
   * A joined till keeps its centre's copy of the staff (their hashes sealed by the caller): one it
   * leaves out is disabled at `at` with no hash left, and their sessions end.
   */
  keepReplica(merchantId: string, staff: Replica['staff'], at: string): Promise<void>;
}

/** The audit viewer's filters (each optional) and page. */
export interface AuditFilter {
  staffId?: string;
  action?: string;
  /** ISO 8601, inclusive. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/** The staff feature's view of a unit of work: staff, sessions, approvals; a logged-out screen lets go of its tills. */
export interface StaffUnit extends KernelUnit {
  staff: StaffRepository;
  merchants: Pick<MerchantRepository, 'get'>;
  tills: Pick<TillRepository, 'release'>;
}
