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
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { DetailPending } from '../ui/detail-parts.js';
import { Fact } from '../ui/facts.js';
import { formatDateTime, formatDateTimeSeconds } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import { ArchiveDialog, CryptogramDialog } from './token-dialogs.js';
import { historyText, lastFour, networkName, TOKEN_STATUS_NAMES, TOKEN_STATUS_NOTES, tokenStatusClass } from './token-format.js';
import { networkTokensClient, type BackOfficeToken, type TokenData, type TokenHistoryEntry } from './network-tokens-client.js';
import { useTokenDetail } from './tokens-store.js';

const SETTLING = new Set(['requested', 'archive_pending']);
const POLL_MS = 1000;

export function TokenDetailScreen() {
  const { id } = useParams({ from: '/network-tokens/$id' });
  const { status, detail, error, load } = useTokenDetail();
  const [dialog, setDialog] = useState<'cryptogram' | 'archive' | null>(null);
  const [notice, setNotice] = useState('');
  const t = useT();
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
        {t('tokens.list.back')}
      </Link>
    );
    return (
      <DetailPending back={back} title={t('tokens.detail.pending')} titleId="token-title" failed={status === 'failed'} error={error} />
    );
  }

  const close = () => setDialog(null);
  const archivable = token.status !== 'archived' && token.status !== 'archive_pending';
  return (
    <section className="token-detail" aria-labelledby="token-title">
      <Link to="/network-tokens" className="back-link">
        {t('tokens.list.back')}
      </Link>
      <div className="page-head">
        <h1 id="token-title">{t('tokens.detail.title', { number: lastFour(token.token_last_four) })}</h1>
        <span className={tokenStatusClass(token.status)}>{t(TOKEN_STATUS_NAMES[token.status])}</span>
        <div className="head-actions">
          <button
            type="button"
            className="button button-quiet"
            disabled={token.status !== 'active'}
            onClick={() => setDialog('cryptogram')}
          >
            {t('tokens.detail.createCryptogram')}
          </button>
          {archivable && (
            <button type="button" className="button button-quiet button-danger-quiet" onClick={() => setDialog('archive')}>
              {t('tokens.detail.archive')}
            </button>
          )}
        </div>
      </div>
      <p className="notice" role="status">
        {notice}
      </p>

      <div className="bo-cards">
        <section className="card" aria-labelledby="token-facts-title">
          <h2 id="token-facts-title">{t('tokens.field.token')}</h2>
          <dl className="facts detail-facts">
            <Fact label={t('tokens.field.network')}>{networkName(token.network)}</Fact>
            <Fact label={t('common.status')}>
              {t('tokens.statusLine', { status: t(TOKEN_STATUS_NAMES[token.status]), note: t(TOKEN_STATUS_NOTES[token.status]) })}
            </Fact>
            {token.error && <Fact label={t('tokens.field.error')}>{gatewayError(token.error)}</Fact>}
            <Fact label={t('tokens.field.tokenNumber')}>{lastFour(token.token_last_four)}</Fact>
            <Fact label={t('common.card')}>{lastFour(token.card_last_four)}</Fact>
            <Fact label={t('tokens.field.holder')}>{token.card_holder ?? NONE}</Fact>
            <Fact label={t('tokens.field.created')}>{formatDateTime(token.created_at)}</Fact>
            <Fact label={t('tokens.field.refreshed')}>
              {token.last_token_refresh ? formatDateTime(token.last_token_refresh) : t('tokens.field.never')}
            </Fact>
            <Fact label={t('tokens.field.updated')}>{formatDateTime(token.updated_at)}</Fact>
            <Fact label={t('tokens.field.tokenId')}>
              <span className="mono">{token.id}</span>
            </Fact>
          </dl>
        </section>

        <RevealCard key={token.id} token={token} onRevealed={() => setNotice('')} />

        <section className="card" aria-labelledby="history-title">
          <h2 id="history-title">{t('tokens.detail.history')}</h2>
          <History entries={detail.history} />
        </section>

        {token.provider === 'simulator' && (
          <SimulatorCard
            token={token}
            onDone={(text) => {
              setNotice(text);
              void load(id, true);
            }}
          />
        )}
      </div>

      {dialog === 'cryptogram' && (
        <CryptogramDialog token={token} onClose={close} onCreated={() => setNotice(t('tokens.detail.cryptogramCreated'))} />
      )}
      {dialog === 'archive' && (
        <ArchiveDialog
          token={token}
          onClose={close}
          onDone={() => {
            close();
            setNotice(t('tokens.detail.archived'));
            void load(id, true);
          }}
        />
      )}
    </section>
  );
}

function History({ entries }: { entries: TokenHistoryEntry[] }) {
  const t = useT();
  return (
    <ol className="history" aria-label={t('tokens.detail.historyList')}>
      {entries.map((entry, index) => (
        <li key={`${entry.at}-${index}`}>
          <span className={tokenStatusClass(entry.status)}>{historyText(t, entry.event, entry.status)}</span>
          <time dateTime={entry.at}>{formatDateTimeSeconds(entry.at)}</time>
        </li>
      ))}
    </ol>
  );
}

const MASK = '••••';
/** Nothing to show. */
const NONE = '—';
/** The gateway's own words for a token's failure, with its code: data, as the API gave them. */
const gatewayError = (error: { detail: string; code: string }) => `${error.detail} (${error.code})`;
const group = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');
/** The token number in groups of four, or masked but for its last four. */
const tokenNumberText = (data: TokenData | undefined, lastFourDigits: string) =>
  data ? group(data.number) : `${MASK} ${MASK} ${MASK} ${lastFourDigits}`;
/** The expiry as MM/YYYY, or masked. */
const expiryText = (data: TokenData | undefined) =>
  data ? `${String(data.expiry_month).padStart(2, '0')}/${data.expiry_year}` : '••/••••';

/**
 * The token data: masked, and shown only when the user asks (the gateway audits the reveal before it
 * answers), for as long as the gateway says (30 s), then masked again; nothing of it is kept.
 */
function RevealCard({ token, onRevealed }: { token: BackOfficeToken; onRevealed: () => void }) {
  const action = useAction();
  const t = useT();
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
    const answer = await action.run(t('tokens.reveal.what'), () => networkTokensClient.reveal(token.id));
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
        <h2 id="reveal-title">{t('tokens.reveal.title')}</h2>
        {data ? (
          <button type="button" className="button button-small" onClick={() => setShown(null)}>
            {t('tokens.reveal.hide')}
          </button>
        ) : (
          <button
            type="button"
            className="button button-small"
            disabled={!available || action.busy}
            onClick={() => void reveal()}
            aria-describedby="reveal-note"
          >
            {t(action.busy ? 'tokens.reveal.busy' : 'tokens.reveal.reveal')}
          </button>
        )}
      </div>
      <dl className="facts detail-facts token-data" aria-live="polite">
        <Fact label={t('tokens.field.tokenNumber')}>
          <span className="mono">{tokenNumberText(data, token.token_last_four)}</span>
        </Fact>
        <Fact label={t('tokens.reveal.expiry')}>
          <span className="mono">{expiryText(data)}</span>
        </Fact>
        <Fact label={t('tokens.reveal.reference')}>
          <span className="mono">{data ? data.payment_account_reference : '•'.repeat(12)}</span>
        </Fact>
      </dl>
      <p className="field-note" id="reveal-note">
        {data
          ? t('tokens.reveal.shown', { seconds: secondsLeft })
          : available
            ? t('tokens.reveal.masked')
            : t('tokens.reveal.unavailable', { status: token.status })}
      </p>
      <Problem text={action.problem} />
    </section>
  );
}

const SIMULATE: Array<{ action: SimulateAction; label: MessageId; failed: MessageId; from: readonly string[]; done: MessageId }> = [
  {
    action: 'suspend',
    label: 'tokens.simulator.suspend',
    failed: 'tokens.simulator.suspendFailed',
    from: ['active'],
    done: 'tokens.simulator.suspended',
  },
  {
    action: 'resume',
    label: 'tokens.simulator.resume',
    failed: 'tokens.simulator.resumeFailed',
    from: ['suspended'],
    done: 'tokens.simulator.resumed',
  },
  {
    action: 'refresh',
    label: 'tokens.simulator.refresh',
    failed: 'tokens.simulator.refreshFailed',
    from: ['active', 'suspended'],
    done: 'tokens.simulator.refreshed',
  },
];

/** The Test environment's token service: what the card network would do to a live token. */
function SimulatorCard({ token, onDone }: { token: BackOfficeToken; onDone: (notice: string) => void }) {
  const action = useAction();
  const t = useT();
  const run = async (step: (typeof SIMULATE)[number]) => {
    const changed = await action.run(t(step.failed), () => networkTokensClient.simulate(token.id, step.action));
    if (changed) onDone(t(step.done));
  };
  return (
    <section className="card simulator-card" aria-labelledby="simulator-title">
      <h2 id="simulator-title">{t('tokens.simulator.title')}</h2>
      <p className="field-note">{t('tokens.simulator.note')}</p>
      <Actions>
        {SIMULATE.map((step) => (
          <button
            key={step.action}
            type="button"
            className="button"
            disabled={action.busy || !step.from.includes(token.status)}
            onClick={() => void run(step)}
          >
            {t(step.label)}
          </button>
        ))}
      </Actions>
      <Problem text={action.problem} />
    </section>
  );
}
