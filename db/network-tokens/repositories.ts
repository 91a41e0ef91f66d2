/**
 * Network tokens, their status history (migration 0017) and their cryptograms (migration 0011).
 * Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts.
 */
import type { Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { byShape, listed, placesOf, typed, type Listed, type Placeholders, rowPlaces } from '../typed-sql.js';
import { merchantList } from '../typed-list.js';
import type { NetworkTokenStatus } from '../../contract/constants.js';
import type {
  CryptogramRecord,
  NetworkTokenEventRecord,
  NetworkTokenRecord,
  NetworkTokenRepository,
} from '../../main/core/network-tokens/ports.js';

function fromRow(r: Selectable<Database['network_tokens']>): NetworkTokenRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    status: r.status,
    type: 'merchant',
    network: r.network,
    provider: r.provider,
    cardFingerprint: r.card_fingerprint,
    cardSealed: r.card_sealed,
    tokenFingerprint: r.token_fingerprint,
    tokenSealed: r.token_sealed,
    paymentAccountReference: r.payment_account_reference,
    billing: JSON.parse(r.billing) as Record<string, string>,
    postbackUrl: r.postback_url,
    errorCode: r.error_code,
    errorDetail: r.error_detail,
    lastTokenRefresh: r.last_token_refresh,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function cryptogramFromRow(r: Selectable<Database['network_token_cryptograms']>): CryptogramRecord {
  return {
    id: r.id,
    tokenId: r.token_id,
    type: r.type,
    hash: r.hash,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    usedAt: r.used_at,
  };
}

/** What a transition changes besides the status (NetworkTokenRepository.transition `change`). */
interface TransitionParams {
  id: string;
  status: NetworkTokenStatus;
  now: string;
  errorCode: string | null;
  errorDetail: string | null;
  lastTokenRefresh: string | null;
}

export function createNetworkTokenRepository(db: SqlDatabase): NetworkTokenRepository {
  const list = merchantList(db, 'network_tokens', ['status', 'network']);
  const s = {
    insert: typed<Database['network_tokens']>()(db, (k, p) => k.insertInto('network_tokens').values(rowPlaces('network_tokens', p))),
    get: typed<{ id: string }>()(db, (k, p) => k.selectFrom('network_tokens').selectAll().where('id', '=', p('id'))),
    byTokenNumber: typed<{ merchantId: string; tokenFingerprint: string }>()(db, (k, p) =>
      k
        .selectFrom('network_tokens')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('token_fingerprint', '=', p('tokenFingerprint'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1),
    ),
    byCard: byShape(
      db,
      (count: number, k, p: Placeholders<{ merchantId: string; cardFingerprint: string } & Listed<'status', NetworkTokenStatus>>) =>
        k
          .selectFrom('network_tokens')
          .selectAll()
          .where('merchant_id', '=', p('merchantId'))
          .where('card_fingerprint', '=', p('cardFingerprint'))
          .where('status', 'in', placesOf<'status', NetworkTokenStatus>('status', count, p))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(1),
    ),
    transition: byShape(
      db,
      (
        shape: { errorCode: boolean; errorDetail: boolean; lastTokenRefresh: boolean; from: number },
        k,
        p: Placeholders<TransitionParams & Listed<'from', NetworkTokenStatus>>,
      ) =>
        k
          .updateTable('network_tokens')
          .set({
            status: p('status'),
            updated_at: p('now'),
            ...(shape.errorCode ? { error_code: p('errorCode') } : {}),
            ...(shape.errorDetail ? { error_detail: p('errorDetail') } : {}),
            ...(shape.lastTokenRefresh ? { last_token_refresh: p('lastTokenRefresh') } : {}),
          })
          .where('id', '=', p('id'))
          .where('status', 'in', placesOf<'from', NetworkTokenStatus>('from', shape.from, p)),
    ),
    insertCryptogram: typed<Database['network_token_cryptograms']>()(db, (k, p) =>
      k.insertInto('network_token_cryptograms').values(rowPlaces('network_token_cryptograms', p)),
    ),
    findCryptogram: typed<{ tokenId: string; hash: string }>()(db, (k, p) =>
      k.selectFrom('network_token_cryptograms').selectAll().where('token_id', '=', p('tokenId')).where('hash', '=', p('hash')),
    ),
    useCryptogram: typed<{ id: string; now: string }>()(db, (k, p) =>
      k
        .updateTable('network_token_cryptograms')
        .set({ used_at: p('now') })
        .where('id', '=', p('id'))
        .where('used_at', 'is', null),
    ),
    insertEvent: typed<Omit<Database['network_token_events'], 'id'>>()(db, (k, p) =>
      k.insertInto('network_token_events').values(rowPlaces('network_token_events', p)),
    ),
    events: typed<{ tokenId: string }>()(db, (k, p) =>
      k.selectFrom('network_token_events').select(['event', 'status', 'created_at']).where('token_id', '=', p('tokenId')).orderBy('id'),
    ),
  };
  return {
    insert: async (record) => {
      await s.insert.run({
        id: record.id,
        merchant_id: record.merchantId,
        status: record.status,
        type: record.type,
        network: record.network,
        provider: record.provider,
        card_fingerprint: record.cardFingerprint,
        card_sealed: record.cardSealed,
        token_fingerprint: record.tokenFingerprint,
        token_sealed: record.tokenSealed,
        payment_account_reference: record.paymentAccountReference,
        billing: JSON.stringify(record.billing),
        postback_url: record.postbackUrl,
        error_code: record.errorCode,
        error_detail: record.errorDetail,
        last_token_refresh: record.lastTokenRefresh,
        created_at: record.createdAt,
        updated_at: record.updatedAt,
      });
      await s.insertEvent.run({ token_id: record.id, event: 'created', status: record.status, created_at: record.createdAt });
    },
    get: async (id) => {
      const row = await s.get.get({ id });
      return row && fromRow(row);
    },
    byCard: async (merchantId, cardFingerprint, statuses) => {
      const row = await s.byCard(statuses.length).get({ merchantId, cardFingerprint, ...listed('status', statuses) });
      return row && fromRow(row);
    },
    byTokenNumber: async (merchantId, tokenFingerprint) => {
      const row = await s.byTokenNumber.get({ merchantId, tokenFingerprint });
      return row && fromRow(row);
    },
    list: async (merchantId, filter) => (await list.page(merchantId, filter)).map(fromRow),
    count: async (merchantId, filter) => list.count(merchantId, filter),
    transition: async (id, from, status, now, change = {}) => {
      const shape = {
        errorCode: change.errorCode !== undefined,
        errorDetail: change.errorDetail !== undefined,
        lastTokenRefresh: change.lastTokenRefresh !== undefined,
        from: from.length,
      };
      const changed = await s.transition(shape).run({
        id,
        status,
        now,
        errorCode: change.errorCode ?? null,
        errorDetail: change.errorDetail ?? null,
        lastTokenRefresh: change.lastTokenRefresh ?? null,
        ...listed('from', from),
      });
      if (changed.changes !== 1) return false;
      await s.insertEvent.run({
        token_id: id,
        event: change.lastTokenRefresh !== undefined ? 'refreshed' : 'status',
        status,
        created_at: now,
      });
      return true;
    },
    events: async (id) =>
      (await s.events.all({ tokenId: id })).map((r): NetworkTokenEventRecord => ({
        event: r.event,
        status: r.status,
        createdAt: r.created_at,
      })),
    insertCryptogram: async (record) =>
      void (await s.insertCryptogram.run({
        id: record.id,
        token_id: record.tokenId,
        type: record.type,
        hash: record.hash,
        created_at: record.createdAt,
        expires_at: record.expiresAt,
        used_at: record.usedAt,
      })),
    findCryptogram: async (tokenId, hash) => {
      const row = await s.findCryptogram.get({ tokenId, hash });
      return row && cryptogramFromRow(row);
    },
    useCryptogram: async (id, now) => (await s.useCryptogram.run({ id, now })).changes === 1,
  };
}
