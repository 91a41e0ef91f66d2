/**
 * Today's sales: this till's open day (since its last Z report) with totals per currency (sales,
 * taken, refunded, net, declined) from the same entries as its X report, each sale with its till,
 * cashier and whole order id, a refund of one sale (manager approval), and the receipt of every
 * approved sale and of every refund, rebuilt by the gateway. A cashier sees their own till only; a
 * manager may look at another till or the whole shop, and the heading says whose day it is.
 */
import { useEffect, useState } from 'react';
import { OTHER_TERMINALS_BOOK } from '../../../contract/constants.js';
import { TransactionStatus, type TransactionStatusName } from '../../../contract/codes.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { useSession } from '../session-store.js';
import { formatMoney } from '../till-screen/money.js';
import { tillsClient, type Till } from '../tills/tills-client.js';
import { TotalValue } from '../ui/fit-text.js';
import { ReceiptDialog } from './receipt-dialog.js';
import { RefundDialog } from './refund-dialog.js';
import { brandName, ENTRY_MESSAGES, maskedCard, NO_VALUE, useSales, type SaleRow, type SalesView } from './sales-store.js';
import { formatDayTime, formatTime } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { bankReason } from '../ui/bank-reason.js';

/** A sale whose card was approved has a receipt, also once refunded. */
const RECEIPTED: ReadonlySet<number> = new Set([
  TransactionStatus.completed,
  TransactionStatus.authorized,
  TransactionStatus.refunded,
  TransactionStatus.partly_refunded,
  TransactionStatus.stored,
]);

/** Every state's name, as the list shows a state it has no badge of its own for (a new state fails to compile here). */
const STATUS_NAMES: Record<TransactionStatusName, MessageId> = {
  started: 'sales.status.started',
  pending: 'sales.status.pending',
  completed: 'sales.status.completed',
  authorized: 'sales.status.authorized',
  reversed: 'sales.status.reversed',
  declined: 'sales.status.declined',
  refunded: 'sales.status.refundedName',
  partly_refunded: 'sales.status.partlyRefundedName',
  cancelled: 'sales.status.cancelled',
  expired: 'sales.status.expired',
  error: 'sales.status.errorName',
  chargeback: 'sales.status.chargeback',
  stored: 'sales.status.storedName',
};

function statusOf(row: SaleRow, t: Translate): { label: string; tone: 'ok' | 'bad' | 'neutral' | 'wait'; detail?: string } {
  const { tx } = row;
  if (tx.counted === 'declined' && tx.status_code === TransactionStatus.declined) {
    const bank = bankReason(tx.message, t);
    return {
      label: t('common.declined'),
      tone: 'bad',
      ...(bank ? { detail: bank.code ? `${bank.reason} (${bank.code})` : bank.reason } : {}),
    };
  }
  switch (tx.status_code) {
    case TransactionStatus.completed:
      return { label: t('common.approved'), tone: 'ok' };
    case TransactionStatus.stored:
      return { label: t('sales.status.stored'), tone: 'wait', detail: t('sales.status.storedDetail') };
    case TransactionStatus.refunded:
      return { label: t('sales.status.refunded'), tone: 'neutral' };
    case TransactionStatus.partly_refunded:
      return {
        label: t('sales.status.partlyRefunded'),
        tone: 'neutral',
        detail: t('sales.status.partlyRefundedDetail', { amount: formatMoney(row.refunded, tx.currency) }),
      };
    case TransactionStatus.error:
      return { label: t('sales.status.error'), tone: 'bad', ...(tx.message ? { detail: tx.message } : {}) };
    default: {
      const name = STATUS_NAMES[tx.status as TransactionStatusName] as MessageId | undefined;
      return { label: name ? t(name) : tx.status.replace(/_/g, ' '), tone: 'wait' };
    }
  }
}

/** The till a row belongs to, as its name in the shop (or Other terminals, with the terminal id it sent). */
function tillText(tillId: string | null, terminalId: string | null, names: ReadonlyMap<string, string>, t: Translate): string {
  if (tillId === null) return terminalId ? t('sales.otherTerminal', { terminal: terminalId }) : t('sales.otherTerminals');
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
function RefundReceiptButton({
  refund,
  onOpen,
}: {
  refund: { refund_id: string; amount: number; currency: string; created_at: string };
  onOpen: (receipt: { receiptId: string; title: string }) => void;
}) {
  const t = useT();
  return (
    <button
      type="button"
      className="button button-small"
      aria-label={t('sales.refundReceiptOf', { amount: formatMoney(refund.amount, refund.currency), time: formatTime(refund.created_at) })}
      onClick={() => onOpen({ receiptId: refund.refund_id, title: t('sales.refundReceipt') })}
    >
      {t('sales.refundReceipt')}
    </button>
  );
}

export function TodaySales() {
  const t = useT();
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
  const whose = day
    ? day.scope === 'shop'
      ? t('sales.wholeShopNamed', { shop: day.name })
      : day.till_id === OTHER_TERMINALS_BOOK
        ? t('sales.otherTerminals')
        : (names.get(day.till_id ?? '') ?? day.name)
    : '';
  const scope = day?.opened_at
    ? t('sales.scope.sinceClose', { whose, sequence: day.sequence ?? '', opened: formatDayTime(day.opened_at) })
    : t('sales.scope.sinceFirstSale', { whose, sequence: day?.sequence ?? '' });
  const showTill = day?.scope === 'shop';
  const earlier = day?.earlier_refunds ?? [];

  return (
    <section className="today" aria-labelledby="today-title">
      <div className="section-head">
        <div>
          <h2 id="today-title">
            {whose && (view.kind !== 'own' || day?.scope === 'shop') ? t('sales.titleOf', { whose }) : t('sales.title')}
          </h2>
          {day && <p className="muted today-scope">{day.scope === 'shop' ? t('sales.scope.shop') : scope}</p>}
        </div>
        <div className="today-actions">
          {manager && (
            <label className="field-inline">
              <span className="field-label">{t('sales.whose')}</span>
              <select value={viewKey(view)} onChange={(e) => void load(viewOf(e.target.value))} aria-label={t('sales.whoseLabel')}>
                <option value="own">{t('sales.whose.own')}</option>
                {tills
                  .filter((t) => t.retired_at === null && t.till_id !== day?.till_id)
                  .map((t) => (
                    <option key={t.till_id} value={`till:${t.till_id}`}>
                      {t.name}
                    </option>
                  ))}
                {day?.till_id !== OTHER_TERMINALS_BOOK && (
                  <option value={`till:${OTHER_TERMINALS_BOOK}`}>{t('sales.otherTerminals')}</option>
                )}
                <option value="shop">{t('sales.whose.shop')}</option>
              </select>
            </label>
          )}
          <button type="button" className="button" onClick={() => void load()} aria-disabled={status === 'loading'}>
            {status === 'loading' ? t('sales.refreshing') : t('sales.refresh')}
          </button>
        </div>
      </div>

      {status === 'failed' && (
        <p className="form-problem" role="alert">
          {error}
        </p>
      )}

      <div className="totals" aria-live="polite">
        {totals.length === 0 && status === 'ready' && <p className="muted">{t('sales.empty')}</p>}
        {totals.map((total) => (
          <dl key={total.currency} className="totals-row" aria-label={t('sales.totalsIn', { currency: total.currency })}>
            <div className="total">
              <dt>{t('sales.total.sales')}</dt>
              <dd>{total.sales}</dd>
            </div>
            <div className="total">
              <dt>{t('sales.total.taken')}</dt>
              <TotalValue text={formatMoney(total.taken, total.currency)} />
            </div>
            <div className="total">
              <dt>{t('sales.total.refunded')}</dt>
              <TotalValue text={formatMoney(total.refunded, total.currency)} />
            </div>
            <div className="total total-net">
              <dt>{t('sales.total.net')}</dt>
              <TotalValue text={formatMoney(total.net, total.currency)} />
            </div>
            <div className="total total-muted">
              <dt>{t('sales.total.declined')}</dt>
              <dd>{total.declined}</dd>
            </div>
          </dl>
        ))}
      </div>

      {rows.length > 0 && (
        <div className="table-wrap">
          <table className="sales-table">
            <caption className="visually-hidden">{t('sales.table.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('sales.table.timeOrder')}</th>
                <th scope="col">{showTill ? t('sales.table.tillCashier') : t('sales.table.cashier')}</th>
                <th scope="col">{t('common.card')}</th>
                <th scope="col" className="num">
                  {t('common.amount')}
                </th>
                <th scope="col">{t('common.status')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('sales.table.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const { tx } = row;
                const card = row.card;
                const state = statusOf(row, t);
                const time = formatTime(tx.taken_at);
                const sold = tx.counted === 'approved' && RECEIPTED.has(tx.status_code);
                const cashier = tx.cashier?.name ?? t('reports.cashier.api');
                return (
                  <tr key={tx.transaction_id} data-transaction-id={tx.transaction_id} data-till-id={tx.till_id ?? OTHER_TERMINALS_BOOK}>
                    <td>
                      <span className="cell-main">{time}</span>
                      <span className="cell-sub cell-mono order-id">{tx.order_id ?? NO_VALUE}</span>
                    </td>
                    <td>
                      {showTill && <span className="cell-main">{tillText(tx.till_id, tx.terminal_id, names, t)}</span>}
                      <span className={showTill ? 'cell-sub' : 'cell-main'}>{cashier}</span>
                    </td>
                    <td>
                      {card ? (
                        <>
                          <span className="cell-main">{maskedCard(card.lastFour, brandName(card.brand, t))}</span>
                          {card.entry && <span className="cell-sub">{t(ENTRY_MESSAGES[card.entry])}</span>}
                        </>
                      ) : (
                        <span className="muted" title={t('sales.noCard')}>
                          {NO_VALUE}
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
                          aria-label={t('sales.receiptOfSale', { time, amount: formatMoney(tx.amount, tx.currency) })}
                          onClick={() => setReprint({ receiptId: tx.transaction_id, title: t('sales.receipt') })}
                        >
                          {t('sales.receipt')}
                        </button>
                      )}
                      {row.refunds.map((refund) => (
                        <RefundReceiptButton key={refund.refund_id} refund={{ ...refund, currency: tx.currency }} onOpen={setReprint} />
                      ))}
                      {row.refundable > 0 && tx.status_code !== TransactionStatus.stored && (
                        <button
                          type="button"
                          className="button button-small"
                          aria-label={t('sales.refundSale', { time, amount: formatMoney(tx.amount, tx.currency) })}
                          onClick={() => setRefunding(row)}
                        >
                          {t('common.refund')}
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
          <h3 className="today-subhead">{t('sales.earlierRefunds')}</h3>
          <table className="sales-table">
            <thead>
              <tr>
                <th scope="col">{t('sales.table.timeOrder')}</th>
                <th scope="col">{t('common.card')}</th>
                <th scope="col" className="num">
                  {t('sales.table.refunded')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{t('sales.table.actions')}</span>
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
                      <span className="cell-sub cell-mono order-id">{refund.order_id ?? NO_VALUE}</span>
                    </td>
                    <td>{refund.card_last_four ? maskedCard(refund.card_last_four) : NO_VALUE}</td>
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
