/** Joined tills at the centre, and a till's link and journal (migration 29). */
import type { StoreLimits, TillReport } from '../../contract/api/centre.js';
import type { DayReport } from '../../contract/api/reports.js';
import type {
  CentreLinkRecord,
  CentreRepository,
  StoredPaymentRecord,
  TillDayRecord,
  TillJournalRepository,
  TillLinkRecord,
} from '../../main/core/centre/ports.js';
import type { SqlDatabase } from '../sql.js';
import type { Row } from '../rows.js';

const text = (value: unknown) => (value as string | null) ?? null;

function linkFromRow(r: Row): TillLinkRecord {
  return {
    merchantId: r.merchant_id as string,
    tillId: r.till_id as string,
    credentialId: r.credential_id as string,
    joinedAt: r.joined_at as string,
    lastSeenAt: text(r.last_seen_at),
    lastForwardAt: text(r.last_forward_at),
    version: text(r.version),
    report: r.report ? (JSON.parse(r.report as string) as TillReport) : null,
    limits: JSON.parse(r.limits as string) as StoreLimits,
  };
}

export function createCentreRepository(db: SqlDatabase): CentreRepository {
  const s = {
    insertInvite: db.prepare(
      'INSERT INTO till_invites (code_hash, merchant_id, till_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, NULL)',
    ),
    useInvite: db.prepare('UPDATE till_invites SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?'),
    invite: db.prepare('SELECT * FROM till_invites WHERE code_hash = ?'),
    openInvite: db.prepare('SELECT 1 AS open FROM till_invites WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?'),
    linkOf: db.prepare('SELECT * FROM till_links WHERE merchant_id = ? AND till_id = ?'),
    insertLink: db.prepare(
      `INSERT INTO till_links (merchant_id, till_id, credential_id, joined_at, last_seen_at, last_forward_at, version, report, limits)
       VALUES (@merchantId, @tillId, @credentialId, @joinedAt, @lastSeenAt, @lastForwardAt, @version, @report, @limits)
       ON CONFLICT (merchant_id, till_id) DO UPDATE SET credential_id = excluded.credential_id, joined_at = excluded.joined_at,
         last_seen_at = excluded.last_seen_at, last_forward_at = excluded.last_forward_at, version = excluded.version, report = excluded.report`,
    ),
    byCredential: db.prepare('SELECT * FROM till_links WHERE credential_id = ?'),
    links: db.prepare('SELECT * FROM till_links WHERE merchant_id = ? ORDER BY till_id'),
    seen: db.prepare('UPDATE till_links SET last_seen_at = ?, version = ?, report = ? WHERE merchant_id = ? AND till_id = ?'),
    forwarded: db.prepare('UPDATE till_links SET last_forward_at = ? WHERE merchant_id = ? AND till_id = ?'),
    setLinkLimits: db.prepare('UPDATE till_links SET limits = ? WHERE merchant_id = ? AND till_id = ?'),
    recordDecline: db.prepare(
      `INSERT INTO forwarded_declines (transaction_id, merchant_id, till_id, staff_id, order_id, amount_minor, currency, card_brand, card_last_four, message, stored_at, forwarded_at)
       VALUES (@transactionId, @merchantId, @tillId, @staffId, @orderId, @amountMinor, @currency, @cardBrand, @cardLastFour, @message, @storedAt, @forwardedAt)
       ON CONFLICT (transaction_id) DO NOTHING`,
    ),
    handleDecline: db.prepare(
      'UPDATE forwarded_declines SET handled_at = ?, handled_by = ? WHERE merchant_id = ? AND transaction_id = ? AND handled_at IS NULL',
    ),
    insertTillDay: db.prepare(
      `INSERT INTO till_days (merchant_id, till_id, sequence, closed_at, centre_cursor, report, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (merchant_id, till_id, sequence) DO NOTHING`,
    ),
    insertTillDayEntry: db.prepare(
      'INSERT INTO till_day_entries (merchant_id, till_id, entry_key, sequence) VALUES (?, ?, ?, ?) ON CONFLICT (merchant_id, till_id, entry_key) DO NOTHING',
    ),
    latestTillDay: db.prepare('SELECT * FROM till_days WHERE merchant_id = ? AND till_id = ? ORDER BY sequence DESC LIMIT 1'),
    tillDay: db.prepare('SELECT * FROM till_days WHERE merchant_id = ? AND till_id = ? AND sequence = ?'),
    tillDays: db.prepare('SELECT * FROM till_days WHERE merchant_id = ? AND till_id = ? ORDER BY sequence DESC LIMIT ? OFFSET ?'),
    countTillDays: db.prepare('SELECT COUNT(*) AS n FROM till_days WHERE merchant_id = ? AND till_id = ?'),
  };
  const day = (row: unknown): TillDayRecord | undefined => {
    if (!row) return undefined;
    const r = row as Row;
    return {
      merchantId: r.merchant_id as string,
      tillId: r.till_id as string,
      sequence: Number(r.sequence),
      closedAt: r.closed_at as string,
      centreCursor: Number(r.centre_cursor),
      report: JSON.parse(r.report as string) as DayReport,
      recordedAt: r.recorded_at as string,
    };
  };
  return {
    insertInvite: async (i) => void (await s.insertInvite.run(i.codeHash, i.merchantId, i.tillId, i.createdAt, i.expiresAt)),
    openInvite: async (codeHash, now) => (await s.openInvite.get(codeHash, now)) !== undefined,
    useInvite: async (codeHash, now) => {
      if ((await s.useInvite.run(now, codeHash, now)).changes !== 1) return undefined;
      const r = (await s.invite.get(codeHash)) as Row;
      return {
        codeHash,
        merchantId: r.merchant_id as string,
        tillId: r.till_id as string,
        createdAt: r.created_at as string,
        expiresAt: r.expires_at as string,
        usedAt: text(r.used_at),
      };
    },
    link: async (record) => {
      const before = (await s.linkOf.get(record.merchantId, record.tillId)) as Row | undefined;
      await s.insertLink.run({
        ...record,
        report: record.report ? JSON.stringify(record.report) : null,
        limits: JSON.stringify(record.limits),
      });
      return before ? (before.credential_id as string) : undefined;
    },
    linkByCredential: async (credentialId) => {
      const row = (await s.byCredential.get(credentialId)) as Row | undefined;
      return row && linkFromRow(row);
    },
    links: async (merchantId) => ((await s.links.all(merchantId)) as Row[]).map(linkFromRow),
    seen: async (merchantId, tillId, at, version, report) =>
      void (await s.seen.run(at, version, JSON.stringify(report), merchantId, tillId)),
    forwarded: async (merchantId, tillId, at) => void (await s.forwarded.run(at, merchantId, tillId)),
    setLimits: async (merchantId, tillId, limits) => (await s.setLinkLimits.run(JSON.stringify(limits), merchantId, tillId)).changes === 1,
    recordDecline: async (record) => (await s.recordDecline.run({ ...record })).changes === 1,
    handleDecline: async (merchantId, transactionId, at, staffId) =>
      (await s.handleDecline.run(at, staffId, merchantId, transactionId)).changes === 1,
    recordTillDay: async (record, entryKeys) => {
      const inserted = await s.insertTillDay.run(
        record.merchantId,
        record.tillId,
        record.sequence,
        record.closedAt,
        record.centreCursor,
        JSON.stringify(record.report),
        record.recordedAt,
      );
      if (inserted.changes !== 1) return false;
      for (const key of entryKeys) await s.insertTillDayEntry.run(record.merchantId, record.tillId, key, record.sequence);
      return true;
    },
    latestTillDay: async (merchantId, tillId) => day(await s.latestTillDay.get(merchantId, tillId)),
    tillDay: async (merchantId, tillId, sequence) => day(await s.tillDay.get(merchantId, tillId, sequence)),
    tillDays: async (merchantId, tillId, limit, offset) =>
      ((await s.tillDays.all(merchantId, tillId, limit, offset)) as Row[]).map((r) => day(r) as TillDayRecord),
    countTillDays: async (merchantId, tillId) => Number(((await s.countTillDays.get(merchantId, tillId)) as { n: number | string }).n),
  };
}

function storedFromRow(r: Row): StoredPaymentRecord {
  return {
    seq: Number(r.seq),
    transactionId: r.transaction_id as string,
    merchantId: r.merchant_id as string,
    tillId: r.till_id as string,
    staffId: text(r.staff_id),
    orderId: r.order_id as string,
    amountMinor: Number(r.amount_minor),
    currency: r.currency as string,
    cardBrand: text(r.card_brand),
    cardLastFour: text(r.card_last_four),
    requestSealed: text(r.request_sealed),
    storedAt: r.stored_at as string,
    forwardedAt: text(r.forwarded_at),
    outcomeStatusCode: r.outcome_status_code === null || r.outcome_status_code === undefined ? null : Number(r.outcome_status_code),
    outcomeMessage: text(r.outcome_message),
    seenAt: text(r.seen_at),
  };
}

export function createTillJournalRepository(db: SqlDatabase): TillJournalRepository {
  const s = {
    link: db.prepare('SELECT * FROM centre_link WHERE id = 1'),
    saveLink: db.prepare(
      `INSERT INTO centre_link (id, centre_url, fingerprint, merchant_id, till_id, api_key, api_password_sealed, limits, joined_at, replica_digest, ledger_cursor)
       VALUES (1, @centreUrl, @fingerprint, @merchantId, @tillId, @apiKey, @apiPasswordSealed, @limits, @joinedAt, @replicaDigest, @ledgerCursor)
       ON CONFLICT (id) DO UPDATE SET centre_url = excluded.centre_url, fingerprint = excluded.fingerprint, merchant_id = excluded.merchant_id,
         till_id = excluded.till_id, api_key = excluded.api_key, api_password_sealed = excluded.api_password_sealed, limits = excluded.limits,
         joined_at = excluded.joined_at, replica_digest = excluded.replica_digest, ledger_cursor = excluded.ledger_cursor`,
    ),
    setLimits: db.prepare('UPDATE centre_link SET limits = ? WHERE id = 1'),
    setDigest: db.prepare('UPDATE centre_link SET replica_digest = ? WHERE id = 1'),
    setLedgerCursor: db.prepare('UPDATE centre_link SET ledger_cursor = ? WHERE id = 1'),
    nextSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM stored_payments'),
    store: db.prepare(
      `INSERT INTO stored_payments (seq, transaction_id, merchant_id, till_id, staff_id, order_id, amount_minor, currency, card_brand, card_last_four,
         request_sealed, stored_at, forwarded_at, outcome_status_code, outcome_message, seen_at)
       VALUES (@seq, @transactionId, @merchantId, @tillId, @staffId, @orderId, @amountMinor, @currency, @cardBrand, @cardLastFour,
         @requestSealed, @storedAt, NULL, NULL, NULL, NULL)`,
    ),
    unforwarded: db.prepare('SELECT * FROM stored_payments WHERE forwarded_at IS NULL ORDER BY seq LIMIT ?'),
    pending: db.prepare(
      'SELECT currency, COUNT(*) AS n, SUM(amount_minor) AS total, MIN(stored_at) AS oldest FROM stored_payments WHERE forwarded_at IS NULL GROUP BY currency ORDER BY currency',
    ),
    settle: db.prepare(
      'UPDATE stored_payments SET forwarded_at = ?, outcome_status_code = ?, outcome_message = ?, request_sealed = NULL WHERE seq = ? AND forwarded_at IS NULL',
    ),
    byTransaction: db.prepare('SELECT * FROM stored_payments WHERE transaction_id = ?'),
    unseenDeclines: db.prepare(
      'SELECT * FROM stored_payments WHERE forwarded_at IS NOT NULL AND outcome_status_code <> 3 AND seen_at IS NULL ORDER BY seq',
    ),
    markSeen: db.prepare('UPDATE stored_payments SET seen_at = ? WHERE seq = ?'),
    setShopTills: db.prepare('UPDATE centre_link SET shop_till_ids = ? WHERE id = 1'),
    markUnsettled: db.prepare(
      'INSERT INTO centre_unsettled (idempotency_key, sent_at, request_sealed, staff_id) VALUES (?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING',
    ),
    clearUnsettled: db.prepare('DELETE FROM centre_unsettled WHERE idempotency_key = ?'),
    isUnsettled: db.prepare('SELECT 1 AS found FROM centre_unsettled WHERE idempotency_key = ?'),
    unsettled: db.prepare('SELECT request_sealed, staff_id FROM centre_unsettled WHERE idempotency_key = ?'),
  };
  return {
    link: async () => {
      const r = (await s.link.get()) as Row | undefined;
      if (!r) return undefined;
      const record: CentreLinkRecord = {
        centreUrl: r.centre_url as string,
        fingerprint: text(r.fingerprint),
        merchantId: r.merchant_id as string,
        tillId: r.till_id as string,
        apiKey: r.api_key as string,
        apiPasswordSealed: r.api_password_sealed as string,
        limits: JSON.parse(r.limits as string) as StoreLimits,
        joinedAt: r.joined_at as string,
        replicaDigest: text(r.replica_digest),
        ledgerCursor: Number(r.ledger_cursor ?? 0),
        shopTillIds: r.shop_till_ids ? (JSON.parse(r.shop_till_ids as string) as string[]) : [],
      };
      return record;
    },
    saveLink: async (record) =>
      void (await s.saveLink.run({
        centreUrl: record.centreUrl,
        fingerprint: record.fingerprint,
        merchantId: record.merchantId,
        tillId: record.tillId,
        apiKey: record.apiKey,
        apiPasswordSealed: record.apiPasswordSealed,
        limits: JSON.stringify(record.limits),
        joinedAt: record.joinedAt,
        replicaDigest: record.replicaDigest,
        ledgerCursor: record.ledgerCursor,
      })),
    setLimits: async (limits) => void (await s.setLimits.run(JSON.stringify(limits))),
    setReplicaDigest: async (digest) => void (await s.setDigest.run(digest)),
    setLedgerCursor: async (cursor) => void (await s.setLedgerCursor.run(cursor)),
    // One writer appends (the till's unit of work): the next number is the highest plus one.
    store: async (record) => {
      const seq = Number(((await s.nextSeq.get()) as { seq: number | string }).seq);
      await s.store.run({ ...record, seq });
      return seq;
    },
    unforwarded: async (limit) => ((await s.unforwarded.all(limit)) as Row[]).map(storedFromRow),
    pending: async () => {
      const rows = (await s.pending.all()) as Array<{ currency: string; n: number | string; total: number | string; oldest: string }>;
      return {
        count: rows.reduce((sum, r) => sum + Number(r.n), 0),
        oldestAt: rows.map((r) => r.oldest).sort()[0] ?? null,
        totals: rows.map((r) => ({ currency: r.currency, amountMinor: Number(r.total) })),
      };
    },
    settle: async (seq, at, statusCode, message) => (await s.settle.run(at, statusCode, message, seq)).changes === 1,
    byTransaction: async (transactionId) => {
      const row = (await s.byTransaction.get(transactionId)) as Row | undefined;
      return row && storedFromRow(row);
    },
    unseenDeclines: async () => ((await s.unseenDeclines.all()) as Row[]).map(storedFromRow),
    markSeen: async (seq, at) => void (await s.markSeen.run(at, seq)),
    setShopTills: async (tillIds) => void (await s.setShopTills.run(JSON.stringify(tillIds))),
    markUnsettled: async (key, at, requestSealed, staffId) => void (await s.markUnsettled.run(key, at, requestSealed, staffId)),
    clearUnsettled: async (key) => void (await s.clearUnsettled.run(key)),
    isUnsettled: async (key) => (await s.isUnsettled.get(key)) !== undefined,
    unsettled: async (key) => {
      const row = (await s.unsettled.get(key)) as Row | undefined;
      return row && { requestSealed: text(row.request_sealed), staffId: text(row.staff_id) };
    },
  };
}
