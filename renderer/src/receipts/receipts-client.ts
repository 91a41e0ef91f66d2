/**
 * The receipt calls (main/http/routes/receipts): a sale's or a refund's receipt, printed, e-mailed or
 * linked for the customer, and the receipt printer's setting and test print. Typed by the contract
 * (contract/api/receipts.ts); same transports and error shape as the other clients (api/call.ts,
 * api/transport.ts).
 */
import type {
  PrintResult,
  Receipt,
  ReceiptEmail,
  ReceiptLink,
  ReceiptPrinterInput,
  ReceiptPrinterSetting,
} from '../../../contract/api/receipts.js';
import type { ReceiptLanguage } from '../../../contract/constants.js';
import { caller } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type { PrintResult, Receipt, ReceiptEmail, ReceiptLanguage, ReceiptLink, ReceiptPrinterInput, ReceiptPrinterSetting };

export interface ReceiptsClient {
  /** A sale's (transaction id) or a refund's (refund id) receipt, rebuilt by the gateway. */
  get(receiptId: string): Promise<Receipt>;
  /** Prints it on the receipt printer; a printer that does not answer is `printed: false`. */
  print(receiptId: string): Promise<PrintResult>;
  email(receiptId: string, email: string, language?: ReceiptLanguage): Promise<ReceiptEmail>;
  /** The customer's link to the receipt page, with its QR code. */
  link(receiptId: string): Promise<ReceiptLink>;
  printer(): Promise<ReceiptPrinterSetting>;
  setPrinter(input: ReceiptPrinterInput): Promise<ReceiptPrinterSetting>;
  testPrint(): Promise<PrintResult>;
}

export function createReceiptsClient(transport: Transport = defaultTransport()): ReceiptsClient {
  const call = caller(transport);
  return {
    get: (receiptId) => call('receipts.get', { params: { receipt_id: receiptId } }),
    print: (receiptId) => call('receipts.print', { params: { receipt_id: receiptId } }),
    email: (receiptId, email, language) =>
      call('receipts.email', { params: { receipt_id: receiptId }, body: { email, ...(language ? { language } : {}) } }),
    link: (receiptId) => call('receipts.link', { params: { receipt_id: receiptId } }),
    printer: () => call('receipts.printer'),
    setPrinter: (input) => call('receipts.setPrinter', { body: input }),
    testPrint: () => call('receipts.testPrint'),
  };
}

export const receiptsClient: ReceiptsClient = createReceiptsClient();
