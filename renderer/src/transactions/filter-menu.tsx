/**
 * A filter of several choices (statuses, payment types): a button that says what is chosen and opens
 * a panel of checkboxes. Each tick applies at once. Esc or a click beside it closes the panel and
 * gives the focus back to the button; Tab out of it closes it too.
 */
import { useEffect, useId, useRef, useState, type FocusEvent } from 'react';
import { useT } from '../ui/i18n.js';

export interface Choice {
  value: string;
  label: string;
  /** What the closed button says for this choice; default its label. */
  short?: string;
}

interface FilterMenuProps {
  label: string;
  choices: readonly Choice[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  /** What the button says when nothing is chosen. */
  anyText: string;
  /** The panel's button that unticks every choice ("Any payment type"). */
  clearText: string;
}

export function FilterMenu({ label, choices, selected, onChange, anyText, clearText }: FilterMenuProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const chosen = choices.filter((c) => selected.includes(c.value));
  const summary =
    chosen.length === 0
      ? anyText
      : chosen.length <= 2
        ? chosen.map((c) => c.short ?? c.label).join(', ')
        : t('transactions.filter.chosen', { count: chosen.length });

  useEffect(() => {
    if (!open) return undefined;
    wrap.current?.querySelector<HTMLInputElement>('input')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (event.target instanceof Node && !wrap.current?.contains(event.target)) setOpen(false);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, [open]);

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next)) setOpen(false);
  };

  const toggle = (value: string) => {
    const next = selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value];
    onChange(choices.map((c) => c.value).filter((v) => next.includes(v)));
  };

  return (
    <div className="field filter-menu" ref={wrap} onBlur={onBlur}>
      <span className="field-label" aria-hidden="true">
        {label}
      </span>
      <button
        ref={button}
        type="button"
        className={`input filter-menu-button${chosen.length ? ' filter-menu-set' : ''}`}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t('transactions.filter.menuLabel', { label, summary })}
        onClick={() => setOpen((was) => !was)}
      >
        <span className="filter-menu-summary">{summary}</span>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {open && (
        <div id={panelId} className="filter-menu-panel">
          <fieldset>
            <legend className="visually-hidden">{label}</legend>
            {choices.map((choice) => (
              <label key={choice.value} className="filter-menu-choice">
                <input type="checkbox" checked={selected.includes(choice.value)} onChange={() => toggle(choice.value)} />
                <span>{choice.label}</span>
              </label>
            ))}
          </fieldset>
          {selected.length > 0 && (
            <button type="button" className="button button-quiet button-small filter-menu-clear" onClick={() => onChange([])}>
              {clearText}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
