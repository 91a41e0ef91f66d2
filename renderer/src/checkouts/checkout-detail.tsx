/**
 * One checkout session (`#/checkouts/<id>`): the customer's link with Copy and its QR code side by
 * side, the explicit status, the amounts and what the page asks for, and the resulting transaction
 * (linked to its own screen, `#/transactions/<id>`). An open session can be cancelled. While the
 * customer may still be paying (open, processing) the session is read again every few seconds.
 */
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { formatMoney } from '../till/money.js';
import { CopyLink } from '../ui/copy-link.js';
import { ConfirmDialog, DetailPending } from '../ui/detail-parts.js';
import { Fact } from '../ui/facts.js';
import { formatDateTime } from '../ui/format.js';
import { CHECKOUT_LOCALE_NAMES, CHECKOUT_STATUS_NAMES, CHECKOUT_STATUS_NOTES, checkoutStatusClass, COLLECT_NAMES } from './checkout-format.js';
import { checkoutsClient, type BackOfficeCheckoutDetail } from './checkouts-client.js';
import { useCheckoutDetail } from './checkouts-store.js';

const WAITING = new Set(['open', 'processing']);
const POLL_MS = 3000;
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const METHOD_NAMES: Record<string, string> = { cardecom: 'Card', dd: 'SEPA Direct Debit', wallet: 'Wallet', a2a: 'Account to account', bankredirect: 'Bank transfer' };

export function CheckoutDetailScreen() {
  const { id } = useParams({ from: '/checkouts/$id' });
  const { status, detail, error, load, show } = useCheckoutDetail();
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
        ← Checkouts
      </Link>
    );
    return <DetailPending back={back} title="Checkout" titleId="checkout-title" failed={status === 'failed'} error={error} />;
  }

  const { checkout } = current;
  const asked = (Object.keys(COLLECT_NAMES) as Array<keyof typeof COLLECT_NAMES>).filter((key) => current.collect[key]).map((key) => COLLECT_NAMES[key]);
  const entered = Object.entries(checkout.customer);
  return (
    <section className="checkout-detail" aria-labelledby="checkout-title">
      <Link to="/checkouts" className="back-link">
        ← Checkouts
      </Link>
      <div className="page-head">
        <h1 id="checkout-title">Checkout {checkout.order_id}</h1>
        <span className={checkoutStatusClass(checkout.status)}>{CHECKOUT_STATUS_NAMES[checkout.status]}</span>
        <div className="head-actions">
          {checkout.status === 'open' && (
            <button type="button" className="button button-quiet button-danger-quiet" onClick={() => setCancelling(true)}>
              Cancel checkout
            </button>
          )}
        </div>
      </div>
      <p className="notice" role="status">
        {notice}
      </p>

      <div className="bo-cards">
        <section className="card card-wide" aria-labelledby="link-title">
          <h2 id="link-title">Link for the customer</h2>
          <div className="paylink-row">
            <img className="qr" src={current.qr_code} width={250} height={250} alt={`QR code of the checkout link of order ${checkout.order_id}`} />
            <div className="paylink-text">
              <p className="amount-due">{formatMoney(checkout.total_amount, checkout.currency)}</p>
              <p className="paylink-state">{CHECKOUT_STATUS_NOTES[checkout.status]}</p>
              <CopyLink url={checkout.url} label="Checkout link" copied="Checkout link copied." openLabel="Open checkout page" />
            </div>
          </div>
        </section>

        <section className="card" aria-labelledby="checkout-facts-title">
          <h2 id="checkout-facts-title">Checkout</h2>
          <dl className="facts detail-facts">
            <Fact label="Status">{CHECKOUT_STATUS_NAMES[checkout.status]}</Fact>
            <Fact label="Order">{checkout.order_id}</Fact>
            <Fact label="Amount">{formatMoney(checkout.amount, checkout.currency)}</Fact>
            <Fact label="Taxes">{formatMoney(checkout.amount_taxes, checkout.currency)}</Fact>
            <Fact label="Shipping">{formatMoney(checkout.amount_shipping, checkout.currency)}</Fact>
            <Fact label="Total">{formatMoney(checkout.total_amount, checkout.currency)}</Fact>
            <Fact label="Language">{checkout.locale ? CHECKOUT_LOCALE_NAMES[checkout.locale] : "The customer's browser"}</Fact>
            <Fact label="The page asks for">{asked.length ? asked.join(', ') : 'Nothing beyond the payment'}</Fact>
            <Fact label="Order details">{current.display_transaction_details ? 'Shown on the page' : 'Not shown'}</Fact>
            <Fact label="Postbacks">{checkout.postback_url ?? 'None'}</Fact>
            <Fact label="Created">{formatDateTime(checkout.created_at)}</Fact>
            <Fact label="Expires">{formatDateTime(checkout.expires_at)}</Fact>
          </dl>
          {checkout.description && <p className="bo-description">{checkout.description}</p>}
        </section>

        <TransactionCard detail={current} />

        {entered.length > 0 && (
          <section className="card" aria-labelledby="customer-title">
            <h2 id="customer-title">What the customer entered</h2>
            <dl className="facts detail-facts">
              {entered.map(([key, value]) => (
                <Fact key={key} label={capitalize(key.replaceAll('_', ' '))}>
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
            setNotice('Checkout cancelled: its link takes no payment.');
          }}
        />
      )}
    </section>
  );
}

function TransactionCard({ detail }: { detail: BackOfficeCheckoutDetail }) {
  const t = detail.transaction;
  return (
    <section className="card" aria-labelledby="transaction-title">
      <h2 id="transaction-title">Transaction</h2>
      {!t ? (
        <p className="muted">No payment yet: it appears here when the customer pays on the page.</p>
      ) : (
        <>
          <dl className="facts detail-facts">
            <Fact label="Result">
              {capitalize(t.status)}
              {t.message ? ` (${t.message})` : ''}
            </Fact>
            <Fact label="Amount">{formatMoney(t.amount, t.currency)}</Fact>
            <Fact label="Method">{t.card_last_four ? `${capitalize(t.card_brand ?? 'card')} •••• ${t.card_last_four}` : (METHOD_NAMES[t.payment_method] ?? t.payment_method)}</Fact>
            <Fact label="When">{formatDateTime(t.created_at)}</Fact>
            <Fact label="Transaction id">
              <span className="mono">{t.transaction_id}</span>
            </Fact>
          </dl>
          <a className="button" href={`#/transactions/${encodeURIComponent(t.transaction_id)}`}>
            Open transaction
          </a>
        </>
      )}
    </section>
  );
}

function CancelDialog({ detail, onClose, onDone }: { detail: BackOfficeCheckoutDetail; onClose: () => void; onDone: (detail: BackOfficeCheckoutDetail) => void }) {
  const { checkout } = detail;
  return (
    <ConfirmDialog
      title={`Cancel checkout ${checkout.order_id}?`}
      keepLabel="Keep it open"
      confirmLabel="Cancel checkout"
      busyLabel="Cancelling…"
      what="Cancelling the checkout"
      run={() => checkoutsClient.cancel(checkout.checkout_id)}
      onClose={onClose}
      onDone={onDone}
    >
      <p>
        The link stops taking payments: the customer sees that the checkout was cancelled. The order ({formatMoney(checkout.total_amount, checkout.currency)}) stays unpaid.
      </p>
    </ConfirmDialog>
  );
}
