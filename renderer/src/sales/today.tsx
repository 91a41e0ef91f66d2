/**
 * Today's sales: this till's open day (since its last Z report) with totals per currency (sales,
 * taken, refunded, net, declined) from the same entries as its X report, each sale with its till,
 * cashier and whole order id, a refund of one sale (manager approval), and the receipt of every
 * approved sale and of every refund, rebuilt by the gateway. A cashier sees their own till only; a
 * manager may look at another till or the whole shop, and the heading says whose day it is.
 */
import { useEffect, useState } from 'react';
import { OTHER_TERMINALS_BOOK } from '../../../contract/constants.js';
import { TransactionStatus } from '../../../contract/codes.js';
import { useSession } from '../session-store.js';
import { formatMoney } from '../till/money.js';
import { BRAND_NAMES, ENTRY_NAMES } from '../till/reader.js';
import { tillsClient, type Till } from '../tills/tills-client.js';
import { TotalValue } from '../ui/fit-text.js';
import { ReceiptDialog } from './receipt-dialog.js';
import { RefundDialog } from './refund-dialog.js';
import { useSales, type SaleRow, type SalesView } from './sales-store.js';
import { formatDayTime, formatTime } from '../ui/format.js';

/** A sale whose card was approved has a receipt, also once refunded. */
const RECEIPTED: ReadonlySet<number> = new Set([TransactionStatus.completed, TransactionStatus.authorized, TransactionStatus.refunded, TransactionStatus.partly_refunded, TransactionStatus.stored]);

function statusOf(row: SaleRow): { label: string; tone: 'ok' | 'bad' | 'neutral' | 'wait'; detail?: string } {
  const { tx } = row;
  if (tx.counted === 'declined' && tx.status_code === TransactionStatus.declined) {
    const code = /^(\w{2})\s/.exec(tx.message ?? '')?.[1];
    return { label: 'Declined', tone: 'bad', ...(tx.message ? { detail: code ? `${tx.message.slice(3)} (${code})` : tx.message } : {}) };
  }
  switch (tx.status_code) {
    case TransactionStatus.completed:
      return { label: 'Approved', tone: 'ok' };
    case TransactionStatus.stored:
      return { label: 'Stored', tone: 'wait', detail: "sent to the shop's gateway when it answers" };
    case TransactionStatus.refunded:
      return { label: 'Refunded', tone: 'neutral' };
    case TransactionStatus.partly_refunded:
      return { label: 'Partly refunded', tone: 'neutral', detail: `${formatMoney(row.refunded, tx.currency)} back` };
    case TransactionStatus.error:
      return { label: 'Error', tone: 'bad', ...(tx.message ? { detail: tx.message } : {}) };
    default:
      return { label: tx.status.replace(/_/g, ' '), tone: 'wait' };
  }
}

/** The till a row belongs to, as its name in the shop (or Other terminals, with the terminal id it sent). */
function tillText(tillId: string | null, terminalId: string | null, names: ReadonlyMap<string, string>): string {
  if (tillId === null) return terminalId ? `Other terminal ${terminalId}` : 'Other terminals';
  return names.get(tillId) ?? tillId;
}

function viewKey(view: SalesView): string {
  return view.kind === 'own' ? 'own' : view.kind === 'shop' ? 'shop' : `till:${view.tillId}`;
}

function viewOf(key: string): SalesView {
  if (key === 'shop') return { kind: 'shop' };
  if (key.startsWith('till:')) return { kind: 'till', tillId: key.slice(5) };
  return { kind: 'own' };
}

/** The button that opens a refund's receipt, rebuilt by the gateway. */
function RefundReceiptButton({ refund, onOpen }: { refund: { refund_id: string; amount: number; currency: string; created_at: string }; onOpen: (receipt: { receiptId: string; title: string }) => void }) {
  return (
    <button
      type="button"
      className="button button-small"
      aria-label={`Receipt of the refund of ${formatMoney(refund.amount, refund.currency)} at ${formatTime(refund.created_at)}`}
      onClick={() => onOpen({ receiptId: refund.refund_id, title: 'Refund receipt' })}
    >
      Refund receipt
    </button>
  );
}

export function TodaySales() {
  const status = useSales((s) => s.status);
  const rows = useSales((s) => s.rows);
  const totals = useSales((s) => s.totals);
  const day = useSales((s) => s.day);
  const view = useSales((s) => s.view);
  const error = useSales((s) => s.error);
  const load = useSales((s) => s.load);
  const role = useSession((s) => s.session?.staff.role);
  const manager = role === 'back_office' || role === 'admin';
  const [tills, setTills] = useState<Till[]>([]);
  const [refunding, setRefunding] = useState<SaleRow | null>(null);
  const [reprint, setReprint] = useState<{ receiptId: string; title: string } | null>(null);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    void tillsClient.list().then(
      (list) => setTills(list.tills),
      () => setTills([]),
    );
  }, []);

  const names = new Map(tills.map((t) => [t.till_id, t.name]));
  const whose = day ? (day.scope === 'shop' ? `Whole shop (${day.name})` : day.till_id === OTHER_TERMINALS_BOOK ? 'Other terminals' : (names.get(day.till_id ?? '') ?? day.name)) : '';
  const since = day?.opened_at ? `open since the last close, ${formatDayTime(day.opened_at)}` : 'open since its first sale';
  const showTill = day?.scope === 'shop';
  const earlier = day?.earlier_refunds ?? [];

  return (
    <section className="today" aria-labelledby="today-title">
      <div className="section-head">
        <div>
          <h2 id="today-title">Today&rsquo;s sales{whose && (view.kind !== 'own' || day?.scope === 'shop') ? ` · ${whose}` : ''}</h2>
          {day && (
            <p className="muted today-scope">
              {day.scope === 'shop' ? "Every till's open day, and other terminals" : `${whose} · day ${day.sequence ?? ''}, ${since}`}
            </p>
          )}
        </div>
        <div className="today-actions">
          {manager && (
            <label className="field-inline">
              <span className="field-label">Whose sales</span>
              <select value={viewKey(view)} onChange={(e) => void load(viewOf(e.target.value))} aria-label="Whose sales to show">
                <option value="own">This till</option>
                {tills
                  .filter((t) => t.retired_at === null && t.till_id !== day?.till_id)
                  .map((t) => (
                    <option key={t.till_id} value={`till:${t.till_id}`}>
                      {t.name}
                    </option>
                  ))}
                {day?.till_id !== OTHER_TERMINALS_BOOK && <option value={`till:${OTHER_TERMINALS_BOOK}`}>Other terminals</option>}
                <option value="shop">Whole shop</option>
              </select>
            </label>
          )}
          <button type="button" className="button" onClick={() => void load()} aria-disabled={status === 'loading'}>
            {status === 'loading' ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      </div>

      {status === 'failed' && (
        <p className="form-problem" role="alert">
          {error}
        </p>
      )}

      <div className="totals" aria-live="polite">
        {totals.length === 0 && status === 'ready' && <p className="muted">No sales yet in this day.</p>}
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
            <caption className="visually-hidden">Card sales of this day, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time · order</th>
                <th scope="col">{showTill ? 'Till · cashier' : 'Cashier'}</th>
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
                const time = formatTime(tx.taken_at);
                const sold = tx.counted === 'approved' && RECEIPTED.has(tx.status_code);
                const cashier = tx.cashier?.name ?? 'API (no staff login)';
                return (
                  <tr key={tx.transaction_id} data-transaction-id={tx.transaction_id} data-till-id={tx.till_id ?? OTHER_TERMINALS_BOOK}>
                    <td>
                      <span className="cell-main">{time}</span>
                      <span className="cell-sub cell-mono order-id">{tx.order_id ?? '—'}</span>
                    </td>
                    <td>
                      {showTill && <span className="cell-main">{tillText(tx.till_id, tx.terminal_id, names)}</span>}
                      <span className={showTill ? 'cell-sub' : 'cell-main'}>{cashier}</span>
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
                      {row.refunds.map((refund) => (
                        <RefundReceiptButton key={refund.refund_id} refund={{ ...refund, currency: tx.currency }} onOpen={setReprint} />
                      ))}
                      {row.refundable > 0 && tx.status_code !== TransactionStatus.stored && (
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

      {earlier.length > 0 && (
        <div className="table-wrap">
          <h3 className="today-subhead">Refunds in this day of earlier sales</h3>
          <table className="sales-table">
            <thead>
              <tr>
                <th scope="col">Time · order</th>
                <th scope="col">Card</th>
                <th scope="col" className="num">
                  Refunded
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {earlier.map((refund) => {
                const time = formatTime(refund.created_at);
                return (
                  <tr key={refund.refund_id}>
                    <td>
                      <span className="cell-main">{time}</span>
                      <span className="cell-sub cell-mono order-id">{refund.order_id ?? '—'}</span>
                    </td>
                    <td>{refund.card_last_four ? `•••• ${refund.card_last_four}` : '—'}</td>
                    <td className="num nowrap">{formatMoney(refund.amount, refund.currency)}</td>
                    <td className="row-actions">
                      <RefundReceiptButton refund={refund} onOpen={setReprint} />
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
