/**
 * The Cashier area sells on this screen's till: the gate takes it first ("Which till is this?"
 * where the shop has several; nothing asked where it has one), says when another screen has it
 * open or took it over, and shows the till in the Cashier bar with "Change till".
 */
import { useEffect, type ReactNode } from 'react';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatTime } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import { useThisTill } from './this-till-store.js';
import type { Till } from './tills-client.js';

function holderText(t: Translate, till: Till): string | null {
  if (!till.holder || till.holder.this_screen) return null;
  const time = formatTime(till.holder.seen_at);
  return till.holder.staff_name ? t('tills.holder.named', { name: till.holder.staff_name, time }) : t('tills.holder', { time });
}

function TillButtons({ tills, onChoose }: { tills: Till[]; onChoose: (tillId: string) => void }) {
  const t = useT();
  return (
    <ul className="till-choices">
      {tills.map((till) => {
        const busy = holderText(t, till);
        return (
          <li key={till.till_id}>
            <button
              type="button"
              className="button till-choice"
              onClick={() => onChoose(till.till_id)}
              aria-describedby={busy ? `till-busy-${till.till_id}` : undefined}
            >
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
  const t = useT();
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
          {t('tills.opening')}
        </p>
      );
    case 'failed':
      return (
        <section className="card till-gate" aria-labelledby="till-gate-title">
          <h2 id="till-gate-title">{t('tills.failed')}</h2>
          <p role="alert">{state.message}</p>
          <button type="button" className="button button-primary button-lg" onClick={() => void open()}>
            {t('common.retry')}
          </button>
        </section>
      );
    case 'choosing':
      return (
        <section className="card till-gate" aria-labelledby="till-gate-title">
          <h2 id="till-gate-title">{t('tills.choose.title')}</h2>
          <p className="lead">{t('tills.choose.lead', { count: state.tills.length })}</p>
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
          <h2 id="till-gate-title">{t('tills.inUse.title', { till: state.till.name })}</h2>
          <p role="alert">{t('tills.inUse.text', { reason: state.message })}</p>
          <div className="till-gate-actions">
            <button type="button" className="button button-primary button-lg" onClick={() => void choose(state.till.till_id, true)}>
              {t('tills.inUse.useAnyway', { till: state.till.name })}
            </button>
          </div>
          {state.tills.length > 1 && (
            <>
              <h3>{t('tills.inUse.other')}</h3>
              <TillButtons tills={state.tills.filter((t) => t.till_id !== state.till.till_id)} onChoose={(tillId) => void choose(tillId)} />
            </>
          )}
        </section>
      );
    case 'lost':
      return (
        <section className="card till-gate" aria-labelledby="till-gate-title">
          <h2 id="till-gate-title">{t('tills.lost.title', { till: state.till.name })}</h2>
          <p role="alert">{t(state.message.id, state.message.values)}</p>
          <div className="till-gate-actions">
            <button type="button" className="button button-primary button-lg" onClick={() => void useThisTill.getState().change()}>
              {t('tills.lost.choose')}
            </button>
            <button type="button" className="button button-lg" onClick={() => void choose(state.till.till_id, true)}>
              {t('tills.lost.takeBack', { till: state.till.name })}
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
  const t = useT();
  if (state.name !== 'held') return null;
  return (
    <div className="till-badge">
      <span className="till-badge-name" title={t('tills.badge.title', { id: state.till.till_id })}>
        {state.till.name}
        {state.till.name !== state.till.till_id && <span className="till-badge-id"> {state.till.till_id}</span>}
      </span>
      {choices > 1 && (
        <button
          type="button"
          className="button button-quiet"
          aria-label={t('tills.badge.changeLabel')}
          onClick={() => void useThisTill.getState().change()}
        >
          {t('tills.badge.change')}
        </button>
      )}
    </div>
  );
}
