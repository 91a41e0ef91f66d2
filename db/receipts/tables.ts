/** The receipts feature's tables, for Kysely (db/schema.ts): migration 0013, claims of migration 0022. */
import type { EmailStatus } from '../../contract/constants.js';
import { integer, integerOrNull, text, textOrNull } from '../columns.js';

export const receiptTables = {
  receipt_links: {
    token: text(),
    merchant_id: text(),
    receipt_id: text(),
    transaction_id: text(),
    created_at: text(),
  },
  receipt_emails: {
    id: text(),
    merchant_id: text(),
    receipt_id: text(),
    transaction_id: text(),
    locale: text(),
    recipient: text(),
    subject: text(),
    body_text: text(),
    status: text<EmailStatus>(),
    attempts: integer(),
    next_attempt_at: text(),
    sent_at: textOrNull(),
    last_error: textOrNull(),
    test_outbox: integer<0 | 1>(),
    created_at: text(),
    claimed_by: textOrNull(),
    claim_until: textOrNull(),
  },
  receipt_printers: {
    merchant_id: text(),
    connection: text<'network' | 'usb'>(),
    host: textOrNull(),
    port: integerOrNull(),
    device: textOrNull(),
    characters_per_line: integer(),
    auto_print: integer<0 | 1>(),
    updated_at: text(),
  },
  receipt_print_jobs: {
    id: text(),
    merchant_id: text(),
    receipt_id: text(),
    status: text<'queued' | 'printed' | 'failed'>(),
    attempts: integer(),
    next_attempt_at: text(),
    last_error: textOrNull(),
    printed_at: textOrNull(),
    created_at: text(),
  },
} as const;
