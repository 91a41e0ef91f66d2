/**
 * The app frame: header (with the logged-in staff member), the product areas and the current
 * screen. The areas are listed so the shape of the product is visible; each becomes a link when its
 * screen ships (Home and Cashier so far). On narrow screens (tablets, 1024 px) the areas fold behind
 * the header's Menu button: it opens them over the screen; Esc, a click beside them or a choice closes them.
 */
import { useEffect, useRef, useState, type FocusEvent } from 'react';
import { CashierArea } from './cashier/cashier.js';
import { useGatewayStatus, type GatewayStatus } from './gateway-status-store.js';
import { hrefOf, useRoute, type Route } from './route-store.js';
import { useSession } from './session-store.js';
import { OwnPinDialog } from './staff/own-pin-dialog.js';
import { MenuIcon } from './ui/icons.js';

const AVAILABLE_AREAS: readonly { label: string; route: Route }[] = [
  { label: 'Home', route: 'home' },
  { label: 'Cashier', route: 'till' },
];
const COMING_AREAS = ['Transactions', 'Invoices', 'Network tokens', 'Checkouts', 'Postbacks', 'Settings'] as const;

const ROLE_NAMES = { cashier: 'Cashier', back_office: 'Back office', admin: 'Admin' } as const;

export function App() {
  const route = useRoute((s) => s.route);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeMenu = (refocus: boolean) => {
    setMenuOpen(false);
    if (refocus) menuButton.current?.focus();
  };

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

  return (
    <div className="frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <button ref={menuButton} type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="side-nav" onClick={() => setMenuOpen((open) => !open)}>
          <MenuIcon size={22} />
          <span>Menu</span>
        </button>
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
        <Navigation route={route} open={menuOpen} onClose={closeMenu} />
        {menuOpen && <div className="nav-scrim" aria-hidden="true" onClick={() => closeMenu(false)} />}
        <main id="main" className={route === 'home' ? 'content' : 'content content-wide'} tabIndex={-1}>
          {route === 'home' ? <HomePanel /> : <CashierArea view={route} />}
        </main>
      </div>
    </div>
  );
}

function StaffBadge() {
  const session = useSession((s) => s.session);
  const logout = useSession((s) => s.logout);
  const [settingPin, setSettingPin] = useState(false);
  if (!session) return null;
  return (
    <div className="staff-badge">
      <span className="staff-name">
        {session.staff.display_name}
        <span className="staff-role">{ROLE_NAMES[session.staff.role]}</span>
      </span>
      <button type="button" className="header-button" onClick={() => setSettingPin(true)}>
        Set my PIN
      </button>
      <button type="button" className="header-button" onClick={() => void logout('You logged out.')}>
        Log out
      </button>
      {settingPin && <OwnPinDialog onClose={() => setSettingPin(false)} />}
    </div>
  );
}

function Navigation({ route, open, onClose }: { route: Route; open: boolean; onClose: (refocus: boolean) => void }) {
  const current = route === 'home' ? 'home' : 'till';
  // Tabbing out of the opened menu closes it (the Menu button keeps it open: it toggles).
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next) && !(next instanceof Element && next.matches('.menu-button'))) onClose(false);
  };
  return (
    <nav id="side-nav" className={open ? 'side-nav side-nav-open' : 'side-nav'} aria-label="Product areas" onBlur={onBlur}>
      <ul className="nav-list">
        {AVAILABLE_AREAS.map((area) => (
          <li key={area.label}>
            <a
              className={area.route === current ? 'nav-item nav-item-current' : 'nav-item'}
              href={hrefOf(area.route)}
              aria-current={area.route === current ? 'page' : undefined}
              onClick={() => onClose(false)}
            >
              {area.label}
            </a>
          </li>
        ))}
        {COMING_AREAS.map((area) => (
          <li key={area}>
            <span className="nav-item nav-item-unavailable">
              <span className="nav-label">{area}</span>{' '}
              <span className="nav-note">Not yet available</span>
            </span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function HomePanel() {
  const baseUrl = useGatewayStatus((state) => state.baseUrl);
  return (
    <>
      <h1>Home</h1>
      <p className="lead">
        This gateway runs the Test environment: a simulated acquirer, card networks and banks. No real card is charged and no
        real money moves.
      </p>
      <section className="card" aria-labelledby="status-heading">
        <h2 id="status-heading">Gateway status</h2>
        <GatewayStatusView />
      </section>
      <section className="card" aria-labelledby="connect-heading">
        <h2 id="connect-heading">Connect a point of sale</h2>
        <dl className="facts">
          <dt>API base URL</dt>
          <dd>
            <code>{baseUrl}</code>
          </dd>
        </dl>
        <ul className="link-list">
          <li>
            <a className="link-button" href="/docs">
              API documentation
            </a>
          </li>
          <li>
            <a className="link-button" href="/openapi.json">
              OpenAPI document
            </a>
          </li>
        </ul>
      </section>
    </>
  );
}

function GatewayStatusView() {
  const status = useGatewayStatus((state) => state.status);
  const checking = useGatewayStatus((state) => state.checking);
  const check = useGatewayStatus((state) => state.check);

  useEffect(() => {
    void check();
  }, [check]);

  const phase = status.phase === 'unknown' ? 'checking' : status.phase;
  return (
    <div className="status-row">
      <p role="status" className={`status status-${phase}`}>
        <span className="status-dot" aria-hidden="true" />
        <span>{statusText(status)}</span>
      </p>
      {status.phase === 'failed' && (
        // aria-disabled, not disabled: the button keeps keyboard focus while the retry runs.
        <button type="button" className="button" aria-disabled={checking} onClick={() => void check()}>
          {checking ? 'Retrying…' : 'Retry'}
        </button>
      )}
    </div>
  );
}

function statusText(status: GatewayStatus): string {
  switch (status.phase) {
    case 'unknown':
      return 'Checking the gateway…';
    case 'running':
      return `Gateway running, API version ${status.version}`;
    case 'failed':
      return `Gateway not available. ${status.failure.message}`;
  }
}
