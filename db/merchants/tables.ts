/** The merchants feature's tables, for Kysely (db/schema.ts). */
import type { ChannelLanguage, MerchantLanguage } from '../../contract/constants.js';
import type { CredentialKind } from '../../main/core/merchants/ports.js';
import { integer, integerOrNull, text, textOrNull } from '../columns.js';

export const merchantTables = {
  merchants: {
    id: text(),
    name: text(),
    currency: text(),
    webhook_key_sealed: text(),
    previous_webhook_key_sealed: textOrNull(),
    previous_webhook_key_until: textOrNull(),
    created_at: text(),
    partner_id: textOrNull(),
    language: text<MerchantLanguage>(),
  },
  credentials: {
    id: text(),
    merchant_id: textOrNull(),
    kind: text<CredentialKind>(),
    api_key: text(),
    password_hash: text(),
    created_at: text(),
    revoked_at: textOrNull(),
    partner_id: textOrNull(),
  },
  channels: {
    id: text(),
    merchant_id: text(),
    url_name: text(),
    name: text(),
    currency: text(),
    language: text<ChannelLanguage>(),
    sender_email: textOrNull(),
    created_at: text(),
    /** Assigned by the database on insert (migration 9). */
    public_id: integerOrNull(),
  },
  partners: {
    id: text(),
    name: text(),
    created_at: text(),
  },
  shops: {
    id: text(),
    merchant_id: text(),
    name: text(),
    created_at: text(),
  },
  terminals: {
    merchant_id: text(),
    terminal_id: text(),
    shop_id: text(),
    assigned_at: text(),
  },
  auth_failures: {
    bucket: text(),
    count: integer(),
    window_start: text(),
    locked_until: textOrNull(),
  },
} as const;
