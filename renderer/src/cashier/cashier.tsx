/**
 * The Cashier area: the till, today's sales and closing the day, and the keyboard shortcuts overlay
 * (`?`). Login and the idle lock belong to the app frame (shell/).
 */
import { CentreBanner } from '../tills/centre-banner.js';
import { Link, Outlet } from '@tanstack/react-router';
import { useState } from 'react';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { PrinterButton } from '../receipts/printer-dialog.js';
import { RECEIPT_KEYS } from '../receipts/receipt-actions.js';
import { useSession } from '../session-store.js';
import { formatNumber } from '../till-screen/money.js';
import { TillBadge } from '../tills/till-gate.js';
import { useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { useKeys } from '../ui/use-keys.js';

/** The key that opens the shortcuts, and the digit keys (the same on every keyboard). */
const HELP_KEY = '?';
const DIGIT_KEYS = '0–9';

/** The Cashier area: the till, today's sales and closing the day, as tabs with their own URLs. */
export function CashierWorkspace() {
  const [help, setHelp] = useState(false);
  useKeys((event) => {
    if (event.key !== '?') return false;
    setHelp(true);
    return true;
  });
  const tab = { className: 'tab', activeProps: { className: 'tab tab-current' }, activeOptions: { exact: true } } as const;
  const t = useT();

  return (
    <div className="cashier">
      <div className="cashier-bar">
        <h1 className="cashier-title">{t('till.cashier.title')}</h1>
        <nav className="tabs" aria-label={t('till.cashier.title')}>
          <Link to="/cashier" {...tab}>
            {t('till.cashier.till')}
          </Link>
          <Link to="/cashier/sales" {...tab}>
            {t('till.cashier.sales')}
          </Link>
          <Link to="/cashier/reports" {...tab}>
            {t('till.cashier.close')}
          </Link>
        </nav>
        <TillBadge />
        <PrinterButton />
        <button type="button" className="button button-quiet" onClick={() => setHelp(true)}>
          {t('till.cashier.shortcuts')} <kbd>{HELP_KEY}</kbd>
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

/** A key: a word printed on the key (a message), or a legend the same on every keyboard. */
type Key = { word: MessageId } | { legend: string };

const SHORTCUTS: readonly { area: MessageId; keys: readonly [Key, MessageId][] }[] = [
  {
    area: 'till.shortcuts.amount',
    keys: [
      [{ legend: DIGIT_KEYS }, 'till.shortcuts.amount.type'],
      [{ word: 'till.key.backspace' }, 'till.shortcuts.removeDigit'],
      [{ word: 'till.key.esc' }, 'till.shortcuts.amount.clear'],
      [{ word: 'till.key.enter' }, 'till.shortcuts.amount.charge'],
    ],
  },
  { area: 'till.shortcuts.waiting', keys: [[{ word: 'till.key.esc' }, 'till.shortcuts.waiting.cancel']] },
  {
    area: 'till.shortcuts.pin',
    keys: [
      [{ legend: DIGIT_KEYS }, 'till.shortcuts.pin.digits'],
      [{ word: 'till.key.backspace' }, 'till.shortcuts.removeDigit'],
      [{ word: 'till.key.delete' }, 'till.shortcuts.pin.clear'],
      [{ word: 'till.key.enter' }, 'till.shortcuts.pin.ok'],
      [{ word: 'till.key.esc' }, 'till.shortcuts.pin.cancel'],
    ],
  },
  {
    area: 'till.shortcuts.result',
    keys: [
      [{ word: 'till.key.enter' }, 'till.shortcuts.result.enter'],
      [{ legend: RECEIPT_KEYS.print }, 'till.shortcuts.result.print'],
      [{ legend: RECEIPT_KEYS.email }, 'till.shortcuts.result.email'],
      [{ legend: RECEIPT_KEYS.qr }, 'till.shortcuts.result.qr'],
      [{ legend: RECEIPT_KEYS.none }, 'till.shortcuts.result.none'],
      [{ word: 'till.key.esc' }, 'till.shortcuts.result.other'],
    ],
  },
  { area: 'till.shortcuts.anywhere', keys: [[{ legend: HELP_KEY }, 'till.shortcuts.anywhere.help']] },
];

function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const currency = useSession((s) => s.session?.merchant.currency ?? 'EUR');
  // "1, 2, 0, 0 is 12.00": the example amount in the screens' number form.
  const example = formatNumber(12, currency);
  return (
    <Modal title={t('till.shortcuts.title')} onClose={onClose} className="modal-wide">
      <div className="shortcuts">
        {SHORTCUTS.map((group) => (
          <section key={group.area} className="shortcut-group">
            <h3>{t(group.area)}</h3>
            <dl>
              {group.keys.map(([key, what]) => (
                <div key={what} className="shortcut">
                  <dt>
                    <kbd>{'word' in key ? t(key.word) : key.legend}</kbd>
                  </dt>
                  <dd>{t(what, { example })}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <p className="muted shortcuts-note">{t('till.shortcuts.note')}</p>
      <div className="modal-actions">
        <button type="button" className="button button-primary button-lg" data-autofocus onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}
