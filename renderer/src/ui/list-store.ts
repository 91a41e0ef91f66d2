/**
 * The data of the back office's list and detail screens, read from the gateway: a list page for the
 * filters in the URL (a newer filter's answer wins over an older one still on its way), and one
 * object by id. A change is made by the gateway and read back, never patched here.
 */
import { create } from 'zustand';
import { ApiError } from '../api/client.js';
import { problemText, sessionEnded } from '../api/problems.js';

export interface ListState<S, L> {
  /** The filters of the page on screen (its URL's search, as JSON). */
  key: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  list: L | null;
  error: string | null;
  load: (search: S) => Promise<void>;
}

/** A list store reading pages with `read`; `what` names the list in a problem ("The checkouts"). */
export function createListStore<S, L>(read: (search: S) => Promise<L>, what: string) {
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
        if (get().key === key) set({ status: 'failed', error: problemText(error, `${what} could not be loaded`) });
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
 * when the gateway does not know it (404, or an id it cannot take, 400).
 */
export function createDetailStore<D>(read: (id: string) => Promise<D>, missing: string, what: string) {
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
        set({ status: 'failed', error: unknown ? missing : problemText(error, `${what} could not be loaded`) });
      }
    },
    show: (id, detail) => set({ id, status: 'ready', detail, error: null }),
  }));
}
