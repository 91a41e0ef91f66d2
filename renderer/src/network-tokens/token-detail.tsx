/**
 * One network token (`#/network-tokens/<id>`): network, status, the last fours of token and card,
 * created and refreshed; the token data masked until a back-office user asks for it (the gateway
 * writes that to the audit log first), then shown for 30 seconds and masked again; a cryptogram
 * shown once; archive with confirmation; the status history; and in the Test environment the
 * simulated token service's suspend, resume and refresh. A token on its way (requested, archiving)
 * is read again every second until it settles.
 */
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { SimulateAction } from '../../../contract/constants.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { DetailPending } from '../ui/detail-parts.js';
import { Fact } from '../ui/facts.js';
import { formatDateTime, formatDateTimeSeconds } from '../ui/format.js';
import { ArchiveDialog, CryptogramDialog } from './token-dialogs.js';
import { historyText, lastFour, networkName, TOKEN_STATUS_NAMES, TOKEN_STATUS_NOTES, tokenStatusClass } from './token-format.js';
import { tokensClient, type BackOfficeToken, type TokenData, type TokenHistoryEntry } from './tokens-client.js';
import { useTokenDetail } from './tokens-store.js';

const SETTLING = new Set(['requested', 'archive_pending']);
const POLL_MS = 1000;

export function TokenDetailScreen() {
  const { id } = useParams({ from: '/network-tokens/$id' });
  const { status, detail, error, load } = useTokenDetail();
  const [dialog, setDialog] = useState<'cryptogram' | 'archive' | null>(null);
  const [notice, setNotice] = useState('');
  const token = detail?.token.id === id ? detail.token : null;

  useEffect(() => {
    setNotice('');
    void load(id);
  }, [load, id]);

  // A token the network is still working on: read it again until it settles.
  const settling = token ? SETTLING.has(token.status) : false;
  useEffect(() => {
    if (!settling) return undefined;
    const timer = window.setInterval(() => void load(id, true), POLL_MS);
    return () => window.clearInterval(timer);
  }, [settling, load, id]);

  if (!token || !detail) {
    const back = (
      <Link to="/network-tokens" className="back-link">
        ← Network tokens
      </Link>
    );
    return <DetailPending back={back} title="Network token" titleId="token-title" failed={status === 'failed'} error={error} />;
  }

  const close = () => setDialog(null);
  const archivable = token.status !== 'archived' && token.status !== 'archive_pending';
  return (
    <section className="token-detail" aria-labelledby="token-title">
      <Link to="/network-tokens" className="back-link">
        ← Network tokens
      </Link>
      <div className="page-head">
        <h1 id="token-title">Token {lastFour(token.token_last_four)}</h1>
        <span className={tokenStatusClass(token.status)}>{TOKEN_STATUS_NAMES[token.status]}</span>
        <div className="head-actions">
          <button type="button" className="button button-quiet" disabled={token.status !== 'active'} onClick={() => setDialog('cryptogram')}>
            Create cryptogram
          </button>
          {archivable && (
            <button type="button" className="button button-quiet button-danger-quiet" onClick={() => setDialog('archive')}>
              Archive
            </button>
          )}
        </div>
      </div>
      <p className="notice" role="status">
        {notice}
      </p>

      <div className="bo-cards">
        <section className="card" aria-labelledby="token-facts-title">
          <h2 id="token-facts-title">Token</h2>
          <dl className="facts detail-facts">
            <Fact label="Network">{networkName(token.network)}</Fact>
            <Fact label="Status">
              {TOKEN_STATUS_NAMES[token.status]}: {TOKEN_STATUS_NOTES[token.status]}
            </Fact>
            {token.error && <Fact label="Error">{`${token.error.detail} (${token.error.code})`}</Fact>}
            <Fact label="Token number">{lastFour(token.token_last_four)}</Fact>
            <Fact label="Card">{lastFour(token.card_last_four)}</Fact>
            <Fact label="Holder">{token.card_holder ?? '—'}</Fact>
            <Fact label="Created">{formatDateTime(token.created_at)}</Fact>
            <Fact label="Refreshed">{token.last_token_refresh ? formatDateTime(token.last_token_refresh) : 'Never'}</Fact>
            <Fact label="Updated">{formatDateTime(token.updated_at)}</Fact>
            <Fact label="Token id">
              <span className="mono">{token.id}</span>
            </Fact>
          </dl>
        </section>

        <RevealCard key={token.id} token={token} onRevealed={() => setNotice('')} />

        <section className="card" aria-labelledby="history-title">
          <h2 id="history-title">Status history</h2>
          <History entries={detail.history} />
        </section>

        {token.provider === 'simulator' && <SimulatorCard token={token} onDone={(text) => { setNotice(text); void load(id, true); }} />}
      </div>

      {dialog === 'cryptogram' && <CryptogramDialog token={token} onClose={close} onCreated={() => setNotice('Cryptogram created; it is in the audit log.')} />}
      {dialog === 'archive' && (
        <ArchiveDialog
          token={token}
          onClose={close}
          onDone={() => {
            close();
            setNotice('Token archived: the network confirms in a moment.');
            void load(id, true);
          }}
        />
      )}
    </section>
  );
}

function History({ entries }: { entries: TokenHistoryEntry[] }) {
  return (
    <ol className="history" aria-label="Status history, oldest first">
      {entries.map((entry, index) => (
        <li key={`${entry.at}-${index}`}>
          <span className={tokenStatusClass(entry.status)}>{historyText(entry.event, entry.status)}</span>
          <time dateTime={entry.at}>{formatDateTimeSeconds(entry.at)}</time>
        </li>
      ))}
    </ol>
  );
}

const MASK = '••••';
const group = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * The token data: masked, and shown only when the user asks (the gateway audits the reveal before it
 * answers), for as long as the gateway says (30 s), then masked again; nothing of it is kept.
 */
function RevealCard({ token, onRevealed }: { token: BackOfficeToken; onRevealed: () => void }) {
  const action = useAction();
  const [shown, setShown] = useState<{ data: TokenData; until: number } | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!shown) return undefined;
    const hide = window.setTimeout(() => setShown(null), Math.max(0, shown.until - Date.now()));
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => {
      window.clearTimeout(hide);
      window.clearInterval(tick);
    };
  }, [shown]);
  // A token that stops being active or suspended has no data to show.
  const available = token.status === 'active' || token.status === 'suspended';
  useEffect(() => {
    if (!available) setShown(null);
  }, [available]);

  const reveal = async () => {
    const answer = await action.run('Revealing the token data', () => tokensClient.reveal(token.id));
    if (!answer) return;
    setNow(Date.now());
    setShown({ data: answer.data, until: Date.now() + answer.hide_after_seconds * 1000 });
    onRevealed();
  };
  const secondsLeft = shown ? Math.max(0, Math.ceil((shown.until - now) / 1000)) : 0;
  const data = shown?.data;
  return (
    <section className="card reveal-card" aria-labelledby="reveal-title">
      <div className="card-head">
        <h2 id="reveal-title">Token data</h2>
        {data ? (
          <button type="button" className="button button-small" onClick={() => setShown(null)}>
            Hide now
          </button>
        ) : (
          <button type="button" className="button button-small" disabled={!available || action.busy} onClick={() => void reveal()} aria-describedby="reveal-note">
            {action.busy ? 'Revealing…' : 'Reveal token data'}
          </button>
        )}
      </div>
      <dl className="facts detail-facts token-data" aria-live="polite">
        <Fact label="Token number">
          <span className="mono">{data ? group(data.number) : `${MASK} ${MASK} ${MASK} ${token.token_last_four}`}</span>
        </Fact>
        <Fact label="Expiry">
          <span className="mono">{data ? `${String(data.expiry_month).padStart(2, '0')}/${data.expiry_year}` : '••/••••'}</span>
        </Fact>
        <Fact label="Account reference">
          <span className="mono">{data ? data.payment_account_reference : '•'.repeat(12)}</span>
        </Fact>
      </dl>
      <p className="field-note" id="reveal-note">
        {data
          ? `Shown to you for ${secondsLeft} more second${secondsLeft === 1 ? '' : 's'}, then masked again. This reveal is in the audit log.`
          : available
            ? 'Masked. Revealing shows it for 30 seconds and writes your name to the audit log.'
            : `No token data while the token is ${TOKEN_STATUS_NAMES[token.status].toLowerCase()}.`}
      </p>
      <Problem text={action.problem} />
    </section>
  );
}

const SIMULATE: Array<{ action: SimulateAction; label: string; from: readonly string[]; done: string }> = [
  { action: 'suspend', label: 'Suspend', from: ['active'], done: 'The token service suspended the token.' },
  { action: 'resume', label: 'Resume', from: ['suspended'], done: 'The token service resumed the token.' },
  { action: 'refresh', label: 'Refresh', from: ['active', 'suspended'], done: 'The token service refreshed the token.' },
];

/** The Test environment's token service: what the card network would do to a live token. */
function SimulatorCard({ token, onDone }: { token: BackOfficeToken; onDone: (notice: string) => void }) {
  const action = useAction();
  const run = async (step: (typeof SIMULATE)[number]) => {
    const changed = await action.run(`${step.label} failed`, () => tokensClient.simulate(token.id, step.action));
    if (changed) onDone(step.done);
  };
  return (
    <section className="card simulator-card" aria-labelledby="simulator-title">
      <h2 id="simulator-title">Test environment: token service</h2>
      <p className="field-note">Act as the card network would on a live token. Each step sends the token postback when the token has a postback URL.</p>
      <Actions>
        {SIMULATE.map((step) => (
          <button key={step.action} type="button" className="button" disabled={action.busy || !step.from.includes(token.status)} onClick={() => void run(step)}>
            {step.label}
          </button>
        ))}
      </Actions>
      <Problem text={action.problem} />
    </section>
  );
}
