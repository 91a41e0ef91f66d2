/** Partners, shops, terminals and payment-method settings (decisions.md D15, migration 0015). */
import type { SqlDatabase } from '../sql.js';
import type { MethodCapability, PaymentMethodSettingRecord, PaymentMethodSettingRepository } from '../../main/core/payment-methods/ports.js';
import type { PartnerRecord, PartnerRepository, ShopRecord, ShopRepository, TerminalRecord } from '../../main/core/merchants/ports.js';
import type { Row } from '../rows.js';

const optJson = <T>(v: unknown): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : null);

function partnerFromRow(r: Row): PartnerRecord {
  return { id: r.id as string, name: r.name as string, createdAt: r.created_at as string };
}

function shopFromRow(r: Row): ShopRecord {
  return { id: r.id as string, merchantId: r.merchant_id as string, name: r.name as string, createdAt: r.created_at as string };
}

function terminalFromRow(r: Row): TerminalRecord {
  return { merchantId: r.merchant_id as string, terminalId: r.terminal_id as string, shopId: r.shop_id as string, assignedAt: r.assigned_at as string };
}

function settingFromRow(r: Row): PaymentMethodSettingRecord {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    shopId: (r.shop_id as string | null) ?? null,
    paymentType: r.payment_type as string,
    enabled: r.enabled === null || r.enabled === undefined ? null : r.enabled === 1,
    currencies: optJson<string[]>(r.currencies),
    countries: optJson<string[]>(r.countries),
    capabilities: JSON.parse(r.capabilities as string) as Partial<Record<MethodCapability, boolean>>,
    feeFixedMinor: (r.fee_fixed_minor as number | null) ?? null,
    feePercentBasisPoints: (r.fee_percent_bp as number | null) ?? null,
    cvmLimitMinor: JSON.parse(r.cvm_limit as string) as Record<string, number>,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  };
}

function settingToRow(s: PaymentMethodSettingRecord): Row {
  return {
    id: s.id,
    merchant_id: s.merchantId,
    shop_id: s.shopId,
    payment_type: s.paymentType,
    enabled: s.enabled === null ? null : s.enabled ? 1 : 0,
    currencies: s.currencies === null ? null : JSON.stringify(s.currencies),
    countries: s.countries === null ? null : JSON.stringify(s.countries),
    capabilities: JSON.stringify(s.capabilities),
    fee_fixed_minor: s.feeFixedMinor,
    fee_percent_bp: s.feePercentBasisPoints,
    cvm_limit: JSON.stringify(s.cvmLimitMinor),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export function createMerchantManagementRepositories(db: SqlDatabase): {
  partners: PartnerRepository;
  shops: ShopRepository;
  paymentMethodSettings: PaymentMethodSettingRepository;
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
    settingMerchant: db.prepare('SELECT * FROM payment_method_settings WHERE merchant_id = ? AND shop_id IS NULL AND payment_type = ?'),
    settingShop: db.prepare('SELECT * FROM payment_method_settings WHERE merchant_id = ? AND shop_id = ? AND payment_type = ?'),
    levelMerchant: db.prepare('SELECT * FROM payment_method_settings WHERE merchant_id = ? AND shop_id IS NULL'),
    levelShop: db.prepare('SELECT * FROM payment_method_settings WHERE merchant_id = ? AND shop_id = ?'),
    settingInsert: db.prepare(
      `INSERT INTO payment_method_settings (id, merchant_id, shop_id, payment_type, enabled, currencies, countries, capabilities,
         fee_fixed_minor, fee_percent_bp, cvm_limit, created_at, updated_at)
       VALUES (@id, @merchant_id, @shop_id, @payment_type, @enabled, @currencies, @countries, @capabilities,
         @fee_fixed_minor, @fee_percent_bp, @cvm_limit, @created_at, @updated_at)`,
    ),
    settingUpdate: db.prepare(
      `UPDATE payment_method_settings SET enabled = @enabled, currencies = @currencies, countries = @countries, capabilities = @capabilities,
         fee_fixed_minor = @fee_fixed_minor, fee_percent_bp = @fee_percent_bp, cvm_limit = @cvm_limit, updated_at = @updated_at
       WHERE id = @id`,
    ),
    settingDeleteMerchant: db.prepare('DELETE FROM payment_method_settings WHERE merchant_id = ? AND shop_id IS NULL AND payment_type = ?'),
    settingDeleteShop: db.prepare('DELETE FROM payment_method_settings WHERE merchant_id = ? AND shop_id = ? AND payment_type = ?'),
  };
  const getSetting = async (merchantId: string, shopId: string | null, type: string) =>
    (shopId === null ? (await s.settingMerchant.get(merchantId, type)) : (await s.settingShop.get(merchantId, shopId, type))) as Row | undefined;
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
    paymentMethodSettings: {
      get: async (merchantId, shopId, type) => {
        const row = await getSetting(merchantId, shopId, type);
        return row && settingFromRow(row);
      },
      listLevel: async (merchantId, shopId) =>
        ((shopId === null ? (await s.levelMerchant.all(merchantId)) : (await s.levelShop.all(merchantId, shopId))) as Row[]).map(settingFromRow),
      save: async (record) => {
        const existing = await getSetting(record.merchantId, record.shopId, record.paymentType);
        const row = settingToRow(record);
        if (existing) (await s.settingUpdate.run({ ...row, id: existing.id }));
        else (await s.settingInsert.run(row));
      },
      delete: async (merchantId, shopId, type) =>
        (shopId === null ? (await s.settingDeleteMerchant.run(merchantId, type)) : (await s.settingDeleteShop.run(merchantId, shopId, type))).changes > 0,
    },
  };
}
