/**
 * The shop's receipt printer as the gateway has it set up (GET /ui/receipt-printer): whether
 * "Print" goes to the ESC/POS printer through the gateway or to the OS print dialog, and whether
 * approved sales print on their own (auto-print). Read again whenever a receipt screen opens.
 */
import { create } from 'zustand';
import { receiptsClient, type ReceiptPrinterSetting } from './receipts-client.js';

interface PrinterState {
  setting: ReceiptPrinterSetting | null;
  load: () => Promise<void>;
  saved: (setting: ReceiptPrinterSetting) => void;
}

export const usePrinter = create<PrinterState>()((set) => ({
  setting: null,
  load: async () => {
    try {
      set({ setting: await receiptsClient.printer() });
    } catch {
      // Without an answer the till prints through the OS dialog, as with no printer.
      set({ setting: null });
    }
  },
  saved: (setting) => set({ setting }),
}));

/** The printer's place in words, e.g. "192.168.1.50:9100", or null without a printer. */
export function printerName(setting: ReceiptPrinterSetting | null): string | null {
  if (!setting || setting.connection === 'none') return null;
  return setting.connection === 'network' ? `${setting.host ?? ''}:${setting.port ?? 9100}` : (setting.device ?? '');
}
