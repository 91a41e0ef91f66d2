/**
 * The card receipt as the gateway rebuilt it (GET /ui/receipts/{id}, decisions.md D16: never from
 * the window's memory): merchant, date, terminal, order, card brand and last four, entry mode,
 * application label and AID when the chip gave them, verification, approval code, amount, result,
 * transaction id. A refund's receipt names the sale it refunds. The print style sheet prints only
 * this article when the OS print dialog is used (no receipt printer set up).
 */
import { asCardBrand } from '../../../contract/cards.js';
import type { Receipt } from '../api/client.js';
import { formatMoney } from './money.js';
import { BRAND_NAMES, ENTRY_NAMES } from './reader.js';
import { formatDateTime } from '../ui/format.js';

const ENTRY_LABELS: Record<string, string> = { ...ENTRY_NAMES, manual: 'Keyed' };

export function cardText(card: NonNullable<Receipt['card']>): string {
  return `${BRAND_NAMES[asCardBrand(card.brand)]} •••• ${card.last_four}`;
}

/** How the card was read, in words (`Contactless`, `Chip`, `Swipe`, `Keyed`). */
export function entryText(entryMode: string): string {
  return ENTRY_LABELS[entryMode] ?? entryMode;
}

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  const sale = receipt.kind === 'sale';
  const card = receipt.card;
  return (
    <article className="receipt" aria-label="Receipt" data-receipt-id={receipt.receipt_id}>
      <header className="receipt-head">
        <strong className="receipt-merchant">{receipt.merchant_name || 'Tillgate shop'}</strong>
        <span>Card payment · {sale ? 'Sale' : 'Refund'}</span>
      </header>
      <dl className="receipt-lines">
        <dt>Date</dt>
        <dd>{formatDateTime(receipt.created_at)}</dd>
        {receipt.terminal_id && (
          <>
            <dt>Terminal</dt>
            <dd>{receipt.terminal_id}</dd>
          </>
        )}
        {receipt.order_id && (
          <>
            <dt>Order</dt>
            <dd className="receipt-break">{receipt.order_id}</dd>
          </>
        )}
        {card && (
          <>
            <dt>Card</dt>
            <dd>{cardText(card)}</dd>
          </>
        )}
        {card?.entry_mode && (
          <>
            <dt>Entry</dt>
            <dd>{entryText(card.entry_mode)}</dd>
          </>
        )}
        {card?.application_label && (
          <>
            <dt>Application</dt>
            <dd>{card.application_label}</dd>
          </>
        )}
        {card?.aid && (
          <>
            <dt>AID</dt>
            <dd>{card.aid}</dd>
          </>
        )}
        {sale && card?.entry_mode && (
          <>
            <dt>Verification</dt>
            <dd>{receipt.verification === 'online_pin' ? 'PIN verified' : 'No PIN needed'}</dd>
          </>
        )}
        {receipt.authorization_code && (
          <>
            <dt>Approval code</dt>
            <dd>{receipt.authorization_code}</dd>
          </>
        )}
        {!sale && (
          <>
            <dt>Refund of</dt>
            <dd className="receipt-break">{receipt.transaction_id}</dd>
          </>
        )}
        {receipt.reference && (
          <>
            <dt>Reference</dt>
            <dd className="receipt-break">{receipt.reference}</dd>
          </>
        )}
      </dl>
      <div className="receipt-total">
        <span>{sale ? 'Total' : 'Refunded'}</span>
        <strong>{formatMoney(receipt.amount, receipt.currency)}</strong>
      </div>
      <p className="receipt-result">{sale ? 'Approved' : 'Refunded'}</p>
      <p className="receipt-id">
        {sale ? 'Transaction' : 'Refund'} <span className="receipt-break">{receipt.receipt_id}</span>
      </p>
      <p className="receipt-foot">Please keep this receipt.</p>
    </article>
  );
}
