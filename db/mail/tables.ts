/** The mail feature's tables, for Kysely (db/schema.ts). */
import { integer, text, textOrNull } from '../columns.js';
import type { EmailStatus, InvoiceEmailType, InvoiceLocale } from '../../contract/constants.js';

export const mailTables = {
  emails: {
    id: text(),
    merchant_id: text(),
    invoice_id: integer(),
    email_type: text<InvoiceEmailType>(),
    locale: text<InvoiceLocale>(),
    recipient: text(),
    sender: textOrNull(),
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
  smtp_settings: {
    merchant_id: text(),
    host: text(),
    port: integer(),
    security: text<'starttls' | 'implicit' | 'none'>(),
    user: textOrNull(),
    password_sealed: textOrNull(),
    mail_from: text(),
    updated_at: text(),
  },
} as const;
