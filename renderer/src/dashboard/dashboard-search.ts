/**
 * The dashboard's place in its URL (`#/dashboard?period=7d&currency=USD`): the period and the
 * currency of the volume chart, so a reload, a bookmark or back/forward keep them.
 */
import { DASHBOARD_PERIODS, type DashboardPeriod } from '../../../contract/constants.js';

export interface DashboardSearch {
  /** Absent: today. */
  period?: DashboardPeriod;
  /** The volume chart's currency; absent: the one with most payments. */
  currency?: string;
}

export function dashboardSearch(search: Record<string, unknown>): DashboardSearch {
  const period = DASHBOARD_PERIODS.find((p) => p === search.period);
  const currency = typeof search.currency === 'string' && /^[A-Z]{3}$/.test(search.currency) ? search.currency : undefined;
  return { ...(period ? { period } : {}), ...(currency ? { currency } : {}) };
}
