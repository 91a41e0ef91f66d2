/**
 * The dashboard's one call (main/http/routes/dashboard.ts): GET /ui/dashboard?period=…, typed by
 * the contract (contract/api/dashboard.ts). Same transports and error shape as api/client.ts.
 */
import type { Dashboard } from '../../../contract/api/dashboard.js';
import type { DashboardPeriod } from '../../../contract/constants.js';
import { defaultTransport, expectObject, type Transport } from '../api/client.js';

export type { Dashboard };

export interface DashboardClient {
  dashboard(period: DashboardPeriod): Promise<Dashboard>;
  /** A stored sale declined when its till forwarded it was followed up: off "Needs attention". */
  declineHandled(transactionId: string): Promise<void>;
}

export function createDashboardClient(transport: Transport = defaultTransport()): DashboardClient {
  return {
    async dashboard(period) {
      const response = await transport.send({ method: 'GET', path: `/ui/dashboard?period=${encodeURIComponent(period)}` });
      return expectObject<Dashboard>(response, ['period', 'totals', 'series', 'attention']);
    },
    async declineHandled(transactionId) {
      await transport.send({ method: 'POST', path: `/ui/forwarded-declines/${encodeURIComponent(transactionId)}/handled` });
    },
  };
}

export const dashboardClient: DashboardClient = createDashboardClient();
