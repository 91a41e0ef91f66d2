/**
 * Staff set or change their own PIN: the till login and a manager's approval of a refund take it.
 * Confirmed with the password, so a session left open at the till cannot change it.
 */
import { useState, type FormEvent } from 'react';
import { ApiError, client } from '../api/client.js';
import { CheckIcon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';

function problemOf(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'api') {
    if (error.status === 403 && error.errors.some((e) => e.field === 'password')) return 'Your password is wrong. The PIN was not changed.';
    if (error.status === 429) return `Too many failed attempts. Try again in ${error.retryAfterSeconds ?? 60} seconds.`;
    if (error.status === 400) return 'The PIN must be 4 to 8 digits.';
    return error.message;
  }
  return error instanceof Error ? error.message : 'The PIN could not be set.';
}

export function OwnPinDialog({ onClose }: { onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!password) return setProblem('Enter your password.');
    if (!/^\d{4,8}$/.test(pin)) return setProblem('The new PIN must be 4 to 8 digits.');
    if (pin !== again) return setProblem('The two PINs differ. Type the new PIN twice.');
    setBusy(true);
    setProblem(null);
    try {
      await client.setOwnPin(password, pin);
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
      <Modal title="PIN set" onClose={onClose} className="modal-narrow">
        <div className="refund-done" role="status">
          <CheckIcon size={56} className="refund-done-icon" />
          <p>Your new PIN works from now on: to log in at the till and to approve refunds.</p>
        </div>
        <div className="modal-actions">
          <button type="button" className="button button-primary button-lg" data-autofocus onClick={onClose}>
            Done
          </button>
        </div>
      </Modal>
    );
  }

  const digits = (value: string) => value.replace(/\D/g, '').slice(0, 8);
  return (
    <Modal title="Set my PIN" onClose={onClose} busy={busy} className="modal-narrow">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p className="field-note">A PIN of 4 to 8 digits logs you in at the till and approves refunds. Keep it to yourself.</p>
        <label className="field">
          <span className="field-label">Your password</span>
          <input className="input" type="password" autoComplete="current-password" data-autofocus value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">New PIN</span>
          <input className="input" type="password" inputMode="numeric" autoComplete="off" maxLength={8} value={pin} onChange={(event) => setPin(digits(event.target.value))} />
        </label>
        <label className="field">
          <span className="field-label">New PIN again</span>
          <input className="input" type="password" inputMode="numeric" autoComplete="off" maxLength={8} value={again} onChange={(event) => setAgain(digits(event.target.value))} />
        </label>
        <p className="form-problem" role="alert">
          {problem ?? ''}
        </p>
        <div className="modal-actions">
          <button type="button" className="button button-lg" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
            {busy ? 'Saving…' : 'Set PIN'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
