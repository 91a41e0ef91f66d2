/**
 * "Resend all failed since …": pick the day, see how many failed postbacks that is, send them
 * again, then follow the gateway's job (tried, delivered, failing again) until every one was tried.
 * Closing the dialog leaves the job running.
 */
import { useEffect, useId, useState } from 'react';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
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
      void poll.run('Reading the progress', () => postbacksClient.resendProgress(job.resend_id)).then((next) => {
        if (next) setJob(next);
        if (next?.done) onDone();
      });
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [job]);

  const start = async () => {
    const started = await action.run('Resending the failed postbacks', () => postbacksClient.resendFailed(dayStartIso(day)));
    if (started) {
      setJob(started);
      if (started.done) onDone();
    }
  };

  return (
    <Modal title="Resend failed postbacks" onClose={onClose} busy={action.busy} className="modal-narrow">
      {!job ? (
        <>
          <div className="field">
            <label className="field-label" htmlFor={id}>
              Failed postbacks created since
            </label>
            <input id={id} className="input" type="date" value={day} required onChange={(event) => setDay(event.target.value)} aria-describedby={`${id}-count`} />
            <p className="field-note" id={`${id}-count`} aria-live="polite">
              {count === null ? 'Counting…' : count === 0 ? 'No failed postback since then.' : `${count} failed postback${count === 1 ? '' : 's'} since then.`}
            </p>
          </div>
          <p>Each is sent again now with the same event id; one that fails again is retried on the usual schedule. Your resend is written to the audit log.</p>
        </>
      ) : (
        <ResendProgress job={job} />
      )}
      <Problem text={action.problem ?? poll.problem} />
      <Actions>
        {job ? (
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            {job.done ? 'Close' : 'Close (keeps running)'}
          </button>
        ) : (
          <>
            <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
              Cancel
            </button>
            <button type="button" className="button button-primary" onClick={() => void start()} disabled={action.busy || !day || count === 0} data-autofocus>
              {action.busy ? 'Resending…' : count ? `Resend ${count} postback${count === 1 ? '' : 's'}` : 'Resend'}
            </button>
          </>
        )}
      </Actions>
    </Modal>
  );
}

function ResendProgress({ job }: { job: PostbackResend }) {
  const label = `${job.attempted} of ${job.total} sent`;
  return (
    <div className="resend-progress">
      <progress max={Math.max(job.total, 1)} value={job.total === 0 ? 1 : job.attempted} aria-label="Postbacks sent again" aria-valuetext={label} />
      <p role="status">
        {job.done
          ? `Done: ${job.delivered} delivered, ${job.failing} failed again${job.failing ? ' (retried on the usual schedule)' : ''}.`
          : `${label}: ${job.delivered} delivered, ${job.failing} failed again so far.`}
      </p>
    </div>
  );
}
