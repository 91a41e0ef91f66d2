/**
 * The invoice detail's dialogs: status change, activate / deactivate, send a reminder (and read it),
 * the preview of a sent e-mail, a payment plan, cancelling the plan, deleting the invoice. Each
 * change is the gateway's; a refusal shows the API's own words. Dialogs are ui/modal.tsx: focus
 * stays inside, Esc closes (not while a request runs), focus goes back to the button that opened it.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  INVOICE_STATUSES,
  MAX_INSTALLMENTS,
  MIN_INSTALLMENTS,
  PLAN_INTERVALS,
  type InvoiceStatus,
  type PlanInterval,
} from '../../../contract/constants.js';
import { ApiError } from '../api/transport.js';
import { formatMoney } from '../till-screen/money.js';
import { problemText, sessionEnded } from '../api/problems.js';
import { useRichT } from '../transactions/rich-text.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { formatDateTime, INTERVAL_NAMES, localeName, STATUS_NAMES, STATUS_NOTES } from './invoice-format.js';
import { invoicesClient, type InvoiceEmail, type InvoiceReply, type PaymentPlan } from './invoices-client.js';

// ---- status --------------------------------------------------------------------------------------

export function StatusDialog({
  reply,
  onClose,
  onDone,
}: {
  reply: InvoiceReply;
  onClose: () => void;
  onDone: (reply: InvoiceReply, notice: string) => void;
}) {
  const { invoice } = reply;
  const [status, setStatus] = useState<InvoiceStatus>(invoice.status);
  const action = useAction();
  const name = useId();
  const t = useT();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changed = await action.run(t('invoices.statusDialog.what'), () => invoicesClient.changeStatus(invoice.debt_claim_number, status));
    if (changed) onDone(changed, t('invoices.statusDialog.done', { status: t(STATUS_NAMES[changed.invoice.status]) }));
  };
  return (
    <Modal
      title={t('invoices.statusDialog.title', { number: invoice.debt_claim_number })}
      onClose={onClose}
      busy={action.busy}
      className="modal-narrow"
    >
      <form onSubmit={(event) => void submit(event)}>
        <p className="lead">{t('invoices.statusDialog.lead')}</p>
        <fieldset className="choice-list">
          <legend className="visually-hidden">{t('invoices.statusDialog.new')}</legend>
          {INVOICE_STATUSES.map((option) => (
            <label key={option} className={option === status ? 'choice choice-on' : 'choice'}>
              <input
                type="radio"
                name={name}
                value={option}
                checked={option === status}
                onChange={() => setStatus(option)}
                data-autofocus={option === status ? true : undefined}
              />
              <span>
                <strong>
                  {option === invoice.status
                    ? t('invoices.statusDialog.now', { status: t(STATUS_NAMES[option]) })
                    : t(STATUS_NAMES[option])}
                </strong>
                <span className="choice-note">{t(STATUS_NOTES[option])}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Problem text={action.problem} />
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={action.busy || status === invoice.status}>
            {action.busy ? t('invoices.statusDialog.busy') : t('invoices.statusDialog.set', { status: t(STATUS_NAMES[status]) })}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

// ---- activate / deactivate -----------------------------------------------------------------------

export function ActiveDialog({
  reply,
  onClose,
  onDone,
}: {
  reply: InvoiceReply;
  onClose: () => void;
  onDone: (reply: InvoiceReply, notice: string) => void;
}) {
  const { invoice } = reply;
  const activate = !invoice.active;
  const which = activate ? 'yes' : 'no';
  const t = useT();
  const action = useAction();
  const [refusal, setRefusal] = useState<string[]>([]);
  const confirm = async () => {
    setRefusal([]);
    const number = invoice.debt_claim_number;
    const result = await action.run(t('invoices.active.what', { activate: which }), async () => {
      // The gateway's own rules first (nothing written): a refusal in its words, without a failed call.
      const problems = await invoicesClient.checkUpdate(number, { active: activate });
      if (problems.length) return { refused: problems.map((p) => p.message) };
      return { reply: await invoicesClient.update(number, { active: activate }) };
    });
    if (result && 'refused' in result && result.refused) setRefusal(result.refused);
    else if (result?.reply) onDone(result.reply, t('invoices.active.done', { activate: which }));
  };
  return (
    <Modal
      title={t('invoices.active.title', { activate: which, number: invoice.debt_claim_number })}
      onClose={onClose}
      busy={action.busy}
      className="modal-narrow"
    >
      {refusal.length === 0 && <p>{t('invoices.active.text', { activate: which })}</p>}
      {refusal.length > 0 && (
        <div className="refusal" role="alert">
          <strong>{t('invoices.active.refuses')}</strong>
          {refusal.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      )}
      <Problem text={action.problem} />
      <Actions>
        <button
          type="button"
          className="button button-quiet"
          onClick={onClose}
          disabled={action.busy}
          data-autofocus={refusal.length ? true : undefined}
        >
          {t(refusal.length ? 'common.close' : 'common.cancel')}
        </button>
        {refusal.length === 0 && (
          <button
            type="button"
            className={activate ? 'button button-primary' : 'button button-danger'}
            onClick={() => void confirm()}
            disabled={action.busy}
            data-autofocus
          >
            {t(action.busy ? 'invoices.active.busy' : 'invoices.active.verb', { activate: which })}
          </button>
        )}
      </Actions>
    </Modal>
  );
}

// ---- e-mails -------------------------------------------------------------------------------------

/** One sent e-mail as the customer reads it: subject and text, with where it went. */
function EmailView({ email }: { email: InvoiceEmail }) {
  const t = useT();
  const state = t('invoices.emailView.stateText', {
    type: email.email_type,
    language: localeName(email.locale, t),
    status: email.status,
    at: email.sent_at ? formatDateTime(email.sent_at) : '',
    dated: email.sent_at ? 'yes' : 'no',
  });
  return (
    <article className="email-preview" aria-label={t('invoices.emailView.label', { subject: email.subject })}>
      <dl className="email-head">
        <div>
          <dt>{t('invoices.emailView.to')}</dt>
          <dd>{email.recipient_email}</dd>
        </div>
        <div>
          <dt>{t('invoices.emailView.subject')}</dt>
          <dd>{email.subject}</dd>
        </div>
        <div>
          <dt>{t('invoices.emailView.state')}</dt>
          <dd>{email.last_error ? t('invoices.emailView.withError', { state, error: email.last_error }) : state}</dd>
        </div>
      </dl>
      <pre className="email-body" tabIndex={0} aria-label={t('invoices.emailView.text')}>
        {email.body_text}
      </pre>
      {email.test_outbox && <p className="field-note">{t('invoices.emailView.testOutbox')}</p>}
    </article>
  );
}

export function EmailPreviewDialog({ email, onClose }: { email: InvoiceEmail; onClose: () => void }) {
  const t = useT();
  return (
    <Modal
      title={t('invoices.emailView.title', { type: email.email_type, number: email.invoice_number })}
      onClose={onClose}
      className="modal-wide"
    >
      <EmailView email={email} />
      <Actions>
        <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
          {t('common.close')}
        </button>
      </Actions>
    </Modal>
  );
}

/** Sends a reminder now, then shows it as sent (the mail queue delivers it within a moment). */
export function ReminderDialog({
  reply,
  onClose,
  onDone,
}: {
  reply: InvoiceReply;
  onClose: () => void;
  onDone: (reply: InvoiceReply | null, notice: string) => void;
}) {
  const { invoice } = reply;
  const action = useAction();
  const t = useT();
  const rich = useRichT();
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
    const result = await action.run(t('invoices.reminder.what'), () => invoicesClient.sendReminder(invoice.debt_claim_number));
    if (!result) return;
    onDone(result, t('invoices.reminder.queuedFor', { email: invoice.email ?? '' }));
    setWaiting(true);
  };
  const language = localeName(invoice.effective_locale, t);
  return (
    <Modal
      title={sent ? t('invoices.reminder.sent') : t('invoices.reminder.title', { number: invoice.debt_claim_number })}
      onClose={onClose}
      busy={action.busy}
      className={sent ? 'modal-wide' : 'modal-narrow'}
    >
      {sent ? (
        <EmailView email={sent} />
      ) : waiting ? (
        <p role="status">{t('invoices.reminder.sending')}</p>
      ) : (
        <p>
          {rich('invoices.reminder.text', {
            email: <strong>{invoice.email}</strong>,
            language,
            amount: formatMoney(invoice.amount, invoice.currency),
          })}
        </p>
      )}
      <Problem text={action.problem} />
      <Actions>
        {sent || waiting ? (
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        ) : (
          <>
            <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
              {t('common.cancel')}
            </button>
            <button type="button" className="button button-primary" onClick={() => void send()} disabled={action.busy} data-autofocus>
              {t(action.busy ? 'invoices.reminder.busy' : 'invoices.reminder.send')}
            </button>
          </>
        )}
      </Actions>
    </Modal>
  );
}

// ---- payment plan --------------------------------------------------------------------------------

export function PlanDialog({
  reply,
  onClose,
  onDone,
}: {
  reply: InvoiceReply;
  onClose: () => void;
  onDone: (plan: PaymentPlan, notice: string) => void;
}) {
  const { invoice } = reply;
  const [installments, setInstallments] = useState('3');
  const [interval, setInterval] = useState<PlanInterval>('month');
  const action = useAction();
  const [fieldProblem, setFieldProblem] = useState<{ field: string; message: string } | null>(null);
  const ids = { count: useId(), interval: useId() };
  const t = useT();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldProblem(null);
    const count = Number(installments);
    if (!/^\d{1,2}$/.test(installments.trim()) || count < MIN_INSTALLMENTS || count > MAX_INSTALLMENTS) {
      setFieldProblem({
        field: 'installments',
        message: t('invoices.planDialog.countProblem', { min: MIN_INSTALLMENTS, max: MAX_INSTALLMENTS }),
      });
      return;
    }
    try {
      const plan = await invoicesClient.createPlan(invoice.debt_claim_number, { installments: count, interval });
      onDone(plan, t('invoices.planDialog.done', { count: plan.installments, interval: plan.interval }));
    } catch (error) {
      if (sessionEnded(error)) return;
      const named = error instanceof ApiError ? error.errors.find((e) => e.field === 'installments' || e.field === 'interval') : undefined;
      if (named) setFieldProblem(named);
      else action.setProblem(problemText(error, t('invoices.planDialog.what')));
    }
  };
  const countError = fieldProblem?.field === 'installments' ? fieldProblem.message : null;
  const intervalError = fieldProblem?.field === 'interval' ? fieldProblem.message : null;
  return (
    <Modal
      title={t('invoices.planDialog.title', { number: invoice.debt_claim_number })}
      onClose={onClose}
      busy={action.busy}
      className="modal-narrow"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p className="lead">{t('invoices.planDialog.lead', { amount: formatMoney(invoice.amount, invoice.currency) })}</p>
        <div className="field">
          <label className="field-label" htmlFor={ids.count}>
            {t('invoices.planDialog.count')}
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
              {t('invoices.planDialog.countNote', { min: MIN_INSTALLMENTS, max: MAX_INSTALLMENTS })}
            </p>
          )}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.interval}>
            {t('invoices.planDialog.interval')}
          </label>
          <select
            id={ids.interval}
            className="input"
            value={interval}
            onChange={(event) => setInterval(event.target.value as PlanInterval)}
            aria-invalid={intervalError ? true : undefined}
          >
            {PLAN_INTERVALS.map((option) => (
              <option key={option} value={option}>
                {t(INTERVAL_NAMES[option])}
              </option>
            ))}
          </select>
          {intervalError && <p className="field-error">{intervalError}</p>}
        </div>
        <Problem text={action.problem} />
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={action.busy}>
            {t('invoices.plan.create')}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}

// ---- confirmations -------------------------------------------------------------------------------

export function CancelPlanDialog({
  reply,
  plan,
  onClose,
  onDone,
}: {
  reply: InvoiceReply;
  plan: PaymentPlan;
  onClose: () => void;
  onDone: (notice: string) => void;
}) {
  const action = useAction();
  const t = useT();
  const confirm = async () => {
    const cancelled = await action.run(t('invoices.cancelPlan.what'), () => invoicesClient.cancelPlan(reply.invoice.debt_claim_number));
    if (cancelled) onDone(t('invoices.cancelPlan.done'));
  };
  return (
    <Modal title={t('invoices.cancelPlan.title')} onClose={onClose} busy={action.busy} className="modal-narrow">
      <p>
        {t('invoices.cancelPlan.text', { paid: plan.paid_installments, count: plan.installments, number: reply.invoice.debt_claim_number })}
      </p>
      <Problem text={action.problem} />
      <Actions>
        <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy} data-autofocus>
          {t('invoices.cancelPlan.keep')}
        </button>
        <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={action.busy}>
          {t(action.busy ? 'invoices.cancelPlan.busy' : 'invoices.cancelPlan.confirm')}
        </button>
      </Actions>
    </Modal>
  );
}

export function DeleteDialog({
  reply,
  activePlan,
  onClose,
  onDone,
}: {
  reply: InvoiceReply;
  activePlan: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const action = useAction();
  const t = useT();
  const number = reply.invoice.debt_claim_number;
  const confirm = async () => {
    const done = await action.run(t('invoices.delete.what'), async () => {
      await invoicesClient.remove(number);
      return true;
    });
    if (done) onDone();
  };
  return (
    <Modal title={t('invoices.delete.title', { number })} onClose={onClose} busy={action.busy} className="modal-narrow">
      {activePlan ? (
        <p>{t('invoices.delete.planFirst')}</p>
      ) : (
        <p>{t('invoices.delete.text', { amount: formatMoney(reply.invoice.amount, reply.invoice.currency) })}</p>
      )}
      <Problem text={action.problem} />
      <Actions>
        <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy} data-autofocus>
          {t(activePlan ? 'common.close' : 'invoices.delete.keep')}
        </button>
        {!activePlan && (
          <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={action.busy}>
            {t(action.busy ? 'invoices.delete.busy' : 'invoices.delete.confirm')}
          </button>
        )}
      </Actions>
    </Modal>
  );
}
