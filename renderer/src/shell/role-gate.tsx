/**
 * Keeps a role out of the screens it may not use (decisions.md D9): it says so and offers to
 * switch user; after the other login the same screen opens (its URL is kept).
 */
import { useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useSession } from '../session-store.js';
import { useT } from '../ui/i18n.js';
import { ROLE_NAMES, rolesOf } from './areas.js';

export function RoleGate({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const session = useSession((s) => s.session);
  const logout = useSession((s) => s.logout);
  const t = useT();
  if (!session) return null;
  const allowed = rolesOf(pathname);
  if (allowed.includes(session.staff.role)) return <>{children}</>;
  // admin, cashier, or back office and admin (the areas' three kinds of audience).
  const who = allowed.length === 1 ? allowed[0] : 'back_office';
  return (
    <section className="card role-gate" aria-labelledby="role-gate-title">
      <h1 id="role-gate-title">{t('shell.gate.title')}</h1>
      <p className="lead">
        {t('shell.gate.lead', { allowed: who, name: session.staff.display_name, role: t(ROLE_NAMES[session.staff.role]) })}
      </p>
      <button
        type="button"
        className="button button-primary button-lg"
        onClick={() => void logout(t('shell.gate.notice', { allowed: who }))}
      >
        {t('shell.gate.switch')}
      </button>
    </section>
  );
}
