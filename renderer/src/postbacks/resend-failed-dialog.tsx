/**
 * "Resend all failed since …": pick the day, see how many failed postbacks that is, send them
 * again, then follow the gateway's job (tried, delivered, failing again) until every one was tried.
 * Closing the dialog leaves the job running.
 */
import { useEffect, useId, useState } from 'react';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { useT } from '../ui/i18n.js';
import { dayStartIso } from '../ui/list-search.js';
import { Modal } from '../ui/modal.js';
import { postbacksClient, type PostbackResend } from './postbacks-client.js';

const POLL_MS = 500;

/** The day three days ago (the retry window), as YYYY-MM-DD in the till's time zone. */
function defaultDay(): string {
  const date = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function ResendFailedDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const id = useId();
  const [day, setDay] = useState(defaultDay);
  const [count, setCount] = useState<number | null>(null);
  const [job, setJob] = useState<PostbackResend | null>(null);
  const action = useAction();
  const poll = useAction();
  const t = useT();

  // How many failed postbacks the chosen day covers.
  useEffect(() => {
    if (job || !day) return undefined;
    let stale = false;
    setCount(null);
    postbacksClient.list({ status: 'failed', 'created_at[min]': dayStartIso(day), per: '1' }).then(
      (list) => {
        if (!stale) setCount(list.metadata.total_items);
      },
      () => undefined,
    );
    return () => {
      stale = true;
    };
  }, [day, job]);

  // The job's progress until every postback was tried.
  useEffect(() => {
    if (!job || job.done) return undefined;
    const timer = window.setTimeout(() => {
      void poll
        .run(t('postbacks.resend.progressWhat'), () => postbacksClient.resendProgress(job.resend_id))
        .then((next) => {
          if (next) setJob(next);
          if (next?.done) onDone();
        });
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [job]);

  const start = async () => {
    const started = await action.run(t('postbacks.resend.what'), () => postbacksClient.resendFailed(dayStartIso(day)));
    if (started) {
      setJob(started);
      if (started.done) onDone();
    }
  };

  return (
    <Modal title={t('postbacks.resend.title')} onClose={onClose} busy={action.busy} className="modal-narrow">
      {!job ? (
        <>
          <div className="field">
            <label className="field-label" htmlFor={id}>
              {t('postbacks.resend.since')}
            </label>
            <input
              id={id}
              className="input"
              type="date"
              value={day}
              required
              onChange={(event) => setDay(event.target.value)}
              aria-describedby={`${id}-count`}
            />
            <p className="field-note" id={`${id}-count`} aria-live="polite">
              {count === null ? t('postbacks.resend.counting') : t('postbacks.resend.count', { count })}
            </p>
          </div>
          <p>{t('postbacks.resend.explain')}</p>
        </>
      ) : (
        <ResendProgress job={job} />
      )}
      <Problem text={action.problem ?? poll.problem} />
      <Actions>
        {job ? (
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            {t(job.done ? 'common.close' : 'postbacks.resend.closeRunning')}
          </button>
        ) : (
          <>
            <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              onClick={() => void start()}
              disabled={action.busy || !day || count === 0}
              data-autofocus
            >
              {action.busy ? t('postbacks.resend.busy') : count ? t('postbacks.resend.sendCount', { count }) : t('postbacks.resend.send')}
            </button>
          </>
        )}
      </Actions>
    </Modal>
  );
}

function ResendProgress({ job }: { job: PostbackResend }) {
  const t = useT();
  const label = t('postbacks.resend.sent', { attempted: job.attempted, total: job.total });
  return (
    <div className="resend-progress">
      <progress
        max={Math.max(job.total, 1)}
        value={job.total === 0 ? 1 : job.attempted}
        aria-label={t('postbacks.resend.progressLabel')}
        aria-valuetext={label}
      />
      <p role="status">
        {job.done
          ? t('postbacks.resend.done', { delivered: job.delivered, failing: job.failing })
          : t('postbacks.resend.running', { attempted: job.attempted, total: job.total, delivered: job.delivered, failing: job.failing })}
      </p>
    </div>
  );
}
