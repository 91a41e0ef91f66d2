/**
 * The parts every back-office detail and list screen shares: the page while its object is loading
 * or could not be read, the filter bar with "Clear filters", and a confirmation dialog for a change
 * that cannot be undone.
 */
import type { ReactNode } from 'react';
import { Actions, Problem, useAction } from './dialog-parts.js';
import { useT } from './i18n.js';
import { Modal } from './modal.js';

/** A detail before its object is there: the way back, the title, and Loading… or why it failed. */
export function DetailPending({
  back,
  title,
  titleId,
  failed,
  error,
}: {
  back: ReactNode;
  title: string;
  titleId: string;
  failed: boolean;
  error: string | null;
}) {
  const t = useT();
  return (
    <section aria-labelledby={titleId}>
      {back}
      <h1 id={titleId}>{title}</h1>
      {failed ? (
        <p className="form-problem" role="alert">
          {error}
        </p>
      ) : (
        <p className="loading" role="status">
          {t('common.loading')}
        </p>
      )}
    </section>
  );
}

/**
 * A list's filters (a search landmark named `label`), with Clear filters while any is set. Picked
 * filters apply at once; a typed one applies on Enter or a submit button (`onSubmit`).
 */
export function FilterBar({
  label,
  active,
  onClear,
  onSubmit,
  children,
}: {
  label: string;
  active: boolean;
  onClear: () => void;
  onSubmit?: () => void;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <form
      className="filters"
      role="search"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit?.();
      }}
    >
      {children}
      {active && (
        <button type="button" className="button button-quiet" onClick={onClear}>
          {t('ui.filters.clear')}
        </button>
      )}
    </form>
  );
}

interface ConfirmDialogProps<T> {
  title: string;
  children: ReactNode;
  /** The safe choice (focused first), e.g. "Keep it". */
  keepLabel: string;
  /** The change, e.g. "Archive token", and its words while it runs, e.g. "Archiving…". */
  confirmLabel: string;
  busyLabel: string;
  /** What the change is called in a problem, e.g. "Archiving the token". */
  what: string;
  run: () => Promise<T>;
  onClose: () => void;
  onDone: (result: T) => void;
}

/** Asks before a change that cannot be undone; the gateway's refusal is shown in its words. */
export function ConfirmDialog<T>({
  title,
  children,
  keepLabel,
  confirmLabel,
  busyLabel,
  what,
  run,
  onClose,
  onDone,
}: ConfirmDialogProps<T>) {
  const action = useAction();
  const confirm = async () => {
    const result = await action.run(what, run);
    if (result !== undefined) onDone(result);
  };
  return (
    <Modal title={title} onClose={onClose} busy={action.busy} className="modal-narrow">
      {children}
      <Problem text={action.problem} />
      <Actions>
        <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy} data-autofocus>
          {keepLabel}
        </button>
        <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={action.busy}>
          {action.busy ? busyLabel : confirmLabel}
        </button>
      </Actions>
    </Modal>
  );
}
