/**
 * The app's routes (TanStack Router). Hash history: the gateway serves the app as static files at
 * /app/ and the desktop window loads it from app://, so deeper paths live after the `#` and every
 * screen and opened object has a URL that survives a reload, a deep link and back/forward.
 */
import { createHashHistory, createRootRoute, createRoute, createRouter, lazyRouteComponent, Navigate } from '@tanstack/react-router';
import { CashierWorkspace } from '../cashier/cashier.js';
import { dashboardSearch } from '../dashboard/dashboard-search.js';
import { invoiceListSearch } from '../invoices/invoice-search.js';
import { tokenListSearch } from '../network-tokens/token-search.js';
import { checkoutListSearch } from '../checkouts/checkout-search.js';
import { outboxSearch, postbackListSearch } from '../postbacks/postback-search.js';
import { auditSearch } from '../settings/audit-search.js';
import { useSession } from '../session-store.js';
import { Till } from '../till-screen/till.js';
import { TillGate } from '../tills/till-gate.js';
import { transactionListSearch } from '../transactions/transaction-search.js';
import { startPath } from './areas.js';
import { AppFrame } from './frame.js';
import { GatewayPage } from './gateway-page.js';
import { useT } from '../ui/i18n.js';

// Each screen but the till is a chunk of its own, fetched when its route is first opened (or a link
// to it hovered): the till, where a cashier starts, loads without the back office's tables, forms
// and charts.
const DashboardScreen = lazyRouteComponent(() => import('../dashboard/dashboard.js'), 'DashboardScreen');
const SettingsLayout = lazyRouteComponent(() => import('../settings/settings-parts.js'), 'SettingsLayout');
const ShopsSettings = lazyRouteComponent(() => import('../settings/shops.js'), 'ShopsSettings');
const ProfileSettings = lazyRouteComponent(() => import('../settings/profile.js'), 'ProfileSettings');
const ChannelSettings = lazyRouteComponent(() => import('../settings/channels.js'), 'ChannelSettings');
const CredentialSettings = lazyRouteComponent(() => import('../settings/credentials.js'), 'CredentialSettings');
const StaffSettings = lazyRouteComponent(() => import('../settings/staff.js'), 'StaffSettings');
const TillSettings = lazyRouteComponent(() => import('../settings/tills.js'), 'TillSettings');
const SmtpSettingsScreen = lazyRouteComponent(() => import('../settings/smtp.js'), 'SmtpSettingsScreen');
const AuditLogScreen = lazyRouteComponent(() => import('../settings/audit-log.js'), 'AuditLogScreen');
const InvoiceListScreen = lazyRouteComponent(() => import('../invoices/invoice-list.js'), 'InvoiceListScreen');
const InvoiceCreateScreen = lazyRouteComponent(() => import('../invoices/invoice-form.js'), 'InvoiceCreateScreen');
const InvoiceDetailScreen = lazyRouteComponent(() => import('../invoices/invoice-detail.js'), 'InvoiceDetailScreen');
const InvoiceEditScreen = lazyRouteComponent(() => import('../invoices/invoice-form.js'), 'InvoiceEditScreen');
const TransactionListScreen = lazyRouteComponent(() => import('../transactions/transaction-list.js'), 'TransactionListScreen');
const TransactionDetailScreen = lazyRouteComponent(() => import('../transactions/transaction-detail.js'), 'TransactionDetailScreen');
const TokenListScreen = lazyRouteComponent(() => import('../network-tokens/token-list.js'), 'TokenListScreen');
const TokenCreateScreen = lazyRouteComponent(() => import('../network-tokens/token-form.js'), 'TokenCreateScreen');
const TokenDetailScreen = lazyRouteComponent(() => import('../network-tokens/token-detail.js'), 'TokenDetailScreen');
const CheckoutListScreen = lazyRouteComponent(() => import('../checkouts/checkout-list.js'), 'CheckoutListScreen');
const CheckoutCreateScreen = lazyRouteComponent(() => import('../checkouts/checkout-form.js'), 'CheckoutCreateScreen');
const CheckoutDetailScreen = lazyRouteComponent(() => import('../checkouts/checkout-detail.js'), 'CheckoutDetailScreen');
const PostbackListScreen = lazyRouteComponent(() => import('../postbacks/postback-list.js'), 'PostbackListScreen');
const TestOutboxScreen = lazyRouteComponent(() => import('../postbacks/test-outbox.js'), 'TestOutboxScreen');
const PostbackDetailScreen = lazyRouteComponent(() => import('../postbacks/postback-detail.js'), 'PostbackDetailScreen');
const TodaySales = lazyRouteComponent(() => import('../sales/today.js'), 'TodaySales');
const DayClose = lazyRouteComponent(() => import('../reports/day-close.js'), 'DayClose');

function Start() {
  const role = useSession((s) => s.session?.staff.role);
  return role ? <Navigate to={startPath(role)} replace /> : null;
}

function NotFound() {
  const t = useT();
  return (
    <section className="card">
      <h1>{t('shell.notFound.title')}</h1>
      <p className="lead">{t('shell.notFound.lead')}</p>
    </section>
  );
}

export const rootRoute = createRootRoute({ component: AppFrame, notFoundComponent: NotFound });

const startRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Start });
const gatewayRoute = createRoute({ getParentRoute: () => rootRoute, path: '/gateway', component: GatewayPage });
const dashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboard',
  component: DashboardScreen,
  validateSearch: dashboardSearch,
});
// Settings (admin): shops and terminals first, then each section at its own address.
const settingsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/settings', component: SettingsLayout });
const settingsShopsRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/', component: ShopsSettings });
const settingsProfileRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/profile', component: ProfileSettings });
const settingsChannelsRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/channels', component: ChannelSettings });
const settingsCredentialsRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/credentials', component: CredentialSettings });
const settingsStaffRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/staff', component: StaffSettings });
const settingsTillsRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/tills', component: TillSettings });
const settingsSmtpRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/smtp', component: SmtpSettingsScreen });
const settingsAuditRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/audit',
  component: AuditLogScreen,
  validateSearch: auditSearch,
});

// Invoices: the list (filters and page in the search), a new one, one invoice, its edit form.
const invoicesRoute = createRoute({ getParentRoute: () => rootRoute, path: '/invoices' });
const invoiceListRoute = createRoute({
  getParentRoute: () => invoicesRoute,
  path: '/',
  component: InvoiceListScreen,
  validateSearch: invoiceListSearch,
});
const invoiceNewRoute = createRoute({ getParentRoute: () => invoicesRoute, path: '/new', component: InvoiceCreateScreen });
const invoiceRoute = createRoute({ getParentRoute: () => invoicesRoute, path: '/$number', component: InvoiceDetailScreen });
const invoiceEditRoute = createRoute({ getParentRoute: () => invoicesRoute, path: '/$number/edit', component: InvoiceEditScreen });

// Transactions: the list (every filter in the search) and one transaction.
const transactionsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/transactions' });
const transactionListRoute = createRoute({
  getParentRoute: () => transactionsRoute,
  path: '/',
  component: TransactionListScreen,
  validateSearch: transactionListSearch,
});
const transactionRoute = createRoute({ getParentRoute: () => transactionsRoute, path: '/$id', component: TransactionDetailScreen });

// Network tokens: the list (filters and page in the search), a new one, one token.
const tokensRoute = createRoute({ getParentRoute: () => rootRoute, path: '/network-tokens' });
const tokenListRoute = createRoute({
  getParentRoute: () => tokensRoute,
  path: '/',
  component: TokenListScreen,
  validateSearch: tokenListSearch,
});
const tokenNewRoute = createRoute({ getParentRoute: () => tokensRoute, path: '/new', component: TokenCreateScreen });
const tokenRoute = createRoute({ getParentRoute: () => tokensRoute, path: '/$id', component: TokenDetailScreen });

// Checkouts: the list, a new one for a phone or e-mail order, one session.
const checkoutsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/checkouts' });
const checkoutListRoute = createRoute({
  getParentRoute: () => checkoutsRoute,
  path: '/',
  component: CheckoutListScreen,
  validateSearch: checkoutListSearch,
});
const checkoutNewRoute = createRoute({ getParentRoute: () => checkoutsRoute, path: '/new', component: CheckoutCreateScreen });
const checkoutRoute = createRoute({ getParentRoute: () => checkoutsRoute, path: '/$id', component: CheckoutDetailScreen });

// Postbacks: the delivery log, one postback, the Test environment's outbox (the previewed item in the search).
const postbacksRoute = createRoute({ getParentRoute: () => rootRoute, path: '/postbacks' });
const postbackListRoute = createRoute({
  getParentRoute: () => postbacksRoute,
  path: '/',
  component: PostbackListScreen,
  validateSearch: postbackListSearch,
});
const outboxRoute = createRoute({
  getParentRoute: () => postbacksRoute,
  path: '/outbox',
  component: TestOutboxScreen,
  validateSearch: outboxSearch,
});
const postbackRoute = createRoute({ getParentRoute: () => postbacksRoute, path: '/$id', component: PostbackDetailScreen });

const cashierRoute = createRoute({ getParentRoute: () => rootRoute, path: '/cashier', component: CashierWorkspace });
// The till sells on this screen's till: it is taken (or asked for) first.
const tillRoute = createRoute({
  getParentRoute: () => cashierRoute,
  path: '/',
  component: () => (
    <TillGate>
      <Till />
    </TillGate>
  ),
});
const salesRoute = createRoute({ getParentRoute: () => cashierRoute, path: '/sales', component: TodaySales });
const reportsRoute = createRoute({ getParentRoute: () => cashierRoute, path: '/reports', component: DayClose });

const routeTree = rootRoute.addChildren([
  startRoute,
  dashboardRoute,
  transactionsRoute.addChildren([transactionListRoute, transactionRoute]),
  invoicesRoute.addChildren([invoiceListRoute, invoiceNewRoute, invoiceRoute, invoiceEditRoute]),
  tokensRoute.addChildren([tokenListRoute, tokenNewRoute, tokenRoute]),
  checkoutsRoute.addChildren([checkoutListRoute, checkoutNewRoute, checkoutRoute]),
  postbacksRoute.addChildren([postbackListRoute, outboxRoute, postbackRoute]),
  gatewayRoute,
  settingsRoute.addChildren([
    settingsShopsRoute,
    settingsProfileRoute,
    settingsChannelsRoute,
    settingsCredentialsRoute,
    settingsStaffRoute,
    settingsTillsRoute,
    settingsSmtpRoute,
    settingsAuditRoute,
  ]),
  cashierRoute.addChildren([tillRoute, salesRoute, reportsRoute]),
]);

/** Search params as plain text (`?status=6,11&card=1111`), not JSON: the URL reads as the filters, and "1111" stays text. */
function parseSearch(text: string): Record<string, unknown> {
  return Object.fromEntries(new URLSearchParams(text.startsWith('?') ? text.slice(1) : text));
}

function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(
      key,
      Array.isArray(value)
        ? value.join(',')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value as string | number | boolean),
    );
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Shown in place of a screen whose chunk takes longer than a second to arrive (router's default delay). */
function ScreenLoading() {
  const t = useT();
  return (
    <p className="loading" role="status">
      {t('shell.opening')}
    </p>
  );
}

export const router = createRouter({
  routeTree,
  history: createHashHistory(),
  parseSearch,
  stringifySearch,
  // A menu link fetches its screen's chunk on hover or focus, so the click rarely waits for it.
  defaultPreload: 'intent',
  defaultPendingComponent: ScreenLoading,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
