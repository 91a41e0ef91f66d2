/** Outbox delivery bookkeeping: due records, per-subject lists, attempts. */
import { sql, type Selectable, type SqlBool } from 'kysely';
import { preparedOnce, type Dialect, type SqlDatabase } from '../sql.js';
import { branchCountSql, branchPageSql, sqlWriter, term, written, type Branch, type Term, type WrittenSql } from '../list-filter.js';
import type { Database } from '../schema.js';
import { byShape, typed, type Placeholders, rowPlaces } from '../typed-sql.js';
import { queueClaim, queueRelease } from '../queue-claim.js';
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

export function outboxFromRow(r: Selectable<Database['postback_outbox']>): OutboxRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    subjectType: r.subject_type,
    subjectId: r.subject_id,
    orderId: r.order_id ?? null,
    sequence: r.sequence,
    url: r.url,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
    deliveredAt: r.delivered_at ?? null,
    lastError: r.last_error ?? null,
    retryFrom: r.retry_from ?? null,
    windowAttempts: r.window_attempts ?? 0,
  };
}

function attemptFromRow(r: Selectable<Database['postback_attempts']>): PostbackAttemptRecord {
  return {
    id: r.id,
    outboxId: r.outbox_id,
    attempt: r.attempt,
    httpStatus: r.http_status ?? null,
    outcome: r.outcome,
    error: r.error ?? null,
    durationMs: r.duration_ms,
    createdAt: r.created_at,
    requestBody: r.request_body ?? null,
    requestHeaders: typeof r.request_headers === 'string' ? (JSON.parse(r.request_headers) as Record<string, string>) : null,
    nextAttemptAt: r.next_attempt_at ?? null,
  };
}

/**
 * How the back office's log reads a filter (the indexes of migrations 19 and 25 end in created_at,
 * id, the log's order): one branch; with the search box, one per value, each on its own index, at
 * most a page from each, merged. The search names its indexes (INDEXED BY; PostgreSQL plans by its
 * statistics): without statistics SQLite rates an order id no rarer than a kind, whose index gives
 * the log's order as well, and the kind's would walk all of the merchant's postbacks of that kind.
 */
function logBranches(merchantId: string, filter: OutboxPageFilter): Branch[] {
  const where: Term[] = [term`merchant_id = ${merchantId}`];
  switch (filter.status) {
    case 'queued':
      where.push(written("state = 'pending' AND attempts = 0"));
      break;
    case 'retrying':
      where.push(written("state = 'pending' AND attempts > 0"));
      break;
    case 'delivered':
    case 'failed':
      where.push(term`state = ${filter.status}`);
      break;
    default:
      break;
  }
  if (filter.subjectType !== undefined) where.push(term`subject_type = ${filter.subjectType}`);
  if (filter.createdFrom !== undefined) where.push(term`created_at >= ${filter.createdFrom}`);
  if (filter.createdTo !== undefined) where.push(term`created_at <= ${filter.createdTo}`);
  if (filter.search === undefined) return [{ table: 'postback_outbox', where }];
  const { orderId, id } = filter.search;
  const branch = (index: string | undefined, searched: Term): Branch => ({
    table: 'postback_outbox',
    ...(index ? { index } : {}),
    where: [...where, searched],
  });
  const branches = [branch('postback_outbox_merchant_order', term`order_id = ${orderId}`)];
  if (id !== undefined) {
    branches.push(branch('postback_outbox_merchant_subject_id', term`subject_id = ${id}`));
    // The primary key answers an event id by itself.
    branches.push(branch(undefined, term`id = ${id}`));
  }
  return branches;
}

/**
 * The statement and values of a page of the back office's log (newest first) on `dialect`; exported
 * for query-plan tests. Written per engine (db/list-filter.ts): SQLite's INDEXED BY picks each
 * branch's index. A row two branches match appears once (UNION).
 */
export function postbackLogSql(
  merchantId: string,
  filter: OutboxPageFilter,
  limit: number,
  offset: number,
  dialect: Dialect = 'sqlite',
): WrittenSql {
  return branchPageSql(dialect, logBranches(merchantId, filter), limit, offset);
}

/** The statement and values counting the records of a log filter (a row two branches match counts once), on `dialect`. */
export function postbackLogCountSql(merchantId: string, filter: OutboxPageFilter, dialect: Dialect = 'sqlite'): WrittenSql {
  return branchCountSql(dialect, logBranches(merchantId, filter));
}

/**
 * Sent e-mails (invoice and receipt) and postback attempts as one list, for the test outbox.
 * Hand-written per engine, not built: it reads receipt_emails (described by db/receipts), and its
 * columns are constants and CASEs the three tables share only by position. The merchant's id is a
 * value of each part, in order.
 */
function sentItemsUnion(kind: 'email' | 'postback' | undefined, ph: () => string): string {
  const parts: string[] = [];
  if (kind !== 'postback') {
    parts.push(
      `SELECT 'email' AS kind, id, sent_at AS at, recipient AS target, subject AS title, CAST(NULL AS INTEGER) AS http_status, CASE test_outbox WHEN 1 THEN 'test_outbox' ELSE 'sent' END AS outcome, NULL AS event_id FROM emails WHERE merchant_id = ${ph()} AND status = 'sent'`,
      `SELECT 'receipt_email', id, sent_at, recipient, subject, CAST(NULL AS INTEGER), CASE test_outbox WHEN 1 THEN 'test_outbox' ELSE 'sent' END, NULL FROM receipt_emails WHERE merchant_id = ${ph()} AND status = 'sent'`,
    );
  }
  if (kind !== 'email') {
    parts.push(
      `SELECT 'postback' AS kind, a.id AS id, a.created_at AS at, o.url AS target, o.subject_type AS title, a.http_status AS http_status, a.outcome AS outcome, o.id AS event_id FROM postback_attempts a JOIN postback_outbox o ON o.id = a.outbox_id WHERE o.merchant_id = ${ph()}`,
    );
  }
  return parts.join(' UNION ALL ');
}

/** A page of sent items on `dialect`, newest first (the merchant's id a value of each part). */
function sentItemsSql(
  dialect: Dialect,
  merchantId: string,
  kind: 'email' | 'postback' | undefined,
  limit: number,
  offset: number,
): WrittenSql {
  const w = sqlWriter(dialect);
  const union = sentItemsUnion(kind, () => w.value(merchantId));
  return w.done(`SELECT * FROM (${union}) AS sent ORDER BY at DESC, id DESC LIMIT ${w.value(limit)} OFFSET ${w.value(offset)}`);
}

/** The count of sent items on `dialect`. */
function sentItemsCountSql(dialect: Dialect, merchantId: string, kind: 'email' | 'postback' | undefined): WrittenSql {
  const w = sqlWriter(dialect);
  return w.done(`SELECT COUNT(*) AS n FROM (${sentItemsUnion(kind, () => w.value(merchantId))}) AS sent`);
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

/** The values of a list of the outbox (OutboxFilter), by name; which of them are set is the statement's shape. */
interface ListParams {
  merchantId: string;
  state: OutboxRecord['state'];
  since: string;
  limit: number;
}

type ListShape = Record<'state' | 'since', boolean>;

export function createOutboxDelivery(db: SqlDatabase) {
  const claimDue = queueClaim(db, 'postback_outbox');
  const release = queueRelease(db, 'postback_outbox');
  const s = {
    get: typed<{ merchantId: string; id: string }>()(db, (k, p) =>
      k.selectFrom('postback_outbox').selectAll().where('merchant_id', '=', p('merchantId')).where('id', '=', p('id')),
    ),
    // 'pending' written in (sql.lit), not a parameter: the partial index postback_outbox_claimable answers it.
    nextDue: typed()(db, (k) =>
      k
        .selectFrom('postback_outbox')
        .select((eb) => eb.fn.min('next_attempt_at').as('due'))
        .where('state', '=', sql.lit('pending')),
    ),
    bySubject: typed<{ merchantId: string; subjectType: string; subjectId: string }>()(db, (k, p) =>
      k
        .selectFrom('postback_outbox')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('subject_type', '=', p('subjectType'))
        .where('subject_id', '=', p('subjectId'))
        .orderBy('sequence'),
    ),
    list: byShape(db, (shape: ListShape, k, p: Placeholders<ListParams>) =>
      k
        .selectFrom('postback_outbox')
        .selectAll()
        .where((eb) =>
          eb.and([
            eb('merchant_id', '=', p('merchantId')),
            ...(shape.state ? [eb('state', '=', p('state'))] : []),
            ...(shape.since ? [eb('created_at', '>=', p('since'))] : []),
          ]),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p('limit')),
    ),
    settle: typed<{
      id: string;
      claimedBy: string;
      state: OutboxRecord['state'];
      nextAttemptAt: string;
      lastError: string | null;
      deliveredAt: string | null;
    }>()(db, (k, p) =>
      k
        .updateTable('postback_outbox')
        .set((eb) => ({
          state: p('state'),
          next_attempt_at: p('nextAttemptAt'),
          last_error: p('lastError'),
          delivered_at: eb.fn.coalesce(eb.val(p('deliveredAt')), eb.ref('delivered_at')),
          attempts: eb('attempts', '+', eb.lit(1)),
          window_attempts: eb('window_attempts', '+', eb.lit(1)),
          claimed_by: null,
          claim_until: null,
        }))
        .where('id', '=', p('id'))
        .where('claimed_by', '=', p('claimedBy')),
    ),
    requeue: typed<{ id: string; now: string }>()(db, (k, p) =>
      k
        .updateTable('postback_outbox')
        .set((eb) => ({
          state: sql.lit('pending'),
          next_attempt_at: p('now'),
          retry_from: p('now'),
          window_attempts: eb.lit(0),
          claimed_by: null,
          claim_until: null,
        }))
        .where('id', '=', p('id')),
    ),
    attemptInsert: typed<Database['postback_attempts']>()(db, (k, p) =>
      k.insertInto('postback_attempts').values(rowPlaces('postback_attempts', p)),
    ),
    attempts: typed<{ outboxId: string }>()(db, (k, p) =>
      k.selectFrom('postback_attempts').selectAll().where('outbox_id', '=', p('outboxId')).orderBy('attempt').orderBy('id'),
    ),
    lastAttempt: typed<{ outboxId: string }>()(db, (k, p) =>
      k
        .selectFrom('postback_attempts')
        .select(['created_at', 'http_status'])
        .where('outbox_id', '=', p('outboxId'))
        .orderBy('attempt', 'desc')
        .orderBy('id', 'desc')
        .limit(1),
    ),
    attempt: typed<{ merchantId: string; id: string }>()(db, (k, p) =>
      k
        .selectFrom('postback_attempts as a')
        .innerJoin('postback_outbox as o', 'o.id', 'a.outbox_id')
        .selectAll('a')
        .where('o.merchant_id', '=', p('merchantId'))
        .where('a.id', '=', p('id')),
    ),
    resendInsert: typed<Database['postback_resends']>()(db, (k, p) =>
      k.insertInto('postback_resends').values(rowPlaces('postback_resends', p)),
    ),
    resendEventInsert: typed<Database['postback_resend_events']>()(db, (k, p) =>
      k.insertInto('postback_resend_events').values(rowPlaces('postback_resend_events', p)),
    ),
    resendGet: typed<{ merchantId: string; id: string }>()(db, (k, p) =>
      k.selectFrom('postback_resends').selectAll().where('merchant_id', '=', p('merchantId')).where('id', '=', p('id')),
    ),
    // Of the resent postbacks, those attempted since the resend, and those of them delivered.
    resendProgress: typed<{ id: string; createdAt: string }>()(db, (k, p) =>
      k
        .selectFrom((eb) =>
          eb
            .selectFrom('postback_resend_events as e')
            .innerJoin('postback_outbox as o', 'o.id', 'e.outbox_id')
            .select((eb) => [
              'o.state as state',
              eb
                .exists(
                  eb
                    .selectFrom('postback_attempts as a')
                    .select(eb.lit(1).as('one'))
                    .whereRef('a.outbox_id', '=', 'o.id')
                    .where('a.created_at', '>=', p('createdAt')),
                )
                .as('tried'),
            ])
            .where('e.resend_id', '=', p('id'))
            .as('resent'),
        )
        .select((eb) => [
          eb.fn
            .countAll<number>()
            .filterWhere(sql<SqlBool>`tried`)
            .as('attempted'),
          eb.fn
            .countAll<number>()
            .filterWhere((eb) => eb.and([sql<SqlBool>`tried`, eb('state', '=', sql.lit('delivered'))]))
            .as('delivered'),
        ]),
    ),
  };
  // The log, its count and the sent items are written per engine (db/list-filter.ts), one statement per text.
  const prepared = preparedOnce(db);
  const read = ({ statement, params }: WrittenSql) => ({ statement: prepared(statement), params });
  return {
    get: async (merchantId: string, id: string) => {
      const row = await s.get.get({ merchantId, id });
      return row && outboxFromRow(row);
    },
    claimDue: async (now: string, claim: QueueClaim, limit: number) => (await claimDue(now, claim, limit)).map(outboxFromRow),
    release: async (id: string, claimedBy: string) => {
      db.touch?.('postbacks');
      await release(id, claimedBy);
    },
    nextDueAt: async () => (await s.nextDue.get({}))?.due ?? undefined,
    listBySubject: async (merchantId: string, subjectType: string, subjectId: string) =>
      (await s.bySubject.all({ merchantId, subjectType, subjectId })).map(outboxFromRow),
    list: async (merchantId: string, filter: OutboxFilter) =>
      (
        await s.list({ state: filter.state !== undefined, since: filter.since !== undefined }).all({
          merchantId,
          ...(filter.state !== undefined ? { state: filter.state } : {}),
          ...(filter.since !== undefined ? { since: filter.since } : {}),
          limit: filter.limit,
        } as ListParams)
      ).map(outboxFromRow),
    settle: async (
      id: string,
      claimedBy: string,
      state: OutboxRecord['state'],
      nextAttemptAt: string,
      lastError: string | null,
      deliveredAt: string | null,
    ) => (db.touch?.('postbacks'), await s.settle.run({ id, claimedBy, state, nextAttemptAt, lastError, deliveredAt })).changes === 1,
    requeue: async (id: string, now: string) => (db.touch?.('postbacks'), await s.requeue.run({ id, now })).changes === 1,
    appendAttempt: async (attempt: PostbackAttemptRecord) =>
      void (await s.attemptInsert.run({
        id: attempt.id,
        outbox_id: attempt.outboxId,
        attempt: attempt.attempt,
        http_status: attempt.httpStatus,
        outcome: attempt.outcome,
        error: attempt.error,
        duration_ms: attempt.durationMs,
        created_at: attempt.createdAt,
        request_body: attempt.requestBody ?? null,
        request_headers: attempt.requestHeaders ? JSON.stringify(attempt.requestHeaders) : null,
        next_attempt_at: attempt.nextAttemptAt ?? null,
      })),
    listAttempts: async (outboxId: string) => (await s.attempts.all({ outboxId })).map(attemptFromRow),
    lastAttempt: async (outboxId: string) => {
      const row = await s.lastAttempt.get({ outboxId });
      return row && { createdAt: row.created_at, httpStatus: row.http_status };
    },
    page: async (merchantId: string, filter: OutboxPageFilter, limit: number, offset: number) => {
      const { statement, params } = read(postbackLogSql(merchantId, filter, limit, offset, db.dialect));
      return ((await statement.all(...params)) as Array<Selectable<Database['postback_outbox']>>).map(outboxFromRow);
    },
    count: async (merchantId: string, filter: OutboxPageFilter) => {
      const { statement, params } = read(postbackLogCountSql(merchantId, filter, db.dialect));
      return ((await statement.get(...params)) as { n: number }).n;
    },
    getAttempt: async (merchantId: string, attemptId: string) => {
      const row = await s.attempt.get({ merchantId, id: attemptId });
      return row && attemptFromRow(row);
    },
    insertResend: async (record: PostbackResendRecord, outboxIds: readonly string[]) => {
      await s.resendInsert.run({
        id: record.id,
        merchant_id: record.merchantId,
        staff_id: record.staffId,
        since: record.since,
        total: record.total,
        created_at: record.createdAt,
      });
      for (const id of outboxIds) await s.resendEventInsert.run({ resend_id: record.id, outbox_id: id });
    },
    getResend: async (merchantId: string, id: string) => {
      const row = await s.resendGet.get({ merchantId, id });
      return (
        row && {
          id: row.id,
          merchantId: row.merchant_id,
          staffId: row.staff_id ?? null,
          since: row.since,
          total: row.total,
          createdAt: row.created_at,
        }
      );
    },
    resendProgress: async (resend: PostbackResendRecord) => {
      const row = (await s.resendProgress.get({ id: resend.id, createdAt: resend.createdAt })) as { attempted: number; delivered: number };
      return { attempted: row.attempted, delivered: row.delivered, failing: row.attempted - row.delivered };
    },
    sentItems: async (merchantId: string, kind: 'email' | 'postback' | undefined, limit: number, offset: number) => {
      const { statement, params } = read(sentItemsSql(db.dialect, merchantId, kind, limit, offset));
      return ((await statement.all(...params)) as Row[]).map(sentItemFromRow);
    },
    countSentItems: async (merchantId: string, kind: 'email' | 'postback' | undefined) => {
      const { statement, params } = read(sentItemsCountSql(db.dialect, merchantId, kind));
      return ((await statement.get(...params)) as { n: number }).n;
    },
  };
}

/** The outbox: a change appends its postback in its own unit; delivery bookkeeping beside it. */
export function createOutboxRepository(db: SqlDatabase): Pick<PostbacksUnit, 'outbox'> {
  const s = {
    // The subject's next sequence number is taken in the insert itself (the unique
    // (subject_type, subject_id, sequence) index finds the last one), never read first.
    outboxInsert: typed<Omit<NewOutboxRecord, 'payload'> & { payload: string }>()(db, (k, p) =>
      k
        .insertInto('postback_outbox')
        .columns([
          'id',
          'merchant_id',
          'subject_type',
          'subject_id',
          'order_id',
          'sequence',
          'url',
          'payload',
          'state',
          'attempts',
          'next_attempt_at',
          'created_at',
        ])
        .expression((eb) =>
          eb
            .selectFrom('postback_outbox')
            .select((eb) => [
              eb.val(p('id')).as('id'),
              eb.val(p('merchantId')).as('merchant_id'),
              eb.val(p('subjectType')).as('subject_type'),
              eb.val(p('subjectId')).as('subject_id'),
              eb.val(p('orderId')).as('order_id'),
              eb(eb.fn.coalesce(eb.fn.max('sequence'), eb.lit(0)), '+', eb.lit(1)).as('sequence'),
              eb.val(p('url')).as('url'),
              eb.val(p('payload')).as('payload'),
              eb.val(p('state')).as('state'),
              eb.val(p('attempts')).as('attempts'),
              eb.val(p('nextAttemptAt')).as('next_attempt_at'),
              eb.val(p('createdAt')).as('created_at'),
            ])
            .where('subject_type', '=', p('subjectType'))
            .where('subject_id', '=', p('subjectId')),
        ),
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
