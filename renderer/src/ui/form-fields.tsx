/**
 * The back office's form fields: a label, the control, its note and its error (the API's words),
 * tied to the control with aria-describedby and aria-invalid, so a screen reader says both.
 */
import { useId, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { currencyList } from '../../../contract/money.js';
import { useT } from './i18n.js';

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

const describedBy = (id: string, error?: string, note?: string) =>
  [error ? `${id}-error` : '', note ? `${id}-note` : ''].filter(Boolean).join(' ');

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
  const t = useT();
  const described = describedBy(id, error, note);
  const props: ControlProps = {
    id,
    ...(error ? { 'aria-invalid': true as const } : {}),
    ...(described ? { 'aria-describedby': described } : {}),
  };
  return (
    <div className={`field ${className ?? ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
        {optional && (
          <>
            {' '}
            <span className="field-optional">{t('ui.field.optional')}</span>
          </>
        )}
      </label>
      {children(props)}
      <Messages id={id} error={error} note={note} />
    </div>
  );
}

/** A checkbox with its own words, in a group named by the field's label; its error and note tied to it. */
export function CheckField({
  label,
  text,
  note,
  error,
  registered,
}: {
  label: string;
  text: string;
  note?: string | undefined;
  error?: string | undefined;
  registered: UseFormRegisterReturn;
}) {
  const id = useId();
  const described = describedBy(id, error, note);
  return (
    <div className="field" role="group" aria-labelledby={`${id}-label`}>
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <label className="check">
        <input type="checkbox" id={id} aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...registered} />{' '}
        {text}
      </label>
      <Messages id={id} error={error} note={note} />
    </div>
  );
}

/**
 * What to fix before the form can be sent: each field's problem and those that name no field,
 * announced when it appears (role alert). The form points at it with aria-describedby `id`.
 */
export function FormSummary({
  id,
  errors,
  other,
}: {
  id: string;
  errors: Record<string, { message?: string } | undefined>;
  other: readonly string[];
}) {
  const t = useT();
  const lines = [
    ...Object.entries(errors)
      .filter(([key, value]) => key !== 'root' && value?.message)
      .map(([key, value]) => ({ key, text: value?.message ?? '' })),
    ...other.map((text) => ({ key: `other-${text}`, text })),
  ];
  if (lines.length === 0) return null;
  return (
    <div id={id} className="form-summary" role="alert">
      <h2>{t('ui.form.toFix', { count: lines.length })}</h2>
      <ul>
        {lines.map((line) => (
          <li key={line.key}>{line.text}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The API's field errors by the form's fields: `formField` finds the form's field for the API's
 * name, `said` words the message for it; what names no field of the form comes back as lines
 * ("field: message") for the summary. For a resolver that asks the gateway's check.
 */
export function problemsByField<K extends string>(
  problems: ReadonlyArray<{ field: string; message: string }>,
  formField: (field: string) => K | undefined,
  said: (field: K, message: string) => string,
): { errors: Partial<Record<K, { type: 'api'; message: string }>>; other: string[] } {
  const errors: Partial<Record<K, { type: 'api'; message: string }>> = {};
  const other: string[] = [];
  for (const problem of problems) {
    const field = formField(problem.field);
    if (!field) other.push(`${problem.field}: ${problem.message}`);
    else errors[field] ??= { type: 'api', message: said(field, problem.message) };
  }
  return { errors, other };
}

/**
 * Puts the API's field errors of a refused request where they belong: `place(field, message)` on the
 * form's field (focus on the first); the rest returned as lines for the summary.
 */
export function placeApiErrors<K extends string>(
  problems: ReadonlyArray<{ field: string; message: string }>,
  formField: (field: string) => K | undefined,
  said: (field: K, message: string) => string,
  place: (field: K, message: string, focus: boolean) => void,
): string[] {
  const { errors, other } = problemsByField(problems, formField, said);
  (Object.entries(errors) as Array<[K, { message: string }]>).forEach(([field, error], index) => place(field, error.message, index === 0));
  return other;
}

const CURRENCIES = currencyList();

/** A currency code, typed or picked from the gateway's currencies (ISO 4217, contract/money.ts). */
export function CurrencyInput({
  listId,
  props,
  registered,
  placeholder,
}: {
  listId: string;
  props: ControlProps;
  registered: UseFormRegisterReturn;
  placeholder?: string | undefined;
}) {
  return (
    <>
      <input
        className="input"
        list={listId}
        autoComplete="off"
        spellCheck={false}
        maxLength={8}
        placeholder={placeholder}
        {...props}
        {...registered}
      />
      <CurrencyOptions id={listId} />
    </>
  );
}

/** The gateway's currencies as a datalist, for a currency input's `list`. */
export function CurrencyOptions({ id }: { id: string }) {
  return (
    <datalist id={id}>
      {CURRENCIES.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </datalist>
  );
}
