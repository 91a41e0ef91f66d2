/**
 * Staff set or change their own PIN: the till login and a manager's approval of a refund take it.
 * Confirmed with the password, so a session left open at the till cannot change it.
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/transport.js';
import { staffClient } from './staff-client.js';
import { translate, useT } from '../ui/i18n.js';
import { CheckIcon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';

function problemOf(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'api') {
    if (error.status === 403 && error.errors.some((e) => e.field === 'password')) return translate('shell.pin.wrongPassword');
    if (error.status === 429) return translate('shell.pin.tooMany', { seconds: error.retryAfterSeconds ?? 60 });
    if (error.status === 400) return translate('shell.pin.digits');
    return error.message;
  }
  return error instanceof Error ? error.message : translate('shell.pin.failed');
}

export function OwnPinDialog({ onClose }: { onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const t = useT();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!password) return setProblem(t('shell.pin.enterPassword'));
    if (!/^\d{4,8}$/.test(pin)) return setProblem(t('shell.pin.newDigits'));
    if (pin !== again) return setProblem(t('shell.pin.differ'));
    setBusy(true);
    setProblem(null);
    try {
      await staffClient.setOwnPin(password, pin);
      setDone(true);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
      setPassword('');
    }
  };

  if (done) {
    return (
      <Modal title={t('shell.pin.doneTitle')} onClose={onClose} className="modal-narrow">
        <div className="refund-done" role="status">
          <CheckIcon size={56} className="refund-done-icon" />
          <p>{t('shell.pin.doneText')}</p>
        </div>
        <div className="modal-actions">
          <button type="button" className="button button-primary button-lg" data-autofocus onClick={onClose}>
            {t('shell.pin.done')}
          </button>
        </div>
      </Modal>
    );
  }

  const digits = (value: string) => value.replace(/\D/g, '').slice(0, 8);
  return (
    <Modal title={t('shell.pin.title')} onClose={onClose} busy={busy} className="modal-narrow">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p className="field-note">{t('shell.pin.note')}</p>
        <label className="field">
          <span className="field-label">{t('shell.pin.password')}</span>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            data-autofocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('shell.pin.new')}</span>
          <input
            className="input"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            value={pin}
            onChange={(event) => setPin(digits(event.target.value))}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('shell.pin.again')}</span>
          <input
            className="input"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            value={again}
            onChange={(event) => setAgain(digits(event.target.value))}
          />
        </label>
        <p className="form-problem" role="alert">
          {problem ?? ''}
        </p>
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
            {busy ? t('common.saving') : t('shell.pin.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
