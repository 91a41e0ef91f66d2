/**
 * Every route of the gateway's API and back office, by feature (routes/<feature>/), in the scopes
 * that authenticate them: the REST API (merchant credentials), the merchant-management paths (D15:
 * the catalog for any API credentials, the rest for partners only), and the routes that check a
 * staff session, a pairing or nothing themselves. Registration order is each operation's place in
 * the OpenAPI document (docs.ts). The Test environment's hook and route (test-environment.ts) only
 * when the gateway runs it.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Gateway } from '../core/gateway.js';
import { protect } from './api-context.js';
import { API_VERSION } from './docs.js';
import { centrePairingRoutes, centreRoutes, setupRoutes, tillLinkRoutes } from './routes/centre/routes.js';
import { checkoutBackOfficeRoutes } from './routes/checkouts/back-office.js';
import { checkoutRoutes } from './routes/checkouts/routes.js';
import { dashboardRoutes } from './routes/dashboard/routes.js';
import { invoiceBackOfficeRoutes } from './routes/invoices/back-office.js';
import { invoiceEmailRoutes } from './routes/invoices/emails.js';
import { invoiceRoutes } from './routes/invoices/routes.js';
import { mandateRoutes } from './routes/mandates/routes.js';
import { networkTokenBackOfficeRoutes } from './routes/network-tokens/back-office.js';
import { networkTokenRoutes } from './routes/network-tokens/routes.js';
import { merchantManagementRoutes, paymentMethodCatalogRoutes } from './routes/payment-methods/routes.js';
import { shopRoutes } from './routes/payment-methods/shops.js';
import { paymentRoutes } from './routes/payments/routes.js';
import { postbackBackOfficeRoutes } from './routes/postbacks/back-office.js';
import { postbackRoutes } from './routes/postbacks/routes.js';
import { receiptRoutes } from './routes/receipts/routes.js';
import { reportRoutes, shopDayRoutes } from './routes/reports/routes.js';
import { settingsBackOfficeRoutes } from './routes/settings/back-office.js';
import { staffRoutes } from './routes/staff/routes.js';
import { tillAttemptRoutes } from './routes/till-attempts/routes.js';
import { shopTillRoutes } from './routes/tills/routes.js';
import { tillTerminalRoutes, type TillSettings } from './routes/tills/terminal.js';
import { transactionDetailRoutes } from './routes/transactions/detail.js';
import { transactionRoutes } from './routes/transactions/routes.js';
import { lostAnswerPlugin, runsTestEnvironment, testClockPlugin } from './test-environment.js';

export interface RoutesOptions {
  gateway: Gateway;
  /** The till's settings (GET /ui/terminal). */
  till: TillSettings | undefined;
}

export const routesPlugin: FastifyPluginAsyncTypebox<RoutesOptions> = async (app, { gateway, till }) => {
  const testEnvironment = runsTestEnvironment(gateway);

  // The REST API: every route in this scope is authenticated and scoped to one merchant.
  await app.register(async (api) => {
    protect(api, gateway, 'merchant');
    if (testEnvironment) await api.register(lostAnswerPlugin, { gateway });
    await api.register(transactionRoutes(gateway));
    await api.register(paymentRoutes(gateway));
    await api.register(mandateRoutes(gateway));
    await api.register(postbackRoutes(gateway));
    await api.register(checkoutRoutes(gateway));
    await api.register(networkTokenRoutes(gateway));
    await api.register(invoiceRoutes(gateway));
    await api.register(invoiceEmailRoutes(gateway));
    await api.register(centreRoutes(gateway));
  });
  await app.register(centrePairingRoutes(gateway));

  // Merchant management (D15): the catalog for any API credentials, the rest for partners only.
  await app.register(async (catalog) => {
    protect(catalog, gateway, ['merchant', 'partner']);
    await catalog.register(paymentMethodCatalogRoutes(gateway));
  });
  await app.register(async (partner) => {
    protect(partner, gateway, 'partner');
    await partner.register(merchantManagementRoutes(gateway));
  });

  await app.register(staffRoutes(gateway));
  await app.register(tillTerminalRoutes(gateway, till));
  await app.register(tillAttemptRoutes(gateway));
  await app.register(shopRoutes(gateway));
  await app.register(shopTillRoutes(gateway));
  await app.register(shopDayRoutes(gateway));
  await app.register(tillLinkRoutes(gateway));
  await app.register(setupRoutes(gateway));
  if (testEnvironment) await app.register(testClockPlugin, { gateway });
  await app.register(receiptRoutes(gateway));
  await app.register(reportRoutes(gateway));
  await app.register(transactionDetailRoutes(gateway));
  await app.register(dashboardRoutes(gateway));
  await app.register(invoiceBackOfficeRoutes(gateway));
  await app.register(networkTokenBackOfficeRoutes(gateway));
  await app.register(checkoutBackOfficeRoutes(gateway));
  await app.register(postbackBackOfficeRoutes(gateway));
  await app.register(settingsBackOfficeRoutes(gateway));

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok', version: API_VERSION }));
};
