/**
 * A receipt from today's sales, reprinted from the list: the sale's or the refund's receipt as the
 * gateway rebuilds it, so it is there after a reload or a restart of the app, with Print, E-mail
 * and QR code.
 */
import {
  GatewayReceipt,
  ReceiptChoiceButtons,
  ReceiptMessage,
  useGatewayReceipt,
  useReceiptDelivery,
} from '../receipts/receipt-actions.js';
import { usePrinter } from '../receipts/receipt-printer-store.js';
import { useEffect } from 'react';
import { Modal } from '../ui/modal.js';
import { useT } from '../ui/i18n.js';

export function ReceiptDialog({ receiptId, title, onClose }: { receiptId: string; title: string; onClose: () => void }) {
  const t = useT();
  const gateway = useGatewayReceipt(receiptId);
  const loadPrinter = usePrinter((s) => s.load);
  useEffect(() => {
    void loadPrinter();
  }, [loadPrinter]);
  const delivery = useReceiptDelivery(receiptId, gateway.receipt?.language);
  return (
    <Modal title={title} onClose={onClose} busy={delivery.busy} className="modal-receipt">
      <GatewayReceipt {...gateway} />
      {gateway.receipt && (
        <>
          <ReceiptChoiceButtons delivery={delivery} compact />
          <ReceiptMessage delivery={delivery} />
        </>
      )}
      <div className="modal-actions">
        <button type="button" className="button button-primary button-lg" data-autofocus onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
      {delivery.dialogs}
    </Modal>
  );
}
