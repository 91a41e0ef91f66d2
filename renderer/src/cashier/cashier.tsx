/**
 * The Cashier area: the till, today's sales and closing the day, and the keyboard shortcuts overlay
 * (`?`). Login and the idle lock belong to the app frame (shell/).
 */
import { CentreBanner } from '../tills/centre-banner.js';
import { Link, Outlet } from '@tanstack/react-router';
import { useState } from 'react';
import { PrinterButton } from '../receipts/printer-dialog.js';
import { TillBadge } from '../tills/till-gate.js';
import { Modal } from '../ui/modal.js';
import { useKeys } from '../ui/use-keys.js';

/** The Cashier area: the till, today's sales and closing the day, as tabs with their own URLs. */
export function CashierWorkspace() {
  const [help, setHelp] = useState(false);
  useKeys((event) => {
    if (event.key !== '?') return false;
    setHelp(true);
    return true;
  });
  const tab = { className: 'tab', activeProps: { className: 'tab tab-current' }, activeOptions: { exact: true } } as const;

  return (
    <div className="cashier">
      <div className="cashier-bar">
        <h1 className="cashier-title">Cashier</h1>
        <nav className="tabs" aria-label="Cashier">
          <Link to="/cashier" {...tab}>
            Till
          </Link>
          <Link to="/cashier/sales" {...tab}>
            Today&rsquo;s sales
          </Link>
          <Link to="/cashier/reports" {...tab}>
            Close the day
          </Link>
        </nav>
        <TillBadge />
        <PrinterButton />
        <button type="button" className="button button-quiet" onClick={() => setHelp(true)}>
          Shortcuts <kbd>?</kbd>
        </button>
      </div>
      <CentreBanner />
      <div className="cashier-body">
        <Outlet />
      </div>
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
    </div>
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
