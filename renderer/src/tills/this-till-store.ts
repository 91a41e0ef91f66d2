/**
 * Which till this screen is (issue 26, part 0). A screen is a browser tab or the desktop window, by
 * the claim the gateway gave it when it took its till, kept for as long as it is open
 * (sessionStorage: a reload is the same screen, another tab another one; docs/decisions.md
 * "Several tills"). The browser remembers the till it last was (localStorage), so a reload or the
 * next cashier's login sells on it again without asking. Where the shop has one till, nothing is
 * asked. A till another screen has open is not taken silently: the cashier is told who has it and
 * may use it here anyway; the screen it is taken from learns so at its next beat.
 */
import { create } from 'zustand';
import { TILL_HEARTBEAT_SECONDS } from '../../../contract/constants.js';
import { ErrorCode } from '../../../contract/codes.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { MessageValues } from '../../../contract/i18n/format.js';
import { ApiError } from '../api/transport.js';
import { tillClient } from '../till-screen/till-client.js';
import { useSession, whenSessionEnds } from '../session-store.js';
import { translate } from '../ui/i18n.js';
import { tillsClient, type Till } from './tills-client.js';

const CLAIM_KEY = 'tillgate.claim';
const TILL_KEY = 'tillgate.till';

export type ThisTill =
  | { name: 'idle' }
  | { name: 'loading' }
  /** "Which till is this?" */
  | { name: 'choosing'; tills: Till[]; problem: string | null }
  /** The till asked for is open on another screen: use it here anyway, or choose another. */
  | { name: 'in_use'; till: Till; tills: Till[]; message: string }
  | { name: 'held'; till: Till }
  /** Another screen took this screen's till over: what it said, put into words when shown. */
  | { name: 'lost'; till: Till; message: { id: MessageId; values: MessageValues } }
  | { name: 'failed'; message: string };

interface ThisTillState {
  state: ThisTill;
  /** How many active tills the shop had when last asked: "Change till" only where there is a choice. */
  choices: number;
  /** Takes this screen's till: the remembered one, or the only one, else asks. */
  open: () => Promise<void>;
  choose: (tillId: string, takeOver?: boolean) => Promise<void>;
  /** Lets go of the till and asks again. */
  change: () => Promise<void>;
  /** Logged out: the gateway let go of the till; the screen forgets nothing it remembers. */
  reset: () => void;
}

function storage(kind: 'session' | 'local'): Storage | undefined {
  try {
    return kind === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The claim the gateway gave this screen for its till (kept across reloads of the tab or window), if any. */
export function tillClaim(): string | undefined {
  const known = storage('session')?.getItem(CLAIM_KEY);
  return known && /^[A-Za-z0-9_-]{16,128}$/.test(known) ? known : undefined;
}

/** Takes the till (or says this screen still has it) with this screen's claim, and keeps the new claim the gateway gives. */
async function take(tillId: string, takeOver = false): Promise<Till> {
  const { claim, ...till } = await tillsClient.take(tillId, tillClaim(), takeOver);
  if (claim !== null) storage('session')?.setItem(CLAIM_KEY, claim);
  return till;
}

function problemOf(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

function isInUse(error: unknown): error is ApiError {
  return error instanceof ApiError && error.kind === 'api' && error.errorCode === ErrorCode.tillInUse;
}

export const useThisTill = create<ThisTillState>()((set, get) => {
  let beat: number | undefined;

  const stopBeat = () => {
    if (beat !== undefined) window.clearInterval(beat);
    beat = undefined;
  };

  /** Says every TILL_HEARTBEAT_SECONDS that this screen still has its till; learns when it was taken over. */
  const startBeat = (till: Till) => {
    stopBeat();
    beat = window.setInterval(() => {
      void take(till.till_id).then(
        (fresh) => {
          const now = get().state;
          if (now.name === 'held' && now.till.till_id === fresh.till_id) set({ state: { name: 'held', till: fresh } });
        },
        (error: unknown) => {
          if (isInUse(error)) {
            stopBeat();
            useSession.setState({ terminal: null });
            set({
              state: { name: 'lost', till, message: { id: 'tills.lost.message', values: { reason: error.message, till: till.name } } },
            });
          } else if (error instanceof ApiError && error.kind === 'api' && error.status === 401) {
            stopBeat();
          }
          // Not reachable: the till keeps its hold on the gateway for a minute; the next beat tries again.
        },
      );
    }, TILL_HEARTBEAT_SECONDS * 1000);
  };

  /** The tills this screen may sell as: not one joined from another computer (it sells there, D19). */
  const sellable = (tills: readonly Till[]) => tills.filter((t) => t.remote === null);

  const held = async (till: Till) => {
    storage('local')?.setItem(TILL_KEY, till.till_id);
    // The terminal of this till: its id goes on every payment and receipt.
    const terminal = await tillClient.terminal();
    useSession.setState({ terminal });
    set({ state: { name: 'held', till } });
    startBeat(till);
  };

  const choose = async (tillId: string, takeOver = false) => {
    set({ state: { name: 'loading' } });
    try {
      await held(await take(tillId, takeOver));
    } catch (error) {
      const tills = sellable((await tillsClient.list().catch(() => ({ tills: [] as Till[] }))).tills);
      const till = tills.find((t) => t.till_id === tillId);
      if (isInUse(error) && till) {
        set({ state: { name: 'in_use', till, tills, message: error.message } });
        return;
      }
      set({ state: { name: 'choosing', tills, problem: problemOf(error, translate('tills.openFailed')) } });
    }
  };

  return {
    state: { name: 'idle' },
    choices: 0,
    open: async () => {
      const now = get().state;
      if (now.name === 'held' || now.name === 'loading') return;
      set({ state: { name: 'loading' } });
      let tills: Till[];
      try {
        const list = await tillsClient.list();
        tills = sellable(list.tills);
        set({ choices: tills.length });
        const mine = tills.find((t) => t.till_id === list.this_screen);
        // This screen has its till already (a reload): keep it.
        if (mine?.holder?.this_screen) return await choose(mine.till_id);
      } catch (error) {
        set({ state: { name: 'failed', message: problemOf(error, translate('tills.listFailed')) } });
        return;
      }
      const remembered = storage('local')?.getItem(TILL_KEY);
      const [only] = tills;
      if (tills.length === 1 && only) return choose(only.till_id);
      if (remembered && tills.some((t) => t.till_id === remembered)) return choose(remembered);
      set({ state: { name: 'choosing', tills, problem: null } });
    },
    choose,
    change: async () => {
      stopBeat();
      useSession.setState({ terminal: null });
      await tillsClient.release().catch(() => undefined);
      storage('local')?.removeItem(TILL_KEY);
      storage('session')?.removeItem(CLAIM_KEY);
      set({ state: { name: 'loading' } });
      const tills = sellable((await tillsClient.list().catch(() => ({ tills: [] as Till[] }))).tills);
      set({ state: { name: 'choosing', tills, problem: null } });
    },
    reset: () => {
      stopBeat();
      set({ state: { name: 'idle' } });
    },
  };
});

whenSessionEnds(() => useThisTill.getState().reset());
