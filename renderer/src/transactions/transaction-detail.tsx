/**
 * One transaction (ux.md 13): its amounts, card summary (brand, last four, entry mode; never more),
 * a card-present sale's till, terminal id, cashier and when it was taken (a sale a till stored while
 * the shop's gateway was away says so, with when it was stored and when forwarded),
 * customer, fees and additional data, and a timeline of what happened to it from its event log:
 * authorization, captures, releases, refunds (with their reasons), postback attempts. Capture,
 * release and refund are offered while something is left to capture, release or refund; each opens
 * its dialog and the detail is read again from the gateway afterwards.
 */
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import { RefundStatus, TransactionStatus } from '../../../contract/codes.js';
import { formatMoney } from '../till/money.js';
import { MoneyActionDialog, type MoneyAction } from './money-action-dialog.js';
import { placeOf, tillName, useSalePlaces } from './sale-places.js';
import { StatusTag } from './transaction-list.js';
import { cardText, entryLabel, formatDateTime, formatDateTimeSeconds, paymentTypeLabel, statusLabel, type Tone } from './transaction-format.js';
import type { TransactionDetail } from './transactions-client.js';
import { useTransactionDetail, useTransactionList } from './transactions-store.js';

type Event = TransactionDetail['events'][number];
type RefundItem = TransactionDetail['refunds'][number];

interface TimelineItem {
  at: string;
  title: string;
  detail: string | null;
  tone: Tone;
}

const CUSTOMER_FIELDS: ReadonlyArray<[string, string]> = [
  ['email', 'E-mail'],
  ['address', 'Address'],
  ['postal_code', 'Postal code'],
  ['city', 'City'],
  ['country', 'Country'],
];

/** What an event of the log means, in words. */
function timelineItem(event: Event, currency: string, refunds: readonly RefundItem[]): TimelineItem {
  const money = formatMoney(event.amount, currency);
  const failed = event.status === TransactionStatus.declined || event.status === TransactionStatus.error;
  const dated = (text: string | null) => [text, event.execution_date ? `execution date ${event.execution_date}` : null].filter(Boolean).join(' · ') || null;
  switch (event.type) {
    case 'precheck':
      return { at: event.created_at, title: failed ? 'Account check declined' : 'Account check', detail: dated(event.message), tone: failed ? 'bad' : 'neutral' };
    case 'authorization':
    case 'reauthorization': {
      const again = event.type === 'reauthorization' ? ' (again)' : '';
      if (event.status === TransactionStatus.declined) return { at: event.created_at, title: `Declined${again}`, detail: dated(event.message), tone: 'bad' };
      if (event.status === TransactionStatus.error) return { at: event.created_at, title: `Processor error${again}`, detail: dated(event.message), tone: 'bad' };
      if (event.status === TransactionStatus.started || event.status === TransactionStatus.pending) return { at: event.created_at, title: `Started${again}: ${money}`, detail: dated(event.message), tone: 'wait' };
      return { at: event.created_at, title: `Authorized ${money}${again}`, detail: dated(event.message), tone: 'ok' };
    }
    case 'capture':
      return { at: event.created_at, title: `Captured ${money}`, detail: dated(event.message), tone: 'ok' };
    case 'reversal':
      return { at: event.created_at, title: `Released ${money}`, detail: dated(event.message), tone: 'neutral' };
    case 'refund': {
      const refund = refunds.find((r) => event.message === `Refund ${r.refund_id}`);
      const reason = refund?.merchant_reference ? `Reason: ${refund.merchant_reference}` : null;
      if (event.status === TransactionStatus.error) return { at: event.created_at, title: `Refund of ${money} refused`, detail: dated(event.message), tone: 'bad' };
      return { at: event.created_at, title: `Refunded ${money}`, detail: dated([reason, refund ? `refund ${refund.refund_id}` : event.message].filter(Boolean).join(' · ')), tone: 'neutral' };
    }
    case 'postback': {
      // The delivery's own words: "delivered: HTTP 200 …", or the failure and the next attempt or "no more attempts".
      const message = event.message ?? '';
      const outcome = message.startsWith('delivered') ? 'delivered' : /no more attempts/.test(message) ? 'failed' : 'not delivered, retrying';
      const tone: Tone = outcome === 'delivered' ? 'ok' : outcome === 'failed' ? 'bad' : 'wait';
      return { at: event.created_at, title: `Postback of status “${statusLabel(event.status)}” ${outcome}`, detail: message || null, tone };
    }
    case 'payout':
      return { at: event.created_at, title: `Payout ${money}`, detail: dated(event.message), tone: 'neutral' };
    case 'return':
      return { at: event.created_at, title: `Returned ${money}`, detail: dated(event.message), tone: 'bad' };
    case 'expiry':
      return { at: event.created_at, title: 'Expired', detail: dated(event.message), tone: 'neutral' };
    case 'cancellation':
      return { at: event.created_at, title: 'Cancelled', detail: dated(event.message), tone: 'neutral' };
    default:
      return { at: event.created_at, title: `${event.type} ${event.amount ? money : ''}`.trim(), detail: dated(event.message), tone: 'neutral' };
  }
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

export function TransactionDetailScreen() {
  const { id } = useParams({ from: '/transactions/$id' });
  const { status, detail, error, load } = useTransactionDetail();
  const [action, setAction] = useState<MoneyAction | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const listSearch = useTransactionList((s) => s.search);
  const tills = useSalePlaces((s) => s.tills);
  const loadPlaces = useSalePlaces((s) => s.load);
  const learn = useSalePlaces((s) => s.learn);

  useEffect(() => {
    setNotice(null);
    void load(id);
  }, [id, load]);
  useEffect(() => loadPlaces(), [loadPlaces]);
  // The cashier's name, for the list and its cashier filter.
  const cashier = detail?.cashier;
  useEffect(() => {
    if (cashier) learn(cashier.staff_id, cashier.name);
  }, [cashier, learn]);

  const closeAction = (done: string | null) => {
    setAction(null);
    if (done) {
      // The list shows the new status next time. The notice comes once the detail is read again, so
      // what it says and the figures and buttons beside it agree (no stale "Release…" for a moment).
      useTransactionList.getState().invalidate();
      void load(id).finally(() => setNotice(done));
    }
  };

  // Back to the list as it was, with its filters.
  const back = (
    <Link to="/transactions" search={listSearch} className="back-link">
      ← Transactions
    </Link>
  );

  if (!detail || detail.transaction.transaction_id !== id) {
    return (
      <section className="transaction-detail" aria-labelledby="txn-title">
        {back}
        <h1 id="txn-title">Transaction</h1>
        {status === 'failed' ? (
          <p className="form-problem" role="alert">
            {error}{' '}
            <button type="button" className="button button-small" onClick={() => void load(id)}>
              Try again
            </button>
          </p>
        ) : (
          <p className="loading" role="status">
            Loading the transaction…
          </p>
        )}
      </section>
    );
  }

  const tx = detail.transaction;
  const { amounts } = detail;
  const money = (value: number) => formatMoney(value, tx.currency);
  const card = detail.card ? cardText(detail.card.brand, detail.card.last_four) : null;
  const entry = entryLabel(detail.card?.entry_mode);
  const customerName = [detail.customer.first_name, detail.customer.last_name].filter(Boolean).join(' ');
  const timeline = detail.events.map((event) => timelineItem(event, tx.currency, detail.refunds));
  const cardPresent = tx.payment_method === 'cardpos';
  const place = placeOf(tills, tx);
  const tillText = detail.till ? detail.till.name : place?.name;
  const stored = detail.stored;
  const storedTill = stored ? (detail.till?.till_id === stored.till_id ? detail.till.name : tillName(tills, stored.till_id)) : null;
  // What the money box shows: [label, amount, shown].
  const moneyFacts = (
    [
      ['Amount', tx.amount, true],
      ['Authorized', amounts.authorized, amounts.authorized > 0 || amounts.reversed > 0],
      ['Captured', amounts.captured, true],
      ['Released', amounts.reversed, amounts.reversed > 0],
      ['Refunded', amounts.refunded, true],
      ['Fees', Number(detail.included_fees), true],
      ['Still capturable', amounts.capturable, amounts.capturable > 0],
      ['Still refundable', amounts.refundable, amounts.refundable > 0],
    ] as const
  ).filter(([, , shown]) => shown);

  return (
    <section className="transaction-detail" aria-labelledby="txn-title">
      {back}
      <div className="page-head txn-head">
        <div className="txn-title-block">
          <h1 id="txn-title">
            {money(tx.amount)} <StatusTag code={tx.status_code} message={tx.message} />
          </h1>
          <p className="txn-subtitle">
            {paymentTypeLabel(tx.payment_method)}
            {card ? ` · ${card}${entry && detail.card?.entry_mode !== 'ecommerce' ? ` (${entry})` : ''}` : ''}
            {tx.order_id ? ` · order ${tx.order_id}` : ''} · {formatDateTime(tx.taken_at ?? tx.created_at)}
          </p>
        </div>
        <div className="txn-actions">
          {amounts.capturable > 0 && (
            <button type="button" className="button button-primary" onClick={() => setAction('capture')}>
              Capture…
            </button>
          )}
          {amounts.releasable > 0 && (
            <button type="button" className="button" onClick={() => setAction('release')}>
              Release…
            </button>
          )}
          {amounts.refundable > 0 && (
            <button type="button" className="button" onClick={() => setAction('refund')}>
              Refund…
            </button>
          )}
        </div>
      </div>
      <p className="txn-notice" role="status">
        {notice ?? ''}
      </p>

      <div className="txn-layout">
        <div className="txn-main">
          {stored && (
            <section className="card txn-box txn-stored" aria-labelledby="txn-stored-title">
              <h2 id="txn-stored-title">{stored.forwarded_at ? 'Stored at the till, then forwarded' : 'Stored at the till'}</h2>
              <p className="txn-stored-text">
                Taken at {storedTill} while the shop&rsquo;s gateway was away:{' '}
                {stored.forwarded_at ? 'the till stored the sale and forwarded it when the gateway answered again.' : 'the till stored the sale and forwards it when the gateway answers again.'}
              </p>
              <dl className="facts txn-facts">
                <Fact label="Taken at the till">{formatDateTimeSeconds(stored.stored_at)}</Fact>
                <Fact label="Forwarded">{stored.forwarded_at ? formatDateTimeSeconds(stored.forwarded_at) : 'Not yet'}</Fact>
              </dl>
              {stored.cashier_refused && (
                <p className="form-problem" role="note">
                  The till named a cashier who is not one of this shop&rsquo;s staff at a till, so the sale has no cashier. Check the till.
                </p>
              )}
            </section>
          )}

          <section className="card txn-box" aria-labelledby="txn-money">
            <h2 id="txn-money">Money</h2>
            <dl className="txn-money">
              {moneyFacts.map(([label, value]) => (
                <div key={label} className="txn-money-item">
                  <dt>{label}</dt>
                  <dd>{money(value)}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section className="card txn-box" aria-labelledby="txn-timeline">
            <h2 id="txn-timeline">Timeline</h2>
            {timeline.length === 0 ? (
              <p className="muted">Nothing happened to this transaction yet.</p>
            ) : (
              <ol className="txn-timeline">
                {timeline.map((item, index) => (
                  <li key={`${item.at}-${index}`} className={`txn-event txn-event-${item.tone}`}>
                    <span className="txn-event-dot" aria-hidden="true" />
                    <span className="txn-event-title">{item.title}</span>
                    <time className="txn-event-time" dateTime={item.at}>
                      {formatDateTimeSeconds(item.at)}
                    </time>
                    {item.detail && <span className="txn-event-detail">{item.detail}</span>}
                  </li>
                ))}
              </ol>
            )}
          </section>

          {detail.refunds.length > 0 && (
            <section className="card txn-box" aria-labelledby="txn-refunds-title">
              <h2 id="txn-refunds-title">Refunds</h2>
              <div className="table-wrap">
                <table className="sales-table txn-refund-table">
                  <thead>
                    <tr>
                      <th scope="col">Made</th>
                      <th scope="col" className="num">
                        Amount
                      </th>
                      <th scope="col">Status</th>
                      <th scope="col">Reason</th>
                    </tr>
                  </thead>
                  <tbody>
                    {detail.refunds.map((refund) => (
                      <tr key={refund.refund_id}>
                        <td>{formatDateTime(refund.created_at)}</td>
                        <td className="num">{money(refund.amount)}</td>
                        <td>
                          <span className={`badge ${refund.status_code === RefundStatus.success ? 'badge-ok' : refund.status_code === RefundStatus.error ? 'badge-bad' : 'badge-wait'}`}>
                            {refund.status_code === RefundStatus.success ? 'Refunded' : refund.status_code === RefundStatus.error ? 'Refused' : 'Started'}
                          </span>
                        </td>
                        <td className="txn-refund-reason">{refund.merchant_reference ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}

          {tx.additional_transaction_data && (
            <section className="card txn-box" aria-labelledby="txn-extra">
              <h2 id="txn-extra">Additional transaction data</h2>
              <pre className="txn-extra">{tx.additional_transaction_data}</pre>
            </section>
          )}
        </div>

        <div className="txn-side">
          <section className="card txn-box" aria-labelledby="txn-payment">
            <h2 id="txn-payment">Payment</h2>
            <dl className="facts txn-facts">
              <dt className="txn-fact-wide">Transaction id</dt>
              <dd className="txn-fact-wide cell-mono txn-break">{tx.transaction_id}</dd>
              {tx.invoice_number && (
                <Fact label="Invoice">
                  <Link to="/invoices/$number" params={{ number: tx.invoice_number }}>
                    {tx.invoice_number}
                  </Link>
                </Fact>
              )}
              <Fact label="Order id">{tx.order_id ? <span className="txn-break">{tx.order_id}</span> : '—'}</Fact>
              <Fact label="Payment type">{paymentTypeLabel(tx.payment_method)}</Fact>
              <Fact label="Status">
                {statusLabel(tx.status_code)} ({tx.status_code}){tx.message ? ` · ${tx.message}` : ''}
              </Fact>
              <Fact label="Created">{formatDateTimeSeconds(tx.created_at)}</Fact>
              <Fact label="Last change">{formatDateTimeSeconds(tx.updated_at)}</Fact>
              {!cardPresent && detail.cashier && <Fact label="Staff">{detail.cashier.name}</Fact>}
              {detail.merchant_reference && (
                <Fact label="Reference">
                  <span className="txn-break">{detail.merchant_reference}</span>
                </Fact>
              )}
              {tx.recurring === 1 && <Fact label="Recurring">Yes</Fact>}
              {tx.parent_id && (
                <>
                  <dt className="txn-fact-wide">Parent transaction</dt>
                  <dd className="txn-fact-wide">
                    <Link to="/transactions/$id" params={{ id: tx.parent_id }} className="cell-mono txn-break">
                      {tx.parent_id}
                    </Link>
                  </dd>
                </>
              )}
              {tx.sepa_mandate && <Fact label="SEPA mandate">{tx.sepa_mandate}</Fact>}
            </dl>
          </section>
          {cardPresent && (
            <section className="card txn-box" aria-labelledby="txn-till">
              <h2 id="txn-till">Till</h2>
              <dl className="facts txn-facts">
                <Fact label="Till">
                  {tillText ?? '—'}
                  {detail.till && detail.till.name !== detail.till.till_id && <span className="muted"> ({detail.till.till_id})</span>}
                </Fact>
                {tx.terminal_id && tx.terminal_id !== detail.till?.till_id && (
                  <Fact label="Terminal id">
                    <span className="txn-break">{tx.terminal_id}</span>
                  </Fact>
                )}
                <Fact label="Cashier">{detail.cashier ? detail.cashier.name : <span className="muted">None (POS software)</span>}</Fact>
                {tx.taken_at && <Fact label="Taken">{formatDateTimeSeconds(tx.taken_at)}</Fact>}
              </dl>
            </section>
          )}
          <section className="card txn-box" aria-labelledby="txn-card">
            <h2 id="txn-card">Card</h2>
            {detail.card ? (
              <dl className="facts txn-facts">
                <Fact label="Card">{card}</Fact>
                <Fact label="Entry">{entry ?? '—'}</Fact>
              </dl>
            ) : (
              <p className="muted">No card: {paymentTypeLabel(tx.payment_method)}.</p>
            )}
          </section>
          <section className="card txn-box" aria-labelledby="txn-customer">
            <h2 id="txn-customer">Customer</h2>
            {customerName || CUSTOMER_FIELDS.some(([key]) => detail.customer[key]) ? (
              <dl className="facts txn-facts">
                {customerName && <Fact label="Name">{customerName}</Fact>}
                {CUSTOMER_FIELDS.filter(([key]) => detail.customer[key]).map(([key, label]) => (
                  <Fact key={key} label={label}>
                    <span className="txn-break">{detail.customer[key]}</span>
                  </Fact>
                ))}
              </dl>
            ) : (
              <p className="muted">The payment carried no customer data.</p>
            )}
          </section>
        </div>
      </div>
      {action && <MoneyActionDialog action={action} detail={detail} onClose={closeAction} onRefused={() => void load(id)} />}
    </section>
  );
}
