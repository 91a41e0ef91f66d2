/**
 * The invoice list's place in its URL (`#/invoices?url_name=shop&status=paid&created_at_from=2026-03-01&page=2`):
 * the API's own filter names (GET /rest/invoices), so a reload, a bookmark or back/forward keep the
 * filters and the page.
 */
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../contract/constants.js';

export interface InvoiceListSearch {
  /** The channel (its url_name); absent: every channel. */
  url_name?: string;
  status?: InvoiceStatus;
  /** Created on or after this day (YYYY-MM-DD, UTC as the API reads it). */
  created_at_from?: string;
  /** Created on or before this day. */
  created_at_to?: string;
  /** The API's page (50 a page); absent: 1. */
  page?: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function invoiceListSearch(search: Record<string, unknown>): InvoiceListSearch {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const urlName = text(search.url_name);
  const status = INVOICE_STATUSES.find((s) => s === search.status);
  const from = text(search.created_at_from);
  const to = text(search.created_at_to);
  const page = typeof search.page === 'number' ? search.page : Number(text(search.page) ?? Number.NaN);
  return {
    ...(urlName && urlName.length <= 100 ? { url_name: urlName } : {}),
    ...(status ? { status } : {}),
    ...(from && DAY.test(from) ? { created_at_from: from } : {}),
    ...(to && DAY.test(to) ? { created_at_to: to } : {}),
    ...(Number.isInteger(page) && page > 1 && page < 1_000_000 ? { page } : {}),
  };
}
