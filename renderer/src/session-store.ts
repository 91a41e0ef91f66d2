/**
 * Who works at this till: the staff session (cookie in a browser) and the terminal of the till this
 * screen holds (set by tills/this-till-store.ts once it has its till). Checked when a staff screen
 * opens, not on the public home page.
 */
import { create } from 'zustand';
import { ApiError } from './api/transport.js';
import { staffClient, type Credentials, type Session } from './staff/staff-client.js';
import type { TerminalConfig } from './till-screen/till-client.js';
import type { StaffLanguage } from '../../contract/i18n/languages.js';
import { translate } from './ui/language.js';

export type SessionPhase = 'unknown' | 'checking' | 'logged_out' | 'logged_in';

export type LoginResult = { ok: true } | { ok: false; message: string };

interface SessionState {
  phase: SessionPhase;
  session: Session | null;
  terminal: TerminalConfig | null;
  /** Why the last check failed, or why the session ended (shown on the login screen). */
  notice: string | null;
  check: () => Promise<void>;
  login: (credentials: Credentials) => Promise<LoginResult>;
  logout: (notice?: string) => Promise<void>;
  /** The staff member's own language for their screens (null: the shop's), kept on the gateway. */
  chooseLanguage: (language: StaffLanguage | null) => Promise<void>;
  /** A call answered 401: the session ended on the gateway (idle, expired or revoked). */
  ended: (notice?: string) => void;
}

let checking: Promise<void> | undefined;
let onSessionEnd: (() => void) | undefined;

/** What else ends with the session (the till screen's hold); set once by the till's store. */
export function whenSessionEnds(action: () => void): void {
  onSessionEnd = action;
}

function loginProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'api' && error.status === 401) return translate('shell.session.wrong');
    if (error.kind === 'api' && error.status === 429) {
      return translate('shell.session.tooMany', { seconds: error.retryAfterSeconds ?? 60 });
    }
    if (error.kind === 'api' && error.status === 400) return translate('shell.session.badInput');
    return error.message;
  }
  return translate('shell.session.failed');
}

export const useSession = create<SessionState>()((set, get) => ({
  phase: 'unknown',
  session: null,
  terminal: null,
  notice: null,
  check: () => {
    checking ??= (async () => {
      set({ phase: 'checking' });
      try {
        const session = await staffClient.session();
        if (!session) {
          set({ phase: 'logged_out', session: null, terminal: null });
          return;
        }
        set({ phase: 'logged_in', session, notice: null });
      } catch (error) {
        set({
          phase: 'logged_out',
          notice: error instanceof Error ? translate('shell.session.checkFailed', { reason: error.message }) : null,
        });
      }
    })().finally(() => {
      checking = undefined;
    });
    return checking;
  },
  login: async (credentials) => {
    try {
      const session = await staffClient.login(credentials);
      set({ phase: 'logged_in', session, terminal: null, notice: null });
      return { ok: true };
    } catch (error) {
      return { ok: false, message: loginProblem(error) };
    }
  },
  logout: async (notice) => {
    try {
      await staffClient.logout();
    } catch {
      // The cookie is dropped by the gateway; locally the session ends either way.
    }
    get().ended(notice);
  },
  chooseLanguage: async (language) => {
    const chosen = await staffClient.setOwnLanguage(language);
    const session = get().session;
    if (session) set({ session: { ...session, staff: { ...session.staff, language: chosen } } });
  },
  ended: (notice) => {
    // The gateway let go of this screen's till with the session; the next login takes it again.
    onSessionEnd?.();
    set({ phase: 'logged_out', session: null, terminal: null, notice: notice ?? translate('shell.session.ended') });
  },
}));
