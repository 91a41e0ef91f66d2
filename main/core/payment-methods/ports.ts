/**
 * A merchant's payment-method settings and fee schedules (decisions.md D15). Adapter: db/.
 */
import type { MethodCapabilityName } from '../../../contract/constants.js';
import type { KernelUnit } from '../unit-of-work.js';
import type { MerchantRepository, ShopRepository } from '../merchants/ports.js';

export interface FeeSchedule {
  percentBasisPoints: number;
  fixedMinor: number;
}

/** Capabilities of a payment method that settings can switch off (the contract's list). */
export type MethodCapability = MethodCapabilityName;

/**
 * One level's setting of a payment type: the merchant's (`shopId` null) or a shop's. Null (and a
 * key absent from a map) means "inherit from the level below".
 */
export interface PaymentMethodSettingRecord {
  id: string;
  merchantId: string;
  shopId: string | null;
  paymentType: string;
  enabled: boolean | null;
  currencies: string[] | null;
  countries: string[] | null;
  capabilities: Partial<Record<MethodCapability, boolean>>;
  /** Fixed fee in hundredths of a currency unit (scaled to the payment currency's exponent). */
  feeFixedMinor: number | null;
  feePercentBasisPoints: number | null;
  /** Contactless CVM limit per currency, in minor units of that currency (cardpos). */
  cvmLimitMinor: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}

export interface PaymentMethodSettingRepository {
  get(merchantId: string, shopId: string | null, paymentType: string): Promise<PaymentMethodSettingRecord | undefined>;
  /** Every setting of one level (the merchant's, or a shop's). */
  listLevel(merchantId: string, shopId: string | null): Promise<PaymentMethodSettingRecord[]>;
  /** Inserts or replaces the level's setting of the type. */
  save(record: PaymentMethodSettingRecord): Promise<void>;
  /** False when the level had no setting of the type. */
  delete(merchantId: string, shopId: string | null, paymentType: string): Promise<boolean>;
}

/** The payment-methods feature's view of a unit of work: its settings, and the merchant and shops they hang on. */
export interface PaymentMethodsUnit extends KernelUnit {
  paymentMethodSettings: PaymentMethodSettingRepository;
  merchants: Pick<MerchantRepository, 'get'>;
  shops: Pick<ShopRepository, 'get' | 'terminal'>;
}
