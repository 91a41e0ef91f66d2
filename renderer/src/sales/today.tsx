/**
 * Today's sales: totals per currency (sales, taken, refunded, net), each card transaction of the
 * day with its status, a refund of one sale (manager approval), and the receipt of every approved
 * sale and of every refund, rebuilt by the gateway (so also after a reload or a restart).
 */
import { useEffect, useState } from 'react';
import { RefundStatus, TransactionStatus } from '../../../contract/codes.js';
import { formatMoney } from '../till/money.js';
import { BRAND_NAMES, ENTRY_NAMES } from '../till/reader.js';
import { TotalValue } from '../ui/fit-text.js';
import { ReceiptDialog } from './receipt-dialog.js';
import { RefundDialog } from './refund-dialog.js';
import { useSales, type SaleRow } from './sales-store.js';

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
/** A sale whose card was approved has a receipt, also once refunded. */
const RECEIPTED: ReadonlySet<number> = new Set([TransactionStatus.completed, TransactionStatus.authorized, TransactionStatus.refunded, TransactionStatus.partly_refunded]);

/** The distinctive end of a long order id (the till's own ids start alike); the full id is the cell's title. */
function shortOrder(orderId: string): string {
  return orderId.length > 17 ? `…${orderId.slice(-16)}` : orderId;
}

function statusOf(row: SaleRow): { label: string; tone: 'ok' | 'bad' | 'neutral' | 'wait'; detail?: string } {
  const { tx } = row;
  switch (tx.status_code) {
    case TransactionStatus.completed:
      return { label: 'Approved', tone: 'ok' };
    case TransactionStatus.refunded:
      return { label: 'Refunded', tone: 'neutral' };
    case TransactionStatus.partly_refunded:
      return { label: 'Partly refunded', tone: 'neutral', detail: `${formatMoney(row.refunded, tx.currency)} back` };
    case TransactionStatus.declined: {
      const code = /^(\w{2})\s/.exec(tx.message ?? '')?.[1];
      return { label: 'Declined', tone: 'bad', ...(tx.message ? { detail: code ? `${tx.message.slice(3)} (${code})` : tx.message } : {}) };
    }
    case TransactionStatus.error:
      return { label: 'Error', tone: 'bad', ...(tx.message ? { detail: tx.message } : {}) };
    default:
      return { label: tx.status.replace(/_/g, ' '), tone: 'wait' };
  }
}

export function TodaySales() {
  const status = useSales((s) => s.status);
  const rows = useSales((s) => s.rows);
  const totals = useSales((s) => s.totals);
  const error = useSales((s) => s.error);
  const load = useSales((s) => s.load);
  const [refunding, setRefunding] = useState<SaleRow | null>(null);
  const [reprint, setReprint] = useState<{ receiptId: string; title: string } | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="today" aria-labelledby="today-title">
      <div className="section-head">
        <h2 id="today-title">Today&rsquo;s sales</h2>
        <button type="button" className="button" onClick={() => void load()} aria-disabled={status === 'loading'}>
          {status === 'loading' ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>

      {status === 'failed' && (
        <p className="form-problem" role="alert">
          {error}
        </p>
      )}

      <div className="totals" aria-live="polite">
        {totals.length === 0 && status === 'ready' && <p className="muted">No sales yet today.</p>}
        {totals.map((t) => (
          <dl key={t.currency} className="totals-row" aria-label={`Totals in ${t.currency}`}>
            <div className="total">
              <dt>Sales</dt>
              <dd>{t.sales}</dd>
            </div>
            <div className="total">
              <dt>Taken</dt>
              <TotalValue text={formatMoney(t.taken, t.currency)} />
            </div>
            <div className="total">
              <dt>Refunded</dt>
              <TotalValue text={formatMoney(t.refunded, t.currency)} />
            </div>
            <div className="total total-net">
              <dt>Net</dt>
              <TotalValue text={formatMoney(t.net, t.currency)} />
            </div>
            <div className="total total-muted">
              <dt>Declined</dt>
              <dd>{t.declined}</dd>
            </div>
          </dl>
        ))}
      </div>

      {rows.length > 0 && (
        <div className="table-wrap">
          <table className="sales-table">
            <caption className="visually-hidden">Card transactions today, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time · order</th>
                <th scope="col">Card</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const { tx } = row;
                const card = row.card;
                const state = statusOf(row);
                const time = timeFormat.format(new Date(tx.created_at));
                const sold = RECEIPTED.has(tx.status_code);
                const refunds = row.refunds.filter((refund) => refund.status_code === RefundStatus.success);
                return (
                  <tr key={tx.transaction_id} data-transaction-id={tx.transaction_id}>
                    <td>
                      <span className="cell-main">{time}</span>
                      <span className="cell-sub cell-mono" title={tx.order_id ?? undefined}>
                        {tx.order_id ? shortOrder(tx.order_id) : '—'}
                      </span>
                    </td>
                    <td>
                      {card ? (
                        <>
                          <span className="cell-main">
                            {BRAND_NAMES[card.brand]} •••• {card.lastFour}
                          </span>
                          {card.entry && <span className="cell-sub">{ENTRY_NAMES[card.entry]}</span>}
                        </>
                      ) : (
                        <span className="muted" title="The gateway recorded no card for this transaction">
                          —
                        </span>
                      )}
                    </td>
                    <td className="num nowrap">{formatMoney(tx.amount, tx.currency)}</td>
                    <td>
                      <span className={`badge badge-${state.tone}`}>{state.label}</span>
                      {state.detail && <span className="status-detail">{state.detail}</span>}
                    </td>
                    <td className="row-actions">
                      {sold && (
                        <button
                          type="button"
                          className="button button-small"
                          aria-label={`Receipt of the sale at ${time}, ${formatMoney(tx.amount, tx.currency)}`}
                          onClick={() => setReprint({ receiptId: tx.transaction_id, title: 'Receipt' })}
                        >
                          Receipt
                        </button>
                      )}
                      {refunds.map((refund) => (
                        <button
                          key={refund.refund_id}
                          type="button"
                          className="button button-small"
                          aria-label={`Receipt of the refund of ${formatMoney(refund.amount, tx.currency)} at ${timeFormat.format(new Date(refund.created_at))}`}
                          onClick={() => setReprint({ receiptId: refund.refund_id, title: 'Refund receipt' })}
                        >
                          Refund receipt
                        </button>
                      ))}
                      {row.refundable > 0 && (
                        <button type="button" className="button button-small" aria-label={`Refund the sale at ${time}, ${formatMoney(tx.amount, tx.currency)}`} onClick={() => setRefunding(row)}>
                          Refund
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {refunding && (
        <RefundDialog
          row={refunding}
          onClose={(refunded) => {
            setRefunding(null);
            if (refunded) void load();
          }}
        />
      )}
      {reprint && <ReceiptDialog receiptId={reprint.receiptId} title={reprint.title} onClose={() => setReprint(null)} />}
    </section>
  );
}
