/**
 * The Cashier area: staff login first, then the till, today's sales and closing the day; the idle lock (warns 30 s
 * ahead, one key keeps the session) and the keyboard shortcuts overlay (`?`).
 */
import { useEffect, useRef, useState } from 'react';
import { client } from '../api/client.js';
import { DayClose } from '../reports/day-close.js';
import { PrinterButton } from '../receipts/printer-dialog.js';
import { hrefOf, type Route } from '../route-store.js';
import { TodaySales } from '../sales/today.js';
import { useSession } from '../session-store.js';
import { Till } from '../till/till.js';
import { useTill } from '../till/till-store.js';
import { Modal } from '../ui/modal.js';
import { useKeys } from '../ui/use-keys.js';
import { LoginScreen } from './login.js';

export function CashierArea({ view }: { view: Extract<Route, 'till' | 'sales' | 'reports'> }) {
  const phase = useSession((s) => s.phase);
  const check = useSession((s) => s.check);

  useEffect(() => {
    if (phase === 'unknown') void check();
    // Whoever logs in next starts with an empty till.
    if (phase === 'logged_out') useTill.getState().newSale();
  }, [phase, check]);

  if (phase === 'unknown' || phase === 'checking') {
    return (
      <p className="loading" role="status">
        Checking your session…
      </p>
    );
  }
  if (phase === 'logged_out') return <LoginScreen />;
  return <CashierWorkspace view={view} />;
}

function CashierWorkspace({ view }: { view: 'till' | 'sales' | 'reports' }) {
  const [help, setHelp] = useState(false);
  useKeys((event) => {
    if (event.key !== '?') return false;
    setHelp(true);
    return true;
  });

  return (
    <div className="cashier">
      <div className="cashier-bar">
        <h1 className="cashier-title">Cashier</h1>
        <nav className="tabs" aria-label="Cashier">
          <a className={view === 'till' ? 'tab tab-current' : 'tab'} href={hrefOf('till')} aria-current={view === 'till' ? 'page' : undefined}>
            Till
          </a>
          <a className={view === 'sales' ? 'tab tab-current' : 'tab'} href={hrefOf('sales')} aria-current={view === 'sales' ? 'page' : undefined}>
            Today&rsquo;s sales
          </a>
          <a className={view === 'reports' ? 'tab tab-current' : 'tab'} href={hrefOf('reports')} aria-current={view === 'reports' ? 'page' : undefined}>
            Close the day
          </a>
        </nav>
        <PrinterButton />
        <button type="button" className="button button-quiet" onClick={() => setHelp(true)}>
          Shortcuts <kbd>?</kbd>
        </button>
      </div>
      <div className="cashier-body">{view === 'till' ? <Till /> : view === 'sales' ? <TodaySales /> : <DayClose />}</div>
      <IdleLock />
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
    </div>
  );
}

const WARN_SECONDS = 30;

/** Logs out after the gateway's idle time without a key or touch; warns 30 s ahead; any key keeps the session. */
function IdleLock() {
  const idleSeconds = useSession((s) => s.terminal?.idle_lock_seconds ?? s.session?.idle_timeout_seconds ?? 1800);
  const logout = useSession((s) => s.logout);
  const last = useRef(Date.now());
  const [left, setLeft] = useState<number | null>(null);
  const warned = useRef(false);

  useEffect(() => {
    const touch = () => {
      last.current = Date.now();
    };
    window.addEventListener('keydown', touch, true);
    window.addEventListener('pointerdown', touch, true);
    const timer = window.setInterval(() => {
      const phase = useTill.getState().phase.name;
      // Never lock in the middle of talking to the bank.
      if (phase === 'processing' || phase === 'checking') touch();
      const remaining = idleSeconds - (Date.now() - last.current) / 1000;
      if (remaining <= 0) {
        window.clearInterval(timer);
        void logout(`The till locked after ${Math.round(idleSeconds / 60)} minutes without activity. Log in again.`);
      } else if (remaining <= WARN_SECONDS) {
        warned.current = true;
        setLeft(Math.ceil(remaining));
      } else if (warned.current) {
        // Kept: tell the gateway too, so its idle clock restarts.
        warned.current = false;
        setLeft(null);
        void client.session().catch(() => undefined);
      }
    }, 1000);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('keydown', touch, true);
      window.removeEventListener('pointerdown', touch, true);
    };
  }, [idleSeconds, logout]);

  if (left === null) return null;
  return (
    <Modal
      title="Still there?"
      onClose={() => {
        last.current = Date.now();
      }}
      className="modal-narrow"
    >
      <p className="visually-hidden" role="alert">
        The till is about to lock. Press any key to stay logged in.
      </p>
      <p className="idle-text">
        The till locks in {left} seconds. Press any key to stay logged in.
      </p>
      <div className="modal-actions">
        <button type="button" className="button button-primary button-lg" data-autofocus onClick={() => (last.current = Date.now())}>
          Stay logged in
        </button>
      </div>
    </Modal>
  );
}

const SHORTCUTS: readonly { area: string; keys: readonly [string, string][] }[] = [
  {
    area: 'Amount',
    keys: [
      ['0–9', 'Type the amount (1, 2, 0, 0 is 12.00)'],
      ['Backspace', 'Remove the last digit'],
      ['Esc', 'Clear the amount'],
      ['Enter', 'Charge'],
    ],
  },
  { area: 'Waiting for the card', keys: [['Esc', 'Cancel the sale']] },
  {
    area: 'PIN pad',
    keys: [
      ['0–9', 'PIN digits (shown as dots)'],
      ['Backspace', 'Remove the last digit'],
      ['Delete', 'Clear'],
      ['Enter', 'OK'],
      ['Esc', 'Cancel'],
    ],
  },
  {
    area: 'Result',
    keys: [
      ['Enter', 'The highlighted step: after an approval, the usual receipt and a new sale'],
      ['P', 'Print the receipt'],
      ['E', 'E-mail the receipt'],
      ['Q', 'Receipt by QR code'],
      ['N', 'No receipt: new sale'],
      ['Esc', 'Other payment (after a decline)'],
    ],
  },
  { area: 'Anywhere', keys: [['?', 'This list']] },
];

function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} className="modal-wide">
      <div className="shortcuts">
        {SHORTCUTS.map((group) => (
          <section key={group.area} className="shortcut-group">
            <h3>{group.area}</h3>
            <dl>
              {group.keys.map(([key, what]) => (
                <div key={key} className="shortcut">
                  <dt>
                    <kbd>{key}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <p className="muted shortcuts-note">Shortcuts are off while a dialog is open or while you type in a field. A USB swipe reader works on the till screen.</p>
      <div className="modal-actions">
        <button type="button" className="button button-primary button-lg" data-autofocus onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
