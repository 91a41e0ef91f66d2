/**
 * What the Settings screens share: the area's frame (its title and the sections as links, each
 * with its own URL), reading a screen's data with Loading… / the problem and Try again, and a
 * refused change's problems placed at the form's fields (the API names each field) with what names
 * no field above the form.
 */
import { Link, Outlet } from '@tanstack/react-router';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client.js';
import { problemText, sessionEnded } from '../api/problems.js';

const SECTIONS = [
  { to: '/settings', label: 'Shops and terminals', exact: true },
  { to: '/settings/profile', label: 'Profile' },
  { to: '/settings/channels', label: 'Channels' },
  { to: '/settings/credentials', label: 'API credentials' },
  { to: '/settings/staff', label: 'Staff' },
  { to: '/settings/tills', label: 'Tills' },
  { to: '/settings/smtp', label: 'E-mail (SMTP)' },
  { to: '/settings/audit', label: 'Audit log' },
] as const;

/** Settings: the title, the sections, and the open section. */
export function SettingsLayout() {
  return (
    <div className="settings">
      <h1>Settings</h1>
      <nav className="settings-sections" aria-label="Settings sections">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <Link to={section.to} className="settings-section" activeOptions={{ exact: 'exact' in section }} activeProps={{ className: 'settings-section settings-section-current', 'aria-current': 'page' }}>
                {section.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

/** Reads a screen's data: `data` once there, else Loading… or the problem with Try again. */
export function useLoaded<T>(read: () => Promise<T>, what: string) {
  const [data, setData] = useState<T | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    setProblem(null);
    try {
      setData(await read());
    } catch (error) {
      if (!sessionEnded(error)) setProblem(problemText(error, `${what} could not be loaded`));
    }
  }, [read, what]);
  useEffect(() => {
    void load();
  }, [load]);
  return { data, problem, load, setData };
}

/** Loading… or the problem with Try again while `data` is not there. */
export function Pending({ problem, retry }: { problem: string | null; retry: () => void }) {
  return problem ? (
    <p className="form-problem" role="alert">
      {problem}{' '}
      <button type="button" className="button button-small" onClick={retry}>
        Try again
      </button>
    </p>
  ) : (
    <p className="loading" role="status">
      Loading…
    </p>
  );
}

export type Problems<K extends string> = Partial<Record<K | 'form', string>>;

const said = (field: string, message: string) => `${(field.charAt(0).toUpperCase() + field.slice(1)).replaceAll('_', ' ')} ${message}.`;

/** A refused change: each problem at its field of `fields` (named as `names` says), the rest for the form. */
export function problemsOf<K extends string>(error: unknown, what: string, fields: Readonly<Record<K, string>>): Problems<K> {
  if (!(error instanceof ApiError) || error.kind !== 'api' || error.errors.length === 0) return { form: problemText(error, what) } as Problems<K>;
  const problems: Problems<K> = {};
  const other: string[] = [];
  for (const e of error.errors) {
    if (e.field in fields) problems[e.field as K] ??= said(fields[e.field as K], e.message);
    else other.push(`${e.field} ${e.message}`);
  }
  if (other.length) problems.form = `${what}: ${other.join('; ')}.`;
  return problems;
}

/** Focus the first field with a problem (by id `${prefix}-${field}`) after a refusal. */
export function focusFirst(prefix: string, problems: Record<string, string | undefined>): void {
  const first = Object.keys(problems).find((key) => key !== 'form' && problems[key]);
  if (first) requestAnimationFrame(() => document.getElementById(`${prefix}-${first}`)?.focus());
}

/** A labelled control with its problem and note tied to it (aria-describedby, aria-invalid). */
export function SettingField({ id, label, problem, note, optional, children }: { id: string; label: string; problem?: string | undefined; note?: string | undefined; optional?: boolean; children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const described = [problem ? `${id}-error` : '', note ? `${id}-note` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
        {optional && (
          <>
            {' '}
            <span className="field-optional">optional</span>
          </>
        )}
      </label>
      {children({ id, ...(problem ? { 'aria-invalid': true as const } : {}), ...(described ? { 'aria-describedby': described } : {}) })}
      {problem && (
        <p className="field-error" id={`${id}-error`}>
          {problem}
        </p>
      )}
      {note && (
        <p className="field-note" id={`${id}-note`}>
          {note}
        </p>
      )}
    </div>
  );
}

/** A refusal that names no field of the form, above the form (always there as an alert region). */
export function FormProblem({ text }: { text: string | undefined }) {
  return (
    <p className="form-problem" role="alert">
      {text ?? ''}
    </p>
  );
}

export const LANGUAGE_NAMES: Record<string, string> = { en: 'English', de: 'Deutsch', pt: 'Português' };
