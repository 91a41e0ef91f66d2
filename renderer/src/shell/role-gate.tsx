/**
 * Keeps a role out of the screens it may not use (decisions.md D9): it says so and offers to
 * switch user; after the other login the same screen opens (its URL is kept).
 */
import { useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useSession } from '../session-store.js';
import { ROLE_NAMES, rolesOf } from './areas.js';

export function RoleGate({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const session = useSession((s) => s.session);
  const logout = useSession((s) => s.logout);
  if (!session) return null;
  const allowed = rolesOf(pathname);
  if (allowed.includes(session.staff.role)) return <>{children}</>;
  const who = allowed.map((role) => ROLE_NAMES[role].toLowerCase()).join(' or ');
  return (
    <section className="card role-gate" aria-labelledby="role-gate-title">
      <h1 id="role-gate-title">Not open to your role</h1>
      <p className="lead">
        This screen is for {who} staff. You are logged in as {session.staff.display_name} ({ROLE_NAMES[session.staff.role]}).
      </p>
      <button type="button" className="button button-primary button-lg" onClick={() => void logout(`Log in as ${who} staff to open this screen.`)}>
        Switch user
      </button>
    </section>
  );
}
