/**
 * One invoice (`#/invoices/INV-0001`): the pay link with a copy button and its QR code side by side
 * (the API's `qrcode`), explicit status with a manual status change, activate / deactivate, the
 * reminder and the e-mails with a preview of each, the payment plan with its instalments, the
 * payments made through the pay link, the customer and every other field, edit and delete.
 */
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatMoney } from '../till-screen/money.js';
import { cardText, DOT, joined, NO_VALUE, PAYMENT_TYPE_MESSAGES, statusLabel } from '../transactions/transaction-format.js';
import { CopyLink } from '../ui/copy-link.js';
import { Fact } from '../ui/facts.js';
import { useT } from '../ui/i18n.js';
import {
  channelText,
  customerName,
  EMAIL_STATUS_NAMES,
  EMAIL_TYPE_NAMES,
  emailState,
  formatDateTime,
  formatDay,
  localeName,
  PLAN_STATUS_NAMES,
  planStatusClass,
  STATUS_NAMES,
} from './invoice-format.js';
import {
  ActiveDialog,
  CancelPlanDialog,
  DeleteDialog,
  EmailPreviewDialog,
  PlanDialog,
  ReminderDialog,
  StatusDialog,
} from './invoice-dialogs.js';
import { InvoiceTags } from './invoice-list.js';
import type { InvoiceEmail, InvoicePayment, InvoiceReply, PaymentPlan } from './invoices-client.js';
import { useInvoiceChannels, useInvoiceDetail } from './invoices-store.js';

type Dialog = { kind: 'status' | 'active' | 'reminder' | 'plan' | 'cancel-plan' | 'delete' } | { kind: 'preview'; email: InvoiceEmail };

/** The pay page's methods by name (a card payment names its card instead). */
const PAYMENT_METHOD_NAMES: Readonly<Record<string, MessageId>> = {
  cardecom: 'common.card',
  dd: PAYMENT_TYPE_MESSAGES.dd,
  wallet: PAYMENT_TYPE_MESSAGES.wallet,
};

export function InvoiceDetailScreen() {
  const { number } = useParams({ from: '/invoices/$number' });
  const navigate = useNavigate();
  const { status, reply, plan, payments, emails, error, load, changed } = useInvoiceDetail();
  const channels = useInvoiceChannels();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [notice, setNotice] = useState('');
  const t = useT();

  useEffect(() => {
    void channels.load();
  }, [channels.load]);
  useEffect(() => {
    setNotice('');
    void load(number);
  }, [load, number]);

  const close = () => setDialog(null);
  /** A dialog changed the invoice: read it again (its number may have moved), say what happened. */
  const done = async (next: InvoiceReply | null, text: string) => {
    setNotice(text);
    await changed(next);
  };

  if (status === 'failed' || (status !== 'ready' && !reply) || !reply) {
    return (
      <section aria-labelledby="invoice-title">
        <Link to="/invoices" className="back-link">
          {t('invoices.back')}
        </Link>
        <h1 id="invoice-title">{t('invoices.detail.title', { number })}</h1>
        {status === 'failed' ? (
          <p className="form-problem" role="alert">
            {error}
          </p>
        ) : (
          <p className="loading" role="status">
            {t('common.loading')}
          </p>
        )}
      </section>
    );
  }

  const { invoice } = reply;
  const activePlan = plan?.status === 'active' ? plan : null;
  const channel = channels.channels.find((c) => c.channel_id === invoice.channel_id);
  const reminderBlocked = !invoice.email
    ? t('invoices.detail.reminderNoEmail')
    : !invoice.active
      ? t('invoices.detail.reminderInactive')
      : null;
  const planBlocked = activePlan
    ? null
    : invoice.status !== 'pending'
      ? t('invoices.detail.planBlocked', { status: invoice.status })
      : null;
  const address = [
    invoice.address,
    invoice.address2,
    [invoice.postal_code, invoice.city].filter(Boolean).join(' '),
    invoice.state,
    invoice.country,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <section className="invoice-detail" aria-labelledby="invoice-title">
      <Link to="/invoices" className="back-link">
        {t('invoices.back')}
      </Link>
      <div className="page-head">
        <h1 id="invoice-title">{t('invoices.detail.title', { number: invoice.debt_claim_number })}</h1>
        <InvoiceTags reply={reply} />
        <div className="head-actions">
          <Link to="/invoices/$number/edit" params={{ number: invoice.debt_claim_number }} className="button button-quiet">
            {t('invoices.detail.edit')}
          </Link>
          <button type="button" className="button button-quiet" onClick={() => setDialog({ kind: 'status' })}>
            {t('invoices.detail.changeStatus')}
          </button>
          <button type="button" className="button button-quiet" onClick={() => setDialog({ kind: 'active' })}>
            {t('invoices.active.verb', { activate: invoice.active ? 'no' : 'yes' })}
          </button>
          <button type="button" className="button button-quiet button-danger-quiet" onClick={() => setDialog({ kind: 'delete' })}>
            {t('invoices.detail.delete')}
          </button>
        </div>
      </div>
      <p className="notice" role="status">
        {notice}
      </p>

      <div className="inv-cards">
        <section className="card paylink-card" aria-labelledby="paylink-title">
          <h2 id="paylink-title">{t('invoices.payLink')}</h2>
          <div className="paylink-row">
            <img
              className="qr"
              src={reply.qrcode}
              width={250}
              height={250}
              alt={t('invoices.detail.qr', { number: invoice.debt_claim_number })}
            />
            <div className="paylink-text">
              <p className="amount-due">{formatMoney(invoice.amount, invoice.currency)}</p>
              <p className="paylink-state">{t(payState(reply))}</p>
              <CopyLink
                url={reply.paylink}
                label={t('invoices.detail.linkLabel')}
                copied={t('invoices.detail.copied')}
                openLabel={t('invoices.detail.open')}
              />
            </div>
          </div>
        </section>

        <section className="card" aria-labelledby="facts-title">
          <h2 id="facts-title">{t('invoices.invoice')}</h2>
          <dl className="facts detail-facts">
            <Fact label={t('common.status')}>{t(STATUS_NAMES[invoice.status])}</Fact>
            <Fact label={t('invoices.payLink')}>{t(invoice.active ? 'invoices.active' : 'invoices.inactive')}</Fact>
            <Fact label={t('common.amount')}>{formatMoney(invoice.amount, invoice.currency)}</Fact>
            <Fact label={t('invoices.detail.expires')}>
              {invoice.expires_in !== null && invoice.expires_in_unit
                ? t('invoices.detail.expiry', {
                    expired: invoice.expired ? 'yes' : 'no',
                    count: invoice.expires_in,
                    unit: invoice.expires_in_unit,
                  })
                : t('invoices.detail.never')}
            </Fact>
            <Fact label={t('invoices.printDate')}>{formatDay(invoice.print_date)}</Fact>
            <Fact label={t('invoices.channel')}>{channel ? channelText(channel) : String(invoice.channel_id)}</Fact>
            <Fact label={t('common.language')}>
              {invoice.locale
                ? localeName(invoice.effective_locale, t)
                : t('invoices.detail.channelLanguage', { language: localeName(invoice.effective_locale, t) })}
            </Fact>
            <Fact label={t('invoices.created')}>{formatDateTime(invoice.created_at)}</Fact>
            <Fact label={t('invoices.detail.updated')}>{formatDateTime(invoice.updated_at)}</Fact>
          </dl>
          {invoice.description && <p className="bo-description">{invoice.description}</p>}
        </section>

        <section className="card" aria-labelledby="customer-title">
          <h2 id="customer-title">{t('invoices.customer')}</h2>
          <dl className="facts detail-facts">
            <Fact label={t('invoices.detail.name')}>{customerName(invoice) ?? NO_VALUE}</Fact>
            {invoice.company && customerName(invoice) !== invoice.company && (
              <Fact label={t('invoices.field.company')}>{invoice.company}</Fact>
            )}
            <Fact label={t('invoices.email')}>{invoice.email ?? NO_VALUE}</Fact>
            {invoice.phone && <Fact label={t('invoices.field.phone')}>{invoice.phone}</Fact>}
            {invoice.tax_id && <Fact label={t('invoices.field.taxId')}>{invoice.tax_id}</Fact>}
            {invoice.customer_id && <Fact label={t('invoices.field.customerId')}>{invoice.customer_id}</Fact>}
            <Fact label={t('invoices.field.address')}>{address || NO_VALUE}</Fact>
          </dl>
          {(invoice.redirect_after_payments || invoice.success_url || invoice.error_url) && (
            <dl className="facts detail-facts">
              <Fact label={t('invoices.detail.afterPaying')}>
                {t(invoice.redirect_after_payments ? 'invoices.detail.toYourPages' : 'invoices.detail.payPageShows')}
              </Fact>
              {invoice.success_url && <Fact label={t('invoices.field.successUrl')}>{invoice.success_url}</Fact>}
              {invoice.error_url && <Fact label={t('invoices.field.errorUrl')}>{invoice.error_url}</Fact>}
            </dl>
          )}
        </section>

        <section className="card" aria-labelledby="emails-title">
          <div className="card-head">
            <h2 id="emails-title">{t('invoices.emails')}</h2>
            <button
              type="button"
              className="button button-small"
              disabled={reminderBlocked !== null}
              aria-describedby={reminderBlocked ? 'reminder-note' : undefined}
              onClick={() => setDialog({ kind: 'reminder' })}
            >
              {t('invoices.reminder.send')}
            </button>
          </div>
          {reminderBlocked && (
            <p className="field-note" id="reminder-note">
              {reminderBlocked}
            </p>
          )}
          <p className={invoice.last_email?.status === 'failed' ? 'email-state email-failed' : 'email-state'}>
            {invoice.last_email ? emailState(invoice.last_email, t) : t('invoices.detail.noEmail')}
          </p>
          {emails.length > 0 && (
            <ul className="email-list" aria-label={t('invoices.detail.emailList')}>
              {emails.map((email) => (
                <li key={email.id}>
                  <span>
                    <strong>{t(EMAIL_TYPE_NAMES[email.email_type])}</strong>
                    {DOT}
                    {joined(t(EMAIL_STATUS_NAMES[email.status]), formatDateTime(email.sent_at ?? email.created_at))}
                  </span>
                  <button
                    type="button"
                    className="button button-small button-quiet"
                    onClick={() => setDialog({ kind: 'preview', email })}
                    aria-label={t('invoices.detail.preview', { type: email.email_type, at: formatDateTime(email.created_at) })}
                  >
                    {t('invoices.detail.previewButton')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>

        <PlanCard
          plan={plan}
          blocked={planBlocked}
          onCreate={() => setDialog({ kind: 'plan' })}
          onCancel={() => setDialog({ kind: 'cancel-plan' })}
        />
        <PaymentsCard payments={payments} />
      </div>

      {dialog?.kind === 'status' && (
        <StatusDialog
          reply={reply}
          onClose={close}
          onDone={(next, text) => {
            close();
            void done(next, text);
          }}
        />
      )}
      {dialog?.kind === 'active' && (
        <ActiveDialog
          reply={reply}
          onClose={close}
          onDone={(next, text) => {
            close();
            void done(next, text);
          }}
        />
      )}
      {dialog?.kind === 'reminder' && (
        <ReminderDialog
          reply={reply}
          onClose={() => {
            close();
            void changed(null);
          }}
          onDone={(next, text) => void done(next, text)}
        />
      )}
      {dialog?.kind === 'preview' && <EmailPreviewDialog email={dialog.email} onClose={close} />}
      {dialog?.kind === 'plan' && (
        <PlanDialog
          reply={reply}
          onClose={close}
          onDone={(_plan, text) => {
            close();
            void done(null, text);
          }}
        />
      )}
      {dialog?.kind === 'cancel-plan' && activePlan && (
        <CancelPlanDialog
          reply={reply}
          plan={activePlan}
          onClose={close}
          onDone={(text) => {
            close();
            void done(null, text);
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          reply={reply}
          activePlan={activePlan !== null}
          onClose={close}
          onDone={() => {
            close();
            void navigate({ to: '/invoices' });
          }}
        />
      )}
    </section>
  );
}

/** What the customer finds behind the link, in a sentence. */
function payState(reply: InvoiceReply): MessageId {
  const { invoice } = reply;
  if (!invoice.active) return 'invoices.payState.inactive';
  if (invoice.expired) return 'invoices.payState.expired';
  if (invoice.status === 'paid') return 'invoices.payState.paid';
  if (invoice.status === 'processing') return 'invoices.payState.processing';
  return 'invoices.payState.open';
}

function PlanCard({
  plan,
  blocked,
  onCreate,
  onCancel,
}: {
  plan: PaymentPlan | null;
  blocked: string | null;
  onCreate: () => void;
  onCancel: () => void;
}) {
  const active = plan?.status === 'active';
  const t = useT();
  return (
    <section className="card plan-card" aria-labelledby="plan-title">
      <div className="card-head">
        <h2 id="plan-title">{t('invoices.plan.title')}</h2>
        {active ? (
          <button type="button" className="button button-small button-danger-quiet" onClick={onCancel}>
            {t('invoices.plan.cancel')}
          </button>
        ) : (
          <button
            type="button"
            className="button button-small"
            onClick={onCreate}
            disabled={blocked !== null}
            aria-describedby={blocked ? 'plan-note' : undefined}
          >
            {t('invoices.plan.create')}
          </button>
        )}
      </div>
      {blocked && (
        <p className="field-note" id="plan-note">
          {blocked}
        </p>
      )}
      {!plan ? (
        <p className="muted">{t('invoices.plan.none')}</p>
      ) : (
        <>
          <p>
            <span className={planStatusClass(plan.status)}>{t(PLAN_STATUS_NAMES[plan.status])}</span> {planText(plan, t)}
          </p>
          <table className="mini-table">
            <caption className="visually-hidden">{t('invoices.plan.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('invoices.plan.number')}</th>
                <th scope="col">{t('invoices.plan.due')}</th>
                <th scope="col" className="num">
                  {t('common.amount')}
                </th>
                <th scope="col">{t('invoices.plan.paid')}</th>
              </tr>
            </thead>
            <tbody>
              {plan.schedule.map((instalment) => (
                <tr key={instalment.number}>
                  <td>{instalment.number}</td>
                  <td>{formatDay(instalment.due_date)}</td>
                  <td className="num">{formatMoney(instalment.amount, plan.currency)}</td>
                  <td>{t(instalment.paid ? 'invoices.plan.instalmentPaid' : 'invoices.plan.instalmentOpen')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** `4 instalments, every month; 1 paid.` */
function planText(plan: PaymentPlan, t: Translate): string {
  return t('invoices.plan.summary', { count: plan.installments, interval: plan.interval, paid: plan.paid_installments });
}

function PaymentsCard({ payments }: { payments: InvoicePayment[] }) {
  const t = useT();
  return (
    <section className="card payments-card" aria-labelledby="payments-title">
      <h2 id="payments-title">{t('invoices.payments.title')}</h2>
      {payments.length === 0 ? (
        <p className="muted">{t('invoices.payments.none')}</p>
      ) : (
        <table className="mini-table">
          <caption className="visually-hidden">{t('invoices.payments.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('invoices.payments.when')}</th>
              <th scope="col">{t('invoices.payments.method')}</th>
              <th scope="col" className="num">
                {t('common.amount')}
              </th>
              <th scope="col">{t('invoices.payments.result')}</th>
            </tr>
          </thead>
          <tbody>
            {payments.map(({ transaction, instalment }) => (
              <tr key={transaction.transaction_id}>
                <td>
                  {formatDateTime(transaction.created_at)}
                  <span className="tx-id">{transaction.transaction_id}</span>
                </td>
                <td>
                  {joined(
                    transaction.card_last_four
                      ? cardText(transaction.card_brand, transaction.card_last_four)
                      : Object.hasOwn(PAYMENT_METHOD_NAMES, transaction.payment_method)
                        ? t(PAYMENT_METHOD_NAMES[transaction.payment_method] as MessageId)
                        : transaction.payment_method,
                    instalment !== null && t('invoices.payments.instalment', { number: instalment }),
                  )}
                </td>
                <td className="num">{formatMoney(transaction.amount, transaction.currency)}</td>
                <td>
                  {transaction.message
                    ? t('invoices.payments.resultWithMessage', {
                        status: statusLabel(transaction.status_code),
                        message: transaction.message,
                      })
                    : statusLabel(transaction.status_code)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
