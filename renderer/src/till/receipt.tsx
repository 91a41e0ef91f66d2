/**
 * The card receipt: merchant, date, order, card brand and last four, entry mode, application label
 * and AID when the chip gave them, verification, amount, result, transaction id. Printed through the
 * OS print dialog (window.print(); the print style sheet prints only the receipt).
 */
import { formatMoney } from './money.js';
import { BRAND_NAMES, ENTRY_NAMES } from './reader.js';
import type { Receipt } from './till-store.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  return (
    <article className="receipt" aria-label="Receipt">
      <header className="receipt-head">
        <strong className="receipt-merchant">{receipt.merchantName || 'Tillgate shop'}</strong>
        <span>Card payment · {receipt.kind === 'sale' ? 'Sale' : 'Refund'}</span>
      </header>
      <dl className="receipt-lines">
        <dt>Date</dt>
        <dd>{dateFormat.format(new Date(receipt.date))}</dd>
        <dt>Terminal</dt>
        <dd>{receipt.terminalId}</dd>
        <dt>Order</dt>
        <dd className="receipt-break">{receipt.orderId}</dd>
        <dt>Card</dt>
        <dd>
          {BRAND_NAMES[receipt.brand]} •••• {receipt.lastFour}
        </dd>
        <dt>Entry</dt>
        <dd>{ENTRY_NAMES[receipt.entry]}</dd>
        {receipt.applicationLabel && (
          <>
            <dt>Application</dt>
            <dd>{receipt.applicationLabel}</dd>
          </>
        )}
        {receipt.aid && (
          <>
            <dt>AID</dt>
            <dd>{receipt.aid}</dd>
          </>
        )}
        <dt>Verification</dt>
        <dd>{receipt.pinVerified ? 'PIN verified' : 'No PIN needed'}</dd>
        {receipt.authorizationCode && (
          <>
            <dt>Approval code</dt>
            <dd>{receipt.authorizationCode}</dd>
          </>
        )}
      </dl>
      <div className="receipt-total">
        <span>Total</span>
        <strong>{formatMoney(receipt.amount, receipt.currency)}</strong>
      </div>
      <p className="receipt-result">Approved</p>
      <p className="receipt-id">
        Transaction <span className="receipt-break">{receipt.transactionId}</span>
      </p>
      <p className="receipt-foot">Please keep this receipt.</p>
    </article>
  );
}
