/**
 * One postback (`#/postbacks/<event_id>`): what it is about (linked to its transaction, token or
 * checkout, and the order id it carries), its status and next retry, every attempt with its answer, duration and time, and for
 * the attempt chosen (the latest at first) the signed body, pretty-printed, and the headers it was
 * sent and signed with. "Resend now" queues it again; the screen reads it until the new attempt is
 * there. A postback waiting for an attempt is read again every second.
 */
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Problem, useAction } from '../ui/dialog-parts.js';
import { DetailPending } from '../ui/detail-parts.js';
import { Fact } from '../ui/facts.js';
import { formatDateTimeSeconds } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import { toneClass } from '../ui/tags.js';
import {
  answerText,
  ATTEMPT_OUTCOME_TONES,
  kindName,
  POSTBACK_STATUS_NAMES,
  POSTBACK_STATUS_NOTES,
  postbackStatusClass,
  prettyJson,
} from './postback-format.js';
import { postbacksClient, type BackOfficePostback, type PostbackAttemptDetail } from './postbacks-client.js';
import { usePostbackDetail } from './postbacks-store.js';

const POLL_MS = 1000;
/** Nothing to show in a cell. */
const NONE = '—';
/** The attempts' number column: a sign, the same in every language. */
const NUMBER_SIGN = '#';
/** A postback due within this long is read again until its attempt is in. */
const SOON_MS = 5000;

function subjectLink(postback: BackOfficePostback) {
  const id = encodeURIComponent(postback.subject_id);
  const href =
    postback.kind === 'transaction'
      ? `#/transactions/${id}`
      : postback.kind === 'token'
        ? `#/network-tokens/${id}`
        : postback.kind === 'checkout'
          ? `#/checkouts/${id}`
          : null;
  const text = <span className="mono">{postback.subject_id}</span>;
  return href ? <a href={href}>{text}</a> : text;
}

export function PostbackDetailScreen() {
  const { id } = useParams({ from: '/postbacks/$id' });
  const { status, detail, error, load, show } = usePostbackDetail();
  const [chosen, setChosen] = useState<number | null>(null);
  const [notice, setNotice] = useState('');
  const resend = useAction();
  const t = useT();
  const postback = detail?.postback.event_id === id ? detail.postback : null;

  useEffect(() => {
    setNotice('');
    setChosen(null);
    void load(id);
  }, [load, id]);

  // Queued, or due for its next attempt any moment: read it again until the attempt is in.
  const waiting = postback
    ? postback.status === 'queued' ||
      (postback.status === 'retrying' && postback.next_attempt_at !== null && Date.parse(postback.next_attempt_at) - Date.now() < SOON_MS)
    : false;
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = window.setInterval(() => void load(id, true), POLL_MS);
    return () => window.clearInterval(timer);
  }, [waiting, load, id]);

  if (!postback || !detail) {
    const back = (
      <Link to="/postbacks" className="back-link">
        {t('postbacks.back')}
      </Link>
    );
    return (
      <DetailPending
        back={back}
        title={t('postbacks.detail.pending')}
        titleId="postback-title"
        failed={status === 'failed'}
        error={error}
      />
    );
  }

  const attempts = detail.attempts;
  const shown = attempts.find((a) => a.attempt === chosen) ?? attempts.at(-1) ?? null;
  const resendNow = async () => {
    setNotice('');
    const answer = await resend.run(t('postbacks.detail.resendWhat'), () => postbacksClient.resend(postback.event_id));
    if (!answer) return;
    show(id, answer);
    setChosen(null);
    setNotice(t('postbacks.detail.resent'));
  };
  const title = postback.event
    ? t('postbacks.detail.titleEvent', { kind: postback.kind, event: postback.event })
    : t('postbacks.detail.title', { kind: postback.kind });

  return (
    <section className="postback-detail" aria-labelledby="postback-title">
      <Link to="/postbacks" className="back-link">
        {t('postbacks.back')}
      </Link>
      <div className="page-head">
        <h1 id="postback-title">{title}</h1>
        <span className={postbackStatusClass(postback.status)}>{t(POSTBACK_STATUS_NAMES[postback.status])}</span>
        <div className="head-actions">
          <button type="button" className="button button-primary" disabled={resend.busy} onClick={() => void resendNow()}>
            {t(resend.busy ? 'postbacks.detail.resending' : 'postbacks.detail.resend')}
          </button>
        </div>
      </div>
      <p className="notice" role="status">
        {notice}
      </p>
      <Problem text={resend.problem} />

      <div className="bo-cards">
        <section className="card card-wide" aria-labelledby="postback-facts-title">
          <h2 id="postback-facts-title">{t('postbacks.field.postback')}</h2>
          <dl className="facts detail-facts">
            <Fact label={t('common.status')}>
              {t('postbacks.statusLine', {
                status: t(POSTBACK_STATUS_NAMES[postback.status]),
                note: t(POSTBACK_STATUS_NOTES[postback.status]),
              })}
            </Fact>
            <Fact label={kindName(t, postback.kind)}>{subjectLink(postback)}</Fact>
            {postback.order_id !== null && (
              <Fact label={t('postbacks.field.orderId')}>
                <span className="mono">{postback.order_id}</span>
              </Fact>
            )}
            <Fact label={t('postbacks.field.sequence')}>{postback.sequence}</Fact>
            <Fact label={t('postbacks.field.receiver')}>
              <span className="mono">{postback.url}</span>
            </Fact>
            <Fact label={t('postbacks.field.created')}>{formatDateTimeSeconds(postback.created_at)}</Fact>
            {postback.delivered_at && <Fact label={t('postbacks.field.delivered')}>{formatDateTimeSeconds(postback.delivered_at)}</Fact>}
            <Fact label={t('postbacks.field.nextRetry')}>
              {postback.next_attempt_at ? formatDateTimeSeconds(postback.next_attempt_at) : t('common.none')}
            </Fact>
            {postback.last_error && <Fact label={t('postbacks.field.lastError')}>{postback.last_error}</Fact>}
            <Fact label={t('postbacks.field.eventId')}>
              <span className="mono">{postback.event_id}</span>
            </Fact>
          </dl>
        </section>

        <section className="card card-wide" aria-labelledby="attempts-title">
          <h2 id="attempts-title">{t('postbacks.field.attempts')}</h2>
          {attempts.length === 0 ? (
            <p className="muted">{t('postbacks.detail.noAttempt')}</p>
          ) : (
            <table className="mini-table attempts-table">
              <caption className="visually-hidden">{t('postbacks.attempts.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{NUMBER_SIGN}</th>
                  <th scope="col">{t('postbacks.attempts.time')}</th>
                  <th scope="col">{t('postbacks.attempts.answer')}</th>
                  <th scope="col" className="num">
                    {t('postbacks.attempts.duration')}
                  </th>
                  <th scope="col">{t('postbacks.field.nextRetry')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('postbacks.attempts.body')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {attempts.map((a) => (
                  <tr key={a.attempt} className={shown?.attempt === a.attempt ? 'attempt-shown' : undefined}>
                    <td>{a.attempt}</td>
                    <td className="nowrap">{formatDateTimeSeconds(a.created_at)}</td>
                    <td>
                      <span className={toneClass(ATTEMPT_OUTCOME_TONES[a.outcome] ?? 'off')}>{answerText(t, a.http_status, a.error)}</span>
                    </td>
                    <td className="num">{t('postbacks.duration', { ms: a.duration_ms })}</td>
                    <td className="nowrap">{a.next_attempt_at ? formatDateTimeSeconds(a.next_attempt_at) : NONE}</td>
                    <td>
                      <button
                        type="button"
                        className="button button-small button-quiet"
                        aria-pressed={shown?.attempt === a.attempt}
                        aria-label={t('postbacks.attempts.showBody', { attempt: a.attempt })}
                        onClick={() => setChosen(a.attempt)}
                      >
                        {t('postbacks.attempts.body')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>

        <SignedBody attempt={shown} payload={detail.payload} />
      </div>
    </section>
  );
}

/** The chosen attempt's signed body and headers; before any attempt, the payload it will carry. */
function SignedBody({ attempt, payload }: { attempt: PostbackAttemptDetail | null; payload: Record<string, unknown> }) {
  const t = useT();
  const title = attempt ? t('postbacks.body.signed', { attempt: attempt.attempt }) : t('postbacks.body.toSign');
  return (
    <section className="card card-wide" aria-labelledby="signed-body-title">
      <h2 id="signed-body-title">{title}</h2>
      {attempt && !attempt.body ? <p className="muted">{t('postbacks.body.notKept')}</p> : null}
      <div className="signed-body">
        <pre className="json-block" tabIndex={0} aria-label={t(attempt?.body ? 'postbacks.body.asSent' : 'postbacks.body.payload')}>
          {attempt?.body ? prettyJson(attempt.body) : JSON.stringify(payload, null, 2)}
        </pre>
        {attempt?.headers && <HeadersTable headers={attempt.headers} />}
      </div>
    </section>
  );
}

export function HeadersTable({ headers }: { headers: Record<string, string> }) {
  const t = useT();
  return (
    <table className="mini-table headers-table">
      <caption>{t('postbacks.headers.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('postbacks.headers.header')}</th>
          <th scope="col">{t('postbacks.headers.value')}</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(headers).map(([name, value]) => (
          <tr key={name}>
            <th scope="row" className="mono">
              {name}
            </th>
            <td className="mono">
              {name === 'webhook-signature'
                ? value.split(' ').map((part) => (
                    <span key={part} className="signature">
                      {part}
                    </span>
                  ))
                : value}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
