/** The network tokens feature's tables, for Kysely (db/schema.ts). */
import type { NetworkTokenStatus } from '../../contract/constants.js';
import { rowId, text, textOrNull } from '../columns.js';

export const networkTokenTables = {
  network_tokens: {
    id: text(),
    merchant_id: text(),
    status: text<NetworkTokenStatus>(),
    type: text<'merchant'>(),
    network: text(),
    provider: text(),
    card_fingerprint: text(),
    card_sealed: text(),
    token_fingerprint: text(),
    token_sealed: text(),
    payment_account_reference: text(),
    /** JSON of the holder and billing fields. */
    billing: text(),
    postback_url: textOrNull(),
    error_code: textOrNull(),
    error_detail: textOrNull(),
    last_token_refresh: textOrNull(),
    created_at: text(),
    updated_at: text(),
  },
  network_token_cryptograms: {
    id: text(),
    token_id: text(),
    type: text<'TAVV' | 'DSRP'>(),
    hash: text(),
    created_at: text(),
    expires_at: text(),
    used_at: textOrNull(),
  },
  network_token_events: {
    id: rowId(),
    token_id: text(),
    event: text<'created' | 'status' | 'refreshed'>(),
    status: text<NetworkTokenStatus>(),
    created_at: text(),
  },
} as const;
