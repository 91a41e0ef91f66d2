/**
 * Staff accounts, sessions, managers' approvals, and the audit viewer's reads of the audit log
 * (db/kernel.ts writes it). Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts.
 */
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { byShape, typed, type Placeholders } from '../typed-sql.js';
import type { StaffLanguage } from '../../contract/i18n/languages.js';
import type { AuditRecord } from '../../main/core/kernel.js';
import type { ApprovalRecord, AuditFilter, StaffRecord, StaffRepository, StaffSessionRecord } from '../../main/core/staff/ports.js';

function staffFromRow(r: Selectable<Database['staff']>): StaffRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    login: r.login,
    displayName: r.display_name,
    role: r.role,
    passwordHash: r.password_hash,
    pinHash: r.pin_hash ?? null,
    createdAt: r.created_at,
    disabledAt: r.disabled_at ?? null,
    language: r.language ?? null,
  };
}

function sessionFromRow(r: Selectable<Database['staff_sessions']>): StaffSessionRecord {
  return {
    id: r.id,
    staffId: r.staff_id,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at ?? null,
  };
}

function auditFromRow(r: Selectable<Database['audit_log']>): AuditRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    staffId: r.staff_id ?? null,
    approvedBy: r.approved_by ?? null,
    action: r.action,
    subjectId: r.subject_id ?? null,
    detail: r.detail ?? null,
    createdAt: r.created_at,
    partnerId: r.partner_id ?? null,
    oldValue: typeof r.old_value === 'string' ? (JSON.parse(r.old_value) as unknown) : null,
    newValue: typeof r.new_value === 'string' ? (JSON.parse(r.new_value) as unknown) : null,
  };
}

/** The values of the audit viewer's filters, by name; which of them are set is the statement's shape. */
interface AuditParams {
  merchantId: string;
  staffId: string;
  action: string;
  from: string;
  to: string;
  limit: number;
  offset: number;
}

type AuditShape = Record<'staffId' | 'action' | 'from' | 'to', boolean>;

const auditShape = (filter: AuditFilter): AuditShape => ({
  staffId: filter.staffId !== undefined,
  action: filter.action !== undefined,
  from: filter.from !== undefined,
  to: filter.to !== undefined,
});

/** The audit viewer's filters (each optional; indexes of migration 20), an inclusive created_at range. */
function auditWhere(shape: AuditShape, p: Placeholders<AuditParams>) {
  return (eb: ExpressionBuilder<Database, 'audit_log'>) =>
    eb.and([
      eb('merchant_id', '=', p('merchantId')),
      ...(shape.staffId ? [eb('staff_id', '=', p('staffId'))] : []),
      ...(shape.action ? [eb('action', '=', p('action'))] : []),
      ...(shape.from ? [eb('created_at', '>=', p('from'))] : []),
      ...(shape.to ? [eb('created_at', '<=', p('to'))] : []),
    ]);
}

/** The filter's values, those not set left out (the statement of its shape has no place for them). */
function auditParams(merchantId: string, filter: AuditFilter): Partial<AuditParams> & { merchantId: string } {
  return {
    merchantId,
    ...(filter.staffId !== undefined ? { staffId: filter.staffId } : {}),
    ...(filter.action !== undefined ? { action: filter.action } : {}),
    ...(filter.from !== undefined ? { from: filter.from } : {}),
    ...(filter.to !== undefined ? { to: filter.to } : {}),
  };
}

/** A staff member of the centre's replica as a till keeps it (contract/api/centre.ts `Replica['staff']`). */
type ReplicaStaffParams = Omit<Selectable<Database['staff']>, 'language'>;

export function createStaffRepository(db: SqlDatabase): StaffRepository {
  const s = {
    insert: typed<StaffRecord>()(db, (k, p) =>
      k.insertInto('staff').values({
        id: p('id'),
        merchant_id: p('merchantId'),
        login: p('login'),
        display_name: p('displayName'),
        role: p('role'),
        password_hash: p('passwordHash'),
        pin_hash: p('pinHash'),
        created_at: p('createdAt'),
        disabled_at: p('disabledAt'),
      }),
    ),
    byLogin: typed<{ login: string }>()(db, (k, p) => k.selectFrom('staff').selectAll().where('login', '=', p('login'))),
    get: typed<{ id: string }>()(db, (k, p) => k.selectFrom('staff').selectAll().where('id', '=', p('id'))),
    byMerchant: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('staff').selectAll().where('merchant_id', '=', p('merchantId')).orderBy('created_at').orderBy('id'),
    ),
    setPin: typed<{ id: string; pinHash: string }>()(db, (k, p) =>
      k
        .updateTable('staff')
        .set({ pin_hash: p('pinHash') })
        .where('id', '=', p('id')),
    ),
    setLanguage: typed<{ id: string; language: StaffLanguage | null }>()(db, (k, p) =>
      k
        .updateTable('staff')
        .set({ language: p('language') })
        .where('id', '=', p('id')),
    ),
    setPassword: typed<{ id: string; passwordHash: string }>()(db, (k, p) =>
      k
        .updateTable('staff')
        .set({ password_hash: p('passwordHash') })
        .where('id', '=', p('id')),
    ),
    disable: typed<{ id: string; at: string }>()(db, (k, p) =>
      k
        .updateTable('staff')
        .set({ disabled_at: p('at') })
        .where('id', '=', p('id'))
        .where('disabled_at', 'is', null),
    ),
    insertSession: typed<StaffSessionRecord>()(db, (k, p) =>
      k.insertInto('staff_sessions').values({
        id: p('id'),
        staff_id: p('staffId'),
        created_at: p('createdAt'),
        last_seen_at: p('lastSeenAt'),
        expires_at: p('expiresAt'),
        revoked_at: p('revokedAt'),
      }),
    ),
    getSession: typed<{ id: string }>()(db, (k, p) => k.selectFrom('staff_sessions').selectAll().where('id', '=', p('id'))),
    touch: typed<{ id: string; at: string }>()(db, (k, p) =>
      k
        .updateTable('staff_sessions')
        .set({ last_seen_at: p('at') })
        .where('id', '=', p('id')),
    ),
    revoke: typed<{ id: string; at: string }>()(db, (k, p) =>
      k
        .updateTable('staff_sessions')
        .set({ revoked_at: p('at') })
        .where('id', '=', p('id'))
        .where('revoked_at', 'is', null),
    ),
    revokeAll: typed<{ staffId: string; at: string; exceptSessionId: string }>()(db, (k, p) =>
      k
        .updateTable('staff_sessions')
        .set({ revoked_at: p('at') })
        .where('staff_id', '=', p('staffId'))
        .where('revoked_at', 'is', null)
        .where('id', '<>', p('exceptSessionId')),
    ),
    listAudit: typed<{ merchantId: string; limit: number }>()(db, (k, p) =>
      k
        .selectFrom('audit_log')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p('limit')),
    ),
    auditPage: byShape(db, (shape: AuditShape, k, p: Placeholders<AuditParams>) =>
      k
        .selectFrom('audit_log')
        .selectAll()
        .where(auditWhere(shape, p))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p('limit'))
        .offset(p('offset')),
    ),
    auditCount: byShape(db, (shape: AuditShape, k, p: Placeholders<AuditParams>) =>
      k
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(auditWhere(shape, p)),
    ),
    auditActions: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('audit_log').select('action').distinct().where('merchant_id', '=', p('merchantId')).orderBy('action'),
    ),
    insertApproval: typed<ApprovalRecord>()(db, (k, p) =>
      k.insertInto('manager_approvals').values({
        id: p('id'),
        merchant_id: p('merchantId'),
        action: p('action'),
        approver_id: p('approverId'),
        created_at: p('createdAt'),
        expires_at: p('expiresAt'),
        used_at: null,
        used_for: null,
      }),
    ),
    useApproval: typed<{ id: string; merchantId: string; action: string; now: string; usedFor: string | null }>()(db, (k, p) =>
      k
        .updateTable('manager_approvals')
        .set({ used_at: p('now'), used_for: p('usedFor') })
        .where('id', '=', p('id'))
        .where('merchant_id', '=', p('merchantId'))
        .where('action', '=', p('action'))
        .where('used_at', 'is', null)
        .where('expires_at', '>=', p('now'))
        .returning('approver_id'),
    ),
    approvalUsedFor: typed<{ id: string; merchantId: string; action: string; now: string; usedFor: string }>()(db, (k, p) =>
      k
        .selectFrom('manager_approvals')
        .select('approver_id')
        .where('id', '=', p('id'))
        .where('merchant_id', '=', p('merchantId'))
        .where('action', '=', p('action'))
        .where('used_for', '=', p('usedFor'))
        .where('expires_at', '>=', p('now')),
    ),
    deleteExpiredApprovals: typed<{ now: string }>()(db, (k, p) => k.deleteFrom('manager_approvals').where('expires_at', '<', p('now'))),
    // The till's copy of its centre's staff: a new one inserted, a known one given the centre's values.
    replicaStaff: typed<ReplicaStaffParams>()(db, (k, p) =>
      k
        .insertInto('staff')
        .values({
          id: p('id'),
          merchant_id: p('merchant_id'),
          login: p('login'),
          display_name: p('display_name'),
          role: p('role'),
          password_hash: p('password_hash'),
          pin_hash: p('pin_hash'),
          created_at: p('created_at'),
          disabled_at: p('disabled_at'),
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            login: eb.ref('excluded.login'),
            display_name: eb.ref('excluded.display_name'),
            role: eb.ref('excluded.role'),
            password_hash: eb.ref('excluded.password_hash'),
            pin_hash: eb.ref('excluded.pin_hash'),
            disabled_at: eb.ref('excluded.disabled_at'),
          })),
        ),
    ),
    // The merchant's staff a till could still log in: not disabled, or with a hash left.
    replicaStaffIds: typed<{ merchantId: string }>()(db, (k, p) =>
      k
        .selectFrom('staff')
        .select('id')
        .where('merchant_id', '=', p('merchantId'))
        .where((eb) => eb.or([eb('disabled_at', 'is', null), eb('password_hash', '<>', ''), eb('pin_hash', 'is not', null)])),
    ),
    dropStaff: typed<{ id: string; at: string }>()(db, (k, p) =>
      k
        .updateTable('staff')
        .set((eb) => ({ disabled_at: eb.fn.coalesce('disabled_at', eb.val(p('at'))), password_hash: '', pin_hash: null }))
        .where('id', '=', p('id')),
    ),
    endSessions: typed<{ staffId: string; at: string }>()(db, (k, p) =>
      k
        .updateTable('staff_sessions')
        .set({ revoked_at: p('at') })
        .where('staff_id', '=', p('staffId'))
        .where('revoked_at', 'is', null),
    ),
  };
  return {
    insert: async (staff) => void (await s.insert.run(staff)),
    keepReplica: async (merchantId, staff, at) => {
      for (const m of staff)
        await s.replicaStaff.run({
          id: m.staff_id,
          merchant_id: merchantId,
          login: m.login,
          display_name: m.display_name,
          // The centre's role, as the till has always stored it (the column's CHECK list holds).
          role: m.role as StaffRecord['role'],
          password_hash: m.password_hash,
          pin_hash: m.pin_hash,
          created_at: m.created_at,
          disabled_at: m.disabled_at,
        });
      // A staff member the centre no longer gives is disabled here, with no hash left to guess against.
      const kept = new Set(staff.map((m) => m.staff_id));
      for (const row of await s.replicaStaffIds.all({ merchantId })) {
        if (kept.has(row.id)) continue;
        await s.dropStaff.run({ id: row.id, at });
        await s.endSessions.run({ staffId: row.id, at });
      }
    },
    findByLogin: async (login) => {
      const row = await s.byLogin.get({ login });
      return row && staffFromRow(row);
    },
    get: async (id) => {
      const row = await s.get.get({ id });
      return row && staffFromRow(row);
    },
    listByMerchant: async (merchantId) => (await s.byMerchant.all({ merchantId })).map(staffFromRow),
    setPinHash: async (id, pinHash) => void (await s.setPin.run({ id, pinHash })),
    setLanguage: async (id, language) => void (await s.setLanguage.run({ id, language })),
    insertSession: async (session) => void (await s.insertSession.run(session)),
    getSession: async (id) => {
      const row = await s.getSession.get({ id });
      return row && sessionFromRow(row);
    },
    touchSession: async (id, at) => void (await s.touch.run({ id, at })),
    revokeSession: async (id, at) => void (await s.revoke.run({ id, at })),
    listAudit: async (merchantId, limit) => (await s.listAudit.all({ merchantId, limit })).map(auditFromRow),
    setPasswordHash: async (id, passwordHash) => void (await s.setPassword.run({ id, passwordHash })),
    disable: async (id, at) => void (await s.disable.run({ id, at })),
    revokeSessionsOf: async (staffId, at, exceptSessionId) =>
      (await s.revokeAll.run({ staffId, at, exceptSessionId: exceptSessionId ?? '' })).changes,
    auditPage: async (merchantId, filter) => {
      const shape = auditShape(filter);
      const values = auditParams(merchantId, filter);
      const rows = await s.auditPage(shape).all({ ...values, limit: filter.limit, offset: filter.offset } as AuditParams);
      const count = await s.auditCount(shape).get(values as AuditParams);
      return { records: rows.map(auditFromRow), total: count?.n ?? 0 };
    },
    auditActions: async (merchantId) => (await s.auditActions.all({ merchantId })).map((r) => r.action),
    insertApproval: async (approval) => void (await s.insertApproval.run(approval)),
    useApproval: async (id, merchantId, action, now, usedFor) => {
      const row = await s.useApproval.get({ id, merchantId, action, now, usedFor });
      return row?.approver_id;
    },
    approvalUsedFor: async (id, merchantId, action, now, usedFor) => {
      const row = await s.approvalUsedFor.get({ id, merchantId, action, now, usedFor });
      return row?.approver_id;
    },
    deleteExpiredApprovals: async (now) => (await s.deleteExpiredApprovals.run({ now })).changes,
  };
}
