/**
 * The dashboard's one call (main/http/routes/dashboard/routes.ts): GET /ui/dashboard?period=…, typed by
 * the contract (contract/api/dashboard.ts). Same transports and error shape as the other clients (api/call.ts, api/transport.ts).
 */
import type { Dashboard } from '../../../contract/api/dashboard.js';
import type { DashboardPeriod } from '../../../contract/constants.js';
import { caller } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type { Dashboard };

export interface DashboardClient {
  dashboard(period: DashboardPeriod): Promise<Dashboard>;
  /** A stored sale declined when its till forwarded it was followed up: off "Needs attention". */
  declineHandled(transactionId: string): Promise<void>;
}

export function createDashboardClient(transport: Transport = defaultTransport()): DashboardClient {
  const call = caller(transport);
  return {
    dashboard: (period) => call('dashboard.get', { query: { period } }),
    async declineHandled(transactionId) {
      await call('centre.handleForwardedDecline', { params: { transaction_id: transactionId } });
    },
  };
}

export const dashboardClient: DashboardClient = createDashboardClient();
