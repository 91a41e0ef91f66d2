/** Staff accounts, sessions, managers' approvals, and the audit viewer's reads of the audit log (db/kernel.ts writes it). */
import { preparedOnce, type SqlDatabase } from '../sql.js';
import type { AuditRecord } from '../../main/core/kernel.js';
import type { AuditFilter, StaffRecord, StaffRepository, StaffSessionRecord } from '../../main/core/staff/ports.js';
import type { Row } from '../rows.js';

function staffFromRow(r: Row): StaffRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    login: r.login as string,
    displayName: r.display_name as string,
    role: r.role as StaffRecord['role'],
    passwordHash: r.password_hash as string,
    pinHash: (r.pin_hash as string | null) ?? null,
    createdAt: r.created_at as string,
    disabledAt: (r.disabled_at as string | null) ?? null,
    language: (r.language as StaffRecord['language']) ?? null,
  };
}

function sessionFromRow(r: Row): StaffSessionRecord {
  return {
    id: r.id as string,
    staffId: r.staff_id as string,
    createdAt: r.created_at as string,
    lastSeenAt: r.last_seen_at as string,
    expiresAt: r.expires_at as string,
    revokedAt: (r.revoked_at as string | null) ?? null,
  };
}

function auditFromRow(r: Row): AuditRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    staffId: (r.staff_id as string | null) ?? null,
    approvedBy: (r.approved_by as string | null) ?? null,
    action: r.action as string,
    subjectId: (r.subject_id as string | null) ?? null,
    detail: (r.detail as string | null) ?? null,
    createdAt: r.created_at as string,
    partnerId: (r.partner_id as string | null) ?? null,
    oldValue: typeof r.old_value === 'string' ? (JSON.parse(r.old_value) as unknown) : null,
    newValue: typeof r.new_value === 'string' ? (JSON.parse(r.new_value) as unknown) : null,
  };
}

/** The WHERE clause and values of the audit viewer's filters (each optional; indexes of migration 20). */
function auditWhere(merchantId: string, filter: AuditFilter): { where: string; values: unknown[] } {
  const parts = ['merchant_id = ?'];
  const values: unknown[] = [merchantId];
  if (filter.staffId !== undefined) {
    parts.push('staff_id = ?');
    values.push(filter.staffId);
  }
  if (filter.action !== undefined) {
    parts.push('action = ?');
    values.push(filter.action);
  }
  if (filter.from !== undefined) {
    parts.push('created_at >= ?');
    values.push(filter.from);
  }
  if (filter.to !== undefined) {
    parts.push('created_at <= ?');
    values.push(filter.to);
  }
  return { where: parts.join(' AND '), values };
}

export function createStaffRepository(db: SqlDatabase): StaffRepository {
  const prepared = preparedOnce(db);
  const s = {
    insert: db.prepare(
      `INSERT INTO staff (id, merchant_id, login, display_name, role, password_hash, pin_hash, created_at, disabled_at)
       VALUES (@id, @merchantId, @login, @displayName, @role, @passwordHash, @pinHash, @createdAt, @disabledAt)`,
    ),
    byLogin: db.prepare('SELECT * FROM staff WHERE login = ?'),
    get: db.prepare('SELECT * FROM staff WHERE id = ?'),
    byMerchant: db.prepare('SELECT * FROM staff WHERE merchant_id = ? ORDER BY created_at, id'),
    setPin: db.prepare('UPDATE staff SET pin_hash = ? WHERE id = ?'),
    setLanguage: db.prepare('UPDATE staff SET language = ? WHERE id = ?'),
    insertSession: db.prepare(
      `INSERT INTO staff_sessions (id, staff_id, created_at, last_seen_at, expires_at, revoked_at)
       VALUES (@id, @staffId, @createdAt, @lastSeenAt, @expiresAt, @revokedAt)`,
    ),
    getSession: db.prepare('SELECT * FROM staff_sessions WHERE id = ?'),
    touch: db.prepare('UPDATE staff_sessions SET last_seen_at = ? WHERE id = ?'),
    revoke: db.prepare('UPDATE staff_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    listAudit: db.prepare('SELECT * FROM audit_log WHERE merchant_id = ? ORDER BY created_at DESC, id DESC LIMIT ?'),
    setPassword: db.prepare('UPDATE staff SET password_hash = ? WHERE id = ?'),
    disable: db.prepare('UPDATE staff SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL'),
    revokeAll: db.prepare('UPDATE staff_sessions SET revoked_at = ? WHERE staff_id = ? AND revoked_at IS NULL AND id <> ?'),
    auditActions: db.prepare('SELECT DISTINCT action FROM audit_log WHERE merchant_id = ? ORDER BY action'),
    insertApproval: db.prepare(
      `INSERT INTO manager_approvals (id, merchant_id, action, approver_id, created_at, expires_at, used_at, used_for)
       VALUES (@id, @merchantId, @action, @approverId, @createdAt, @expiresAt, NULL, NULL)`,
    ),
    useApproval: db.prepare(
      `UPDATE manager_approvals SET used_at = @now, used_for = @usedFor
       WHERE id = @id AND merchant_id = @merchantId AND action = @action AND used_at IS NULL AND expires_at >= @now
       RETURNING approver_id`,
    ),
    approvalUsedFor: db.prepare(
      'SELECT approver_id FROM manager_approvals WHERE id = ? AND merchant_id = ? AND action = ? AND used_for = ? AND expires_at >= ?',
    ),
    deleteExpiredApprovals: db.prepare('DELETE FROM manager_approvals WHERE expires_at < ?'),
    replicaStaff: db.prepare(
      `INSERT INTO staff (id, merchant_id, login, display_name, role, password_hash, pin_hash, created_at, disabled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET login = excluded.login, display_name = excluded.display_name, role = excluded.role,
         password_hash = excluded.password_hash, pin_hash = excluded.pin_hash, disabled_at = excluded.disabled_at`,
    ),
    replicaStaffIds: db.prepare(
      "SELECT id FROM staff WHERE merchant_id = ? AND (disabled_at IS NULL OR password_hash <> '' OR pin_hash IS NOT NULL)",
    ),
    dropStaff: db.prepare("UPDATE staff SET disabled_at = COALESCE(disabled_at, ?), password_hash = '', pin_hash = NULL WHERE id = ?"),
    endSessions: db.prepare('UPDATE staff_sessions SET revoked_at = ? WHERE staff_id = ? AND revoked_at IS NULL'),
  };
  return {
    insert: async (staff) => void (await s.insert.run(staff)),
    keepReplica: async (merchantId, staff, at) => {
      for (const p of staff)
        await s.replicaStaff.run(
          p.staff_id,
          merchantId,
          p.login,
          p.display_name,
          p.role,
          p.password_hash,
          p.pin_hash,
          p.created_at,
          p.disabled_at,
        );
      // A staff member the centre no longer gives is disabled here, with no hash left to guess against.
      const kept = new Set(staff.map((p) => p.staff_id));
      for (const row of (await s.replicaStaffIds.all(merchantId)) as Row[]) {
        if (kept.has(row.id as string)) continue;
        await s.dropStaff.run(at, row.id);
        await s.endSessions.run(at, row.id);
      }
    },
    findByLogin: async (login) => {
      const row = (await s.byLogin.get(login)) as Row | undefined;
      return row && staffFromRow(row);
    },
    get: async (id) => {
      const row = (await s.get.get(id)) as Row | undefined;
      return row && staffFromRow(row);
    },
    listByMerchant: async (merchantId) => ((await s.byMerchant.all(merchantId)) as Row[]).map(staffFromRow),
    setPinHash: async (id, pinHash) => void (await s.setPin.run(pinHash, id)),
    setLanguage: async (id, language) => void (await s.setLanguage.run(language, id)),
    insertSession: async (session) => void (await s.insertSession.run(session)),
    getSession: async (id) => {
      const row = (await s.getSession.get(id)) as Row | undefined;
      return row && sessionFromRow(row);
    },
    touchSession: async (id, at) => void (await s.touch.run(at, id)),
    revokeSession: async (id, at) => void (await s.revoke.run(at, id)),
    listAudit: async (merchantId, limit) => ((await s.listAudit.all(merchantId, limit)) as Row[]).map(auditFromRow),
    setPasswordHash: async (id, passwordHash) => void (await s.setPassword.run(passwordHash, id)),
    disable: async (id, at) => void (await s.disable.run(at, id)),
    revokeSessionsOf: async (staffId, at, exceptSessionId) => (await s.revokeAll.run(at, staffId, exceptSessionId ?? '')).changes,
    auditPage: async (merchantId, filter) => {
      const { where, values } = auditWhere(merchantId, filter);
      const rows = (await prepared(`SELECT * FROM audit_log WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(
        ...values,
        filter.limit,
        filter.offset,
      )) as Row[];
      const count = (await prepared(`SELECT COUNT(*) AS n FROM audit_log WHERE ${where}`).get(...values)) as { n: number };
      return { records: rows.map(auditFromRow), total: count.n };
    },
    auditActions: async (merchantId) => ((await s.auditActions.all(merchantId)) as Array<{ action: string }>).map((r) => r.action),
    insertApproval: async (approval) => void (await s.insertApproval.run(approval)),
    useApproval: async (id, merchantId, action, now, usedFor) => {
      const row = (await s.useApproval.get({ id, merchantId, action, now, usedFor })) as { approver_id: string } | undefined;
      return row?.approver_id;
    },
    approvalUsedFor: async (id, merchantId, action, now, usedFor) => {
      const row = (await s.approvalUsedFor.get(id, merchantId, action, usedFor, now)) as { approver_id: string } | undefined;
      return row?.approver_id;
    },
    deleteExpiredApprovals: async (now) => (await s.deleteExpiredApprovals.run(now)).changes,
  };
}
