/**
 * The audit log's place in its URL (`#/settings/audit?staff=…&action=credential_revoke&from=2026-03-01&page=2`):
 * who, what, and a range of days of the till's time zone, so a reload or a link keeps the view.
 */
import { searchDay, searchPage, searchText } from '../ui/list-search.js';

export interface AuditSearch {
  staff?: string;
  action?: string;
  from?: string;
  to?: string;
  page?: number;
}

export function auditSearch(search: Record<string, unknown>): AuditSearch {
  const staff = searchText(search.staff);
  const action = searchText(search.action);
  const from = searchDay(search.from);
  const to = searchDay(search.to);
  const page = searchPage(search.page);
  return {
    ...(staff ? { staff } : {}),
    ...(action ? { action } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(page ? { page } : {}),
  };
}
