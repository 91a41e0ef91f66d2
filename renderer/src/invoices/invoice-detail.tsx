/**
 * One invoice (`#/invoices/INV-0001`): the pay link with a copy button and its QR code side by side
 * (the API's `qrcode`), explicit status with a manual status change, activate / deactivate, the
 * reminder and the e-mails with a preview of each, the payment plan with its instalments, the
 * payments made through the pay link, the customer and every other field, edit and delete.
 */
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatMoney } from '../till/money.js';
import { CopyLink } from '../ui/copy-link.js';
import { Fact } from '../ui/facts.js';
import {
  customerName,
  EMAIL_STATUS_NAMES,
  EMAIL_TYPE_NAMES,
  emailState,
  EXPIRY_UNIT_NAMES,
  formatDateTime,
  formatDay,
  INTERVAL_NAMES,
  LOCALE_NAMES,
  PLAN_STATUS_NAMES,
  planStatusClass,
  STATUS_NAMES,
} from './invoice-format.js';
import { ActiveDialog, CancelPlanDialog, DeleteDialog, EmailPreviewDialog, PlanDialog, ReminderDialog, StatusDialog } from './invoice-dialogs.js';
import { InvoiceTags } from './invoice-list.js';
import type { InvoiceEmail, InvoicePayment, InvoiceReply, PaymentPlan } from './invoices-client.js';
import { useInvoiceChannels, useInvoiceDetail } from './invoices-store.js';

type Dialog = { kind: 'status' | 'active' | 'reminder' | 'plan' | 'cancel-plan' | 'delete' } | { kind: 'preview'; email: InvoiceEmail };

const PAYMENT_METHOD_NAMES: Record<string, string> = { cardecom: 'Card', dd: 'SEPA Direct Debit', wallet: 'Wallet' };
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function InvoiceDetailScreen() {
  const { number } = useParams({ from: '/invoices/$number' });
  const navigate = useNavigate();
  const { status, reply, plan, payments, emails, error, load, changed } = useInvoiceDetail();
  const channels = useInvoiceChannels();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [notice, setNotice] = useState('');

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
          ← Invoices
        </Link>
        <h1 id="invoice-title">Invoice {number}</h1>
        {status === 'failed' ? (
          <p className="form-problem" role="alert">
            {error}
          </p>
        ) : (
          <p className="loading" role="status">
            Loading…
          </p>
        )}
      </section>
    );
  }

  const { invoice } = reply;
  const activePlan = plan?.status === 'active' ? plan : null;
  const channel = channels.channels.find((c) => c.channel_id === invoice.channel_id);
  const reminderBlocked = !invoice.email ? 'Add an e-mail address (Edit) to send reminders.' : !invoice.active ? 'An inactive invoice sends no e-mails.' : null;
  const planBlocked = activePlan ? null : invoice.status !== 'pending' ? `Only a pending invoice can get a payment plan; this one is ${STATUS_NAMES[invoice.status].toLowerCase()}.` : null;

  return (
    <section className="invoice-detail" aria-labelledby="invoice-title">
      <Link to="/invoices" className="back-link">
        ← Invoices
      </Link>
      <div className="page-head">
        <h1 id="invoice-title">Invoice {invoice.debt_claim_number}</h1>
        <InvoiceTags reply={reply} />
        <div className="head-actions">
          <Link to="/invoices/$number/edit" params={{ number: invoice.debt_claim_number }} className="button button-quiet">
            Edit
          </Link>
          <button type="button" className="button button-quiet" onClick={() => setDialog({ kind: 'status' })}>
            Change status
          </button>
          <button type="button" className="button button-quiet" onClick={() => setDialog({ kind: 'active' })}>
            {invoice.active ? 'Deactivate' : 'Activate'}
          </button>
          <button type="button" className="button button-quiet button-danger-quiet" onClick={() => setDialog({ kind: 'delete' })}>
            Delete
          </button>
        </div>
      </div>
      <p className="notice" role="status">
        {notice}
      </p>

      <div className="inv-cards">
        <section className="card paylink-card" aria-labelledby="paylink-title">
          <h2 id="paylink-title">Pay link</h2>
          <div className="paylink-row">
            <img className="qr" src={reply.qrcode} width={250} height={250} alt={`QR code of the pay link of ${invoice.debt_claim_number}`} />
            <div className="paylink-text">
              <p className="amount-due">{formatMoney(invoice.amount, invoice.currency)}</p>
              <p className="paylink-state">{payState(reply)}</p>
              <CopyLink url={reply.paylink} label="Link for the customer" copied="Pay link copied." openLabel="Open pay page" />
            </div>
          </div>
        </section>

        <section className="card" aria-labelledby="facts-title">
          <h2 id="facts-title">Invoice</h2>
          <dl className="facts detail-facts">
            <Fact label="Status">{STATUS_NAMES[invoice.status]}</Fact>
            <Fact label="Pay link">{invoice.active ? 'Active' : 'Inactive'}</Fact>
            <Fact label="Amount">{formatMoney(invoice.amount, invoice.currency)}</Fact>
            <Fact label="Expires">
              {invoice.expires_in !== null && invoice.expires_in_unit
                ? `${invoice.expired ? 'Expired' : 'In'} ${invoice.expires_in} ${EXPIRY_UNIT_NAMES[invoice.expires_in_unit as keyof typeof EXPIRY_UNIT_NAMES] ?? invoice.expires_in_unit} from creation`
                : 'Never'}
            </Fact>
            <Fact label="Print date">{formatDay(invoice.print_date)}</Fact>
            <Fact label="Channel">{channel ? `${channel.name} (${channel.url_name})` : String(invoice.channel_id)}</Fact>
            <Fact label="Language">
              {LOCALE_NAMES[invoice.effective_locale as keyof typeof LOCALE_NAMES] ?? invoice.effective_locale}
              {invoice.locale ? '' : ' (channel)'}
            </Fact>
            <Fact label="Created">{formatDateTime(invoice.created_at)}</Fact>
            <Fact label="Updated">{formatDateTime(invoice.updated_at)}</Fact>
          </dl>
          {invoice.description && <p className="bo-description">{invoice.description}</p>}
        </section>

        <section className="card" aria-labelledby="customer-title">
          <h2 id="customer-title">Customer</h2>
          <dl className="facts detail-facts">
            <Fact label="Name">{customerName(invoice) ?? '—'}</Fact>
            {invoice.company && customerName(invoice) !== invoice.company && <Fact label="Company">{invoice.company}</Fact>}
            <Fact label="E-mail">{invoice.email ?? '—'}</Fact>
            {invoice.phone && <Fact label="Phone">{invoice.phone}</Fact>}
            {invoice.tax_id && <Fact label="Tax ID">{invoice.tax_id}</Fact>}
            {invoice.customer_id && <Fact label="Customer ID">{invoice.customer_id}</Fact>}
            <Fact label="Address">
              {[invoice.address, invoice.address2, [invoice.postal_code, invoice.city].filter(Boolean).join(' '), invoice.state, invoice.country].filter(Boolean).join(', ') || '—'}
            </Fact>
          </dl>
          {(invoice.redirect_after_payments || invoice.success_url || invoice.error_url) && (
            <dl className="facts detail-facts">
              <Fact label="After paying">{invoice.redirect_after_payments ? 'To your pages' : 'The pay page shows the result'}</Fact>
              {invoice.success_url && <Fact label="Success URL">{invoice.success_url}</Fact>}
              {invoice.error_url && <Fact label="Error URL">{invoice.error_url}</Fact>}
            </dl>
          )}
        </section>

        <section className="card" aria-labelledby="emails-title">
          <div className="card-head">
            <h2 id="emails-title">E-mails</h2>
            <button type="button" className="button button-small" disabled={reminderBlocked !== null} aria-describedby={reminderBlocked ? 'reminder-note' : undefined} onClick={() => setDialog({ kind: 'reminder' })}>
              Send reminder
            </button>
          </div>
          {reminderBlocked && (
            <p className="field-note" id="reminder-note">
              {reminderBlocked}
            </p>
          )}
          <p className={invoice.last_email?.status === 'failed' ? 'email-state email-failed' : 'email-state'}>
            {invoice.last_email ? emailState(invoice.last_email) : 'No e-mail sent yet.'}
          </p>
          {emails.length > 0 && (
            <ul className="email-list" aria-label="E-mails of this invoice, newest first">
              {emails.map((email) => (
                <li key={email.id}>
                  <span>
                    <strong>{EMAIL_TYPE_NAMES[email.email_type]}</strong> · {EMAIL_STATUS_NAMES[email.status]} · {formatDateTime(email.sent_at ?? email.created_at)}
                  </span>
                  <button type="button" className="button button-small button-quiet" onClick={() => setDialog({ kind: 'preview', email })} aria-label={`Preview the ${EMAIL_TYPE_NAMES[email.email_type].toLowerCase()} of ${formatDateTime(email.created_at)}`}>
                    Preview
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>

        <PlanCard plan={plan} blocked={planBlocked} onCreate={() => setDialog({ kind: 'plan' })} onCancel={() => setDialog({ kind: 'cancel-plan' })} />
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
      {dialog?.kind === 'reminder' && <ReminderDialog reply={reply} onClose={() => { close(); void changed(null); }} onDone={(next, text) => void done(next, text)} />}
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
function payState(reply: InvoiceReply): string {
  const { invoice } = reply;
  if (!invoice.active) return 'Inactive: the pay link says the invoice cannot be paid.';
  if (invoice.expired) return 'Expired: the pay link takes no payment.';
  if (invoice.status === 'paid') return 'Paid: the pay link says so.';
  if (invoice.status === 'processing') return 'A payment is under way.';
  return 'The customer pays here by card, SEPA Direct Debit or wallet.';
}

function PlanCard({ plan, blocked, onCreate, onCancel }: { plan: PaymentPlan | null; blocked: string | null; onCreate: () => void; onCancel: () => void }) {
  const active = plan?.status === 'active';
  return (
    <section className="card plan-card" aria-labelledby="plan-title">
      <div className="card-head">
        <h2 id="plan-title">Payment plan</h2>
        {active ? (
          <button type="button" className="button button-small button-danger-quiet" onClick={onCancel}>
            Cancel plan
          </button>
        ) : (
          <button type="button" className="button button-small" onClick={onCreate} disabled={blocked !== null} aria-describedby={blocked ? 'plan-note' : undefined}>
            Create plan
          </button>
        )}
      </div>
      {blocked && (
        <p className="field-note" id="plan-note">
          {blocked}
        </p>
      )}
      {!plan ? (
        <p className="muted">No payment plan: the customer pays the whole amount at once.</p>
      ) : (
        <>
          <p>
            <span className={planStatusClass(plan.status)}>{PLAN_STATUS_NAMES[plan.status]}</span> {plan.installments} instalments, {INTERVAL_NAMES[plan.interval].toLowerCase()}; {plan.paid_installments}{' '}
            paid.
          </p>
          <table className="mini-table">
            <caption className="visually-hidden">Instalments of the payment plan</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Due</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Paid</th>
              </tr>
            </thead>
            <tbody>
              {plan.schedule.map((instalment) => (
                <tr key={instalment.number}>
                  <td>{instalment.number}</td>
                  <td>{formatDay(instalment.due_date)}</td>
                  <td className="num">{formatMoney(instalment.amount, plan.currency)}</td>
                  <td>{instalment.paid ? 'Paid' : 'Open'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function PaymentsCard({ payments }: { payments: InvoicePayment[] }) {
  return (
    <section className="card payments-card" aria-labelledby="payments-title">
      <h2 id="payments-title">Payments through the pay link</h2>
      {payments.length === 0 ? (
        <p className="muted">No payment yet.</p>
      ) : (
        <table className="mini-table">
          <caption className="visually-hidden">Payments through the pay link, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Method</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">Result</th>
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
                  {transaction.card_last_four ? `${capitalize(transaction.card_brand ?? 'Card')} •••• ${transaction.card_last_four}` : (PAYMENT_METHOD_NAMES[transaction.payment_method] ?? transaction.payment_method)}
                  {instalment !== null ? ` · instalment ${instalment}` : ''}
                </td>
                <td className="num">{formatMoney(transaction.amount, transaction.currency)}</td>
                <td>
                  {capitalize(transaction.status)}
                  {transaction.message ? ` (${transaction.message})` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
