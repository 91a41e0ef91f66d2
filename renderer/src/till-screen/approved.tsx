/**
 * The approved sale: the result fills the view, and the customer's receipt is given in one key.
 * Enter does the shop's default: with a receipt printer set up (and auto-print off) it prints the
 * receipt on it and starts the next sale; otherwise (no printer, or the receipt already printing by
 * itself) it starts the next sale. P prints, E e-mails, Q shows the QR code of the receipt page, N
 * is no receipt. The receipt on the right is the gateway's (GET /ui/receipts/{id}, decisions.md
 * D16), not what this window remembers of the sale.
 */
import { useEffect } from 'react';
import {
  GatewayReceipt,
  RECEIPT_KEYS,
  ReceiptChoiceButtons,
  ReceiptMessage,
  useGatewayReceipt,
  useReceiptDelivery,
} from '../receipts/receipt-actions.js';
import { printerName, usePrinter } from '../receipts/receipt-printer-store.js';
import { FitLine } from '../ui/fit-text.js';
import { useT } from '../ui/i18n.js';
import { CheckIcon } from '../ui/icons.js';
import { useAutoFocus, useKeys } from '../ui/use-keys.js';
import { formatMoney } from './money.js';
import { entryText, maskedCard } from './reader.js';
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
  const t = useT();

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

  const primaryLabel = t(
    defaultPrint
      ? 'till.approved.printAndNew'
      : delivery.given !== null || autoPrint
        ? 'till.approved.newSale'
        : 'till.approved.noReceiptAndNew',
  );
  return (
    <div className="result-layout">
      <section className="result result-ok" role="status" aria-labelledby="approved-title">
        <CheckIcon size={88} className="result-icon" />
        <h2 id="approved-title" className="result-title">
          {t('common.approved')}
        </h2>
        <FitLine className="result-amount" text={formatMoney(sale.amount, sale.currency)} />
        <p className="result-card">
          {t('till.approved.card', {
            card: maskedCard(t, sale.card.brand, sale.card.last_four),
            entry: entryText(t, sale.card.entry_mode ?? ''),
            pin: sale.verification === 'online_pin' ? 'yes' : 'no',
          })}
        </p>
        {sale.stored && <p className="result-reason">{t('till.approved.stored')}</p>}
        {sale.recovered && <p className="result-reason">{t('till.approved.recovered')}</p>}
        <div className="result-actions result-actions-receipt">
          <button
            ref={primaryRef}
            type="button"
            className="button button-primary button-lg"
            aria-disabled={delivery.busy}
            onClick={() => void primary()}
          >
            {delivery.busy ? t('receipts.printing') : primaryLabel} <kbd>{t('till.key.enter')}</kbd>
          </button>
          {autoPrint && <p className="receipt-auto">{t('till.approved.autoPrint', { printer })}</p>}
          <p className="receipt-choices-label">{t('till.approved.receiptFor')}</p>
          <ReceiptChoiceButtons
            delivery={delivery}
            keys
            extra={
              defaultPrint ? (
                <button type="button" className="button button-lg" onClick={newSale}>
                  {t('till.approved.noReceipt')} <kbd>{RECEIPT_KEYS.none}</kbd>
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
