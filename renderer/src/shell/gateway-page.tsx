/**
 * The gateway behind this app: whether it runs, its API version, and how POS software connects
 * (the API base URL and its documentation). Open to every role; the login screen shows the status.
 */
import { useEffect } from 'react';
import type { Translate } from '../../../contract/i18n/format.js';
import { useGatewayStatus, type GatewayStatus } from '../gateway-status-store.js';
import { useT } from '../ui/i18n.js';

export function GatewayPage() {
  const baseUrl = useGatewayStatus((state) => state.baseUrl);
  const t = useT();
  return (
    <>
      <h1>{t('shell.gateway.title')}</h1>
      <p className="lead">{t('shell.gateway.lead')}</p>
      <section className="card" aria-labelledby="status-heading">
        <h2 id="status-heading">{t('shell.gateway.status')}</h2>
        <GatewayStatusView />
      </section>
      <section className="card" aria-labelledby="connect-heading">
        <h2 id="connect-heading">{t('shell.gateway.connect')}</h2>
        <dl className="facts">
          <dt>{t('shell.gateway.baseUrl')}</dt>
          <dd>
            <code>{baseUrl}</code>
          </dd>
        </dl>
        <ul className="link-list">
          <li>
            <a className="link-button" href="/docs">
              {t('shell.gateway.docs')}
            </a>
          </li>
          <li>
            <a className="link-button" href="/openapi.json">
              {t('shell.gateway.openapi')}
            </a>
          </li>
        </ul>
      </section>
    </>
  );
}

export function GatewayStatusView() {
  const status = useGatewayStatus((state) => state.status);
  const checking = useGatewayStatus((state) => state.checking);
  const check = useGatewayStatus((state) => state.check);
  const t = useT();

  useEffect(() => {
    void check();
  }, [check]);

  const phase = status.phase === 'unknown' ? 'checking' : status.phase;
  return (
    <div className="status-row">
      <p role="status" className={`status status-${phase}`}>
        <span className="status-dot" aria-hidden="true" />
        <span>{statusText(status, t)}</span>
      </p>
      {status.phase === 'failed' && (
        // aria-disabled, not disabled: the button keeps keyboard focus while the retry runs.
        <button type="button" className="button" aria-disabled={checking} onClick={() => void check()}>
          {checking ? t('shell.gateway.retrying') : t('shell.gateway.retry')}
        </button>
      )}
    </div>
  );
}

function statusText(status: GatewayStatus, t: Translate): string {
  switch (status.phase) {
    case 'unknown':
      return t('shell.gateway.checking');
    case 'running':
      return t('shell.gateway.running', { version: status.version });
    case 'failed':
      return t('shell.gateway.failed', { reason: status.failure.message });
  }
}
