/**
 * One checkout session (`#/checkouts/<id>`): the customer's link with Copy and its QR code side by
 * side, the explicit status, the amounts and what the page asks for, and the resulting transaction
 * (linked to its own screen, `#/transactions/<id>`). An open session can be cancelled. While the
 * customer may still be paying (open, processing) the session is read again every few seconds.
 */
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { formatMoney } from '../till-screen/money.js';
import { cardText, joined, PAYMENT_TYPE_MESSAGES, statusLabel } from '../transactions/transaction-format.js';
import { CopyLink } from '../ui/copy-link.js';
import { ConfirmDialog, DetailPending } from '../ui/detail-parts.js';
import { Fact } from '../ui/facts.js';
import { formatDateTime } from '../ui/format.js';
import { currentLocale, useT } from '../ui/i18n.js';
import {
  CHECKOUT_LOCALE_NAMES,
  CHECKOUT_STATUS_NAMES,
  CHECKOUT_STATUS_NOTES,
  checkoutStatusClass,
  COLLECT_NAMES,
} from './checkout-format.js';
import { checkoutsClient, type BackOfficeCheckoutDetail } from './checkouts-client.js';
import { useCheckoutDetail } from './checkouts-store.js';

const WAITING = new Set(['open', 'processing']);
const POLL_MS = 3000;
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** The methods of the hosted page by name (a card payment names its card instead). */
const METHOD_NAMES: Readonly<Record<string, MessageId>> = {
  cardecom: 'common.card',
  dd: PAYMENT_TYPE_MESSAGES.dd,
  wallet: PAYMENT_TYPE_MESSAGES.wallet,
  a2a: PAYMENT_TYPE_MESSAGES.a2a,
  bankredirect: 'checkouts.method.bankredirect',
};
/** What the customer entered, by the page's field names (`shipping_city` is the shipping address's city). */
const ENTERED_NAMES: Readonly<Record<string, MessageId>> = {
  first_name: 'checkouts.form.firstName',
  last_name: 'checkouts.form.lastName',
  email: 'checkouts.form.email',
  phone: 'checkouts.collect.phone',
  dob: 'checkouts.collect.dob',
  gender: 'checkouts.collect.gender',
  company: 'checkouts.entered.company',
  address: 'checkouts.entered.address',
  postal_code: 'checkouts.entered.postalCode',
  city: 'checkouts.entered.city',
  state: 'checkouts.entered.state',
  country: 'checkouts.entered.country',
};

/** A field the customer filled in, by name; one this app does not know by its own name, made readable. */
function enteredLabel(key: string, t: Translate): string {
  const shipping = key.startsWith('shipping_');
  const base = shipping ? key.slice('shipping_'.length) : key;
  const id = Object.hasOwn(ENTERED_NAMES, base) ? ENTERED_NAMES[base] : undefined;
  if (!id) return capitalize(key.replaceAll('_', ' '));
  return shipping ? t('checkouts.entered.shipping', { field: t(id) }) : t(id);
}

export function CheckoutDetailScreen() {
  const { id } = useParams({ from: '/checkouts/$id' });
  const { status, detail, error, load, show } = useCheckoutDetail();
  const t = useT();
  const [cancelling, setCancelling] = useState(false);
  const [notice, setNotice] = useState('');
  const current = detail?.checkout.checkout_id === id ? detail : null;

  useEffect(() => {
    setNotice('');
    void load(id);
  }, [load, id]);

  const waiting = current ? WAITING.has(current.checkout.status) : false;
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = window.setInterval(() => void load(id, true), POLL_MS);
    return () => window.clearInterval(timer);
  }, [waiting, load, id]);

  if (!current) {
    const back = (
      <Link to="/checkouts" className="back-link">
        {t('checkouts.back')}
      </Link>
    );
    return (
      <DetailPending back={back} title={t('checkouts.checkout')} titleId="checkout-title" failed={status === 'failed'} error={error} />
    );
  }

  const { checkout } = current;
  const asked = (Object.keys(COLLECT_NAMES) as Array<keyof typeof COLLECT_NAMES>)
    .filter((key) => current.collect[key])
    .map((key) => t(COLLECT_NAMES[key]));
  const entered = Object.entries(checkout.customer);
  return (
    <section className="checkout-detail" aria-labelledby="checkout-title">
      <Link to="/checkouts" className="back-link">
        {t('checkouts.back')}
      </Link>
      <div className="page-head">
        <h1 id="checkout-title">{t('checkouts.detail.title', { order: checkout.order_id })}</h1>
        <span className={checkoutStatusClass(checkout.status)}>{t(CHECKOUT_STATUS_NAMES[checkout.status])}</span>
        <div className="head-actions">
          {checkout.status === 'open' && (
            <button type="button" className="button button-quiet button-danger-quiet" onClick={() => setCancelling(true)}>
              {t('checkouts.cancel.confirm')}
            </button>
          )}
        </div>
      </div>
      <p className="notice" role="status">
        {notice}
      </p>

      <div className="bo-cards">
        <section className="card card-wide" aria-labelledby="link-title">
          <h2 id="link-title">{t('checkouts.detail.linkTitle')}</h2>
          <div className="paylink-row">
            <img
              className="qr"
              src={current.qr_code}
              width={250}
              height={250}
              alt={t('checkouts.detail.qr', { order: checkout.order_id })}
            />
            <div className="paylink-text">
              <p className="amount-due">{formatMoney(checkout.total_amount, checkout.currency)}</p>
              <p className="paylink-state">{t(CHECKOUT_STATUS_NOTES[checkout.status])}</p>
              <CopyLink
                url={checkout.url}
                label={t('checkouts.detail.link')}
                copied={t('checkouts.detail.copied')}
                openLabel={t('checkouts.detail.open')}
              />
            </div>
          </div>
        </section>

        <section className="card" aria-labelledby="checkout-facts-title">
          <h2 id="checkout-facts-title">{t('checkouts.checkout')}</h2>
          <dl className="facts detail-facts">
            <Fact label={t('common.status')}>{t(CHECKOUT_STATUS_NAMES[checkout.status])}</Fact>
            <Fact label={t('checkouts.order')}>{checkout.order_id}</Fact>
            <Fact label={t('common.amount')}>{formatMoney(checkout.amount, checkout.currency)}</Fact>
            <Fact label={t('checkouts.taxes')}>{formatMoney(checkout.amount_taxes, checkout.currency)}</Fact>
            <Fact label={t('checkouts.shipping')}>{formatMoney(checkout.amount_shipping, checkout.currency)}</Fact>
            <Fact label={t('common.total')}>{formatMoney(checkout.total_amount, checkout.currency)}</Fact>
            <Fact label={t('common.language')}>
              {t(checkout.locale ? CHECKOUT_LOCALE_NAMES[checkout.locale] : 'checkouts.locale.browser')}
            </Fact>
            <Fact label={t('checkouts.detail.asks')}>
              {asked.length
                ? new Intl.ListFormat(currentLocale(), { style: 'short', type: 'unit' }).format(asked)
                : t('checkouts.detail.asksNothing')}
            </Fact>
            <Fact label={t('checkouts.orderDetails')}>
              {t(current.display_transaction_details ? 'checkouts.detail.detailsShown' : 'checkouts.detail.detailsHidden')}
            </Fact>
            <Fact label={t('checkouts.detail.postbacks')}>{checkout.postback_url ?? t('common.none')}</Fact>
            <Fact label={t('checkouts.created')}>{formatDateTime(checkout.created_at)}</Fact>
            <Fact label={t('checkouts.detail.expires')}>{formatDateTime(checkout.expires_at)}</Fact>
          </dl>
          {checkout.description && <p className="bo-description">{checkout.description}</p>}
        </section>

        <TransactionCard detail={current} />

        {entered.length > 0 && (
          <section className="card" aria-labelledby="customer-title">
            <h2 id="customer-title">{t('checkouts.detail.entered')}</h2>
            <dl className="facts detail-facts">
              {entered.map(([key, value]) => (
                <Fact key={key} label={enteredLabel(key, t)}>
                  {value}
                </Fact>
              ))}
            </dl>
          </section>
        )}
      </div>

      {cancelling && (
        <CancelDialog
          detail={current}
          onClose={() => setCancelling(false)}
          onDone={(cancelled) => {
            setCancelling(false);
            show(cancelled.checkout.checkout_id, cancelled);
            setNotice(t('checkouts.cancel.done'));
          }}
        />
      )}
    </section>
  );
}

function TransactionCard({ detail }: { detail: BackOfficeCheckoutDetail }) {
  const tx = detail.transaction;
  const t = useT();
  return (
    <section className="card" aria-labelledby="transaction-title">
      <h2 id="transaction-title">{t('checkouts.transaction')}</h2>
      {!tx ? (
        <p className="muted">{t('checkouts.detail.noPayment')}</p>
      ) : (
        <>
          <dl className="facts detail-facts">
            <Fact label={t('checkouts.detail.result')}>{joined(statusLabel(tx.status_code), tx.message)}</Fact>
            <Fact label={t('common.amount')}>{formatMoney(tx.amount, tx.currency)}</Fact>
            <Fact label={t('checkouts.detail.method')}>
              {tx.card_last_four
                ? cardText(tx.card_brand, tx.card_last_four)
                : Object.hasOwn(METHOD_NAMES, tx.payment_method)
                  ? t(METHOD_NAMES[tx.payment_method] as MessageId)
                  : tx.payment_method}
            </Fact>
            <Fact label={t('checkouts.detail.when')}>{formatDateTime(tx.created_at)}</Fact>
            <Fact label={t('transactions.transactionId')}>
              <span className="mono">{tx.transaction_id}</span>
            </Fact>
          </dl>
          <a className="button" href={`#/transactions/${encodeURIComponent(tx.transaction_id)}`}>
            {t('checkouts.detail.openTransaction')}
          </a>
        </>
      )}
    </section>
  );
}

function CancelDialog({
  detail,
  onClose,
  onDone,
}: {
  detail: BackOfficeCheckoutDetail;
  onClose: () => void;
  onDone: (detail: BackOfficeCheckoutDetail) => void;
}) {
  const { checkout } = detail;
  const t = useT();
  return (
    <ConfirmDialog
      title={t('checkouts.cancel.title', { order: checkout.order_id })}
      keepLabel={t('checkouts.cancel.keep')}
      confirmLabel={t('checkouts.cancel.confirm')}
      busyLabel={t('checkouts.cancel.busy')}
      what={t('checkouts.cancel.what')}
      run={() => checkoutsClient.cancel(checkout.checkout_id)}
      onClose={onClose}
      onDone={onDone}
    >
      <p>{t('checkouts.cancel.text', { amount: formatMoney(checkout.total_amount, checkout.currency) })}</p>
    </ConfirmDialog>
  );
}
