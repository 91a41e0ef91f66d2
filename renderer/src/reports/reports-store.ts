/**
 * The Close-the-day screen's data: the open day's X report, the till's past Z reports, and the Z
 * report being read. A Z report is shown from the gateway's stored figures, never recomputed here.
 */
import { create } from 'zustand';
import type { DayReport, ZReportSummary } from '../../../contract/api/reports.js';
import { ApiError } from '../api/transport.js';
import { useSession } from '../session-store.js';
import { reportsClient } from './reports-client.js';
import { translate } from '../ui/i18n.js';

interface ReportsState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  x: DayReport | null;
  days: ZReportSummary[];
  error: string | null;
  /** The Z report on screen, or null for the open day. */
  reading: DayReport | null;
  load: () => Promise<void>;
  read: (sequence: number) => Promise<void>;
  show: (report: DayReport | null) => void;
}

/** Why a report did not load: the open day's (`day`) or Z report `sequence`. */
function problemOf(error: unknown, what: { what: 'day' } | { what: 'z'; sequence: number }): string {
  if (error instanceof ApiError && error.kind === 'network') return translate('reports.load.noAnswer', what);
  return error instanceof Error ? error.message : translate('reports.load.failed', what);
}

/** A 401 means the session ended: back to the login screen. */
function sessionEnded(error: unknown): boolean {
  if (error instanceof ApiError && error.kind === 'api' && error.status === 401) {
    useSession.getState().ended();
    return true;
  }
  return false;
}

export const useReports = create<ReportsState>()((set) => ({
  status: 'idle',
  x: null,
  days: [],
  error: null,
  reading: null,
  load: async () => {
    set({ status: 'loading', error: null });
    try {
      const [x, list] = await Promise.all([reportsClient.xReport(), reportsClient.zReports()]);
      set({ status: 'ready', x, days: list.items });
    } catch (error) {
      if (sessionEnded(error)) return;
      set({ status: 'failed', error: problemOf(error, { what: 'day' }) });
    }
  },
  read: async (sequence) => {
    try {
      set({ reading: await reportsClient.zReport(sequence), error: null });
    } catch (error) {
      if (sessionEnded(error)) return;
      set({ error: problemOf(error, { what: 'z', sequence }) });
    }
  },
  show: (report) => set({ reading: report }),
}));
