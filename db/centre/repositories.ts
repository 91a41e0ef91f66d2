/**
 * Joined tills at the centre, and a till's link and journal (migration 29). Statements built with
 * Kysely (db/typed-sql.ts), rows typed by db/schema.ts.
 */
import type { Selectable } from 'kysely';
import type { StoreLimits, TillReport } from '../../contract/api/centre.js';
import type { DayReport } from '../../contract/api/reports.js';
import { TransactionStatus } from '../../contract/codes.js';
import type {
  CentreLinkRecord,
  CentreRepository,
  StoredPaymentRecord,
  TillDayRecord,
  TillJournalRepository,
  TillLinkRecord,
} from '../../main/core/centre/ports.js';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, rowPlaces } from '../typed-sql.js';

function linkFromRow(r: Selectable<Database['till_links']>): TillLinkRecord {
  return {
    merchantId: r.merchant_id,
    tillId: r.till_id,
    credentialId: r.credential_id,
    joinedAt: r.joined_at,
    lastSeenAt: r.last_seen_at,
    lastForwardAt: r.last_forward_at,
    version: r.version,
    report: r.report ? (JSON.parse(r.report) as TillReport) : null,
    limits: JSON.parse(r.limits) as StoreLimits,
  };
}

function dayFromRow(r: Selectable<Database['till_days']>): TillDayRecord {
  return {
    merchantId: r.merchant_id,
    tillId: r.till_id,
    sequence: Number(r.sequence),
    closedAt: r.closed_at,
    centreCursor: Number(r.centre_cursor),
    report: JSON.parse(r.report) as DayReport,
    recordedAt: r.recorded_at,
  };
}

type Till = { merchantId: string; tillId: string };

export function createCentreRepository(db: SqlDatabase): CentreRepository {
  const s = {
    insertInvite: typed<Omit<Database['till_invites'], 'used_at'>>()(db, (k, p) =>
      k.insertInto('till_invites').values({
        code_hash: p('code_hash'),
        merchant_id: p('merchant_id'),
        till_id: p('till_id'),
        created_at: p('created_at'),
        expires_at: p('expires_at'),
        used_at: null,
      }),
    ),
    useInvite: typed<{ codeHash: string; now: string }>()(db, (k, p) =>
      k
        .updateTable('till_invites')
        .set({ used_at: p('now') })
        .where('code_hash', '=', p('codeHash'))
        .where('used_at', 'is', null)
        .where('expires_at', '>', p('now')),
    ),
    invite: typed<{ codeHash: string }>()(db, (k, p) => k.selectFrom('till_invites').selectAll().where('code_hash', '=', p('codeHash'))),
    openInvite: typed<{ codeHash: string; now: string }>()(db, (k, p) =>
      k
        .selectFrom('till_invites')
        .select((eb) => eb.lit(1).as('open'))
        .where('code_hash', '=', p('codeHash'))
        .where('used_at', 'is', null)
        .where('expires_at', '>', p('now')),
    ),
    linkOf: typed<Till>()(db, (k, p) =>
      k.selectFrom('till_links').select('credential_id').where('merchant_id', '=', p('merchantId')).where('till_id', '=', p('tillId')),
    ),
    // A till that joins again gets its new credential and a fresh state; the limits it held stay.
    insertLink: typed<Database['till_links']>()(db, (k, p) =>
      k
        .insertInto('till_links')
        .values(rowPlaces('till_links', p))
        .onConflict((oc) =>
          oc.columns(['merchant_id', 'till_id']).doUpdateSet((eb) => ({
            credential_id: eb.ref('excluded.credential_id'),
            joined_at: eb.ref('excluded.joined_at'),
            last_seen_at: eb.ref('excluded.last_seen_at'),
            last_forward_at: eb.ref('excluded.last_forward_at'),
            version: eb.ref('excluded.version'),
            report: eb.ref('excluded.report'),
          })),
        ),
    ),
    byCredential: typed<{ credentialId: string }>()(db, (k, p) =>
      k.selectFrom('till_links').selectAll().where('credential_id', '=', p('credentialId')),
    ),
    links: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('till_links').selectAll().where('merchant_id', '=', p('merchantId')).orderBy('till_id'),
    ),
    seen: typed<Till & { at: string; version: string | null; report: string }>()(db, (k, p) =>
      k
        .updateTable('till_links')
        .set({ last_seen_at: p('at'), version: p('version'), report: p('report') })
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId')),
    ),
    forwarded: typed<Till & { at: string }>()(db, (k, p) =>
      k
        .updateTable('till_links')
        .set({ last_forward_at: p('at') })
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId')),
    ),
    setLinkLimits: typed<Till & { limits: string }>()(db, (k, p) =>
      k
        .updateTable('till_links')
        .set({ limits: p('limits') })
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId')),
    ),
    recordDecline: typed<Omit<Database['forwarded_declines'], 'handled_at' | 'handled_by'>>()(db, (k, p) =>
      k
        .insertInto('forwarded_declines')
        .values({
          transaction_id: p('transaction_id'),
          merchant_id: p('merchant_id'),
          till_id: p('till_id'),
          staff_id: p('staff_id'),
          order_id: p('order_id'),
          amount_minor: p('amount_minor'),
          currency: p('currency'),
          card_brand: p('card_brand'),
          card_last_four: p('card_last_four'),
          message: p('message'),
          stored_at: p('stored_at'),
          forwarded_at: p('forwarded_at'),
        })
        .onConflict((oc) => oc.column('transaction_id').doNothing()),
    ),
    handleDecline: typed<{ merchantId: string; transactionId: string; at: string; staffId: string | null }>()(db, (k, p) =>
      k
        .updateTable('forwarded_declines')
        .set({ handled_at: p('at'), handled_by: p('staffId') })
        .where('merchant_id', '=', p('merchantId'))
        .where('transaction_id', '=', p('transactionId'))
        .where('handled_at', 'is', null),
    ),
    insertTillDay: typed<Database['till_days']>()(db, (k, p) =>
      k
        .insertInto('till_days')
        .values(rowPlaces('till_days', p))
        .onConflict((oc) => oc.columns(['merchant_id', 'till_id', 'sequence']).doNothing()),
    ),
    insertTillDayEntry: typed<Database['till_day_entries']>()(db, (k, p) =>
      k
        .insertInto('till_day_entries')
        .values(rowPlaces('till_day_entries', p))
        .onConflict((oc) => oc.columns(['merchant_id', 'till_id', 'entry_key']).doNothing()),
    ),
    latestTillDay: typed<Till>()(db, (k, p) =>
      k
        .selectFrom('till_days')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId'))
        .orderBy('sequence', 'desc')
        .limit(1),
    ),
    tillDay: typed<Till & { sequence: number }>()(db, (k, p) =>
      k
        .selectFrom('till_days')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId'))
        .where('sequence', '=', p('sequence')),
    ),
    tillDays: typed<Till & { limit: number; offset: number }>()(db, (k, p) =>
      k
        .selectFrom('till_days')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId'))
        .orderBy('sequence', 'desc')
        .limit(p('limit'))
        .offset(p('offset')),
    ),
    countTillDays: typed<Till>()(db, (k, p) =>
      k
        .selectFrom('till_days')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('merchant_id', '=', p('merchantId'))
        .where('till_id', '=', p('tillId')),
    ),
  };
  return {
    insertInvite: async (i) =>
      void (await s.insertInvite.run({
        code_hash: i.codeHash,
        merchant_id: i.merchantId,
        till_id: i.tillId,
        created_at: i.createdAt,
        expires_at: i.expiresAt,
      })),
    openInvite: async (codeHash, now) => (await s.openInvite.get({ codeHash, now })) !== undefined,
    useInvite: async (codeHash, now) => {
      if ((await s.useInvite.run({ codeHash, now })).changes !== 1) return undefined;
      const r = (await s.invite.get({ codeHash }))!;
      return {
        codeHash,
        merchantId: r.merchant_id,
        tillId: r.till_id,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        usedAt: r.used_at,
      };
    },
    link: async (record) => {
      const before = await s.linkOf.get({ merchantId: record.merchantId, tillId: record.tillId });
      await s.insertLink.run({
        merchant_id: record.merchantId,
        till_id: record.tillId,
        credential_id: record.credentialId,
        joined_at: record.joinedAt,
        last_seen_at: record.lastSeenAt,
        last_forward_at: record.lastForwardAt,
        version: record.version,
        report: record.report ? JSON.stringify(record.report) : null,
        limits: JSON.stringify(record.limits),
      });
      return before ? before.credential_id : undefined;
    },
    linkByCredential: async (credentialId) => {
      const row = await s.byCredential.get({ credentialId });
      return row && linkFromRow(row);
    },
    links: async (merchantId) => (await s.links.all({ merchantId })).map(linkFromRow),
    seen: async (merchantId, tillId, at, version, report) =>
      void (await s.seen.run({ merchantId, tillId, at, version, report: JSON.stringify(report) })),
    forwarded: async (merchantId, tillId, at) => void (await s.forwarded.run({ merchantId, tillId, at })),
    setLimits: async (merchantId, tillId, limits) =>
      (await s.setLinkLimits.run({ merchantId, tillId, limits: JSON.stringify(limits) })).changes === 1,
    recordDecline: async (record) =>
      (
        await s.recordDecline.run({
          transaction_id: record.transactionId,
          merchant_id: record.merchantId,
          till_id: record.tillId,
          staff_id: record.staffId,
          order_id: record.orderId,
          amount_minor: record.amountMinor,
          currency: record.currency,
          card_brand: record.cardBrand,
          card_last_four: record.cardLastFour,
          message: record.message,
          stored_at: record.storedAt,
          forwarded_at: record.forwardedAt,
        })
      ).changes === 1,
    handleDecline: async (merchantId, transactionId, at, staffId) =>
      (await s.handleDecline.run({ merchantId, transactionId, at, staffId })).changes === 1,
    recordTillDay: async (record, entryKeys) => {
      const inserted = await s.insertTillDay.run({
        merchant_id: record.merchantId,
        till_id: record.tillId,
        sequence: record.sequence,
        closed_at: record.closedAt,
        centre_cursor: record.centreCursor,
        report: JSON.stringify(record.report),
        recorded_at: record.recordedAt,
      });
      if (inserted.changes !== 1) return false;
      for (const key of entryKeys)
        await s.insertTillDayEntry.run({
          merchant_id: record.merchantId,
          till_id: record.tillId,
          entry_key: key,
          sequence: record.sequence,
        });
      return true;
    },
    latestTillDay: async (merchantId, tillId) => {
      const row = await s.latestTillDay.get({ merchantId, tillId });
      return row && dayFromRow(row);
    },
    tillDay: async (merchantId, tillId, sequence) => {
      const row = await s.tillDay.get({ merchantId, tillId, sequence });
      return row && dayFromRow(row);
    },
    tillDays: async (merchantId, tillId, limit, offset) => (await s.tillDays.all({ merchantId, tillId, limit, offset })).map(dayFromRow),
    countTillDays: async (merchantId, tillId) => Number((await s.countTillDays.get({ merchantId, tillId }))?.n ?? 0),
  };
}

function storedFromRow(r: Selectable<Database['stored_payments']>): StoredPaymentRecord {
  return {
    seq: Number(r.seq),
    transactionId: r.transaction_id,
    merchantId: r.merchant_id,
    tillId: r.till_id,
    staffId: r.staff_id,
    orderId: r.order_id,
    amountMinor: Number(r.amount_minor),
    currency: r.currency,
    cardBrand: r.card_brand,
    cardLastFour: r.card_last_four,
    requestSealed: r.request_sealed,
    storedAt: r.stored_at,
    forwardedAt: r.forwarded_at,
    outcomeStatusCode: r.outcome_status_code === null ? null : Number(r.outcome_status_code),
    outcomeMessage: r.outcome_message,
    seenAt: r.seen_at,
  };
}

/** The one row of centre_link (CHECK (id = 1)). */
const LINK_ID = 1;

export function createTillJournalRepository(db: SqlDatabase): TillJournalRepository {
  const s = {
    link: typed()(db, (k) => k.selectFrom('centre_link').selectAll().where('id', '=', LINK_ID)),
    saveLink: typed<Omit<Database['centre_link'], 'id' | 'shop_till_ids'>>()(db, (k, p) =>
      k
        .insertInto('centre_link')
        .values({
          id: LINK_ID,
          centre_url: p('centre_url'),
          fingerprint: p('fingerprint'),
          merchant_id: p('merchant_id'),
          till_id: p('till_id'),
          api_key: p('api_key'),
          api_password_sealed: p('api_password_sealed'),
          limits: p('limits'),
          joined_at: p('joined_at'),
          replica_digest: p('replica_digest'),
          ledger_cursor: p('ledger_cursor'),
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            centre_url: eb.ref('excluded.centre_url'),
            fingerprint: eb.ref('excluded.fingerprint'),
            merchant_id: eb.ref('excluded.merchant_id'),
            till_id: eb.ref('excluded.till_id'),
            api_key: eb.ref('excluded.api_key'),
            api_password_sealed: eb.ref('excluded.api_password_sealed'),
            limits: eb.ref('excluded.limits'),
            joined_at: eb.ref('excluded.joined_at'),
            replica_digest: eb.ref('excluded.replica_digest'),
            ledger_cursor: eb.ref('excluded.ledger_cursor'),
          })),
        ),
    ),
    setLimits: typed<{ limits: string }>()(db, (k, p) =>
      k
        .updateTable('centre_link')
        .set({ limits: p('limits') })
        .where('id', '=', LINK_ID),
    ),
    setDigest: typed<{ digest: string | null }>()(db, (k, p) =>
      k
        .updateTable('centre_link')
        .set({ replica_digest: p('digest') })
        .where('id', '=', LINK_ID),
    ),
    setLedgerCursor: typed<{ cursor: number }>()(db, (k, p) =>
      k
        .updateTable('centre_link')
        .set({ ledger_cursor: p('cursor') })
        .where('id', '=', LINK_ID),
    ),
    nextSeq: typed()(db, (k) =>
      k.selectFrom('stored_payments').select((eb) => eb(eb.fn.coalesce(eb.fn.max('seq'), eb.lit(0)), '+', eb.lit(1)).as('seq')),
    ),
    store: typed<
      Omit<Database['stored_payments'], 'seq' | 'forwarded_at' | 'outcome_status_code' | 'outcome_message' | 'seen_at'> & { seq: number }
    >()(db, (k, p) =>
      k.insertInto('stored_payments').values({
        seq: p('seq'),
        transaction_id: p('transaction_id'),
        merchant_id: p('merchant_id'),
        till_id: p('till_id'),
        staff_id: p('staff_id'),
        order_id: p('order_id'),
        amount_minor: p('amount_minor'),
        currency: p('currency'),
        card_brand: p('card_brand'),
        card_last_four: p('card_last_four'),
        request_sealed: p('request_sealed'),
        stored_at: p('stored_at'),
        forwarded_at: null,
        outcome_status_code: null,
        outcome_message: null,
        seen_at: null,
      }),
    ),
    unforwarded: typed<{ limit: number }>()(db, (k, p) =>
      k.selectFrom('stored_payments').selectAll().where('forwarded_at', 'is', null).orderBy('seq').limit(p('limit')),
    ),
    pending: typed()(db, (k) =>
      k
        .selectFrom('stored_payments')
        .select((eb) => [
          'currency',
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.sum<number | string>('amount_minor').as('total'),
          eb.fn.min('stored_at').as('oldest'),
        ])
        .where('forwarded_at', 'is', null)
        .groupBy('currency')
        .orderBy('currency'),
    ),
    settle: typed<{ seq: number; at: string; statusCode: number; message: string | null }>()(db, (k, p) =>
      k
        .updateTable('stored_payments')
        .set({ forwarded_at: p('at'), outcome_status_code: p('statusCode'), outcome_message: p('message'), request_sealed: null })
        .where('seq', '=', p('seq'))
        .where('forwarded_at', 'is', null),
    ),
    byTransaction: typed<{ transactionId: string }>()(db, (k, p) =>
      k.selectFrom('stored_payments').selectAll().where('transaction_id', '=', p('transactionId')),
    ),
    // Forwarded and not completed at the centre (declined), not yet shown.
    unseenDeclines: typed()(db, (k) =>
      k
        .selectFrom('stored_payments')
        .selectAll()
        .where('forwarded_at', 'is not', null)
        .where('outcome_status_code', '<>', TransactionStatus.completed)
        .where('seen_at', 'is', null)
        .orderBy('seq'),
    ),
    markSeen: typed<{ seq: number; at: string }>()(db, (k, p) =>
      k
        .updateTable('stored_payments')
        .set({ seen_at: p('at') })
        .where('seq', '=', p('seq')),
    ),
    setShopTills: typed<{ tillIds: string }>()(db, (k, p) =>
      k
        .updateTable('centre_link')
        .set({ shop_till_ids: p('tillIds') })
        .where('id', '=', LINK_ID),
    ),
    markUnsettled: typed<Database['centre_unsettled']>()(db, (k, p) =>
      k
        .insertInto('centre_unsettled')
        .values(rowPlaces('centre_unsettled', p))
        .onConflict((oc) => oc.column('idempotency_key').doNothing()),
    ),
    clearUnsettled: typed<{ key: string }>()(db, (k, p) => k.deleteFrom('centre_unsettled').where('idempotency_key', '=', p('key'))),
    isUnsettled: typed<{ key: string }>()(db, (k, p) =>
      k
        .selectFrom('centre_unsettled')
        .select((eb) => eb.lit(1).as('found'))
        .where('idempotency_key', '=', p('key')),
    ),
    unsettled: typed<{ key: string }>()(db, (k, p) =>
      k.selectFrom('centre_unsettled').select(['request_sealed', 'staff_id']).where('idempotency_key', '=', p('key')),
    ),
  };
  return {
    link: async () => {
      const r = await s.link.get({});
      if (!r) return undefined;
      const record: CentreLinkRecord = {
        centreUrl: r.centre_url,
        fingerprint: r.fingerprint,
        merchantId: r.merchant_id,
        tillId: r.till_id,
        apiKey: r.api_key,
        apiPasswordSealed: r.api_password_sealed,
        limits: JSON.parse(r.limits) as StoreLimits,
        joinedAt: r.joined_at,
        replicaDigest: r.replica_digest,
        ledgerCursor: Number(r.ledger_cursor),
        shopTillIds: r.shop_till_ids ? (JSON.parse(r.shop_till_ids) as string[]) : [],
      };
      return record;
    },
    saveLink: async (record) =>
      void (await s.saveLink.run({
        centre_url: record.centreUrl,
        fingerprint: record.fingerprint,
        merchant_id: record.merchantId,
        till_id: record.tillId,
        api_key: record.apiKey,
        api_password_sealed: record.apiPasswordSealed,
        limits: JSON.stringify(record.limits),
        joined_at: record.joinedAt,
        replica_digest: record.replicaDigest,
        ledger_cursor: record.ledgerCursor,
      })),
    setLimits: async (limits) => void (await s.setLimits.run({ limits: JSON.stringify(limits) })),
    setReplicaDigest: async (digest) => void (await s.setDigest.run({ digest })),
    setLedgerCursor: async (cursor) => void (await s.setLedgerCursor.run({ cursor })),
    // One writer appends (the till's unit of work): the next number is the highest plus one.
    store: async (record) => {
      const seq = Number((await s.nextSeq.get({}))!.seq);
      await s.store.run({
        seq,
        transaction_id: record.transactionId,
        merchant_id: record.merchantId,
        till_id: record.tillId,
        staff_id: record.staffId,
        order_id: record.orderId,
        amount_minor: record.amountMinor,
        currency: record.currency,
        card_brand: record.cardBrand,
        card_last_four: record.cardLastFour,
        request_sealed: record.requestSealed,
        stored_at: record.storedAt,
      });
      return seq;
    },
    unforwarded: async (limit) => (await s.unforwarded.all({ limit })).map(storedFromRow),
    pending: async () => {
      const rows = await s.pending.all({});
      return {
        count: rows.reduce((sum, r) => sum + Number(r.n), 0),
        oldestAt: rows.map((r) => r.oldest).sort()[0] ?? null,
        totals: rows.map((r) => ({ currency: r.currency, amountMinor: Number(r.total) })),
      };
    },
    settle: async (seq, at, statusCode, message) => (await s.settle.run({ seq, at, statusCode, message })).changes === 1,
    byTransaction: async (transactionId) => {
      const row = await s.byTransaction.get({ transactionId });
      return row && storedFromRow(row);
    },
    unseenDeclines: async () => (await s.unseenDeclines.all({})).map(storedFromRow),
    markSeen: async (seq, at) => void (await s.markSeen.run({ seq, at })),
    setShopTills: async (tillIds) => void (await s.setShopTills.run({ tillIds: JSON.stringify(tillIds) })),
    markUnsettled: async (key, at, requestSealed, staffId) =>
      void (await s.markUnsettled.run({ idempotency_key: key, sent_at: at, request_sealed: requestSealed, staff_id: staffId })),
    clearUnsettled: async (key) => void (await s.clearUnsettled.run({ key })),
    isUnsettled: async (key) => (await s.isUnsettled.get({ key })) !== undefined,
    unsettled: async (key) => {
      const row = await s.unsettled.get({ key });
      return row && { requestSealed: row.request_sealed, staffId: row.staff_id };
    },
  };
}
