/**
 * The gateway behind this app: whether it runs, its API version, and how POS software connects
 * (the API base URL and its documentation). Open to every role; the login screen shows the status.
 */
import { useEffect } from 'react';
import { useGatewayStatus, type GatewayStatus } from '../gateway-status-store.js';

export function GatewayPage() {
  const baseUrl = useGatewayStatus((state) => state.baseUrl);
  return (
    <>
      <h1>Gateway</h1>
      <p className="lead">
        This gateway runs the Test environment: a simulated acquirer, card networks and banks. No real card is charged and no
        real money moves.
      </p>
      <section className="card" aria-labelledby="status-heading">
        <h2 id="status-heading">Gateway status</h2>
        <GatewayStatusView />
      </section>
      <section className="card" aria-labelledby="connect-heading">
        <h2 id="connect-heading">Connect a point of sale</h2>
        <dl className="facts">
          <dt>API base URL</dt>
          <dd>
            <code>{baseUrl}</code>
          </dd>
        </dl>
        <ul className="link-list">
          <li>
            <a className="link-button" href="/docs">
              API documentation
            </a>
          </li>
          <li>
            <a className="link-button" href="/openapi.json">
              OpenAPI document
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

  useEffect(() => {
    void check();
  }, [check]);

  const phase = status.phase === 'unknown' ? 'checking' : status.phase;
  return (
    <div className="status-row">
      <p role="status" className={`status status-${phase}`}>
        <span className="status-dot" aria-hidden="true" />
        <span>{statusText(status)}</span>
      </p>
      {status.phase === 'failed' && (
        // aria-disabled, not disabled: the button keeps keyboard focus while the retry runs.
        <button type="button" className="button" aria-disabled={checking} onClick={() => void check()}>
          {checking ? 'Retrying…' : 'Retry'}
        </button>
      )}
    </div>
  );
}

function statusText(status: GatewayStatus): string {
  switch (status.phase) {
    case 'unknown':
      return 'Checking the gateway…';
    case 'running':
      return `Gateway running, API version ${status.version}`;
    case 'failed':
      return `Gateway not available. ${status.failure.message}`;
  }
}
