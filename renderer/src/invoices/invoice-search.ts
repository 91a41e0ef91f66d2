/**
 * The invoice list's place in its URL (`#/invoices?url_name=shop&status=paid&created_at_from=2026-03-01&page=2`):
 * the API's own filter names (GET /rest/invoices), so a reload, a bookmark or back/forward keep the
 * filters and the page.
 */
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../contract/constants.js';
import { searchDay, searchOneOf, searchPage, searchText } from '../ui/list-search.js';

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

export function invoiceListSearch(search: Record<string, unknown>): InvoiceListSearch {
  const urlName = searchText(search.url_name);
  const status = searchOneOf(search.status, INVOICE_STATUSES);
  const from = searchDay(search.created_at_from);
  const to = searchDay(search.created_at_to);
  const page = searchPage(search.page);
  return {
    ...(urlName && urlName.length <= 100 ? { url_name: urlName } : {}),
    ...(status ? { status } : {}),
    ...(from ? { created_at_from: from } : {}),
    ...(to ? { created_at_to: to } : {}),
    ...(page ? { page } : {}),
  };
}
