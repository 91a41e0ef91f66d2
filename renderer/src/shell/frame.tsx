/**
 * The app frame around every screen: staff log in once for the whole app (PIN or password), then
 * the header (who is logged in, Set my PIN, Log out), the product areas this role may use, and
 * the current screen. On narrow screens (tablets, 1024 px) the areas fold behind the header's Menu
 * button: it opens them over the screen; Esc, a click beside them or a choice closes them.
 */
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FocusEvent } from 'react';
import { LoginScreen } from '../cashier/login.js';
import { useSession } from '../session-store.js';
import { OwnPinDialog } from '../staff/own-pin-dialog.js';
import { tillsClient, type TillLinkStatus } from '../tills/tills-client.js';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { useTill } from '../till/till-store.js';
import { MenuIcon } from '../ui/icons.js';
import { areasFor, COMING_AREAS, ROLE_NAMES } from './areas.js';
import { IdleLock } from './idle-lock.js';
import { RoleGate } from './role-gate.js';

export function AppFrame() {
  const phase = useSession((s) => s.phase);
  const check = useSession((s) => s.check);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const wide = useRouterState({ select: (state) => !state.location.pathname.startsWith('/gateway') });
  const closeMenu = (refocus: boolean) => {
    setMenuOpen(false);
    if (refocus) menuButton.current?.focus();
  };

  useEffect(() => {
    if (phase === 'unknown') void check();
    // Whoever logs in next starts with an empty till.
    if (phase === 'logged_out') useTill.getState().newSale();
  }, [phase, check]);

  useEffect(() => {
    if (!menuOpen) return undefined;
    document.querySelector<HTMLElement>('#side-nav a')?.focus();
    // Esc closes the menu and nothing else (capture: before the till's keys see it).
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [menuOpen]);

  const loggedIn = phase === 'logged_in';
  return (
    <div className="frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        {loggedIn && (
          <button ref={menuButton} type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="side-nav" onClick={() => setMenuOpen((open) => !open)}>
            <MenuIcon size={22} />
            <span>Menu</span>
          </button>
        )}
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">
            T
          </span>
          <span className="brand-name">Tillgate</span>
        </span>
        <span className="env-badge">Test environment</span>
        <StaffBadge />
      </header>
      <div className="frame-body">
        {loggedIn && <Navigation open={menuOpen} onClose={closeMenu} />}
        {menuOpen && <div className="nav-scrim" aria-hidden="true" onClick={() => closeMenu(false)} />}
        <main id="main" className={loggedIn ? (wide ? 'content content-wide' : 'content') : 'content content-centered'} tabIndex={-1}>
          {phase === 'unknown' || phase === 'checking' ? (
            <p className="loading" role="status">
              Checking your session…
            </p>
          ) : loggedIn ? (
            <RoleGate>
              <Outlet />
            </RoleGate>
          ) : (
            <LoginScreen />
          )}
        </main>
      </div>
      {loggedIn && <IdleLock />}
    </div>
  );
}

function StaffBadge() {
  const session = useSession((s) => s.session);
  const logout = useSession((s) => s.logout);
  const [settingPin, setSettingPin] = useState(false);
  // A joined till holding stored sales says so before its cashier logs out (they stay stored).
  const [holding, setHolding] = useState<TillLinkStatus | null>(null);
  // A till joined to the shop's gateway changes no PIN: staff set theirs on the shop's gateway (D20).
  const [joinedTill, setJoinedTill] = useState(false);
  const staffId = session?.staff.staff_id;
  useEffect(() => {
    if (!staffId) return undefined;
    let live = true;
    void tillsClient
      .link()
      .then((status) => live && setJoinedTill(status.joined))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [staffId]);
  if (!session) return null;
  const askLogout = async () => {
    const status = await tillsClient.link().catch(() => null);
    if (status?.joined && status.stored.count > 0) setHolding(status);
    else void logout('You logged out.');
  };
  return (
    <div className="staff-badge">
      <span className="staff-name">
        {session.staff.display_name}
        <span className="staff-role">{ROLE_NAMES[session.staff.role]}</span>
      </span>
      {!joinedTill && (
        <button type="button" className="header-button" onClick={() => setSettingPin(true)}>
          Set my PIN
        </button>
      )}
      <button type="button" className="header-button" onClick={() => void askLogout()}>
        Log out
      </button>
      {settingPin && <OwnPinDialog onClose={() => setSettingPin(false)} />}
      {holding && (
        <ConfirmDialog
          title="Log out with stored sales?"
          keepLabel="Stay logged in"
          confirmLabel="Log out"
          busyLabel="Logging out…"
          what="Logging out"
          run={async () => {
            await logout('You logged out. The stored sales stay on this till and are sent when the shop\u2019s gateway answers.');
            return true;
          }}
          onClose={() => setHolding(null)}
          onDone={() => setHolding(null)}
        >
          <p>
            This till holds {holding.stored.count} {holding.stored.count === 1 ? 'sale' : 'sales'} stored while the shop&rsquo;s gateway was away. Logging out keeps them: they are sent as
            soon as the gateway answers, as long as this computer and the gateway app stay on.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function Navigation({ open, onClose }: { open: boolean; onClose: (refocus: boolean) => void }) {
  const role = useSession((s) => s.session?.staff.role ?? 'cashier');
  // Tabbing out of the opened menu closes it (the Menu button keeps it open: it toggles).
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next) && !(next instanceof Element && next.matches('.menu-button'))) onClose(false);
  };
  return (
    <nav id="side-nav" className={open ? 'side-nav side-nav-open' : 'side-nav'} aria-label="Product areas" onBlur={onBlur}>
      <ul className="nav-list">
        {areasFor(role).map((area) => (
          <li key={area.path}>
            <Link to={area.path} className="nav-item" activeProps={{ className: 'nav-item nav-item-current' }} onClick={() => onClose(false)}>
              {area.label}
            </Link>
          </li>
        ))}
        {COMING_AREAS.filter((area) => area.roles.includes(role)).map((area) => (
          <li key={area.label}>
            <span className="nav-item nav-item-unavailable">
              <span className="nav-label">{area.label}</span> <span className="nav-note">Not yet available</span>
            </span>
          </li>
        ))}
      </ul>
    </nav>
  );
}
