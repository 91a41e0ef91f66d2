/**
 * The token list's place in its URL (`#/network-tokens?status=active&network=visa&created_from=2026-03-01&page=2`):
 * the API's filters (status, network) and the created range as days of the till's time zone, so a
 * reload, a bookmark or back/forward keep the filters and the page.
 */
import { NETWORK_TOKEN_STATUSES, TOKEN_NETWORKS, type NetworkTokenStatus, type TokenNetwork } from '../../../contract/constants.js';
import { searchDay, searchOneOf, searchPage } from '../ui/list-search.js';

export interface TokenListSearch {
  status?: NetworkTokenStatus;
  network?: TokenNetwork;
  /** Created on or after this day (YYYY-MM-DD). */
  created_from?: string;
  /** Created on or before this day. */
  created_to?: string;
  page?: number;
}

export function tokenListSearch(search: Record<string, unknown>): TokenListSearch {
  const status = searchOneOf(search.status, NETWORK_TOKEN_STATUSES);
  const network = searchOneOf(search.network, TOKEN_NETWORKS);
  const from = searchDay(search.created_from);
  const to = searchDay(search.created_to);
  const page = searchPage(search.page);
  return {
    ...(status ? { status } : {}),
    ...(network ? { network } : {}),
    ...(from ? { created_from: from } : {}),
    ...(to ? { created_to: to } : {}),
    ...(page ? { page } : {}),
  };
}
