/**
 * The transaction screens' data: the list for the filters in the URL, loaded a page at a time from
 * the gateway as the user scrolls (keyset paging: each page starts after the last row of the one
 * before, so page 500 costs what page 1 costs), and the transaction being looked at. Kept while the
 * user opens a transaction and comes back, so the list is where it was. A change (capture, release,
 * refund) is made by the gateway and read back, never patched here.
 */
import { create } from 'zustand';
import { ErrorCode } from '../../../contract/codes.js';
import { ApiError } from '../api/transport.js';
import { useSession } from '../session-store.js';
import { translate } from '../ui/i18n.js';
import { apiQuery, type TransactionListSearch } from './transaction-search.js';
import { PAGE_SIZE, transactionsClient, type Transaction, type TransactionDetail } from './transactions-client.js';

/** A 401 means the session ended: back to the login screen. */
function sessionEnded(error: unknown): boolean {
  if (error instanceof ApiError && error.kind === 'api' && error.status === 401) {
    useSession.getState().ended();
    return true;
  }
  return false;
}

/** What went wrong, in words for the screen: the gateway's own message where it gave one. */
export function problemText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.kind === 'network') return error.message;
    if (error.kind === 'api') {
      const fields = error.errors.map((e) => `${e.field} ${e.message}`).join('; ');
      return fields && error.errorCode === ErrorCode.validation ? `${error.message} (${fields})` : error.message;
    }
  }
  return fallback;
}

interface ListState {
  /** The filters of the rows held (their API query, as text), and the merchant they belong to. */
  key: string | null;
  /** The filters of the list last shown (for the detail's way back). */
  search: TransactionListSearch;
  rows: Transaction[];
  loading: boolean;
  hasMore: boolean;
  error: string | null;
  /** The list of these filters: kept if it is the one held, else loaded from its first page. */
  show: (search: TransactionListSearch) => void;
  loadMore: () => Promise<void>;
  /** Forgets the rows (after a change), so the next show loads afresh. */
  invalidate: () => void;
}

let generation = 0;

export const useTransactionList = create<ListState>()((set, get) => ({
  key: null,
  search: {},
  rows: [],
  loading: false,
  hasMore: false,
  error: null,
  show: (search) => {
    const merchant = useSession.getState().session?.merchant.merchant_id ?? '';
    const key = `${merchant}?${apiQuery(search).toString()}`;
    if (get().key === key && !get().error) {
      set({ search });
      return;
    }
    generation += 1;
    set({ key, search, rows: [], loading: false, hasMore: true, error: null });
    void get().loadMore();
  },
  loadMore: async () => {
    const { key, rows, loading, hasMore } = get();
    if (key === null || loading || !hasMore) return;
    const mine = generation;
    set({ loading: true, error: null });
    try {
      const query = new URLSearchParams(key.slice(key.indexOf('?') + 1));
      const page = await transactionsClient.list(query, rows.at(-1)?.transaction_id);
      if (mine !== generation) return;
      set({ rows: [...rows, ...page], hasMore: page.length === PAGE_SIZE, loading: false });
    } catch (error) {
      if (mine !== generation) return;
      if (sessionEnded(error)) return;
      set({ loading: false, hasMore: false, error: problemText(error, translate('transactions.list.loadFailed')) });
    }
  },
  invalidate: () => {
    generation += 1;
    set({ key: null, rows: [], loading: false, hasMore: false, error: null });
  },
}));

interface DetailState {
  id: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  detail: TransactionDetail | null;
  error: string | null;
  load: (id: string) => Promise<void>;
}

export const useTransactionDetail = create<DetailState>()((set, get) => ({
  id: null,
  status: 'idle',
  detail: null,
  error: null,
  load: async (id) => {
    // A reload of the same transaction keeps what is on screen until the fresh answer arrives.
    set(get().id === id ? { status: 'loading', error: null } : { id, status: 'loading', detail: null, error: null });
    try {
      const detail = await transactionsClient.detail(id);
      if (get().id === id) set({ status: 'ready', detail });
    } catch (error) {
      if (sessionEnded(error)) return;
      if (get().id === id) set({ status: 'failed', error: problemText(error, translate('transactions.detail.loadFailed')) });
    }
  },
}));
