/** Outbox delivery bookkeeping: due records, per-subject lists, attempts. */
import { branchCountSql, branchPageSql, type Branch } from '../list-filter.js';
import { dialects, preparedOnce, type DialectSql, type SqlDatabase, type SqlStatement } from '../sql.js';
import type {
  NewOutboxRecord,
  OutboxFilter,
  OutboxPageFilter,
  OutboxRecord,
  PostbackAttemptRecord,
  PostbackResendRecord,
  PostbacksUnit,
  SentItemRecord,
} from '../../main/core/postbacks/ports.js';
import type { QueueClaim } from '../../main/core/kernel.js';
import type { Row } from '../rows.js';

export function outboxFromRow(r: Row): OutboxRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    subjectType: r.subject_type as string,
    subjectId: r.subject_id as string,
    orderId: (r.order_id as string | null) ?? null,
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
    requestBody: (r.request_body as string | null) ?? null,
    requestHeaders: typeof r.request_headers === 'string' ? (JSON.parse(r.request_headers) as Record<string, string>) : null,
    nextAttemptAt: (r.next_attempt_at as string | null) ?? null,
  };
}

/**
 * The claim of a queue (migration 22): due rows in due order under no live claim, taken for one
 * claimer in one statement. On PostgreSQL the inner SELECT locks the rows it takes and passes over
 * rows another instance is claiming at that moment (SKIP LOCKED); run READ COMMITTED (store.claim),
 * a row claimed and committed meanwhile is checked again after its lock and left out. SQLite has
 * one writer and needs no lock. The partial index `<table>_claimable` serves the inner SELECT in
 * order. RETURNING gives the rows in no particular order: callers sort them.
 */
export function claimSql(table: string, waiting: string): DialectSql {
  const select = `SELECT id FROM ${table} WHERE ${waiting} AND next_attempt_at <= @now AND (claim_until IS NULL OR claim_until < @now) ORDER BY next_attempt_at, id LIMIT @limit`;
  const update = (inner: string) =>
    `UPDATE ${table} SET claimed_by = @claimedBy, claim_until = @claimUntil WHERE id IN (${inner}) RETURNING *`;
  return dialects({ sqlite: update(select), postgres: update(`${select} FOR UPDATE SKIP LOCKED`) });
}

/** Due order of claimed rows (RETURNING has none). */
export function byDueOrder(a: Row, b: Row): number {
  const [x, y] = [a.next_attempt_at as string, b.next_attempt_at as string];
  if (x !== y) return x < y ? -1 : 1;
  return (a.id as string) < (b.id as string) ? -1 : (a.id as string) > (b.id as string) ? 1 : 0;
}

/**
 * How the back office's log reads a filter (the indexes of migrations 19 and 25 end in created_at,
 * id, the log's order): one branch; with the search box, one per value, each on its own index, at
 * most a page from each, merged. The search names its indexes (INDEXED BY; PostgreSQL plans by its
 * statistics): without statistics SQLite rates an order id no rarer than a kind, whose index gives
 * the log's order as well, and the kind's would walk all of the merchant's postbacks of that kind.
 */
function logBranches(merchantId: string, filter: OutboxPageFilter): Branch[] {
  const where = ['merchant_id = ?'];
  const params: unknown[] = [merchantId];
  switch (filter.status) {
    case 'queued':
      where.push("state = 'pending' AND attempts = 0");
      break;
    case 'retrying':
      where.push("state = 'pending' AND attempts > 0");
      break;
    case 'delivered':
    case 'failed':
      where.push('state = ?');
      params.push(filter.status);
      break;
    default:
      break;
  }
  if (filter.subjectType !== undefined) {
    where.push('subject_type = ?');
    params.push(filter.subjectType);
  }
  if (filter.createdFrom !== undefined) {
    where.push('created_at >= ?');
    params.push(filter.createdFrom);
  }
  if (filter.createdTo !== undefined) {
    where.push('created_at <= ?');
    params.push(filter.createdTo);
  }
  if (filter.search === undefined) return [{ source: 'postback_outbox', where, params }];
  const { orderId, id } = filter.search;
  const branch = (source: string, term: string, value: string): Branch => ({ source, where: [...where, term], params: [...params, value] });
  const branches = [branch('postback_outbox INDEXED BY postback_outbox_merchant_order', 'order_id = ?', orderId)];
  if (id !== undefined) {
    branches.push(branch('postback_outbox INDEXED BY postback_outbox_merchant_subject_id', 'subject_id = ?', id));
    // The primary key answers an event id by itself.
    branches.push(branch('postback_outbox', 'id = ?', id));
  }
  return branches;
}

/** The SQL and parameters of a page of the back office's log (newest first); exported for query-plan tests. */
export function postbackLogSql(
  merchantId: string,
  filter: OutboxPageFilter,
  limit: number,
  offset: number,
): { sql: string; params: unknown[] } {
  return branchPageSql(logBranches(merchantId, filter), limit, offset);
}

/** The SQL and parameters counting the records of a log filter. */
export function postbackLogCountSql(merchantId: string, filter: OutboxPageFilter): { sql: string; params: unknown[] } {
  return branchCountSql(logBranches(merchantId, filter));
}

/** Sent e-mails (invoice and receipt) and postback attempts as one list, for the test outbox. */
function sentItemsSql(kind: 'email' | 'postback' | undefined): string {
  const parts: string[] = [];
  if (kind !== 'postback') {
    parts.push(
      "SELECT 'email' AS kind, id, sent_at AS at, recipient AS target, subject AS title, CAST(NULL AS INTEGER) AS http_status, CASE test_outbox WHEN 1 THEN 'test_outbox' ELSE 'sent' END AS outcome, NULL AS event_id FROM emails WHERE merchant_id = @merchantId AND status = 'sent'",
      "SELECT 'receipt_email', id, sent_at, recipient, subject, CAST(NULL AS INTEGER), CASE test_outbox WHEN 1 THEN 'test_outbox' ELSE 'sent' END, NULL FROM receipt_emails WHERE merchant_id = @merchantId AND status = 'sent'",
    );
  }
  if (kind !== 'email') {
    parts.push(
      "SELECT 'postback' AS kind, a.id AS id, a.created_at AS at, o.url AS target, o.subject_type AS title, a.http_status AS http_status, a.outcome AS outcome, o.id AS event_id FROM postback_attempts a JOIN postback_outbox o ON o.id = a.outbox_id WHERE o.merchant_id = @merchantId",
    );
  }
  return parts.join(' UNION ALL ');
}

function sentItemFromRow(r: Row): SentItemRecord {
  return {
    kind: r.kind as SentItemRecord['kind'],
    id: r.id as string,
    at: r.at as string,
    target: r.target as string,
    title: r.title as string,
    httpStatus: (r.http_status as number | null) ?? null,
    outcome: r.outcome as string,
    eventId: (r.event_id as string | null) ?? null,
  };
}

export function createOutboxDelivery(db: SqlDatabase) {
  const s = {
    get: db.prepare('SELECT * FROM postback_outbox WHERE merchant_id = ? AND id = ?'),
    claimDue: db.prepare(claimSql('postback_outbox', "state = 'pending'")),
    release: db.prepare('UPDATE postback_outbox SET claimed_by = NULL, claim_until = NULL WHERE id = ? AND claimed_by = ?'),
    nextDue: db.prepare("SELECT MIN(next_attempt_at) AS due FROM postback_outbox WHERE state = 'pending'"),
    bySubject: db.prepare('SELECT * FROM postback_outbox WHERE merchant_id = ? AND subject_type = ? AND subject_id = ? ORDER BY sequence'),
    settle: db.prepare(
      `UPDATE postback_outbox SET state = ?, next_attempt_at = ?, last_error = ?, delivered_at = COALESCE(?, delivered_at), attempts = attempts + 1, window_attempts = window_attempts + 1,
         claimed_by = NULL, claim_until = NULL WHERE id = ? AND claimed_by = ?`,
    ),
    requeue: db.prepare(
      "UPDATE postback_outbox SET state = 'pending', next_attempt_at = ?, retry_from = ?, window_attempts = 0, claimed_by = NULL, claim_until = NULL WHERE id = ?",
    ),
    attemptInsert: db.prepare(
      `INSERT INTO postback_attempts (id, outbox_id, attempt, http_status, outcome, error, duration_ms, created_at, request_body, request_headers, next_attempt_at)
       VALUES (@id, @outboxId, @attempt, @httpStatus, @outcome, @error, @durationMs, @createdAt, @requestBody, @requestHeaders, @nextAttemptAt)`,
    ),
    attempts: db.prepare('SELECT * FROM postback_attempts WHERE outbox_id = ? ORDER BY attempt, id'),
    lastAttempt: db.prepare(
      'SELECT created_at, http_status FROM postback_attempts WHERE outbox_id = ? ORDER BY attempt DESC, id DESC LIMIT 1',
    ),
    attempt: db.prepare(
      'SELECT a.* FROM postback_attempts a JOIN postback_outbox o ON o.id = a.outbox_id WHERE o.merchant_id = ? AND a.id = ?',
    ),
    resendInsert: db.prepare(
      'INSERT INTO postback_resends (id, merchant_id, staff_id, since, total, created_at) VALUES (@id, @merchantId, @staffId, @since, @total, @createdAt)',
    ),
    resendEventInsert: db.prepare('INSERT INTO postback_resend_events (resend_id, outbox_id) VALUES (?, ?)'),
    resendGet: db.prepare('SELECT * FROM postback_resends WHERE merchant_id = ? AND id = ?'),
    resendProgress: db.prepare(
      `SELECT
         COUNT(*) FILTER (WHERE tried) AS attempted,
         COUNT(*) FILTER (WHERE tried AND state = 'delivered') AS delivered
       FROM (
         SELECT o.state AS state, EXISTS (SELECT 1 FROM postback_attempts a WHERE a.outbox_id = o.id AND a.created_at >= @createdAt) AS tried
         FROM postback_resend_events e JOIN postback_outbox o ON o.id = e.outbox_id WHERE e.resend_id = @id
       ) AS resent`,
    ),
  };
  const sentLists = new Map<string, { page: SqlStatement; count: SqlStatement }>();
  const sentStatements = (kind: 'email' | 'postback' | undefined) => {
    const key = kind ?? 'all';
    let statements = sentLists.get(key);
    if (!statements) {
      const union = sentItemsSql(kind);
      statements = {
        page: db.prepare(`SELECT * FROM (${union}) AS sent ORDER BY at DESC, id DESC LIMIT @limit OFFSET @offset`),
        count: db.prepare(`SELECT COUNT(*) AS n FROM (${union}) AS sent`),
      };
      sentLists.set(key, statements);
    }
    return statements;
  };
  const listStatement = preparedOnce(db);
  return {
    get: async (merchantId: string, id: string) => {
      const row = (await s.get.get(merchantId, id)) as Row | undefined;
      return row && outboxFromRow(row);
    },
    claimDue: async (now: string, claim: QueueClaim, limit: number) =>
      ((await s.claimDue.all({ now, limit, claimedBy: claim.claimedBy, claimUntil: claim.claimUntil })) as Row[])
        .sort(byDueOrder)
        .map(outboxFromRow),
    release: async (id: string, claimedBy: string) => {
      db.touch?.('postbacks');
      await s.release.run(id, claimedBy);
    },
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
      return ((await listStatement(sql).all(...params, filter.limit)) as Row[]).map(outboxFromRow);
    },
    settle: async (
      id: string,
      claimedBy: string,
      state: OutboxRecord['state'],
      nextAttemptAt: string,
      lastError: string | null,
      deliveredAt: string | null,
    ) => (db.touch?.('postbacks'), await s.settle.run(state, nextAttemptAt, lastError, deliveredAt, id, claimedBy)).changes === 1,
    requeue: async (id: string, now: string) => (db.touch?.('postbacks'), await s.requeue.run(now, now, id)).changes === 1,
    appendAttempt: async (attempt: PostbackAttemptRecord) =>
      void (await s.attemptInsert.run({
        ...attempt,
        requestBody: attempt.requestBody ?? null,
        requestHeaders: attempt.requestHeaders ? JSON.stringify(attempt.requestHeaders) : null,
        nextAttemptAt: attempt.nextAttemptAt ?? null,
      })),
    listAttempts: async (outboxId: string) => ((await s.attempts.all(outboxId)) as Row[]).map(attemptFromRow),
    lastAttempt: async (outboxId: string) => {
      const row = (await s.lastAttempt.get(outboxId)) as { created_at: string; http_status: number | null } | undefined;
      return row && { createdAt: row.created_at, httpStatus: row.http_status };
    },
    page: async (merchantId: string, filter: OutboxPageFilter, limit: number, offset: number) => {
      const { sql, params } = postbackLogSql(merchantId, filter, limit, offset);
      return ((await listStatement(sql).all(...params)) as Row[]).map(outboxFromRow);
    },
    count: async (merchantId: string, filter: OutboxPageFilter) => {
      const { sql, params } = postbackLogCountSql(merchantId, filter);
      return ((await listStatement(sql).get(...params)) as { n: number }).n;
    },
    getAttempt: async (merchantId: string, attemptId: string) => {
      const row = (await s.attempt.get(merchantId, attemptId)) as Row | undefined;
      return row && attemptFromRow(row);
    },
    insertResend: async (record: PostbackResendRecord, outboxIds: readonly string[]) => {
      await s.resendInsert.run(record);
      for (const id of outboxIds) await s.resendEventInsert.run(record.id, id);
    },
    getResend: async (merchantId: string, id: string) => {
      const row = (await s.resendGet.get(merchantId, id)) as Row | undefined;
      return (
        row && {
          id: row.id as string,
          merchantId: row.merchant_id as string,
          staffId: (row.staff_id as string | null) ?? null,
          since: row.since as string,
          total: row.total as number,
          createdAt: row.created_at as string,
        }
      );
    },
    resendProgress: async (resend: PostbackResendRecord) => {
      const row = (await s.resendProgress.get({ id: resend.id, createdAt: resend.createdAt })) as { attempted: number; delivered: number };
      return { attempted: row.attempted, delivered: row.delivered, failing: row.attempted - row.delivered };
    },
    sentItems: async (merchantId: string, kind: 'email' | 'postback' | undefined, limit: number, offset: number) =>
      ((await sentStatements(kind).page.all({ merchantId, limit, offset })) as Row[]).map(sentItemFromRow),
    countSentItems: async (merchantId: string, kind: 'email' | 'postback' | undefined) =>
      ((await sentStatements(kind).count.get({ merchantId })) as { n: number }).n,
  };
}

/** The outbox: a change appends its postback in its own unit; delivery bookkeeping beside it. */
export function createOutboxRepository(db: SqlDatabase): Pick<PostbacksUnit, 'outbox'> {
  const s = {
    // The subject's next sequence number is taken in the insert itself (the unique
    // (subject_type, subject_id, sequence) index finds the last one), never read first.
    outboxInsert: db.prepare(
      `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, order_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
       SELECT @id, @merchantId, @subjectType, @subjectId, @orderId, COALESCE(MAX(sequence), 0) + 1, @url, @payload, @state, @attempts, @nextAttemptAt, @createdAt
       FROM postback_outbox WHERE subject_type = @subjectType AND subject_id = @subjectId`,
    ),
  };
  return {
    outbox: {
      append: async (o: NewOutboxRecord) => {
        db.touch?.('postbacks');
        await s.outboxInsert.run({ ...o, payload: JSON.stringify(o.payload) });
      },
      ...createOutboxDelivery(db),
    },
  };
}
