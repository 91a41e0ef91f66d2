/**
 * The token screens' data: the list page for the filters in the URL and the token being looked at
 * with its history. Revealed token data is never kept here: only the detail screen holds it, for
 * 30 seconds.
 */
import { NETWORK_TOKENS_MAX_PER_PAGE } from '../../../contract/constants.js';
import { dayEndIso, dayStartIso } from '../ui/list-search.js';
import { translate } from '../ui/i18n.js';
import { createDetailStore, createListStore } from '../ui/list-store.js';
import type { TokenListSearch } from './token-search.js';
import { networkTokensClient } from './network-tokens-client.js';

/** Rows a page of the list shows. */
export const TOKENS_PER_PAGE = 50;
const per = String(Math.min(TOKENS_PER_PAGE, NETWORK_TOKENS_MAX_PER_PAGE));

export const useTokenList = createListStore(
  (search: TokenListSearch) =>
    networkTokensClient.list({
      ...(search.status ? { status: search.status } : {}),
      ...(search.network ? { network: search.network } : {}),
      ...(search.created_from ? { 'created_at[min]': dayStartIso(search.created_from) } : {}),
      ...(search.created_to ? { 'created_at[max]': dayEndIso(search.created_to) } : {}),
      page: String(search.page ?? 1),
      per,
    }),
  () => translate('tokens.list.loadFailed'),
);

export const useTokenDetail = createDetailStore(
  (id: string) => networkTokensClient.detail(id),
  () => translate('tokens.detail.missing'),
  () => translate('tokens.detail.loadFailed'),
);
