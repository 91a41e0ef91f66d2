/** Network tokens, their status history (migration 0017) and their cryptograms (migration 0011). */
import type { SqlDatabase } from '../sql.js';
import type {
  CryptogramRecord,
  NetworkTokenEventRecord,
  NetworkTokenFilter,
  NetworkTokenRecord,
  NetworkTokenRepository,
} from '../../main/core/network-tokens/ports.js';
import { listWhere } from '../list-filter.js';
import type { Row } from '../rows.js';

function fromRow(r: Row): NetworkTokenRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    status: r.status as NetworkTokenRecord['status'],
    type: 'merchant',
    network: r.network as string,
    provider: r.provider as string,
    cardFingerprint: r.card_fingerprint as string,
    cardSealed: r.card_sealed as string,
    tokenFingerprint: r.token_fingerprint as string,
    tokenSealed: r.token_sealed as string,
    paymentAccountReference: r.payment_account_reference as string,
    billing: JSON.parse(r.billing as string) as Record<string, string>,
    postbackUrl: (r.postback_url as string | null) ?? null,
    errorCode: (r.error_code as string | null) ?? null,
    errorDetail: (r.error_detail as string | null) ?? null,
    lastTokenRefresh: (r.last_token_refresh as string | null) ?? null,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  };
}

function cryptogramFromRow(r: Row): CryptogramRecord {
  return {
    id: r.id as string,
    tokenId: r.token_id as string,
    type: r.type as CryptogramRecord['type'],
    hash: r.hash as string,
    createdAt: r.created_at as string,
    expiresAt: r.expires_at as string,
    usedAt: (r.used_at as string | null) ?? null,
  };
}

function where(merchantId: string, filter: Omit<NetworkTokenFilter, 'limit' | 'offset'>): { sql: string; params: unknown[] } {
  return listWhere(merchantId, { status: filter.status, network: filter.network }, filter);
}

export function createNetworkTokenRepository(db: SqlDatabase): NetworkTokenRepository {
  const s = {
    insert: db.prepare(
      `INSERT INTO network_tokens (id, merchant_id, status, type, network, provider, card_fingerprint, card_sealed, token_fingerprint, token_sealed,
         payment_account_reference, billing, postback_url, error_code, error_detail, last_token_refresh, created_at, updated_at)
       VALUES (@id, @merchantId, @status, @type, @network, @provider, @cardFingerprint, @cardSealed, @tokenFingerprint, @tokenSealed,
         @paymentAccountReference, @billing, @postbackUrl, @errorCode, @errorDetail, @lastTokenRefresh, @createdAt, @updatedAt)`,
    ),
    get: db.prepare('SELECT * FROM network_tokens WHERE id = ?'),
    byTokenNumber: db.prepare(
      'SELECT * FROM network_tokens WHERE merchant_id = ? AND token_fingerprint = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    ),
    insertCryptogram: db.prepare(
      `INSERT INTO network_token_cryptograms (id, token_id, type, hash, created_at, expires_at, used_at)
       VALUES (@id, @tokenId, @type, @hash, @createdAt, @expiresAt, @usedAt)`,
    ),
    findCryptogram: db.prepare('SELECT * FROM network_token_cryptograms WHERE token_id = ? AND hash = ?'),
    useCryptogram: db.prepare('UPDATE network_token_cryptograms SET used_at = ? WHERE id = ? AND used_at IS NULL'),
    insertEvent: db.prepare('INSERT INTO network_token_events (token_id, event, status, created_at) VALUES (?, ?, ?, ?)'),
    events: db.prepare('SELECT event, status, created_at FROM network_token_events WHERE token_id = ? ORDER BY id'),
  };
  return {
    insert: async (record) => {
      await s.insert.run({ ...record, billing: JSON.stringify(record.billing) });
      await s.insertEvent.run(record.id, 'created', record.status, record.createdAt);
    },
    get: async (id) => {
      const row = (await s.get.get(id)) as Row | undefined;
      return row && fromRow(row);
    },
    byCard: async (merchantId, cardFingerprint, statuses) => {
      const sql = `SELECT * FROM network_tokens WHERE merchant_id = ? AND card_fingerprint = ? AND status IN (${statuses.map(() => '?').join(', ')})
        ORDER BY created_at DESC, id DESC LIMIT 1`;
      const row = (await db.prepare(sql).get(merchantId, cardFingerprint, ...statuses)) as Row | undefined;
      return row && fromRow(row);
    },
    byTokenNumber: async (merchantId, tokenFingerprint) => {
      const row = (await s.byTokenNumber.get(merchantId, tokenFingerprint)) as Row | undefined;
      return row && fromRow(row);
    },
    list: async (merchantId, filter) => {
      const { sql, params } = where(merchantId, filter);
      const rows = (await db
        .prepare(`SELECT * FROM network_tokens WHERE ${sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
        .all(...params, filter.limit, filter.offset)) as Row[];
      return rows.map(fromRow);
    },
    count: async (merchantId, filter) => {
      const { sql, params } = where(merchantId, filter);
      return ((await db.prepare(`SELECT COUNT(*) AS n FROM network_tokens WHERE ${sql}`).get(...params)) as { n: number }).n;
    },
    transition: async (id, from, status, now, change = {}) => {
      const sets = ['status = ?', 'updated_at = ?'];
      const values: unknown[] = [status, now];
      if (change.errorCode !== undefined) {
        sets.push('error_code = ?');
        values.push(change.errorCode);
      }
      if (change.errorDetail !== undefined) {
        sets.push('error_detail = ?');
        values.push(change.errorDetail);
      }
      if (change.lastTokenRefresh !== undefined) {
        sets.push('last_token_refresh = ?');
        values.push(change.lastTokenRefresh);
      }
      const sql = `UPDATE network_tokens SET ${sets.join(', ')} WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`;
      if ((await db.prepare(sql).run(...values, id, ...from)).changes !== 1) return false;
      await s.insertEvent.run(id, change.lastTokenRefresh !== undefined ? 'refreshed' : 'status', status, now);
      return true;
    },
    events: async (id) =>
      ((await s.events.all(id)) as Row[]).map((r): NetworkTokenEventRecord => ({
        event: r.event as NetworkTokenEventRecord['event'],
        status: r.status as NetworkTokenEventRecord['status'],
        createdAt: r.created_at as string,
      })),
    insertCryptogram: async (record) => void (await s.insertCryptogram.run(record)),
    findCryptogram: async (tokenId, hash) => {
      const row = (await s.findCryptogram.get(tokenId, hash)) as Row | undefined;
      return row && cryptogramFromRow(row);
    },
    useCryptogram: async (id, now) => (await s.useCryptogram.run(now, id)).changes === 1,
  };
}
