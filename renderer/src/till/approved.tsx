/**
 * The approved sale (ux.md 2 and 7): the result fills the view, and the customer's receipt is
 * given in one key. Enter does the shop's default: with a receipt printer set up (and auto-print
 * off) it prints the receipt on it and starts the next sale; otherwise (no printer, or the
 * receipt already printing by itself) it starts the next sale. P prints, E e-mails, Q shows the
 * QR code of the receipt page, N is no receipt. The receipt on the right is the gateway's
 * (GET /ui/receipts/{id}, decisions.md D16), not what this window remembers of the sale.
 */
import { useEffect } from 'react';
import { GatewayReceipt, ReceiptChoiceButtons, ReceiptMessage, useGatewayReceipt, useReceiptDelivery } from '../receipts/receipt-actions.js';
import { printerName, usePrinter } from '../receipts/receipt-printer-store.js';
import { FitLine } from '../ui/fit-text.js';
import { CheckIcon } from '../ui/icons.js';
import { useAutoFocus, useKeys } from '../ui/use-keys.js';
import { formatMoney } from './money.js';
import { cardText, entryText } from './receipt.js';
import { useTill, type ApprovedSale } from './till-store.js';

export function Approved({ sale }: { sale: ApprovedSale }) {
  const newSale = useTill.getState().newSale;
  const gateway = useGatewayReceipt(sale.transaction_id);
  const setting = usePrinter((s) => s.setting);
  const loadPrinter = usePrinter((s) => s.load);
  useEffect(() => {
    void loadPrinter();
  }, [loadPrinter]);
  const delivery = useReceiptDelivery(sale.transaction_id, gateway.receipt?.language);
  const printer = printerName(setting);
  const autoPrint = printer !== null && setting?.auto_print === true;
  const defaultPrint = printer !== null && !autoPrint && delivery.given === null;
  const primaryRef = useAutoFocus<HTMLButtonElement>();

  const primary = async () => {
    if (!defaultPrint) newSale();
    else if (await delivery.print()) newSale();
  };

  useKeys((event) => {
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === 'Enter') void primary();
    else if (key === 'p') void delivery.print();
    else if (key === 'e') delivery.openEmail();
    else if (key === 'q') delivery.openQr();
    else if (key === 'n') newSale();
    else return false;
    return true;
  });

  const primaryLabel = defaultPrint ? 'Print receipt · New sale' : delivery.given !== null || autoPrint ? 'New sale' : 'No receipt · New sale';
  return (
    <div className="result-layout">
      <section className="result result-ok" role="status" aria-labelledby="approved-title">
        <CheckIcon size={88} className="result-icon" />
        <h2 id="approved-title" className="result-title">
          Approved
        </h2>
        <FitLine className="result-amount" text={formatMoney(sale.amount, sale.currency)} />
        <p className="result-card">
          {cardText(sale.card)} · {entryText(sale.card.entry_mode ?? '')}
          {sale.verification === 'online_pin' ? ' · PIN verified' : ''}
        </p>
        {sale.stored && (
          <p className="result-reason">Stored at this till while the shop's gateway is away: it is sent there as soon as it answers. Keep the customer's receipt as usual.</p>
        )}
        {sale.recovered && (
          <p className="result-reason">This payment went through although its answer did not reach the till. It is not charged again.</p>
        )}
        <div className="result-actions result-actions-receipt">
          <button ref={primaryRef} type="button" className="button button-primary button-lg" aria-disabled={delivery.busy} onClick={() => void primary()}>
            {delivery.busy ? 'Printing…' : primaryLabel} <kbd>Enter</kbd>
          </button>
          {autoPrint && <p className="receipt-auto">Receipt printing on {printer}</p>}
          <p className="receipt-choices-label">Receipt for the customer</p>
          <ReceiptChoiceButtons
            delivery={delivery}
            keys
            extra={
              defaultPrint ? (
                <button type="button" className="button button-lg" onClick={newSale}>
                  No receipt <kbd>N</kbd>
                </button>
              ) : undefined
            }
          />
          <ReceiptMessage delivery={delivery} />
        </div>
      </section>
      <div className="receipt-column">
        <GatewayReceipt {...gateway} />
      </div>
      {delivery.dialogs}
    </div>
  );
}
