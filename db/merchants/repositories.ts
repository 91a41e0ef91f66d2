/**
 * Merchants, their credentials and their channels (the tables of migration 0001 on). Statements built
 * with Kysely (db/typed-sql.ts), rows typed by db/schema.ts; each is compiled once, when the
 * repository is created (the API key lookup of every payment request among them).
 */
import type { InsertObject, Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, rowPlaces } from '../typed-sql.js';
import type { ChannelRecord, CredentialRecord, MerchantRecord, MerchantsUnit } from '../../main/core/merchants/ports.js';

function merchantFromRow(r: Selectable<Database['merchants']>): MerchantRecord {
  return {
    id: r.id,
    name: r.name,
    currency: r.currency,
    webhookKeySealed: r.webhook_key_sealed,
    previousWebhookKeySealed: r.previous_webhook_key_sealed,
    previousWebhookKeyUntil: r.previous_webhook_key_until,
    createdAt: r.created_at,
    partnerId: r.partner_id,
    language: r.language,
  };
}
function credentialFromRow(r: Selectable<Database['credentials']>): CredentialRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    kind: r.kind,
    apiKey: r.api_key,
    passwordHash: r.password_hash,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    partnerId: r.partner_id,
  };
}
function channelFromRow(r: Selectable<Database['channels']>): ChannelRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    urlName: r.url_name,
    name: r.name,
    currency: r.currency,
    language: r.language,
    senderEmail: r.sender_email,
    createdAt: r.created_at,
    ...(typeof r.public_id === 'number' ? { publicId: r.public_id } : {}),
  };
}

export function createMerchantRepositories(db: SqlDatabase): Pick<MerchantsUnit, 'merchants' | 'credentials' | 'channels'> {
  const s = {
    merchantInsert: typed<Database['merchants']>()(db, (k, p) => k.insertInto('merchants').values(rowPlaces('merchants', p))),
    merchantGet: typed<{ id: string }>()(db, (k, p) => k.selectFrom('merchants').selectAll().where('id', '=', p('id'))),
    merchantRotate: typed<{ id: string; sealed: string; previousSealed: string; previousUntil: string }>()(db, (k, p) =>
      k
        .updateTable('merchants')
        .set({
          webhook_key_sealed: p('sealed'),
          previous_webhook_key_sealed: p('previousSealed'),
          previous_webhook_key_until: p('previousUntil'),
        })
        .where('id', '=', p('id')),
    ),
    merchantList: typed()(db, (k) => k.selectFrom('merchants').selectAll().orderBy('created_at').orderBy('id')),
    merchantSetPartner: typed<{ id: string; partnerId: string | null }>()(db, (k, p) =>
      k
        .updateTable('merchants')
        .set({ partner_id: p('partnerId') })
        .where('id', '=', p('id')),
    ),
    merchantProfile: typed<Pick<Database['merchants'], 'id' | 'name' | 'currency' | 'language'>>()(db, (k, p) =>
      k
        .updateTable('merchants')
        .set({ name: p('name'), currency: p('currency'), language: p('language') })
        .where('id', '=', p('id')),
    ),
    credentialsByMerchant: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('credentials').selectAll().where('merchant_id', '=', p('merchantId')).orderBy('created_at').orderBy('id'),
    ),
    credentialGet: typed<{ id: string }>()(db, (k, p) => k.selectFrom('credentials').selectAll().where('id', '=', p('id'))),
    credentialRevoke: typed<{ id: string; at: string }>()(db, (k, p) =>
      k
        .updateTable('credentials')
        .set({ revoked_at: p('at') })
        .where('id', '=', p('id'))
        .where('revoked_at', 'is', null),
    ),
    channelUpdate: typed<Pick<Database['channels'], 'id' | 'name' | 'currency' | 'language' | 'sender_email'>>()(db, (k, p) =>
      k
        .updateTable('channels')
        .set({ name: p('name'), currency: p('currency'), language: p('language'), sender_email: p('sender_email') })
        .where('id', '=', p('id')),
    ),
    credentialInsert: typed<Database['credentials']>()(db, (k, p) => k.insertInto('credentials').values(rowPlaces('credentials', p))),
    // Every payment request's authentication: one lookup by the UNIQUE api_key.
    credentialByKey: typed<{ apiKey: string }>()(db, (k, p) =>
      k.selectFrom('credentials').selectAll().where('api_key', '=', p('apiKey')).where('revoked_at', 'is', null),
    ),
    channelInsert: typed<Omit<Database['channels'], 'public_id'>>()(db, (k, p) =>
      k.insertInto('channels').values({
        id: p('id'),
        merchant_id: p('merchant_id'),
        url_name: p('url_name'),
        name: p('name'),
        currency: p('currency'),
        language: p('language'),
        sender_email: p('sender_email'),
        created_at: p('created_at'),
      }),
    ),
    channelByUrlName: typed<{ urlName: string }>()(db, (k, p) => k.selectFrom('channels').selectAll().where('url_name', '=', p('urlName'))),
    channelsByMerchant: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('channels').selectAll().where('merchant_id', '=', p('merchantId')).orderBy('created_at').orderBy('id'),
    ),
    // A till's copy of its centre's merchant: name and currency follow the centre, the webhook key is set only when new.
    replicaMerchant: typed<Pick<Database['merchants'], 'id' | 'name' | 'currency' | 'webhook_key_sealed' | 'created_at'>>()(db, (k, p) =>
      k
        .insertInto('merchants')
        // language left out: a new copy takes the column's DEFAULT 'en' (the replica does not carry it).
        .values({
          id: p('id'),
          name: p('name'),
          currency: p('currency'),
          webhook_key_sealed: p('webhook_key_sealed'),
          created_at: p('created_at'),
        } as InsertObject<Database, 'merchants'>)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), currency: eb.ref('excluded.currency') })),
        ),
    ),
    // A till's copy of one of its centre's merchant credentials: the hash and the revocation follow the centre.
    replicaCredential: typed<
      Pick<Database['credentials'], 'id' | 'merchant_id' | 'api_key' | 'password_hash' | 'created_at' | 'revoked_at'>
    >()(db, (k, p) =>
      k
        .insertInto('credentials')
        .values({
          id: p('id'),
          merchant_id: p('merchant_id'),
          kind: 'merchant',
          api_key: p('api_key'),
          password_hash: p('password_hash'),
          created_at: p('created_at'),
          revoked_at: p('revoked_at'),
        })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => ({ password_hash: eb.ref('excluded.password_hash'), revoked_at: eb.ref('excluded.revoked_at') })),
        ),
    ),
    activeCredentialIds: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('credentials').select('id').where('merchant_id', '=', p('merchantId')).where('revoked_at', 'is', null),
    ),
  };
  return {
    merchants: {
      insert: async (m) =>
        void (await s.merchantInsert.run({
          id: m.id,
          name: m.name,
          currency: m.currency,
          webhook_key_sealed: m.webhookKeySealed,
          previous_webhook_key_sealed: m.previousWebhookKeySealed,
          previous_webhook_key_until: m.previousWebhookKeyUntil,
          created_at: m.createdAt,
          partner_id: m.partnerId ?? null,
          language: m.language ?? 'en',
        })),
      rotateWebhookKey: async (id, sealed, previousSealed, previousUntil) =>
        void (await s.merchantRotate.run({ id, sealed, previousSealed, previousUntil })),
      get: async (id) => {
        const row = await s.merchantGet.get({ id });
        return row && merchantFromRow(row);
      },
      list: async () => (await s.merchantList.all({})).map(merchantFromRow),
      setPartner: async (id, partnerId) => void (await s.merchantSetPartner.run({ id, partnerId })),
      updateProfile: async (id, profile) =>
        void (await s.merchantProfile.run({ id, name: profile.name, currency: profile.currency, language: profile.language })),
      keepReplica: async (m, webhookKeySealed) =>
        void (await s.replicaMerchant.run({
          id: m.merchant_id,
          name: m.name,
          currency: m.currency,
          webhook_key_sealed: webhookKeySealed,
          created_at: m.created_at,
        })),
    },
    credentials: {
      insert: async (c) =>
        void (await s.credentialInsert.run({
          id: c.id,
          merchant_id: c.merchantId,
          kind: c.kind,
          api_key: c.apiKey,
          password_hash: c.passwordHash,
          created_at: c.createdAt,
          revoked_at: c.revokedAt,
          partner_id: c.partnerId ?? null,
        })),
      findActiveByApiKey: async (apiKey) => {
        const row = await s.credentialByKey.get({ apiKey });
        return row && credentialFromRow(row);
      },
      listByMerchant: async (merchantId) => (await s.credentialsByMerchant.all({ merchantId })).map(credentialFromRow),
      get: async (id) => {
        const row = await s.credentialGet.get({ id });
        return row && credentialFromRow(row);
      },
      revoke: async (id, at) => (await s.credentialRevoke.run({ id, at })).changes > 0,
      keepReplica: async (merchantId, credentials, at) => {
        for (const c of credentials)
          await s.replicaCredential.run({
            id: c.credential_id,
            merchant_id: merchantId,
            api_key: c.api_key,
            password_hash: c.password_hash,
            created_at: c.created_at,
            revoked_at: c.revoked_at,
          });
        // What the centre no longer gives is gone here too (a handful of rows: compared here, not in SQL).
        const kept = new Set(credentials.map((c) => c.credential_id));
        for (const row of await s.activeCredentialIds.all({ merchantId })) {
          if (!kept.has(row.id)) await s.credentialRevoke.run({ id: row.id, at });
        }
      },
    },
    channels: {
      insert: async (c) =>
        void (await s.channelInsert.run({
          id: c.id,
          merchant_id: c.merchantId,
          url_name: c.urlName,
          name: c.name,
          currency: c.currency,
          language: c.language,
          sender_email: c.senderEmail,
          created_at: c.createdAt,
        })),
      findByUrlName: async (urlName) => {
        const row = await s.channelByUrlName.get({ urlName });
        return row && channelFromRow(row);
      },
      listByMerchant: async (merchantId) => (await s.channelsByMerchant.all({ merchantId })).map(channelFromRow),
      update: async (c) =>
        void (await s.channelUpdate.run({
          id: c.id,
          name: c.name,
          currency: c.currency,
          language: c.language,
          sender_email: c.senderEmail,
        })),
    },
  };
}
