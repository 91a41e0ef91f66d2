/**
 * The Cashier area sells on this screen's till: the gate takes it first ("Which till is this?"
 * where the shop has several; nothing asked where it has one), says when another screen has it
 * open or took it over, and shows the till in the Cashier bar with "Change till".
 */
import { useEffect, type ReactNode } from 'react';
import { formatTime } from '../ui/format.js';
import { useThisTill } from './this-till-store.js';
import type { Till } from './tills-client.js';

function holderText(till: Till): string | null {
  if (!till.holder || till.holder.this_screen) return null;
  return `open on another screen${till.holder.staff_name ? ` (${till.holder.staff_name})` : ''}, seen ${formatTime(till.holder.seen_at)}`;
}

function TillButtons({ tills, onChoose }: { tills: Till[]; onChoose: (tillId: string) => void }) {
  return (
    <ul className="till-choices">
      {tills.map((till) => {
        const busy = holderText(till);
        return (
          <li key={till.till_id}>
            <button type="button" className="button till-choice" onClick={() => onChoose(till.till_id)} aria-describedby={busy ? `till-busy-${till.till_id}` : undefined}>
              <span className="till-choice-name">{till.name}</span>
              <span className="till-choice-id">{till.till_id}</span>
            </button>
            {busy && (
              <span className="till-choice-busy" id={`till-busy-${till.till_id}`}>
                {busy}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * `optional`: the screen works without a till too (Close the day: a manager reads the shop's day);
 * the till is taken where nothing must be asked, and the children decide what a screen without one
 * shows (useThisTill's state).
 */
export function TillGate({ children, optional = false }: { children: ReactNode; optional?: boolean }) {
  const state = useThisTill((s) => s.state);
  const { open, choose } = useThisTill.getState();
  useEffect(() => {
    void open();
  }, [open]);
  if (optional && state.name !== 'idle' && state.name !== 'loading') return <>{children}</>;

  switch (state.name) {
    case 'held':
      return <>{children}</>;
    case 'idle':
    case 'loading':
      return (
        <p className="muted till-gate-wait" role="status">
          Opening the till…
        </p>
      );
    case 'failed':
      return (
        <section className="card till-gate" aria-labelledby="till-gate-title">
          <h2 id="till-gate-title">The till could not be opened</h2>
          <p role="alert">{state.message}</p>
          <button type="button" className="button button-primary button-lg" onClick={() => void open()}>
            Try again
          </button>
        </section>
      );
    case 'choosing':
      return (
        <section className="card till-gate" aria-labelledby="till-gate-title">
          <h2 id="till-gate-title">Which till is this?</h2>
          <p className="lead">This shop has {state.tills.length} tills. Choose the one this screen sells on; this browser remembers it.</p>
          {state.problem && (
            <p className="form-problem" role="alert">
              {state.problem}
            </p>
          )}
          <TillButtons tills={state.tills} onChoose={(tillId) => void choose(tillId)} />
        </section>
      );
    case 'in_use':
      return (
        <section className="card till-gate" aria-labelledby="till-gate-title">
          <h2 id="till-gate-title">{state.till.name} is open on another screen</h2>
          <p role="alert">
            {state.message}. Two screens on one till would share its sales and its day. Use it here only if that screen is not in use; it is then told that this screen
            took the till over.
          </p>
          <div className="till-gate-actions">
            <button type="button" className="button button-primary button-lg" onClick={() => void choose(state.till.till_id, true)}>
              Use {state.till.name} here anyway
            </button>
          </div>
          {state.tills.length > 1 && (
            <>
              <h3>Or choose another till</h3>
              <TillButtons tills={state.tills.filter((t) => t.till_id !== state.till.till_id)} onChoose={(tillId) => void choose(tillId)} />
            </>
          )}
        </section>
      );
    case 'lost':
      return (
        <section className="card till-gate" aria-labelledby="till-gate-title">
          <h2 id="till-gate-title">This screen is no longer {state.till.name}</h2>
          <p role="alert">{state.message}</p>
          <div className="till-gate-actions">
            <button type="button" className="button button-primary button-lg" onClick={() => void useThisTill.getState().change()}>
              Choose a till
            </button>
            <button type="button" className="button button-lg" onClick={() => void choose(state.till.till_id, true)}>
              Take {state.till.name} back
            </button>
          </div>
        </section>
      );
  }
}

/** The Cashier bar's till: its name and id, and "Change till" where the shop has a choice. */
export function TillBadge() {
  const state = useThisTill((s) => s.state);
  const choices = useThisTill((s) => s.choices);
  if (state.name !== 'held') return null;
  return (
    <div className="till-badge">
      <span className="till-badge-name" title={`Terminal id ${state.till.till_id}`}>
        {state.till.name}
        {state.till.name !== state.till.till_id && <span className="till-badge-id"> {state.till.till_id}</span>}
      </span>
      {choices > 1 && (
        <button type="button" className="button button-quiet" aria-label="Change till" onClick={() => void useThisTill.getState().change()}>
          Change
        </button>
      )}
    </div>
  );
}
