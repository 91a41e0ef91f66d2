/**
 * The pieces of the back office's dialogs (on ui/modal.tsx): one gateway call at a time with its
 * busy state and the API's words when it refuses, the problem line, the row of buttons.
 */
import { useState, type ReactNode } from 'react';
import { problemText, sessionEnded } from '../api/problems.js';
import { useT } from './i18n.js';

/** Runs one gateway call for a dialog: busy while it runs, the API's words when it refuses. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async <T,>(what: string, call: () => Promise<T>): Promise<T | undefined> => {
    if (busy) return undefined;
    setBusy(true);
    setProblem(null);
    try {
      return await call();
    } catch (error) {
      if (!sessionEnded(error)) setProblem(problemText(error, what));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, setProblem, run };
}

/** The dialog's problem line: always there (an alert region), empty while there is none. */
export function Problem({ text }: { text: string | null }) {
  return (
    <p className="form-problem" role="alert">
      {text ?? ''}
    </p>
  );
}

export function Actions({ children }: { children: ReactNode }) {
  return <div className="modal-actions">{children}</div>;
}

/** A dialog form's Cancel and submit buttons; the submit reads `busyLabel` while its call runs. */
export function FormActions({
  submitLabel,
  busyLabel,
  busy,
  onCancel,
}: {
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  onCancel: () => void;
}) {
  const t = useT();
  return (
    <Actions>
      <button type="button" className="button button-quiet" onClick={onCancel} disabled={busy}>
        {t('common.cancel')}
      </button>
      <button type="submit" className="button button-primary" aria-disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </Actions>
  );
}
