/**
 * The dashboard's figures per period, as the gateway last answered them: switching back to a period
 * shows its figures at once while they are read again.
 */
import { create } from 'zustand';
import type { DashboardPeriod } from '../../../contract/constants.js';
import { ApiError } from '../api/transport.js';
import { useSession } from '../session-store.js';
import { translate } from '../ui/i18n.js';
import { dashboardClient, type Dashboard } from './dashboard-client.js';

interface DashboardState {
  figures: Partial<Record<DashboardPeriod, Dashboard>>;
  loading: DashboardPeriod | null;
  error: string | null;
  load(period: DashboardPeriod): Promise<void>;
}

let latest = 0;

function problemOf(problem: unknown): string {
  if (problem instanceof ApiError && problem.kind === 'network') return translate('dashboard.noAnswer');
  return problem instanceof Error ? problem.message : translate('dashboard.loadFailed');
}

export const useDashboard = create<DashboardState>((set) => ({
  figures: {},
  loading: null,
  error: null,
  async load(period) {
    latest += 1;
    const call = latest;
    set({ loading: period, error: null });
    try {
      const figures = await dashboardClient.dashboard(period);
      if (call !== latest) return;
      set((state) => ({ figures: { ...state.figures, [period]: figures }, loading: null }));
    } catch (problem) {
      if (call !== latest) return;
      set({ loading: null, error: problemOf(problem) });
      // The session ended on the gateway (idle, expired, revoked): back to the login screen.
      if (problem instanceof ApiError && problem.kind === 'api' && problem.status === 401) useSession.getState().ended();
    }
  },
}));
