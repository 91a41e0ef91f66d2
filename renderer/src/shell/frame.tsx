/**
 * The app frame around every screen: staff log in once for the whole app (PIN or password), then
 * the header (who is logged in, the language of their screens, Set my PIN, Log out), the product
 * areas this role may use, and the current screen. On narrow screens (tablets, 1024 px) the areas fold behind the header's Menu
 * button: it opens them over the screen; Esc, a click beside them or a choice closes them.
 */
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ChangeEvent, type FocusEvent } from 'react';
import { isStaffLanguage, LANGUAGE_NAMES, STAFF_LANGUAGES } from '../../../contract/i18n/languages.js';
import { LoginScreen } from '../cashier/login.js';
import { useSession } from '../session-store.js';
import { OwnPinDialog } from '../staff/own-pin-dialog.js';
import { tillsClient, type TillLinkStatus } from '../tills/tills-client.js';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { useTill } from '../till-screen/till-store.js';
import { translate, useT } from '../ui/i18n.js';
import { LockIcon, LogoutIcon, MenuIcon } from '../ui/icons.js';
import { areasFor, COMING_AREAS, ROLE_NAMES } from './areas.js';
import { IdleLock } from './idle-lock.js';
import { RoleGate } from './role-gate.js';

/** The product's name: a name, the same in every language. */
const PRODUCT_NAME = 'Tillgate';

export function AppFrame() {
  const phase = useSession((s) => s.phase);
  const check = useSession((s) => s.check);
  const [menuOpen, setMenuOpen] = useState(false);
  const t = useT();
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
        {t('shell.skip')}
      </a>
      <header className="app-header">
        {loggedIn && (
          <button
            ref={menuButton}
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="side-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <MenuIcon size={22} />
            <span>{t('shell.menu')}</span>
          </button>
        )}
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">
            {PRODUCT_NAME.slice(0, 1)}
          </span>
          <span className="brand-name">{PRODUCT_NAME}</span>
        </span>
        <span className="env-badge">{t('common.testEnvironment')}</span>
        <StaffBadge />
      </header>
      <div className="frame-body">
        {loggedIn && <Navigation open={menuOpen} onClose={closeMenu} />}
        {menuOpen && <div className="nav-scrim" aria-hidden="true" onClick={() => closeMenu(false)} />}
        <main id="main" className={loggedIn ? (wide ? 'content content-wide' : 'content') : 'content content-centered'} tabIndex={-1}>
          {phase === 'unknown' || phase === 'checking' ? (
            <p className="loading" role="status">
              {t('shell.checking')}
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
  const t = useT();
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
    else void logout(t('shell.loggedOut'));
  };
  return (
    <div className="staff-badge">
      <span className="staff-name">
        {session.staff.display_name}
        <span className="staff-role">{t(ROLE_NAMES[session.staff.role])}</span>
      </span>
      <LanguageChoice />
      {!joinedTill && (
        <button type="button" className="header-button header-button-icon" title={t('shell.setPin')} onClick={() => setSettingPin(true)}>
          <LockIcon size={18} />
          <span className="header-button-label">{t('shell.setPin')}</span>
        </button>
      )}
      <button
        type="button"
        className="header-button header-button-icon header-button-logout"
        title={t('shell.logout')}
        onClick={() => void askLogout()}
      >
        <LogoutIcon size={18} />
        <span className="header-button-label">{t('shell.logout')}</span>
      </button>
      {settingPin && <OwnPinDialog onClose={() => setSettingPin(false)} />}
      {holding && (
        <ConfirmDialog
          title={t('shell.stored.title')}
          keepLabel={t('shell.stored.keep')}
          confirmLabel={t('shell.logout')}
          busyLabel={t('shell.loggingOut')}
          what={t('shell.stored.what')}
          run={async () => {
            await logout(translate('shell.stored.loggedOut'));
            return true;
          }}
          onClose={() => setHolding(null)}
          onDone={() => setHolding(null)}
        >
          <p>{t('shell.stored.text', { count: holding.stored.count })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function Navigation({ open, onClose }: { open: boolean; onClose: (refocus: boolean) => void }) {
  const role = useSession((s) => s.session?.staff.role ?? 'cashier');
  const t = useT();
  // Tabbing out of the opened menu closes it (the Menu button keeps it open: it toggles).
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next) && !(next instanceof Element && next.matches('.menu-button')))
      onClose(false);
  };
  return (
    <nav id="side-nav" className={open ? 'side-nav side-nav-open' : 'side-nav'} aria-label={t('shell.nav')} onBlur={onBlur}>
      <ul className="nav-list">
        {areasFor(role).map((area) => (
          <li key={area.path}>
            <Link
              to={area.path}
              className="nav-item"
              activeProps={{ className: 'nav-item nav-item-current' }}
              onClick={() => onClose(false)}
            >
              {t(area.label)}
            </Link>
          </li>
        ))}
        {COMING_AREAS.filter((area) => area.roles.includes(role)).map((area) => (
          <li key={area.label}>
            <span className="nav-item nav-item-unavailable">
              <span className="nav-label">{t(area.label)}</span> <span className="nav-note">{t('shell.notYet')}</span>
            </span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The staff member's language for their screens (D21), as short as a header allows: the language
 * they see now, by its own name. Choosing another keeps it with their account on the gateway, so it
 * follows them to every till; choosing the shop's language goes back to following the shop's.
 */
function LanguageChoice() {
  const own = useSession((s) => s.session?.staff.language ?? null);
  const shop = useSession((s) => s.session?.merchant.language ?? 'en');
  const chooseLanguage = useSession((s) => s.chooseLanguage);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const t = useT();
  const shopLanguage = isStaffLanguage(shop) ? shop : 'en';
  const change = async (event: ChangeEvent<HTMLSelectElement>) => {
    const value = event.target.value;
    setBusy(true);
    setFailed(false);
    try {
      await chooseLanguage(isStaffLanguage(value) && value !== shopLanguage ? value : null);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <select
        className="header-select"
        aria-label={t('shell.language.label')}
        title={failed ? t('shell.language.failed') : t('shell.language.label')}
        value={own ?? shopLanguage}
        disabled={busy}
        onChange={(event) => void change(event)}
      >
        <optgroup label={t('shell.language.shopGroup')}>
          <option value={shopLanguage} lang={shopLanguage}>
            {LANGUAGE_NAMES[shopLanguage]}
          </option>
        </optgroup>
        <optgroup label={t('shell.language.otherGroup')}>
          {STAFF_LANGUAGES.filter((language) => language !== shopLanguage).map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </optgroup>
      </select>
      {failed && (
        <span className="visually-hidden" role="alert">
          {t('shell.language.failed')}
        </span>
      )}
    </>
  );
}
