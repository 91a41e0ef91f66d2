/** Partners, shops and terminals (decisions.md D15, migration 0017); payment-method settings: db/payment-methods/. */
import type { SqlDatabase } from '../sql.js';
import type { PartnerRecord, PartnerRepository, ShopRecord, ShopRepository, TerminalRecord } from '../../main/core/merchants/ports.js';
import type { Row } from '../rows.js';

function partnerFromRow(r: Row): PartnerRecord {
  return { id: r.id as string, name: r.name as string, createdAt: r.created_at as string };
}

function shopFromRow(r: Row): ShopRecord {
  return { id: r.id as string, merchantId: r.merchant_id as string, name: r.name as string, createdAt: r.created_at as string };
}

function terminalFromRow(r: Row): TerminalRecord {
  return {
    merchantId: r.merchant_id as string,
    terminalId: r.terminal_id as string,
    shopId: r.shop_id as string,
    assignedAt: r.assigned_at as string,
  };
}

export function createMerchantManagementRepositories(db: SqlDatabase): {
  partners: PartnerRepository;
  shops: ShopRepository;
} {
  const s = {
    partnerInsert: db.prepare('INSERT INTO partners (id, name, created_at) VALUES (@id, @name, @createdAt)'),
    partnerGet: db.prepare('SELECT * FROM partners WHERE id = ?'),
    partnerList: db.prepare('SELECT * FROM partners ORDER BY created_at, id'),
    shopInsert: db.prepare('INSERT INTO shops (id, merchant_id, name, created_at) VALUES (@id, @merchantId, @name, @createdAt)'),
    shopGet: db.prepare('SELECT * FROM shops WHERE id = ?'),
    shopsByMerchant: db.prepare('SELECT * FROM shops WHERE merchant_id = ? ORDER BY created_at, id'),
    terminalGet: db.prepare('SELECT * FROM terminals WHERE merchant_id = ? AND terminal_id = ?'),
    terminalAssign: db.prepare(
      `INSERT INTO terminals (merchant_id, terminal_id, shop_id, assigned_at) VALUES (@merchantId, @terminalId, @shopId, @assignedAt)
       ON CONFLICT (merchant_id, terminal_id) DO UPDATE SET shop_id = excluded.shop_id, assigned_at = excluded.assigned_at`,
    ),
    terminalDelete: db.prepare('DELETE FROM terminals WHERE merchant_id = ? AND terminal_id = ?'),
    terminalsByMerchant: db.prepare('SELECT * FROM terminals WHERE merchant_id = ? ORDER BY terminal_id'),
  };
  return {
    partners: {
      insert: async (p) => void (await s.partnerInsert.run(p)),
      get: async (id) => {
        const row = (await s.partnerGet.get(id)) as Row | undefined;
        return row && partnerFromRow(row);
      },
      list: async () => ((await s.partnerList.all()) as Row[]).map(partnerFromRow),
    },
    shops: {
      insert: async (shop) => void (await s.shopInsert.run(shop)),
      get: async (id) => {
        const row = (await s.shopGet.get(id)) as Row | undefined;
        return row && shopFromRow(row);
      },
      listByMerchant: async (merchantId) => ((await s.shopsByMerchant.all(merchantId)) as Row[]).map(shopFromRow),
      terminal: async (merchantId, terminalId) => {
        const row = (await s.terminalGet.get(merchantId, terminalId)) as Row | undefined;
        return row && terminalFromRow(row);
      },
      assignTerminal: async (record) => void (await s.terminalAssign.run(record)),
      unassignTerminal: async (merchantId, terminalId) => (await s.terminalDelete.run(merchantId, terminalId)).changes > 0,
      terminals: async (merchantId) => ((await s.terminalsByMerchant.all(merchantId)) as Row[]).map(terminalFromRow),
    },
  };
}
