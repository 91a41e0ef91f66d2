/**
 * The controls of a list's filter bar: a choice among the API's values ("any" first), a range of
 * days, and a search box. Each change goes to the URL through the screen's `onChange`; the search
 * box's text when its form is sent.
 */
import { useId } from 'react';
import { useT } from './i18n.js';

export function SelectFilter<T extends string>({
  label,
  value,
  anyLabel,
  options,
  onChange,
  className,
}: {
  label: string;
  value: T | undefined;
  anyLabel: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T | undefined) => void;
  /** Classes of the select besides `input` (its width). */
  className?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={className ? `input ${className}` : 'input'}
        value={value ?? ''}
        onChange={(event) => onChange((event.target.value || undefined) as T | undefined)}
      >
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "Created from" and "Created to": two days (YYYY-MM-DD), each bounding the other. */
export function DayRangeFilter({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from?: string | undefined; to?: string | undefined }) => void;
}) {
  const ids = { from: useId(), to: useId() };
  const t = useT();
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={ids.from}>
          {t('ui.filters.createdFrom')}
        </label>
        <input
          id={ids.from}
          className="input"
          type="date"
          value={from ?? ''}
          max={to}
          onChange={(event) => onChange({ from: event.target.value || undefined })}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.to}>
          {t('ui.filters.createdTo')}
        </label>
        <input
          id={ids.to}
          className="input"
          type="date"
          value={to ?? ''}
          min={from}
          onChange={(event) => onChange({ to: event.target.value || undefined })}
        />
      </div>
    </>
  );
}

/** A list's search box (labelled by the screen): pasted ids and order ids, so no autocomplete or spell check. */
export function SearchInput({
  id,
  className,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  className: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      id={id}
      className={className}
      type="search"
      autoComplete="off"
      spellCheck={false}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
