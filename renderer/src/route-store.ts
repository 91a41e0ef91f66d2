/**
 * Which screen shows: hash routes, because the gateway serves the app as static files at /app/
 * (no server-side fallback for deeper paths). `#/` home, `#/cashier` till, `#/cashier/sales` today,
 * `#/cashier/reports` close the day (X and Z reports).
 */
import { create } from 'zustand';

export type Route = 'home' | 'till' | 'sales' | 'reports';

const HASHES: Record<Route, string> = { home: '#/', till: '#/cashier', sales: '#/cashier/sales', reports: '#/cashier/reports' };

export function hrefOf(route: Route): string {
  return HASHES[route];
}

function routeOf(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '');
  if (path === '/cashier/sales') return 'sales';
  if (path === '/cashier/reports') return 'reports';
  if (path === '/cashier') return 'till';
  return 'home';
}

interface RouteState {
  route: Route;
  navigate: (route: Route) => void;
}

export const useRoute = create<RouteState>()((set) => ({
  route: routeOf(window.location.hash),
  navigate: (route) => {
    if (window.location.hash !== HASHES[route]) window.location.hash = HASHES[route];
    set({ route });
  },
}));

window.addEventListener('hashchange', () => useRoute.setState({ route: routeOf(window.location.hash) }));
