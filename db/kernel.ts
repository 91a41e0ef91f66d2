/**
 * The kernel's tables (main/core/kernel.ts): the audit log, scheduled tasks, operation leases and
 * the gateway instances. Every feature may use them through the unit of work's kernel ports; only
 * this file writes them. Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts
 * (db/kernel-tables.ts); constants that were literals in the SQL stay literals (`sql.lit`), not
 * parameters.
 */
import { sql, type Selectable } from 'kysely';
import type { AuditLog, InstanceRepository, OperationLockRepository, ScheduledTask, TaskRepository } from '../main/core/kernel.js';
import type { Database } from './schema.js';
import type { SqlDatabase } from './sql.js';
import { rowPlaces, typed } from './typed-sql.js';

export function createAuditLog(db: SqlDatabase): AuditLog {
  // On the payment hot path: built with Kysely, compiled once here; a call only puts its values in order.
  const audit = typed<Database['audit_log']>()(db, (k, p) => k.insertInto('audit_log').values(rowPlaces('audit_log', p)));
  return {
    record: async (record) =>
      void (await audit.run({
        id: record.id,
        merchant_id: record.merchantId,
        staff_id: record.staffId ?? null,
        approved_by: record.approvedBy ?? null,
        action: record.action,
        subject_id: record.subjectId ?? null,
        detail: record.detail ?? null,
        created_at: record.createdAt,
        partner_id: record.partnerId ?? null,
        old_value: record.oldValue === undefined || record.oldValue === null ? null : JSON.stringify(record.oldValue),
        new_value: record.newValue === undefined || record.newValue === null ? null : JSON.stringify(record.newValue),
      })),
  };
}

function taskFromRow(r: Selectable<Database['scheduled_tasks']>): ScheduledTask {
  return {
    id: r.id,
    kind: r.kind,
    subjectId: r.subject_id,
    merchantId: r.merchant_id,
    dueAt: r.due_at,
    state: r.state,
    attempts: r.attempts,
    lastError: r.last_error ?? null,
    createdAt: r.created_at,
  };
}

export function createTaskRepository(db: SqlDatabase): TaskRepository {
  const pending = sql.lit<'pending'>('pending');
  const s = {
    taskInsert: typed<Database['scheduled_tasks']>()(db, (k, p) => k.insertInto('scheduled_tasks').values(rowPlaces('scheduled_tasks', p))),
    tasksDue: typed<{ now: string; limit: number }>()(db, (k, p) =>
      k
        .selectFrom('scheduled_tasks')
        .selectAll()
        .where('state', '=', pending)
        .where('due_at', '<=', p('now'))
        .orderBy('due_at')
        .limit(p('limit')),
    ),
    taskClaim: typed<{ until: string; id: string; dueAt: string }>()(db, (k, p) =>
      k
        .updateTable('scheduled_tasks')
        .set({ due_at: p('until') })
        .where('id', '=', p('id'))
        .where('state', '=', pending)
        .where('due_at', '=', p('dueAt')),
    ),
    taskNextDue: typed()(db, (k) =>
      k
        .selectFrom('scheduled_tasks')
        .select((eb) => eb.fn.min('due_at').as('due'))
        .where('state', '=', pending),
    ),
    taskFinish: typed<{ state: 'done' | 'failed'; lastError: string | null; id: string }>()(db, (k, p) =>
      k
        .updateTable('scheduled_tasks')
        .set({ state: p('state'), last_error: p('lastError'), attempts: sql<number>`attempts + 1` })
        .where('id', '=', p('id')),
    ),
    taskRetry: typed<{ dueAt: string; lastError: string; id: string }>()(db, (k, p) =>
      k
        .updateTable('scheduled_tasks')
        .set({ due_at: p('dueAt'), last_error: p('lastError'), attempts: sql<number>`attempts + 1` })
        .where('id', '=', p('id')),
    ),
    taskCancel: typed<{ subjectId: string; kind: string }>()(db, (k, p) =>
      k
        .updateTable('scheduled_tasks')
        .set({ state: sql.lit<'done'>('done') })
        .where('subject_id', '=', p('subjectId'))
        .where('kind', '=', p('kind'))
        .where('state', '=', pending),
    ),
  };
  return {
    insert: async (t) =>
      void (await s.taskInsert.run({
        id: t.id,
        kind: t.kind,
        subject_id: t.subjectId,
        merchant_id: t.merchantId,
        due_at: t.dueAt,
        state: t.state,
        attempts: t.attempts,
        last_error: t.lastError ?? null,
        created_at: t.createdAt,
      })),
    due: async (now, limit) => (await s.tasksDue.all({ now, limit })).map(taskFromRow),
    claim: async (id, dueAt, until) => (await s.taskClaim.run({ until, id, dueAt })).changes === 1,
    nextDueAt: async () => (await s.taskNextDue.get({}))?.due ?? undefined,
    finish: async (id, state, lastError) => void (await s.taskFinish.run({ state, lastError: lastError ?? null, id })),
    retry: async (id, dueAt, lastError) => void (await s.taskRetry.run({ dueAt, lastError, id })),
    cancelPending: async (subjectId, kind) => void (await s.taskCancel.run({ subjectId, kind })),
  };
}

export function createOperationLockRepository(db: SqlDatabase): OperationLockRepository {
  const s = {
    // The lease is taken when the key is free, or when the lease on it lapsed (its holder died).
    lockAcquire: typed<{ key: string; holder: string; expiresAt: string; now: string }>()(db, (k, p) =>
      k
        .insertInto('operation_locks')
        .values({ lock_key: p('key'), holder: p('holder'), expires_at: p('expiresAt') })
        .onConflict((oc) =>
          oc
            .column('lock_key')
            .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), expires_at: eb.ref('excluded.expires_at') }))
            .where('operation_locks.expires_at', '<=', p('now')),
        ),
    ),
    lockRelease: typed<{ key: string; holder: string }>()(db, (k, p) =>
      k.deleteFrom('operation_locks').where('lock_key', '=', p('key')).where('holder', '=', p('holder')),
    ),
  };
  return {
    acquire: async (key, holder, now, expiresAt) => (await s.lockAcquire.run({ key, holder, expiresAt, now })).changes === 1,
    release: async (key, holder) => void (await s.lockRelease.run({ key, holder })),
  };
}

export function createInstanceRepository(db: SqlDatabase): InstanceRepository {
  const s = {
    beat: typed<{ id: string; now: string }>()(db, (k, p) =>
      k
        .insertInto('gateway_instances')
        .values({ id: p('id'), started_at: p('now'), seen_at: p('now') })
        .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ seen_at: eb.ref('excluded.seen_at') }))),
    ),
    remove: typed<{ id: string }>()(db, (k, p) => k.deleteFrom('gateway_instances').where('id', '=', p('id'))),
    removeOthers: typed<{ keep: string }>()(db, (k, p) => k.deleteFrom('gateway_instances').where('id', '<>', p('keep'))),
    alive: typed<{ id: string; since: string }>()(db, (k, p) =>
      k.selectFrom('gateway_instances').select(sql.lit(1).as('alive')).where('id', '=', p('id')).where('seen_at', '>=', p('since')),
    ),
    known: typed<{ id: string }>()(db, (k, p) =>
      k.selectFrom('gateway_instances').select(sql.lit(1).as('known')).where('id', '=', p('id')),
    ),
  };
  return {
    beat: async (id, now) => void (await s.beat.run({ id, now })),
    remove: async (id) => void (await s.remove.run({ id })),
    removeOthers: async (keep) => void (await s.removeOthers.run({ keep })),
    alive: async (id, since) => (await s.alive.get({ id, since })) !== undefined,
    known: async (id) => (await s.known.get({ id })) !== undefined,
  };
}
