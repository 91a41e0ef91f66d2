/** The payment-method settings of merchants and shops (D15; migration 17). */
import type {
  MethodCapability,
  PaymentMethodSettingRecord,
  PaymentMethodSettingRepository,
} from '../../main/core/payment-methods/ports.js';
import type { Row } from '../rows.js';
import type { SqlDatabase } from '../sql.js';

const optJson = <T>(v: unknown): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : null);

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

export function createPaymentMethodSettingRepository(db: SqlDatabase): PaymentMethodSettingRepository {
  const s = {
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
    (shopId === null ? await s.settingMerchant.get(merchantId, type) : await s.settingShop.get(merchantId, shopId, type)) as
      Row | undefined;
  return {
    get: async (merchantId, shopId, type) => {
      const row = await getSetting(merchantId, shopId, type);
      return row && settingFromRow(row);
    },
    listLevel: async (merchantId, shopId) =>
      ((shopId === null ? await s.levelMerchant.all(merchantId) : await s.levelShop.all(merchantId, shopId)) as Row[]).map(settingFromRow),
    save: async (record) => {
      const existing = await getSetting(record.merchantId, record.shopId, record.paymentType);
      const row = settingToRow(record);
      if (existing) await s.settingUpdate.run({ ...row, id: existing.id });
      else await s.settingInsert.run(row);
    },
    delete: async (merchantId, shopId, type) =>
      (shopId === null ? await s.settingDeleteMerchant.run(merchantId, type) : await s.settingDeleteShop.run(merchantId, shopId, type))
        .changes > 0,
  };
}
