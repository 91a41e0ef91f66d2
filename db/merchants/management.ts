/**
 * Partners, shops and terminals (decisions.md D15, migration 0017); payment-method settings:
 * db/payment-methods/. Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts.
 */
import type { Selectable } from 'kysely';
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, rowPlaces } from '../typed-sql.js';
import type { PartnerRecord, PartnerRepository, ShopRecord, ShopRepository, TerminalRecord } from '../../main/core/merchants/ports.js';

function partnerFromRow(r: Selectable<Database['partners']>): PartnerRecord {
  return { id: r.id, name: r.name, createdAt: r.created_at };
}

function shopFromRow(r: Selectable<Database['shops']>): ShopRecord {
  return { id: r.id, merchantId: r.merchant_id, name: r.name, createdAt: r.created_at };
}

function terminalFromRow(r: Selectable<Database['terminals']>): TerminalRecord {
  return { merchantId: r.merchant_id, terminalId: r.terminal_id, shopId: r.shop_id, assignedAt: r.assigned_at };
}

export function createMerchantManagementRepositories(db: SqlDatabase): {
  partners: PartnerRepository;
  shops: ShopRepository;
} {
  const s = {
    partnerInsert: typed<Database['partners']>()(db, (k, p) => k.insertInto('partners').values(rowPlaces('partners', p))),
    partnerGet: typed<{ id: string }>()(db, (k, p) => k.selectFrom('partners').selectAll().where('id', '=', p('id'))),
    partnerList: typed()(db, (k) => k.selectFrom('partners').selectAll().orderBy('created_at').orderBy('id')),
    shopInsert: typed<Database['shops']>()(db, (k, p) => k.insertInto('shops').values(rowPlaces('shops', p))),
    shopGet: typed<{ id: string }>()(db, (k, p) => k.selectFrom('shops').selectAll().where('id', '=', p('id'))),
    shopsByMerchant: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('shops').selectAll().where('merchant_id', '=', p('merchantId')).orderBy('created_at').orderBy('id'),
    ),
    terminalGet: typed<{ merchantId: string; terminalId: string }>()(db, (k, p) =>
      k.selectFrom('terminals').selectAll().where('merchant_id', '=', p('merchantId')).where('terminal_id', '=', p('terminalId')),
    ),
    // A terminal id belongs to at most one shop of its merchant: assigning it again moves it.
    terminalAssign: typed<Database['terminals']>()(db, (k, p) =>
      k
        .insertInto('terminals')
        .values(rowPlaces('terminals', p))
        .onConflict((oc) =>
          oc
            .columns(['merchant_id', 'terminal_id'])
            .doUpdateSet((eb) => ({ shop_id: eb.ref('excluded.shop_id'), assigned_at: eb.ref('excluded.assigned_at') })),
        ),
    ),
    terminalDelete: typed<{ merchantId: string; terminalId: string }>()(db, (k, p) =>
      k.deleteFrom('terminals').where('merchant_id', '=', p('merchantId')).where('terminal_id', '=', p('terminalId')),
    ),
    terminalsByMerchant: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('terminals').selectAll().where('merchant_id', '=', p('merchantId')).orderBy('terminal_id'),
    ),
  };
  return {
    partners: {
      insert: async (partner) => void (await s.partnerInsert.run({ id: partner.id, name: partner.name, created_at: partner.createdAt })),
      get: async (id) => {
        const row = await s.partnerGet.get({ id });
        return row && partnerFromRow(row);
      },
      list: async () => (await s.partnerList.all({})).map(partnerFromRow),
    },
    shops: {
      insert: async (shop) =>
        void (await s.shopInsert.run({ id: shop.id, merchant_id: shop.merchantId, name: shop.name, created_at: shop.createdAt })),
      get: async (id) => {
        const row = await s.shopGet.get({ id });
        return row && shopFromRow(row);
      },
      listByMerchant: async (merchantId) => (await s.shopsByMerchant.all({ merchantId })).map(shopFromRow),
      terminal: async (merchantId, terminalId) => {
        const row = await s.terminalGet.get({ merchantId, terminalId });
        return row && terminalFromRow(row);
      },
      assignTerminal: async (record) =>
        void (await s.terminalAssign.run({
          merchant_id: record.merchantId,
          terminal_id: record.terminalId,
          shop_id: record.shopId,
          assigned_at: record.assignedAt,
        })),
      unassignTerminal: async (merchantId, terminalId) => (await s.terminalDelete.run({ merchantId, terminalId })).changes > 0,
      terminals: async (merchantId) => (await s.terminalsByMerchant.all({ merchantId })).map(terminalFromRow),
    },
  };
}
