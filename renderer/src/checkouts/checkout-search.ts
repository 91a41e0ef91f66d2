/**
 * The checkout list's place in its URL (`#/checkouts?status=open&created_from=2026-03-01&page=2`):
 * status and the created range as days of the till's time zone, so a reload, a bookmark or
 * back/forward keep the filters and the page.
 */
import { CHECKOUT_STATUSES, type CheckoutStatus } from '../../../contract/constants.js';
import { searchDay, searchOneOf, searchPage } from '../ui/list-search.js';

export interface CheckoutListSearch {
  status?: CheckoutStatus;
  created_from?: string;
  created_to?: string;
  page?: number;
}

export function checkoutListSearch(search: Record<string, unknown>): CheckoutListSearch {
  const status = searchOneOf(search.status, CHECKOUT_STATUSES);
  const from = searchDay(search.created_from);
  const to = searchDay(search.created_to);
  const page = searchPage(search.page);
  return {
    ...(status ? { status } : {}),
    ...(from ? { created_from: from } : {}),
    ...(to ? { created_to: to } : {}),
    ...(page ? { page } : {}),
  };
}
