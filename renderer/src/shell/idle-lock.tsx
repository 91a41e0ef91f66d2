/**
 * The idle lock of every staff screen: logs out after the gateway's idle time without a key or
 * touch, warns 30 s ahead, and any key keeps the session. Never while the till talks to the bank.
 */
import { useEffect, useRef, useState } from 'react';
import { staffClient } from '../staff/staff-client.js';
import { useSession } from '../session-store.js';
import { useTill } from '../till-screen/till-store.js';
import { translate, useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';

const WARN_SECONDS = 30;

/** Logs out after the gateway's idle time without a key or touch; warns 30 s ahead; any key keeps the session. */
export function IdleLock() {
  const idleSeconds = useSession((s) => s.terminal?.idle_lock_seconds ?? s.session?.idle_timeout_seconds ?? 1800);
  const logout = useSession((s) => s.logout);
  const last = useRef(Date.now());
  const [left, setLeft] = useState<number | null>(null);
  const warned = useRef(false);
  const t = useT();

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
        void logout(translate('shell.idle.locked', { minutes: Math.round(idleSeconds / 60) }));
      } else if (remaining <= WARN_SECONDS) {
        warned.current = true;
        setLeft(Math.ceil(remaining));
      } else if (warned.current) {
        // Kept: tell the gateway too, so its idle clock restarts.
        warned.current = false;
        setLeft(null);
        void staffClient.session().catch(() => undefined);
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
      title={t('shell.idle.title')}
      onClose={() => {
        last.current = Date.now();
      }}
      className="modal-narrow"
    >
      <p className="visually-hidden" role="alert">
        {t('shell.idle.alert')}
      </p>
      <p className="idle-text">{t('shell.idle.text', { seconds: left })}</p>
      <div className="modal-actions">
        <button type="button" className="button button-primary button-lg" data-autofocus onClick={() => (last.current = Date.now())}>
          {t('shell.idle.stay')}
        </button>
      </div>
    </Modal>
  );
}
