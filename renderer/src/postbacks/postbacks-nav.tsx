/**
 * The Postbacks area's two screens as tabs: the delivery log, and the outbox of the Test environment
 * (only there). The environment is asked once per window.
 */
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { create } from 'zustand';
import { useT } from '../ui/i18n.js';
import { postbacksClient } from './postbacks-client.js';

interface EnvironmentState {
  environment: 'test' | 'production' | null;
  load: () => void;
}

export const useEnvironment = create<EnvironmentState>()((set, get) => ({
  environment: null,
  load: () => {
    if (get().environment) return;
    postbacksClient.environment().then(
      (answer) => set({ environment: answer.environment }),
      () => undefined,
    );
  },
}));

export function PostbacksNav({ current }: { current: 'log' | 'outbox' }) {
  const { environment, load } = useEnvironment();
  const t = useT();
  useEffect(() => load(), [load]);
  return (
    <nav className="tabs postbacks-tabs" aria-label={t('postbacks.title')}>
      <Link to="/postbacks" className={current === 'log' ? 'tab tab-current' : 'tab'} aria-current={current === 'log' ? 'page' : undefined}>
        {t('postbacks.nav.log')}
      </Link>
      {environment === 'test' && (
        <Link
          to="/postbacks/outbox"
          className={current === 'outbox' ? 'tab tab-current' : 'tab'}
          aria-current={current === 'outbox' ? 'page' : undefined}
        >
          {t('postbacks.nav.outbox')}
        </Link>
      )}
    </nav>
  );
}
