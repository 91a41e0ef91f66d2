/**
 * The Postbacks area's places in their URLs: the log (`#/postbacks?q=order-1001&status=failed&kind=token&created_from=2026-03-01&page=2`)
 * and the Test environment's outbox (`#/postbacks/outbox?kind=email&item=e.<id>`, the item being
 * previewed), so a reload, a bookmark or back/forward keep the filters, the page and the preview.
 */
import {
  POSTBACK_LOG_STATUSES,
  POSTBACK_SUBJECT_TYPES,
  TEST_OUTBOX_KINDS,
  type PostbackLogStatus,
  type PostbackSubjectType,
  type TestOutboxKind,
} from '../../../contract/constants.js';
import { SEARCH_MAX_LENGTH } from '../../../contract/transaction-list.js';
import { searchDay, searchOneOf, searchPage, searchText } from '../ui/list-search.js';

export interface PostbackListSearch {
  /** The search box: an order id, or a whole transaction, token, checkout or event id. */
  q?: string;
  status?: PostbackLogStatus;
  kind?: PostbackSubjectType;
  created_from?: string;
  created_to?: string;
  page?: number;
}

export function postbackListSearch(search: Record<string, unknown>): PostbackListSearch {
  const q = searchText(search.q);
  const status = searchOneOf(search.status, POSTBACK_LOG_STATUSES);
  const kind = searchOneOf(search.kind, POSTBACK_SUBJECT_TYPES);
  const from = searchDay(search.created_from);
  const to = searchDay(search.created_to);
  const page = searchPage(search.page);
  return {
    ...(q && q.length <= SEARCH_MAX_LENGTH ? { q } : {}),
    ...(status ? { status } : {}),
    ...(kind ? { kind } : {}),
    ...(from ? { created_from: from } : {}),
    ...(to ? { created_to: to } : {}),
    ...(page ? { page } : {}),
  };
}

export interface OutboxSearch {
  kind?: TestOutboxKind;
  page?: number;
  /** The item previewed. */
  item?: string;
}

export function outboxSearch(search: Record<string, unknown>): OutboxSearch {
  const kind = searchOneOf(search.kind, TEST_OUTBOX_KINDS);
  const page = searchPage(search.page);
  const item = searchText(search.item);
  return { ...(kind ? { kind } : {}), ...(page ? { page } : {}), ...(item && /^[erp]\.[A-Za-z0-9-]+$/.test(item) ? { item } : {}) };
}
