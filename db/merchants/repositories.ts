/** Merchants, their credentials and their channels (the tables of migration 0001 on). */
import type { SqlDatabase } from '../sql.js';
import { optStr, str, type Row } from '../rows.js';
import type { ChannelRecord, CredentialRecord, MerchantRecord, MerchantsUnit } from '../../main/core/merchants/ports.js';

function merchantFromRow(r: Row): MerchantRecord {
  return {
    id: str(r.id),
    name: str(r.name),
    currency: str(r.currency),
    webhookKeySealed: str(r.webhook_key_sealed),
    previousWebhookKeySealed: optStr(r.previous_webhook_key_sealed),
    previousWebhookKeyUntil: optStr(r.previous_webhook_key_until),
    createdAt: str(r.created_at),
    partnerId: optStr(r.partner_id),
    language: (r.language as MerchantRecord['language'] | undefined) ?? 'en',
  };
}
function credentialFromRow(r: Row): CredentialRecord {
  return {
    id: str(r.id),
    merchantId: optStr(r.merchant_id),
    kind: r.kind as CredentialRecord['kind'],
    apiKey: str(r.api_key),
    passwordHash: str(r.password_hash),
    createdAt: str(r.created_at),
    revokedAt: optStr(r.revoked_at),
    partnerId: optStr(r.partner_id),
  };
}
function channelFromRow(r: Row): ChannelRecord {
  return {
    id: str(r.id),
    merchantId: str(r.merchant_id),
    urlName: str(r.url_name),
    name: str(r.name),
    currency: str(r.currency),
    language: r.language as ChannelRecord['language'],
    senderEmail: optStr(r.sender_email),
    createdAt: str(r.created_at),
    ...(typeof r.public_id === 'number' ? { publicId: r.public_id } : {}),
  };
}

export function createMerchantRepositories(db: SqlDatabase): Pick<MerchantsUnit, 'merchants' | 'credentials' | 'channels'> {
  const s = {
    merchantInsert: db.prepare(
      `INSERT INTO merchants (id, name, currency, webhook_key_sealed, previous_webhook_key_sealed, previous_webhook_key_until, created_at, partner_id, language)
       VALUES (@id, @name, @currency, @webhookKeySealed, @previousWebhookKeySealed, @previousWebhookKeyUntil, @createdAt, @partnerId, @language)`,
    ),
    merchantGet: db.prepare('SELECT * FROM merchants WHERE id = ?'),
    merchantRotate: db.prepare(
      'UPDATE merchants SET webhook_key_sealed = ?, previous_webhook_key_sealed = ?, previous_webhook_key_until = ? WHERE id = ?',
    ),
    merchantList: db.prepare('SELECT * FROM merchants ORDER BY created_at, id'),
    merchantSetPartner: db.prepare('UPDATE merchants SET partner_id = ? WHERE id = ?'),
    merchantProfile: db.prepare('UPDATE merchants SET name = @name, currency = @currency, language = @language WHERE id = @id'),
    credentialsByMerchant: db.prepare('SELECT * FROM credentials WHERE merchant_id = ? ORDER BY created_at, id'),
    credentialGet: db.prepare('SELECT * FROM credentials WHERE id = ?'),
    credentialRevoke: db.prepare('UPDATE credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    channelUpdate: db.prepare(
      'UPDATE channels SET name = @name, currency = @currency, language = @language, sender_email = @senderEmail WHERE id = @id',
    ),
    credentialInsert: db.prepare(
      `INSERT INTO credentials (id, merchant_id, kind, api_key, password_hash, created_at, revoked_at, partner_id)
       VALUES (@id, @merchantId, @kind, @apiKey, @passwordHash, @createdAt, @revokedAt, @partnerId)`,
    ),
    credentialByKey: db.prepare('SELECT * FROM credentials WHERE api_key = ? AND revoked_at IS NULL'),
    channelInsert: db.prepare(
      `INSERT INTO channels (id, merchant_id, url_name, name, currency, language, sender_email, created_at)
       VALUES (@id, @merchantId, @urlName, @name, @currency, @language, @senderEmail, @createdAt)`,
    ),
    channelByUrlName: db.prepare('SELECT * FROM channels WHERE url_name = ?'),
    channelsByMerchant: db.prepare('SELECT * FROM channels WHERE merchant_id = ? ORDER BY created_at, id'),
    replicaMerchant: db.prepare(
      `INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, currency = excluded.currency`,
    ),
    replicaCredential: db.prepare(
      `INSERT INTO credentials (id, merchant_id, kind, api_key, password_hash, created_at, revoked_at) VALUES (?, ?, 'merchant', ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash, revoked_at = excluded.revoked_at`,
    ),
    activeCredentialIds: db.prepare('SELECT id FROM credentials WHERE merchant_id = ? AND revoked_at IS NULL'),
  };
  return {
    merchants: {
      insert: async (m) => void (await s.merchantInsert.run({ ...m, partnerId: m.partnerId ?? null, language: m.language ?? 'en' })),
      rotateWebhookKey: async (id, sealed, previousSealed, previousUntil) =>
        void (await s.merchantRotate.run(sealed, previousSealed, previousUntil, id)),
      get: async (id) => {
        const row = (await s.merchantGet.get(id)) as Row | undefined;
        return row && merchantFromRow(row);
      },
      list: async () => ((await s.merchantList.all()) as Row[]).map(merchantFromRow),
      setPartner: async (id, partnerId) => void (await s.merchantSetPartner.run(partnerId, id)),
      updateProfile: async (id, profile) => void (await s.merchantProfile.run({ id, ...profile })),
      keepReplica: async (m, webhookKeySealed) =>
        void (await s.replicaMerchant.run(m.merchant_id, m.name, m.currency, webhookKeySealed, m.created_at)),
    },
    credentials: {
      insert: async (c) => void (await s.credentialInsert.run({ ...c, partnerId: c.partnerId ?? null })),
      findActiveByApiKey: async (apiKey) => {
        const row = (await s.credentialByKey.get(apiKey)) as Row | undefined;
        return row && credentialFromRow(row);
      },
      listByMerchant: async (merchantId) => ((await s.credentialsByMerchant.all(merchantId)) as Row[]).map(credentialFromRow),
      get: async (id) => {
        const row = (await s.credentialGet.get(id)) as Row | undefined;
        return row && credentialFromRow(row);
      },
      revoke: async (id, at) => (await s.credentialRevoke.run(at, id)).changes > 0,
      keepReplica: async (merchantId, credentials, at) => {
        for (const c of credentials)
          await s.replicaCredential.run(c.credential_id, merchantId, c.api_key, c.password_hash, c.created_at, c.revoked_at);
        // What the centre no longer gives is gone here too (a handful of rows: compared here, not in SQL).
        const kept = new Set(credentials.map((c) => c.credential_id));
        for (const row of (await s.activeCredentialIds.all(merchantId)) as Row[]) {
          if (!kept.has(row.id as string)) await s.credentialRevoke.run(at, row.id);
        }
      },
    },
    channels: {
      insert: async (c) => void (await s.channelInsert.run(c)),
      findByUrlName: async (urlName) => {
        const row = (await s.channelByUrlName.get(urlName)) as Row | undefined;
        return row && channelFromRow(row);
      },
      listByMerchant: async (merchantId) => ((await s.channelsByMerchant.all(merchantId)) as Row[]).map(channelFromRow),
      update: async (c) =>
        void (await s.channelUpdate.run({
          id: c.id,
          name: c.name,
          currency: c.currency,
          language: c.language,
          senderEmail: c.senderEmail,
        })),
    },
  };
}
