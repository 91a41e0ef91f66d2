/**
 * The kernel's tables (main/core/kernel.ts): the audit log, scheduled tasks, operation leases and
 * the gateway instances. Every feature may use them through the unit of work's kernel ports; only
 * this file writes them.
 */
import type { AuditLog, InstanceRepository, OperationLockRepository, ScheduledTask, TaskRepository } from '../main/core/kernel.js';
import type { Row } from './rows.js';
import type { SqlDatabase } from './sql.js';

export function createAuditLog(db: SqlDatabase): AuditLog {
  const audit = db.prepare(
    `INSERT INTO audit_log (id, merchant_id, staff_id, approved_by, action, subject_id, detail, created_at, partner_id, old_value, new_value)
     VALUES (@id, @merchantId, @staffId, @approvedBy, @action, @subjectId, @detail, @createdAt, @partnerId, @oldValue, @newValue)`,
  );
  return {
    record: async (record) =>
      void (await audit.run({
        ...record,
        partnerId: record.partnerId ?? null,
        oldValue: record.oldValue === undefined || record.oldValue === null ? null : JSON.stringify(record.oldValue),
        newValue: record.newValue === undefined || record.newValue === null ? null : JSON.stringify(record.newValue),
      })),
  };
}

function taskFromRow(r: Row): ScheduledTask {
  return {
    id: r.id as string,
    kind: r.kind as string,
    subjectId: r.subject_id as string,
    merchantId: r.merchant_id as string,
    dueAt: r.due_at as string,
    state: r.state as ScheduledTask['state'],
    attempts: r.attempts as number,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: r.created_at as string,
  };
}

export function createTaskRepository(db: SqlDatabase): TaskRepository {
  const s = {
    taskInsert: db.prepare(
      `INSERT INTO scheduled_tasks (id, kind, subject_id, merchant_id, due_at, state, attempts, last_error, created_at)
       VALUES (@id, @kind, @subjectId, @merchantId, @dueAt, @state, @attempts, @lastError, @createdAt)`,
    ),
    tasksDue: db.prepare("SELECT * FROM scheduled_tasks WHERE state = 'pending' AND due_at <= ? ORDER BY due_at LIMIT ?"),
    taskClaim: db.prepare("UPDATE scheduled_tasks SET due_at = ? WHERE id = ? AND state = 'pending' AND due_at = ?"),
    taskNextDue: db.prepare("SELECT MIN(due_at) AS due FROM scheduled_tasks WHERE state = 'pending'"),
    taskFinish: db.prepare('UPDATE scheduled_tasks SET state = ?, last_error = ?, attempts = attempts + 1 WHERE id = ?'),
    taskRetry: db.prepare('UPDATE scheduled_tasks SET due_at = ?, last_error = ?, attempts = attempts + 1 WHERE id = ?'),
    taskCancel: db.prepare("UPDATE scheduled_tasks SET state = 'done' WHERE subject_id = ? AND kind = ? AND state = 'pending'"),
  };
  return {
    insert: async (t) => void (await s.taskInsert.run(t)),
    due: async (now, limit) => ((await s.tasksDue.all(now, limit)) as Row[]).map(taskFromRow),
    claim: async (id, dueAt, until) => (await s.taskClaim.run(until, id, dueAt)).changes === 1,
    nextDueAt: async () => ((await s.taskNextDue.get()) as { due: string | null }).due ?? undefined,
    finish: async (id, state, lastError) => void (await s.taskFinish.run(state, lastError, id)),
    retry: async (id, dueAt, lastError) => void (await s.taskRetry.run(dueAt, lastError, id)),
    cancelPending: async (subjectId, kind) => void (await s.taskCancel.run(subjectId, kind)),
  };
}

export function createOperationLockRepository(db: SqlDatabase): OperationLockRepository {
  const s = {
    // The lease is taken when the key is free, or when the lease on it lapsed (its holder died).
    lockAcquire: db.prepare(
      `INSERT INTO operation_locks (lock_key, holder, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (lock_key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE operation_locks.expires_at <= ?`,
    ),
    lockRelease: db.prepare('DELETE FROM operation_locks WHERE lock_key = ? AND holder = ?'),
  };
  return {
    acquire: async (key, holder, now, expiresAt) => (await s.lockAcquire.run(key, holder, expiresAt, now)).changes === 1,
    release: async (key, holder) => void (await s.lockRelease.run(key, holder)),
  };
}

export function createInstanceRepository(db: SqlDatabase): InstanceRepository {
  const s = {
    beat: db.prepare(
      'INSERT INTO gateway_instances (id, started_at, seen_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at',
    ),
    remove: db.prepare('DELETE FROM gateway_instances WHERE id = ?'),
    removeOthers: db.prepare('DELETE FROM gateway_instances WHERE id <> ?'),
    alive: db.prepare('SELECT 1 AS alive FROM gateway_instances WHERE id = ? AND seen_at >= ?'),
    known: db.prepare('SELECT 1 AS known FROM gateway_instances WHERE id = ?'),
  };
  return {
    beat: async (id, now) => void (await s.beat.run(id, now, now)),
    remove: async (id) => void (await s.remove.run(id)),
    removeOthers: async (keep) => void (await s.removeOthers.run(keep)),
    alive: async (id, since) => (await s.alive.get(id, since)) !== undefined,
    known: async (id) => (await s.known.get(id)) !== undefined,
  };
}
