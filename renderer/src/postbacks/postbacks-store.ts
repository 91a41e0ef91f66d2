/** The Postbacks area's data: a page of the log, one postback, a page of the test outbox. */
import { POSTBACKS_MAX_PER_PAGE } from '../../../contract/constants.js';
import { dayEndIso, dayStartIso } from '../ui/list-search.js';
import { translate } from '../ui/i18n.js';
import { createDetailStore, createListStore } from '../ui/list-store.js';
import type { OutboxSearch, PostbackListSearch } from './postback-search.js';
import { postbacksClient } from './postbacks-client.js';

/** Rows a page shows. */
export const POSTBACKS_PER_PAGE = 50;
const per = String(Math.min(POSTBACKS_PER_PAGE, POSTBACKS_MAX_PER_PAGE));

export const usePostbackList = createListStore(
  (search: PostbackListSearch) =>
    postbacksClient.list({
      ...(search.q ? { search: search.q } : {}),
      ...(search.status ? { status: search.status } : {}),
      ...(search.kind ? { kind: search.kind } : {}),
      ...(search.created_from ? { 'created_at[min]': dayStartIso(search.created_from) } : {}),
      ...(search.created_to ? { 'created_at[max]': dayEndIso(search.created_to) } : {}),
      page: String(search.page ?? 1),
      per,
    }),
  () => translate('postbacks.list.loadFailed'),
);

export const usePostbackDetail = createDetailStore(
  (id: string) => postbacksClient.detail(id),
  () => translate('postbacks.detail.missing'),
  () => translate('postbacks.detail.loadFailed'),
);

export const useOutboxList = createListStore(
  (search: Omit<OutboxSearch, 'item'>) =>
    postbacksClient.outbox({ ...(search.kind ? { kind: search.kind } : {}), page: String(search.page ?? 1), per }),
  () => translate('postbacks.outbox.loadFailed'),
);

export const useOutboxItem = createDetailStore(
  (id: string) => postbacksClient.outboxItem(id),
  () => translate('postbacks.outbox.itemMissing'),
  () => translate('postbacks.outbox.itemLoadFailed'),
);
