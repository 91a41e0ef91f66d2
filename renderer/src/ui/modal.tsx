/**
 * A modal dialog on the native <dialog>: showModal() makes the rest of the page inert (focus stays
 * inside), Esc closes it, and focus goes back to where it was when it closes. The element marked
 * `data-autofocus` gets the focus when it opens.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from './i18n.js';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the dialog, e.g. a width. */
  className?: string;
  /** Set while a request runs: Esc does nothing then. */
  busy?: boolean;
}

export function Modal({ title, onClose, children, className, busy = false }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const t = useT();
  const busyRef = useRef(busy);
  const closeRef = useRef(onClose);
  useEffect(() => {
    busyRef.current = busy;
    closeRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // showModal focuses the first control (the close button); the dialog's own choice wins.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (!busyRef.current) closeRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  return (
    <dialog ref={ref} className={`modal ${className ?? ''}`} aria-labelledby={titleId}>
      <div className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} disabled={busy} onClick={onClose}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      {children}
    </dialog>
  );
}
