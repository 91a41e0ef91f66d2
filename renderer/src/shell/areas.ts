/**
 * The product areas of the app and who may use them (decisions.md D9): the navigation shows a
 * role only what it may use, and the router keeps the others out. Order is the menu's order; a
 * role starts on the first area it may use (back office on the dashboard, a cashier at the till).
 */
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { StaffRole } from '../staff/staff-client.js';

export interface Area {
  /** The route path, e.g. `/transactions`. */
  path: string;
  label: MessageId;
  roles: readonly StaffRole[];
}

const BACK_OFFICE: readonly StaffRole[] = ['back_office', 'admin'];
const EVERYONE: readonly StaffRole[] = ['cashier', 'back_office', 'admin'];

export const AREAS: readonly Area[] = [
  { path: '/dashboard', label: 'shell.area.dashboard', roles: BACK_OFFICE },
  { path: '/transactions', label: 'shell.area.transactions', roles: BACK_OFFICE },
  { path: '/invoices', label: 'shell.area.invoices', roles: BACK_OFFICE },
  { path: '/checkouts', label: 'shell.area.checkouts', roles: BACK_OFFICE },
  { path: '/network-tokens', label: 'shell.area.networkTokens', roles: BACK_OFFICE },
  { path: '/postbacks', label: 'shell.area.postbacks', roles: BACK_OFFICE },
  { path: '/cashier', label: 'shell.area.cashier', roles: EVERYONE },
  { path: '/gateway', label: 'shell.area.gateway', roles: EVERYONE },
  { path: '/settings', label: 'shell.area.settings', roles: ['admin'] },
];

/** Areas of the back office still to come (issue "Back office, part 2"): named in the menu, not yet open. */
export const COMING_AREAS: readonly { label: MessageId; roles: readonly StaffRole[] }[] = [];

/** Each role's name on screen (a new role without one does not compile). */
export const ROLE_NAMES: Record<StaffRole, MessageId> = {
  cashier: 'shell.role.cashier',
  back_office: 'shell.role.back_office',
  admin: 'shell.role.admin',
};

export function areasFor(role: StaffRole): readonly Area[] {
  return AREAS.filter((area) => area.roles.includes(role));
}

/** Where a role starts after logging in. */
export function startPath(role: StaffRole): string {
  return areasFor(role)[0]?.path ?? '/gateway';
}

/** Who may open a path: the roles of the area it belongs to (every role for paths of no area). */
export function rolesOf(path: string): readonly StaffRole[] {
  const area = AREAS.find((a) => path === a.path || path.startsWith(`${a.path}/`));
  return area?.roles ?? EVERYONE;
}

export { BACK_OFFICE, EVERYONE };
