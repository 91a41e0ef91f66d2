/**
 * The back office's form fields: a label, the control, its note and its error (the API's words),
 * tied to the control with aria-describedby and aria-invalid, so a screen reader says both.
 */
import { useId, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

function Messages({ id, error, note }: { id: string; error?: string | undefined; note?: string | undefined }) {
  return (
    <>
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {note && (
        <p className="field-note" id={`${id}-note`}>
          {note}
        </p>
      )}
    </>
  );
}

const describedBy = (id: string, error?: string, note?: string) => [error ? `${id}-error` : '', note ? `${id}-note` : ''].filter(Boolean).join(' ');

/** A labelled field: its note and its error (the API's words) tied to the control. */
export function Field({
  label,
  optional,
  note,
  error,
  className,
  children,
}: {
  label: string;
  optional?: boolean;
  note?: string | undefined;
  error?: string | undefined;
  className?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const described = describedBy(id, error, note);
  const props: ControlProps = { id, ...(error ? { 'aria-invalid': true as const } : {}), ...(described ? { 'aria-describedby': described } : {}) };
  return (
    <div className={`field ${className ?? ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
        {optional && (
          <>
            {' '}
            <span className="field-optional">optional</span>
          </>
        )}
      </label>
      {children(props)}
      <Messages id={id} error={error} note={note} />
    </div>
  );
}

/** A checkbox with its own words, in a group named by the field's label; its error and note tied to it. */
export function CheckField({ label, text, note, error, registered }: { label: string; text: string; note?: string | undefined; error?: string | undefined; registered: UseFormRegisterReturn }) {
  const id = useId();
  const described = describedBy(id, error, note);
  return (
    <div className="field" role="group" aria-labelledby={`${id}-label`}>
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <label className="check">
        <input type="checkbox" id={id} aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...registered} /> {text}
      </label>
      <Messages id={id} error={error} note={note} />
    </div>
  );
}
