/**
 * The payment-method settings of merchants and shops (D15; migration 17). Statements built with
 * Kysely (db/typed-sql.ts), rows typed by db/schema.ts.
 */
import type { Selectable } from 'kysely';
import type {
  MethodCapability,
  PaymentMethodSettingRecord,
  PaymentMethodSettingRepository,
} from '../../main/core/payment-methods/ports.js';
import type { Database } from '../schema.js';
import type { SqlDatabase } from '../sql.js';
import { typed, rowPlaces } from '../typed-sql.js';

type SettingRow = Selectable<Database['payment_method_settings']>;

const optJson = <T>(v: string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : null);

function settingFromRow(r: SettingRow): PaymentMethodSettingRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    shopId: r.shop_id ?? null,
    paymentType: r.payment_type,
    enabled: r.enabled === null || r.enabled === undefined ? null : r.enabled === 1,
    currencies: optJson<string[]>(r.currencies),
    countries: optJson<string[]>(r.countries),
    capabilities: JSON.parse(r.capabilities) as Partial<Record<MethodCapability, boolean>>,
    feeFixedMinor: r.fee_fixed_minor ?? null,
    feePercentBasisPoints: r.fee_percent_bp ?? null,
    cvmLimitMinor: JSON.parse(r.cvm_limit) as Record<string, number>,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function settingToRow(s: PaymentMethodSettingRecord): SettingRow {
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

/** A level's setting of a type: the merchant's (shop_id IS NULL) or a shop's. */
type MerchantLevel = { merchantId: string; paymentType: string };
type ShopLevel = MerchantLevel & { shopId: string };

export function createPaymentMethodSettingRepository(db: SqlDatabase): PaymentMethodSettingRepository {
  const s = {
    settingMerchant: typed<MerchantLevel>()(db, (k, p) =>
      k
        .selectFrom('payment_method_settings')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('shop_id', 'is', null)
        .where('payment_type', '=', p('paymentType')),
    ),
    settingShop: typed<ShopLevel>()(db, (k, p) =>
      k
        .selectFrom('payment_method_settings')
        .selectAll()
        .where('merchant_id', '=', p('merchantId'))
        .where('shop_id', '=', p('shopId'))
        .where('payment_type', '=', p('paymentType')),
    ),
    levelMerchant: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('payment_method_settings').selectAll().where('merchant_id', '=', p('merchantId')).where('shop_id', 'is', null),
    ),
    levelShop: typed<{ merchantId: string; shopId: string }>()(db, (k, p) =>
      k.selectFrom('payment_method_settings').selectAll().where('merchant_id', '=', p('merchantId')).where('shop_id', '=', p('shopId')),
    ),
    settingInsert: typed<SettingRow>()(db, (k, p) =>
      k.insertInto('payment_method_settings').values(rowPlaces('payment_method_settings', p)),
    ),
    settingUpdate: typed<SettingRow>()(db, (k, p) =>
      k
        .updateTable('payment_method_settings')
        .set({
          enabled: p('enabled'),
          currencies: p('currencies'),
          countries: p('countries'),
          capabilities: p('capabilities'),
          fee_fixed_minor: p('fee_fixed_minor'),
          fee_percent_bp: p('fee_percent_bp'),
          cvm_limit: p('cvm_limit'),
          updated_at: p('updated_at'),
        })
        .where('id', '=', p('id')),
    ),
    settingDeleteMerchant: typed<MerchantLevel>()(db, (k, p) =>
      k
        .deleteFrom('payment_method_settings')
        .where('merchant_id', '=', p('merchantId'))
        .where('shop_id', 'is', null)
        .where('payment_type', '=', p('paymentType')),
    ),
    settingDeleteShop: typed<ShopLevel>()(db, (k, p) =>
      k
        .deleteFrom('payment_method_settings')
        .where('merchant_id', '=', p('merchantId'))
        .where('shop_id', '=', p('shopId'))
        .where('payment_type', '=', p('paymentType')),
    ),
  };
  const getSetting = async (merchantId: string, shopId: string | null, paymentType: string) =>
    shopId === null
      ? await s.settingMerchant.get({ merchantId, paymentType })
      : await s.settingShop.get({ merchantId, shopId, paymentType });
  return {
    get: async (merchantId, shopId, type) => {
      const row = await getSetting(merchantId, shopId, type);
      return row && settingFromRow(row);
    },
    listLevel: async (merchantId, shopId) =>
      (shopId === null ? await s.levelMerchant.all({ merchantId }) : await s.levelShop.all({ merchantId, shopId })).map(settingFromRow),
    save: async (record) => {
      const existing = await getSetting(record.merchantId, record.shopId, record.paymentType);
      const row = settingToRow(record);
      if (existing) await s.settingUpdate.run({ ...row, id: existing.id });
      else await s.settingInsert.run(row);
    },
    delete: async (merchantId, shopId, type) =>
      (shopId === null
        ? await s.settingDeleteMerchant.run({ merchantId, paymentType: type })
        : await s.settingDeleteShop.run({ merchantId, shopId, paymentType: type })
      ).changes > 0,
  };
}
