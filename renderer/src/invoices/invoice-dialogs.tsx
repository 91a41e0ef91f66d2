/**
 * The invoice detail's dialogs: status change, activate / deactivate, send a reminder (and read it),
 * the preview of a sent e-mail, a payment plan, cancelling the plan, deleting the invoice. Each
 * change is the gateway's; a refusal shows the API's own words. Dialogs are ui/modal.tsx: focus
 * stays inside, Esc closes (not while a request runs), focus goes back to the button that opened it.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { INVOICE_STATUSES, MAX_INSTALLMENTS, MIN_INSTALLMENTS, PLAN_INTERVALS, type InvoiceStatus, type PlanInterval } from '../../../contract/constants.js';
import { ApiError } from '../api/client.js';
import { formatMoney } from '../till/money.js';
import { problemText, sessionEnded } from '../api/problems.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { Modal } from '../ui/modal.js';
import { EMAIL_STATUS_NAMES, EMAIL_TYPE_NAMES, formatDateTime, INTERVAL_NAMES, LOCALE_NAMES, STATUS_NAMES, STATUS_NOTES } from './invoice-format.js';
import { invoicesClient, type InvoiceEmail, type InvoiceReply, type PaymentPlan } from './invoices-client.js';

// ---- status --------------------------------------------------------------------------------------

export function StatusDialog({ reply, onClose, onDone }: { reply: InvoiceReply; onClose: () => void; onDone: (reply: InvoiceReply, notice: string) => void }) {
  const { invoice } = reply;
  const [status, setStatus] = useState<InvoiceStatus>(invoice.status);
  const action = useAction();
  const name = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changed = await action.run('Changing the status', () => invoicesClient.changeStatus(invoice.debt_claim_number, status));
    if (changed) onDone(changed, `Status changed to ${STATUS_NAMES[changed.invoice.status]}.`);
  };
  return (
    <Modal title={`Status of ${invoice.debt_claim_number}`} onClose={onClose} busy={action.busy} className="modal-narrow">
      <form onSubmit={(event) => void submit(event)}>
        <p className="lead">Payments through the pay link set the status themselves. Set it by hand for a payment made outside Tillgate.</p>
        <fieldset className="choice-list">
          <legend className="visually-hidden">New status</legend>
          {INVOICE_STATUSES.map((option) => (
            <label key={option} className={option === status ? 'choice choice-on' : 'choice'}>
              <input type="radio" name={name} value={option} checked={option === status} onChange={() => setStatus(option)} data-autofocus={option === status ? true : undefined} />
              <span>
                <strong>
                  {STATUS_NAMES[option]}
                  {option === invoice.status ? ' (now)' : ''}
                </strong>
                <span className="choice-note">{STATUS_NOTES[option]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Problem text={action.problem} />
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={action.busy || status === invoice.status}>
            {action.busy ? 'Changing…' : `Set to ${STATUS_NAMES[status]}`}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

// ---- activate / deactivate -----------------------------------------------------------------------

export function ActiveDialog({ reply, onClose, onDone }: { reply: InvoiceReply; onClose: () => void; onDone: (reply: InvoiceReply, notice: string) => void }) {
  const { invoice } = reply;
  const activate = !invoice.active;
  const verb = activate ? 'Activate' : 'Deactivate';
  const action = useAction();
  const [refusal, setRefusal] = useState<string[]>([]);
  const confirm = async () => {
    setRefusal([]);
    const number = invoice.debt_claim_number;
    const result = await action.run(`${verb} failed`, async () => {
      // The gateway's own rules first (nothing written): a refusal in its words, without a failed call.
      const problems = await invoicesClient.checkUpdate(number, { active: activate });
      if (problems.length) return { refused: problems.map((p) => p.message) };
      return { reply: await invoicesClient.update(number, { active: activate }) };
    });
    if (result && 'refused' in result && result.refused) setRefusal(result.refused);
    else if (result?.reply) onDone(result.reply, activate ? 'Invoice activated: its pay link works again.' : 'Invoice deactivated: its pay link stopped working.');
  };
  return (
    <Modal title={`${verb} ${invoice.debt_claim_number}?`} onClose={onClose} busy={action.busy} className="modal-narrow">
      {refusal.length === 0 && (
        <p>
          {activate
            ? 'Its pay link works again and it can send e-mails.'
            : 'Its pay link stops working: the customer sees that the invoice cannot be paid. It sends no e-mails while inactive.'}
        </p>
      )}
      {refusal.length > 0 && (
        <div className="refusal" role="alert">
          <strong>The gateway refuses:</strong>
          {refusal.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      )}
      <Problem text={action.problem} />
      <Actions>
        <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy} data-autofocus={refusal.length ? true : undefined}>
          {refusal.length ? 'Close' : 'Cancel'}
        </button>
        {refusal.length === 0 && (
          <button type="button" className={activate ? 'button button-primary' : 'button button-danger'} onClick={() => void confirm()} disabled={action.busy} data-autofocus>
            {action.busy ? `${verb.replace(/e$/, '')}ing…` : verb}
          </button>
        )}
      </Actions>
    </Modal>
  );
}

// ---- e-mails -------------------------------------------------------------------------------------

/** One sent e-mail as the customer reads it: subject and text, with where it went. */
function EmailView({ email }: { email: InvoiceEmail }) {
  return (
    <article className="email-preview" aria-label={`E-mail: ${email.subject}`}>
      <dl className="email-head">
        <div>
          <dt>To</dt>
          <dd>{email.recipient_email}</dd>
        </div>
        <div>
          <dt>Subject</dt>
          <dd>{email.subject}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>
            {EMAIL_TYPE_NAMES[email.email_type]}, {LOCALE_NAMES[email.locale as keyof typeof LOCALE_NAMES] ?? email.locale}: {EMAIL_STATUS_NAMES[email.status]}
            {email.sent_at ? ` ${formatDateTime(email.sent_at)}` : ''}
            {email.last_error ? ` (${email.last_error})` : ''}
          </dd>
        </div>
      </dl>
      <pre className="email-body" tabIndex={0} aria-label="E-mail text">
        {email.body_text}
      </pre>
      {email.test_outbox && <p className="field-note">Kept in the local test outbox (no SMTP server is set up): nothing left this computer.</p>}
    </article>
  );
}

export function EmailPreviewDialog({ email, onClose }: { email: InvoiceEmail; onClose: () => void }) {
  return (
    <Modal title={`${EMAIL_TYPE_NAMES[email.email_type]} of ${email.invoice_number}`} onClose={onClose} className="modal-wide">
      <EmailView email={email} />
      <Actions>
        <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
          Close
        </button>
      </Actions>
    </Modal>
  );
}

/** Sends a reminder now, then shows it as sent (the mail queue delivers it within a moment). */
export function ReminderDialog({ reply, onClose, onDone }: { reply: InvoiceReply; onClose: () => void; onDone: (reply: InvoiceReply | null, notice: string) => void }) {
  const { invoice } = reply;
  const action = useAction();
  const [sent, setSent] = useState<InvoiceEmail | null>(null);
  const [waiting, setWaiting] = useState(false);

  useEffect(() => {
    if (!waiting) return undefined;
    let stop = false;
    // The queue hands it to the mailer at once; read its state until it left the queue (or give up quietly).
    void (async () => {
      for (let tries = 0; tries < 20 && !stop; tries++) {
        try {
          const [latest] = await invoicesClient.emails(invoice.debt_claim_number);
          if (latest && latest.email_type === 'reminder' && latest.status !== 'queued') {
            if (!stop) setSent(latest);
            break;
          }
        } catch (error) {
          if (sessionEnded(error)) return;
        }
        await new Promise((resolve) => window.setTimeout(resolve, 300));
      }
      if (!stop) setWaiting(false);
    })();
    return () => {
      stop = true;
    };
  }, [waiting, invoice.debt_claim_number]);

  const send = async () => {
    const result = await action.run('Sending the reminder', () => invoicesClient.sendReminder(invoice.debt_claim_number));
    if (!result) return;
    onDone(result, `Reminder queued for ${invoice.email ?? ''}.`);
    setWaiting(true);
  };
  const language = LOCALE_NAMES[invoice.effective_locale as keyof typeof LOCALE_NAMES] ?? invoice.effective_locale;
  return (
    <Modal title={sent ? 'Reminder sent' : `Send a reminder for ${invoice.debt_claim_number}?`} onClose={onClose} busy={action.busy} className={sent ? 'modal-wide' : 'modal-narrow'}>
      {sent ? (
        <EmailView email={sent} />
      ) : waiting ? (
        <p role="status">Reminder queued, sending…</p>
      ) : (
        <p>
          The reminder e-mail goes to <strong>{invoice.email}</strong> now, in {language}, with the amount ({formatMoney(invoice.amount, invoice.currency)}) and the pay link.
        </p>
      )}
      <Problem text={action.problem} />
      <Actions>
        {sent || waiting ? (
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            Close
          </button>
        ) : (
          <>
            <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
              Cancel
            </button>
            <button type="button" className="button button-primary" onClick={() => void send()} disabled={action.busy} data-autofocus>
              {action.busy ? 'Sending…' : 'Send reminder'}
            </button>
          </>
        )}
      </Actions>
    </Modal>
  );
}

// ---- payment plan --------------------------------------------------------------------------------

export function PlanDialog({ reply, onClose, onDone }: { reply: InvoiceReply; onClose: () => void; onDone: (plan: PaymentPlan, notice: string) => void }) {
  const { invoice } = reply;
  const [installments, setInstallments] = useState('3');
  const [interval, setInterval] = useState<PlanInterval>('month');
  const action = useAction();
  const [fieldProblem, setFieldProblem] = useState<{ field: string; message: string } | null>(null);
  const ids = { count: useId(), interval: useId() };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldProblem(null);
    const count = Number(installments);
    if (!/^\d{1,2}$/.test(installments.trim()) || count < MIN_INSTALLMENTS || count > MAX_INSTALLMENTS) {
      setFieldProblem({ field: 'installments', message: `Instalments: a whole number from ${MIN_INSTALLMENTS} to ${MAX_INSTALLMENTS}.` });
      return;
    }
    try {
      const plan = await invoicesClient.createPlan(invoice.debt_claim_number, { installments: count, interval });
      onDone(plan, `Payment plan created: ${plan.installments} instalments, ${INTERVAL_NAMES[plan.interval].toLowerCase()}.`);
    } catch (error) {
      if (sessionEnded(error)) return;
      const named = error instanceof ApiError ? error.errors.find((e) => e.field === 'installments' || e.field === 'interval') : undefined;
      if (named) setFieldProblem(named);
      else action.setProblem(problemText(error, 'Creating the payment plan'));
    }
  };
  const countError = fieldProblem?.field === 'installments' ? fieldProblem.message : null;
  const intervalError = fieldProblem?.field === 'interval' ? fieldProblem.message : null;
  return (
    <Modal title={`Payment plan for ${invoice.debt_claim_number}`} onClose={onClose} busy={action.busy} className="modal-narrow">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p className="lead">
          {formatMoney(invoice.amount, invoice.currency)} in equal instalments (a remainder on the first), the first due today. The pay link asks for one instalment at a time.
        </p>
        <div className="field">
          <label className="field-label" htmlFor={ids.count}>
            Instalments
          </label>
          <input
            id={ids.count}
            className="input num-input"
            type="number"
            min={MIN_INSTALLMENTS}
            max={MAX_INSTALLMENTS}
            value={installments}
            onChange={(event) => setInstallments(event.target.value)}
            aria-invalid={countError ? true : undefined}
            aria-describedby={countError ? `${ids.count}-error` : `${ids.count}-note`}
            data-autofocus
          />
          {countError ? (
            <p className="field-error" id={`${ids.count}-error`}>
              {countError}
            </p>
          ) : (
            <p className="field-note" id={`${ids.count}-note`}>
              {MIN_INSTALLMENTS} to {MAX_INSTALLMENTS}.
            </p>
          )}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.interval}>
            Interval
          </label>
          <select id={ids.interval} className="input" value={interval} onChange={(event) => setInterval(event.target.value as PlanInterval)} aria-invalid={intervalError ? true : undefined}>
            {PLAN_INTERVALS.map((option) => (
              <option key={option} value={option}>
                {INTERVAL_NAMES[option]}
              </option>
            ))}
          </select>
          {intervalError && <p className="field-error">{intervalError}</p>}
        </div>
        <Problem text={action.problem} />
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={action.busy}>
            Create plan
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

// ---- confirmations -------------------------------------------------------------------------------

export function CancelPlanDialog({ reply, plan, onClose, onDone }: { reply: InvoiceReply; plan: PaymentPlan; onClose: () => void; onDone: (notice: string) => void }) {
  const action = useAction();
  const confirm = async () => {
    const cancelled = await action.run('Cancelling the plan', () => invoicesClient.cancelPlan(reply.invoice.debt_claim_number));
    if (cancelled) onDone('Payment plan cancelled.');
  };
  return (
    <Modal title="Cancel the payment plan?" onClose={onClose} busy={action.busy} className="modal-narrow">
      <p>
        {plan.paid_installments} of {plan.installments} instalments are paid. After cancelling, the pay link asks for the whole amount again. A cancelled plan still counts: the amount and
        the active flag of {reply.invoice.debt_claim_number} stay as they are.
      </p>
      <Problem text={action.problem} />
      <Actions>
        <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy} data-autofocus>
          Keep the plan
        </button>
        <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={action.busy}>
          {action.busy ? 'Cancelling…' : 'Cancel the plan'}
        </button>
      </Actions>
    </Modal>
  );
}

export function DeleteDialog({ reply, activePlan, onClose, onDone }: { reply: InvoiceReply; activePlan: boolean; onClose: () => void; onDone: () => void }) {
  const action = useAction();
  const number = reply.invoice.debt_claim_number;
  const confirm = async () => {
    const done = await action.run('Deleting the invoice', async () => {
      await invoicesClient.remove(number);
      return true;
    });
    if (done) onDone();
  };
  return (
    <Modal title={`Delete ${number}?`} onClose={onClose} busy={action.busy} className="modal-narrow">
      {activePlan ? (
        <p>This invoice has an active payment plan. Cancel the plan first, then delete the invoice.</p>
      ) : (
        <p>
          The invoice ({formatMoney(reply.invoice.amount, reply.invoice.currency)}) is deleted for good and its pay link stops working. Payments already made stay in the transactions.
        </p>
      )}
      <Problem text={action.problem} />
      <Actions>
        <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy} data-autofocus>
          {activePlan ? 'Close' : 'Keep it'}
        </button>
        {!activePlan && (
          <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={action.busy}>
            {action.busy ? 'Deleting…' : 'Delete invoice'}
          </button>
        )}
      </Actions>
    </Modal>
  );
}
