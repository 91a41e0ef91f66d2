/** The invoices feature's tables, for Kysely (db/schema.ts). */
import { integer, integerOrNull, rowId, text, textOrNull } from '../columns.js';
import type { ExpiryUnit, InvoiceEmailType, InvoiceLocale, InvoiceStatus, PlanStatus } from '../../contract/constants.js';

export const invoiceTables = {
  invoices: {
    id: rowId(),
    uuid: text(),
    merchant_id: text(),
    channel_id: text(),
    debt_claim_number: text(),
    active: integer<0 | 1>(),
    status: text<InvoiceStatus>(),
    print_date: text(),
    first_name: textOrNull(),
    last_name: textOrNull(),
    company: textOrNull(),
    email: textOrNull(),
    phone: textOrNull(),
    tax_id: textOrNull(),
    customer_id: textOrNull(),
    address: textOrNull(),
    address2: textOrNull(),
    postal_code: textOrNull(),
    city: textOrNull(),
    state: textOrNull(),
    country: textOrNull(),
    amount_minor: integer(),
    currency: text(),
    description: textOrNull(),
    redirect_after_payments: integer<0 | 1>(),
    success_url: textOrNull(),
    error_url: textOrNull(),
    expires_in: integerOrNull(),
    expires_in_unit: textOrNull<ExpiryUnit>(),
    expires_at: textOrNull(),
    locale: textOrNull<InvoiceLocale>(),
    send_initial_email: integer<0 | 1>(),
    initial_email_type: textOrNull<InvoiceEmailType>(),
    import_id: integerOrNull(),
    created_at: text(),
    updated_at: text(),
  },
  invoice_number_counters: {
    channel_id: text(),
    last_number: integer(),
  },
  payment_plans: {
    id: text(),
    invoice_id: integer(),
    status: text<PlanStatus>(),
    installments: integer(),
    interval_unit: text<'week' | 'month'>(),
    created_at: text(),
    updated_at: text(),
  },
} as const;

/**
 * The channels every invoice read joins (its public id, URL name and language). Written by
 * db/merchants, which owns the table: described here until db/merchants/tables.ts describes it
 * (then this goes, and db/schema.ts takes merchants' description).
 */
export const invoiceReadTables = {
  channels: {
    id: text(),
    merchant_id: text(),
    url_name: text(),
    name: text(),
    currency: text(),
    language: text<InvoiceLocale>(),
    sender_email: textOrNull(),
    created_at: text(),
    public_id: integerOrNull(),
  },
} as const;
