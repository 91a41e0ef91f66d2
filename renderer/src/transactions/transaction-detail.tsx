/**
 * One transaction: its amounts, card summary (brand, last four, entry mode; never more), a
 * card-present sale's till, terminal id, cashier and when it was taken (a sale a till stored while
 * the shop's gateway was away says so, with when it was stored and when forwarded), customer, fees
 * and additional data, and a timeline of what happened to it from its event log: authorization,
 * captures, releases, refunds (with their reasons), postback attempts. Capture, release and refund
 * are offered while something is left to capture, release or refund; each opens its dialog and the
 * detail is read again from the gateway afterwards.
 */
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import { RefundStatus, TransactionStatus } from '../../../contract/codes.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatMoney } from '../till-screen/money.js';
import { formatDay } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import { MoneyActionDialog, type MoneyAction } from './money-action-dialog.js';
import { placeOf, tillName, useSalePlaces } from './sale-places.js';
import { StatusTag } from './transaction-list.js';
import {
  bracketed,
  cardText,
  entryLabel,
  formatDateTime,
  formatDateTimeSeconds,
  joined,
  NO_VALUE,
  paymentTypeLabel,
  statusLabel,
  type Tone,
} from './transaction-format.js';
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

const CUSTOMER_FIELDS: ReadonlyArray<[string, MessageId]> = [
  ['email', 'transactions.customer.email'],
  ['address', 'transactions.customer.address'],
  ['postal_code', 'transactions.customer.postalCode'],
  ['city', 'transactions.customer.city'],
  ['country', 'transactions.customer.country'],
];

/** What an event of the log means, in words. The event's own message (the processor's, the postback's delivery) is the gateway's, as it was written. */
function timelineItem(event: Event, currency: string, refunds: readonly RefundItem[], t: Translate): TimelineItem {
  const amount = formatMoney(event.amount, currency);
  const failed = event.status === TransactionStatus.declined || event.status === TransactionStatus.error;
  const executionDate = event.execution_date
    ? /^\d{4}-\d{2}-\d{2}$/.test(event.execution_date)
      ? formatDay(event.execution_date)
      : event.execution_date
    : null;
  const dated = (text: string | null) =>
    [text, executionDate ? t('transactions.event.executionDate', { date: executionDate }) : null].filter(Boolean).join(' · ') || null;
  switch (event.type) {
    case 'precheck':
      return {
        at: event.created_at,
        title: t(failed ? 'transactions.event.accountCheckDeclined' : 'transactions.event.accountCheck'),
        detail: dated(event.message),
        tone: failed ? 'bad' : 'neutral',
      };
    case 'authorization':
    case 'reauthorization': {
      const again = event.type === 'reauthorization' ? 'yes' : 'no';
      if (event.status === TransactionStatus.declined)
        return { at: event.created_at, title: t('transactions.event.declined', { again }), detail: dated(event.message), tone: 'bad' };
      if (event.status === TransactionStatus.error)
        return {
          at: event.created_at,
          title: t('transactions.event.processorError', { again }),
          detail: dated(event.message),
          tone: 'bad',
        };
      if (event.status === TransactionStatus.started || event.status === TransactionStatus.pending)
        return {
          at: event.created_at,
          title: t('transactions.event.started', { again, amount }),
          detail: dated(event.message),
          tone: 'wait',
        };
      return {
        at: event.created_at,
        title: t('transactions.event.authorized', { again, amount }),
        detail: dated(event.message),
        tone: 'ok',
      };
    }
    case 'capture':
      return { at: event.created_at, title: t('transactions.event.captured', { amount }), detail: dated(event.message), tone: 'ok' };
    case 'reversal':
      return { at: event.created_at, title: t('transactions.event.released', { amount }), detail: dated(event.message), tone: 'neutral' };
    case 'refund': {
      const refund = refunds.find((r) => event.message === `Refund ${r.refund_id}`);
      const reason = refund?.merchant_reference ? t('transactions.event.reason', { reason: refund.merchant_reference }) : null;
      if (event.status === TransactionStatus.error)
        return {
          at: event.created_at,
          title: t('transactions.event.refundRefused', { amount }),
          detail: dated(event.message),
          tone: 'bad',
        };
      return {
        at: event.created_at,
        title: t('transactions.event.refunded', { amount }),
        detail: dated(
          [reason, refund ? t('transactions.event.refundId', { id: refund.refund_id }) : event.message].filter(Boolean).join(' · '),
        ),
        tone: 'neutral',
      };
    }
    case 'postback': {
      // The delivery's own words: "delivered: HTTP 200 …", or the failure and the next attempt or "no more attempts".
      const message = event.message ?? '';
      const outcome = message.startsWith('delivered') ? 'delivered' : /no more attempts/.test(message) ? 'failed' : 'retrying';
      const tone: Tone = outcome === 'delivered' ? 'ok' : outcome === 'failed' ? 'bad' : 'wait';
      return {
        at: event.created_at,
        title: t('transactions.event.postback', { status: statusLabel(event.status), outcome }),
        detail: message || null,
        tone,
      };
    }
    case 'payout':
      return { at: event.created_at, title: t('transactions.event.payout', { amount }), detail: dated(event.message), tone: 'neutral' };
    case 'return':
      return { at: event.created_at, title: t('transactions.event.returned', { amount }), detail: dated(event.message), tone: 'bad' };
    case 'expiry':
      return { at: event.created_at, title: t('transactions.status.expired'), detail: dated(event.message), tone: 'neutral' };
    case 'cancellation':
      return { at: event.created_at, title: t('transactions.status.cancelled'), detail: dated(event.message), tone: 'neutral' };
    default:
      // An event this app does not know: its code as the gateway wrote it.
      return {
        at: event.created_at,
        title: `${event.type} ${event.amount ? amount : ''}`.trim(),
        detail: dated(event.message),
        tone: 'neutral',
      };
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
  const t = useT();

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
      {t('transactions.detail.back')}
    </Link>
  );

  if (!detail || detail.transaction.transaction_id !== id) {
    return (
      <section className="transaction-detail" aria-labelledby="txn-title">
        {back}
        <h1 id="txn-title">{t('transactions.detail.title')}</h1>
        {status === 'failed' ? (
          <p className="form-problem" role="alert">
            {error}{' '}
            <button type="button" className="button button-small" onClick={() => void load(id)}>
              {t('common.retry')}
            </button>
          </p>
        ) : (
          <p className="loading" role="status">
            {t('transactions.detail.loading')}
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
  const timeline = detail.events.map((event) => timelineItem(event, tx.currency, detail.refunds, t));
  const cardPresent = tx.payment_method === 'cardpos';
  const place = placeOf(tills, tx);
  const tillText = detail.till ? detail.till.name : place?.name;
  const stored = detail.stored;
  const storedTill = stored ? (detail.till?.till_id === stored.till_id ? detail.till.name : tillName(tills, stored.till_id)) : null;
  // What the money box shows: [label, amount, shown].
  const moneyFacts = (
    [
      ['common.amount', tx.amount, true],
      ['transactions.amounts.authorized', amounts.authorized, amounts.authorized > 0 || amounts.reversed > 0],
      ['transactions.amounts.captured', amounts.captured, true],
      ['transactions.amounts.released', amounts.reversed, amounts.reversed > 0],
      ['transactions.amounts.refunded', amounts.refunded, true],
      ['transactions.amounts.fees', Number(detail.included_fees), true],
      ['transactions.amounts.capturable', amounts.capturable, amounts.capturable > 0],
      ['transactions.amounts.refundable', amounts.refundable, amounts.refundable > 0],
    ] as const satisfies ReadonlyArray<readonly [MessageId, number, boolean]>
  ).filter(([, , shown]) => shown);
  // The subtitle: the payment type, the card (and how it was presented), the order, when.
  const cardWords = card
    ? entry && detail.card?.entry_mode !== 'ecommerce'
      ? t('transactions.detail.cardEntry', { card, entry })
      : card
    : null;
  const subtitle = joined(
    paymentTypeLabel(tx.payment_method),
    cardWords,
    tx.order_id && t('transactions.detail.order', { order: tx.order_id }),
  );

  return (
    <section className="transaction-detail" aria-labelledby="txn-title">
      {back}
      <div className="page-head txn-head">
        <div className="txn-title-block">
          <h1 id="txn-title">
            {money(tx.amount)} <StatusTag code={tx.status_code} message={tx.message} />
          </h1>
          <p className="txn-subtitle">{joined(subtitle, formatDateTime(tx.taken_at ?? tx.created_at))}</p>
        </div>
        <div className="txn-actions">
          {amounts.capturable > 0 && (
            <button type="button" className="button button-primary" onClick={() => setAction('capture')}>
              {t('transactions.action.capture')}
            </button>
          )}
          {amounts.releasable > 0 && (
            <button type="button" className="button" onClick={() => setAction('release')}>
              {t('transactions.action.release')}
            </button>
          )}
          {amounts.refundable > 0 && (
            <button type="button" className="button" onClick={() => setAction('refund')}>
              {t('transactions.action.refund')}
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
              <h2 id="txn-stored-title">{t(stored.forwarded_at ? 'transactions.stored.titleForwarded' : 'transactions.status.stored')}</h2>
              <p className="txn-stored-text">
                {t(stored.forwarded_at ? 'transactions.stored.textForwarded' : 'transactions.stored.text', { till: storedTill ?? '' })}
              </p>
              <dl className="facts txn-facts">
                <Fact label={t('transactions.stored.takenAt')}>{formatDateTimeSeconds(stored.stored_at)}</Fact>
                <Fact label={t('transactions.stored.forwarded')}>
                  {stored.forwarded_at ? formatDateTimeSeconds(stored.forwarded_at) : t('transactions.stored.notYet')}
                </Fact>
              </dl>
              {stored.cashier_refused && (
                <p className="form-problem" role="note">
                  {t('transactions.stored.cashierRefused')}
                </p>
              )}
            </section>
          )}

          <section className="card txn-box" aria-labelledby="txn-money">
            <h2 id="txn-money">{t('transactions.detail.money')}</h2>
            <dl className="txn-money">
              {moneyFacts.map(([label, value]) => (
                <div key={label} className="txn-money-item">
                  <dt>{t(label)}</dt>
                  <dd>{money(value)}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section className="card txn-box" aria-labelledby="txn-timeline">
            <h2 id="txn-timeline">{t('transactions.detail.timeline')}</h2>
            {timeline.length === 0 ? (
              <p className="muted">{t('transactions.detail.noEvents')}</p>
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
              <h2 id="txn-refunds-title">{t('transactions.refunds.title')}</h2>
              <div className="table-wrap">
                <table className="sales-table txn-refund-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('transactions.refunds.made')}</th>
                      <th scope="col" className="num">
                        {t('common.amount')}
                      </th>
                      <th scope="col">{t('common.status')}</th>
                      <th scope="col">{t('transactions.reason')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {detail.refunds.map((refund) => (
                      <tr key={refund.refund_id}>
                        <td>{formatDateTime(refund.created_at)}</td>
                        <td className="num">{money(refund.amount)}</td>
                        <td>
                          <span
                            className={`badge ${refund.status_code === RefundStatus.success ? 'badge-ok' : refund.status_code === RefundStatus.error ? 'badge-bad' : 'badge-wait'}`}
                          >
                            {t(
                              refund.status_code === RefundStatus.success
                                ? 'transactions.status.refunded'
                                : refund.status_code === RefundStatus.error
                                  ? 'transactions.refunds.refused'
                                  : 'transactions.status.started',
                            )}
                          </span>
                        </td>
                        <td className="txn-refund-reason">{refund.merchant_reference ?? NO_VALUE}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}

          {tx.additional_transaction_data && (
            <section className="card txn-box" aria-labelledby="txn-extra">
              <h2 id="txn-extra">{t('transactions.detail.additionalData')}</h2>
              <pre className="txn-extra">{tx.additional_transaction_data}</pre>
            </section>
          )}
        </div>

        <div className="txn-side">
          <section className="card txn-box" aria-labelledby="txn-payment">
            <h2 id="txn-payment">{t('transactions.payment')}</h2>
            <dl className="facts txn-facts">
              <dt className="txn-fact-wide">{t('transactions.transactionId')}</dt>
              <dd className="txn-fact-wide cell-mono txn-break">{tx.transaction_id}</dd>
              {tx.invoice_number && (
                <Fact label={t('transactions.invoice')}>
                  <Link to="/invoices/$number" params={{ number: tx.invoice_number }}>
                    {tx.invoice_number}
                  </Link>
                </Fact>
              )}
              <Fact label={t('transactions.orderId')}>{tx.order_id ? <span className="txn-break">{tx.order_id}</span> : NO_VALUE}</Fact>
              <Fact label={t('transactions.paymentType')}>{paymentTypeLabel(tx.payment_method)}</Fact>
              <Fact label={t('common.status')}>
                {joined(t('transactions.filter.statusChoice', { status: statusLabel(tx.status_code), code: tx.status_code }), tx.message)}
              </Fact>
              <Fact label={t('transactions.created')}>{formatDateTimeSeconds(tx.created_at)}</Fact>
              <Fact label={t('transactions.lastChange')}>{formatDateTimeSeconds(tx.updated_at)}</Fact>
              {!cardPresent && detail.cashier && <Fact label={t('transactions.detail.staff')}>{detail.cashier.name}</Fact>}
              {detail.merchant_reference && (
                <Fact label={t('transactions.detail.reference')}>
                  <span className="txn-break">{detail.merchant_reference}</span>
                </Fact>
              )}
              {tx.recurring === 1 && <Fact label={t('transactions.recurring')}>{t('common.yes')}</Fact>}
              {tx.parent_id && (
                <>
                  <dt className="txn-fact-wide">{t('transactions.parent')}</dt>
                  <dd className="txn-fact-wide">
                    <Link to="/transactions/$id" params={{ id: tx.parent_id }} className="cell-mono txn-break">
                      {tx.parent_id}
                    </Link>
                  </dd>
                </>
              )}
              {tx.sepa_mandate && <Fact label={t('transactions.sepaMandate')}>{tx.sepa_mandate}</Fact>}
            </dl>
          </section>
          {cardPresent && (
            <section className="card txn-box" aria-labelledby="txn-till">
              <h2 id="txn-till">{t('transactions.till')}</h2>
              <dl className="facts txn-facts">
                <Fact label={t('transactions.till')}>
                  {tillText ?? NO_VALUE}
                  {detail.till && detail.till.name !== detail.till.till_id && (
                    <span className="muted"> {bracketed(detail.till.till_id)}</span>
                  )}
                </Fact>
                {tx.terminal_id && tx.terminal_id !== detail.till?.till_id && (
                  <Fact label={t('transactions.detail.terminalId')}>
                    <span className="txn-break">{tx.terminal_id}</span>
                  </Fact>
                )}
                <Fact label={t('transactions.cashier')}>
                  {detail.cashier ? detail.cashier.name : <span className="muted">{t('transactions.detail.noCashier')}</span>}
                </Fact>
                {tx.taken_at && <Fact label={t('transactions.detail.taken')}>{formatDateTimeSeconds(tx.taken_at)}</Fact>}
              </dl>
            </section>
          )}
          <section className="card txn-box" aria-labelledby="txn-card">
            <h2 id="txn-card">{t('common.card')}</h2>
            {detail.card ? (
              <dl className="facts txn-facts">
                <Fact label={t('common.card')}>{card}</Fact>
                <Fact label={t('transactions.detail.entry')}>{entry ?? NO_VALUE}</Fact>
              </dl>
            ) : (
              <p className="muted">{t('transactions.detail.noCard', { type: paymentTypeLabel(tx.payment_method) })}</p>
            )}
          </section>
          <section className="card txn-box" aria-labelledby="txn-customer">
            <h2 id="txn-customer">{t('transactions.customer.title')}</h2>
            {customerName || CUSTOMER_FIELDS.some(([key]) => detail.customer[key]) ? (
              <dl className="facts txn-facts">
                {customerName && <Fact label={t('transactions.customer.name')}>{customerName}</Fact>}
                {CUSTOMER_FIELDS.filter(([key]) => detail.customer[key]).map(([key, label]) => (
                  <Fact key={key} label={t(label)}>
                    <span className="txn-break">{detail.customer[key]}</span>
                  </Fact>
                ))}
              </dl>
            ) : (
              <p className="muted">{t('transactions.customer.none')}</p>
            )}
          </section>
        </div>
      </div>
      {action && <MoneyActionDialog action={action} detail={detail} onClose={closeAction} onRefused={() => void load(id)} />}
    </section>
  );
}
