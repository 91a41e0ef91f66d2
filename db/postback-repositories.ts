/** Outbox delivery bookkeeping: due records, per-subject lists, attempts. */
import type { SqlDatabase, SqlStatement } from './sql.js';
import type { OutboxFilter, OutboxRecord, PostbackAttemptRecord } from '../main/core/ports.js';

type Row = Record<string, unknown>;

export function outboxFromRow(r: Row): OutboxRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    subjectType: r.subject_type as string,
    subjectId: r.subject_id as string,
    sequence: r.sequence as number,
    url: r.url as string,
    payload: JSON.parse(r.payload as string) as Record<string, unknown>,
    state: r.state as OutboxRecord['state'],
    attempts: r.attempts as number,
    nextAttemptAt: r.next_attempt_at as string,
    createdAt: r.created_at as string,
    deliveredAt: (r.delivered_at as string | null) ?? null,
    lastError: (r.last_error as string | null) ?? null,
    retryFrom: (r.retry_from as string | null) ?? null,
    windowAttempts: (r.window_attempts as number | null) ?? 0,
  };
}

function attemptFromRow(r: Row): PostbackAttemptRecord {
  return {
    id: r.id as string,
    outboxId: r.outbox_id as string,
    attempt: r.attempt as number,
    httpStatus: (r.http_status as number | null) ?? null,
    outcome: r.outcome as PostbackAttemptRecord['outcome'],
    error: (r.error as string | null) ?? null,
    durationMs: r.duration_ms as number,
    createdAt: r.created_at as string,
  };
}

export function createOutboxDelivery(db: SqlDatabase) {
  const s = {
    get: db.prepare('SELECT * FROM postback_outbox WHERE merchant_id = ? AND id = ?'),
    due: db.prepare("SELECT * FROM postback_outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?"),
    nextDue: db.prepare("SELECT MIN(next_attempt_at) AS due FROM postback_outbox WHERE state = 'pending'"),
    bySubject: db.prepare('SELECT * FROM postback_outbox WHERE merchant_id = ? AND subject_type = ? AND subject_id = ? ORDER BY sequence'),
    settle: db.prepare(
      'UPDATE postback_outbox SET state = ?, next_attempt_at = ?, last_error = ?, delivered_at = COALESCE(?, delivered_at), attempts = attempts + 1, window_attempts = window_attempts + 1 WHERE id = ?',
    ),
    requeue: db.prepare("UPDATE postback_outbox SET state = 'pending', next_attempt_at = ?, retry_from = ?, window_attempts = 0 WHERE id = ?"),
    attemptInsert: db.prepare(
      `INSERT INTO postback_attempts (id, outbox_id, attempt, http_status, outcome, error, duration_ms, created_at)
       VALUES (@id, @outboxId, @attempt, @httpStatus, @outcome, @error, @durationMs, @createdAt)`,
    ),
    attempts: db.prepare('SELECT * FROM postback_attempts WHERE outbox_id = ? ORDER BY id'),
  };
  const lists = new Map<string, SqlStatement>();
  return {
    get: async (merchantId: string, id: string) => {
      const row = (await s.get.get(merchantId, id)) as Row | undefined;
      return row && outboxFromRow(row);
    },
    due: async (now: string, limit: number) => ((await s.due.all(now, limit)) as Row[]).map(outboxFromRow),
    nextDueAt: async () => ((await s.nextDue.get()) as { due: string | null }).due ?? undefined,
    listBySubject: async (merchantId: string, subjectType: string, subjectId: string) =>
      ((await s.bySubject.all(merchantId, subjectType, subjectId)) as Row[]).map(outboxFromRow),
    list: async (merchantId: string, filter: OutboxFilter) => {
      const where = ['merchant_id = ?'];
      const params: unknown[] = [merchantId];
      if (filter.state) {
        where.push('state = ?');
        params.push(filter.state);
      }
      if (filter.since) {
        where.push('created_at >= ?');
        params.push(filter.since);
      }
      const sql = `SELECT * FROM postback_outbox WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`;
      let statement = lists.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        lists.set(sql, statement);
      }
      return ((await statement.all(...params, filter.limit)) as Row[]).map(outboxFromRow);
    },
    settle: async (id: string, state: OutboxRecord['state'], nextAttemptAt: string, lastError: string | null, deliveredAt: string | null) =>
      void (await s.settle.run(state, nextAttemptAt, lastError, deliveredAt, id)),
    requeue: async (id: string, now: string) => (await s.requeue.run(now, now, id)).changes === 1,
    appendAttempt: async (attempt: PostbackAttemptRecord) => void (await s.attemptInsert.run(attempt)),
    listAttempts: async (outboxId: string) => ((await s.attempts.all(outboxId)) as Row[]).map(attemptFromRow),
  };
}
