/**
 * The data of the back office's list and detail screens, read from the gateway: a list page for the
 * filters in the URL (a newer filter's answer wins over an older one still on its way), and one
 * object by id. A change is made by the gateway and read back, never patched here.
 */
import { create } from 'zustand';
import { ApiError } from '../api/transport.js';
import { problemText, sessionEnded } from '../api/problems.js';

/**
 * What a store says when its read fails, in the screens' language at that moment: a function giving
 * the whole sentence (`() => translate('postbacks.list.loadFailed')`: "The postbacks could not be
 * loaded"). A plain string is the older English form, the list's name ("The checkouts"), to which
 * " could not be loaded" is added; screens not yet translated still pass it.
 */
export type LoadFailed = string | (() => string);

const loadFailed = (what: LoadFailed) => (typeof what === 'function' ? what() : `${what} could not be loaded`);

export interface ListState<S, L> {
  /** The filters of the page on screen (its URL's search, as JSON). */
  key: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  list: L | null;
  error: string | null;
  load: (search: S) => Promise<void>;
}

/** A list store reading pages with `read`; `what` says that the list could not be loaded (LoadFailed). */
export function createListStore<S, L>(read: (search: S) => Promise<L>, what: LoadFailed) {
  return create<ListState<S, L>>()((set, get) => ({
    key: null,
    status: 'idle',
    list: null,
    error: null,
    load: async (search) => {
      const key = JSON.stringify(search);
      set({ key, status: 'loading', error: null });
      try {
        const list = await read(search);
        if (get().key === key) set({ status: 'ready', list });
      } catch (error) {
        if (sessionEnded(error)) return;
        if (get().key === key) set({ status: 'failed', error: problemText(error, loadFailed(what)) });
      }
    },
  }));
}

export interface DetailState<D> {
  id: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  detail: D | null;
  error: string | null;
  /** Reads the object; `quiet` keeps the screen while it reads again. */
  load: (id: string, quiet?: boolean) => Promise<void>;
  /** After a change: the object as the gateway answered it. */
  show: (id: string, detail: D) => void;
}

/**
 * The data of a detail screen: one object read from the gateway by id. `missing` is what to say
 * when the gateway does not know it (404, or an id it cannot take, 400): a function giving it in the
 * screens' language, or (older screens) English text; `what` as for a list (LoadFailed).
 */
export function createDetailStore<D>(read: (id: string) => Promise<D>, missing: string | (() => string), what: LoadFailed) {
  return create<DetailState<D>>()((set, get) => ({
    id: null,
    status: 'idle',
    detail: null,
    error: null,
    load: async (id, quiet = false) => {
      if (!quiet || get().id !== id) set({ id, status: 'loading', detail: null, error: null });
      try {
        const detail = await read(id);
        if (get().id === id) set({ status: 'ready', detail, error: null });
      } catch (error) {
        if (sessionEnded(error) || get().id !== id) return;
        const unknown = error instanceof ApiError && error.kind === 'api' && (error.status === 404 || error.status === 400);
        set({
          status: 'failed',
          error: unknown ? (typeof missing === 'function' ? missing() : missing) : problemText(error, loadFailed(what)),
        });
      }
    },
    show: (id, detail) => set({ id, status: 'ready', detail, error: null }),
  }));
}
