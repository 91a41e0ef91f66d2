/**
 * What the Settings screens share: the area's frame (its title and the sections as links, each
 * with its own URL), reading a screen's data with Loading… / the problem and Try again, and a
 * refused change's problems placed at the form's fields (the API names each field) with what names
 * no field above the form.
 */
import { Link, Outlet } from '@tanstack/react-router';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { StaffRole } from '../../../contract/constants.js';
import { ApiError } from '../api/transport.js';
import { problemText, sessionEnded } from '../api/problems.js';
import { translate, useT } from '../ui/i18n.js';

const SECTIONS = [
  { to: '/settings', label: 'settings.section.shops', exact: true },
  { to: '/settings/profile', label: 'settings.section.profile' },
  { to: '/settings/channels', label: 'settings.section.channels' },
  { to: '/settings/credentials', label: 'settings.section.credentials' },
  { to: '/settings/staff', label: 'settings.section.staff' },
  { to: '/settings/tills', label: 'settings.section.tills' },
  { to: '/settings/smtp', label: 'settings.section.smtp' },
  { to: '/settings/audit', label: 'settings.section.audit' },
] as const satisfies ReadonlyArray<{ to: string; label: MessageId; exact?: true }>;

/** Each staff role's name, as Settings shows it (a new role does not compile without one). */
export const ROLE_NAMES: Readonly<Record<StaffRole, MessageId>> = {
  cashier: 'settings.role.cashier',
  back_office: 'settings.role.backOffice',
  admin: 'settings.role.admin',
};

/** What a message's rich parts may be: plain values, or tags (`<hidden>…</hidden>`) made into elements. */
export type RichValues = Record<string, string | number | ((chunks: ReactNode[]) => ReactNode)>;

/** A message with elements in it (a link, a code, words only a screen reader says): `rich('settings.x', { link: (c) => <Link>{c}</Link> })`. */
export function useRich(): (id: MessageId, values: RichValues) => ReactNode {
  const intl = useIntl();
  return useCallback((id: MessageId, values: RichValues) => intl.formatMessage({ id }, values), [intl]);
}

/** `<hidden>…</hidden>` in a message: words for screen readers only (a button's object). */
export const hidden = (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>;

/** Settings: the title, the sections, and the open section. */
export function SettingsLayout() {
  const t = useT();
  return (
    <div className="settings">
      <h1>{t('settings.title')}</h1>
      <nav className="settings-sections" aria-label={t('settings.sections')}>
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <Link
                to={section.to}
                className="settings-section"
                activeOptions={{ exact: 'exact' in section }}
                activeProps={{ className: 'settings-section settings-section-current', 'aria-current': 'page' }}
              >
                {t(section.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

/** Reads a screen's data: `data` once there, else Loading… or the problem with Try again; `failed` says it could not be loaded. */
export function useLoaded<T>(read: () => Promise<T>, failed: MessageId) {
  const [data, setData] = useState<T | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    setProblem(null);
    try {
      setData(await read());
    } catch (error) {
      if (!sessionEnded(error)) setProblem(problemText(error, translate(failed)));
    }
  }, [read, failed]);
  useEffect(() => {
    void load();
  }, [load]);
  return { data, problem, load, setData };
}

/** Loading… or the problem with Try again while `data` is not there. */
export function Pending({ problem, retry }: { problem: string | null; retry: () => void }) {
  const t = useT();
  return problem ? (
    <p className="form-problem" role="alert">
      {problem}{' '}
      <button type="button" className="button button-small" onClick={retry}>
        {t('common.retry')}
      </button>
    </p>
  ) : (
    <p className="loading" role="status">
      {t('common.loading')}
    </p>
  );
}

export type Problems<K extends string> = Partial<Record<K | 'form', string>>;

/** A field's problem as the gateway said it, after the field's name: "Till id is taken: …". */
export const fieldProblem = (field: MessageId, problem: string) =>
  translate('settings.problem.field', { field: translate(field), problem });

/** A refused change: each problem at its field of `fields` (named by the message each names), the rest for the form. */
export function problemsOf<K extends string>(error: unknown, what: string, fields: Readonly<Record<K, MessageId>>): Problems<K> {
  if (!(error instanceof ApiError) || error.kind !== 'api' || error.errors.length === 0)
    return { form: problemText(error, what) } as Problems<K>;
  const problems: Problems<K> = {};
  const other: string[] = [];
  for (const e of error.errors) {
    if (e.field in fields) problems[e.field as K] ??= fieldProblem(fields[e.field as K], e.message);
    else other.push(`${e.field} ${e.message}`);
  }
  if (other.length) problems.form = translate('settings.problem.others', { what, problems: other.join('; ') });
  return problems;
}

/** Focus the first field with a problem (by id `${prefix}-${field}`) after a refusal. */
export function focusFirst(prefix: string, problems: Record<string, string | undefined>): void {
  const first = Object.keys(problems).find((key) => key !== 'form' && problems[key]);
  if (first) requestAnimationFrame(() => document.getElementById(`${prefix}-${first}`)?.focus());
}

/** A labelled control with its problem and note tied to it (aria-describedby, aria-invalid). */
export function SettingField({
  id,
  label,
  problem,
  note,
  optional,
  children,
}: {
  id: string;
  label: string;
  problem?: string | undefined;
  note?: string | undefined;
  optional?: boolean;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const t = useT();
  const described = [problem ? `${id}-error` : '', note ? `${id}-note` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
        {optional && (
          <>
            {' '}
            <span className="field-optional">{t('settings.optional')}</span>
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
