/** The payment-methods feature's tables, for Kysely (db/schema.ts). */
import { integerOrNull, text, textOrNull } from '../columns.js';

export const paymentMethodTables = {
  payment_method_settings: {
    id: text(),
    merchant_id: text(),
    shop_id: textOrNull(),
    payment_type: text(),
    enabled: integerOrNull<0 | 1>(),
    /** JSON: string[] */
    currencies: textOrNull(),
    /** JSON: string[] */
    countries: textOrNull(),
    /** JSON: Partial<Record<MethodCapability, boolean>> */
    capabilities: text(),
    fee_fixed_minor: integerOrNull(),
    fee_percent_bp: integerOrNull(),
    /** JSON: Record<currency, minor units> */
    cvm_limit: text(),
    created_at: text(),
    updated_at: text(),
  },
} as const;
