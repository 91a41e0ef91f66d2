/**
 * The checkout screens' data: the list page for the filters in the URL and the session being looked
 * at with its transaction. All of it is read from the gateway; a change is made by the gateway and
 * read back.
 */
import { translate } from '../ui/i18n.js';
import { dayEndIso, dayStartIso } from '../ui/list-search.js';
import { createDetailStore, createListStore } from '../ui/list-store.js';
import type { CheckoutListSearch } from './checkout-search.js';
import { checkoutsClient } from './checkouts-client.js';

export const useCheckoutList = createListStore(
  (search: CheckoutListSearch) =>
    checkoutsClient.list({
      ...(search.status ? { status: search.status } : {}),
      ...(search.created_from ? { 'created_at[min]': dayStartIso(search.created_from) } : {}),
      ...(search.created_to ? { 'created_at[max]': dayEndIso(search.created_to) } : {}),
      page: String(search.page ?? 1),
    }),
  () => translate('checkouts.list.loadFailed'),
);

export const useCheckoutDetail = createDetailStore(
  (id: string) => checkoutsClient.detail(id),
  () => translate('checkouts.detail.missing'),
  () => translate('checkouts.detail.loadFailed'),
);
