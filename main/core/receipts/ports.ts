/**
 * Receipts rebuilt from the gateway's record (decisions.md D16): links, receipt e-mails, the
 * printer and its print jobs. Adapters: db/ and main/infra (ESC/POS).
 */
import type { EmailStatus } from '../../../contract/constants.js';
import type { QueueClaim } from '../kernel.js';
import type { RefundRecord } from '../payments/ports.js';
import type { KernelUnit } from '../unit-of-work.js';
import type { MerchantRepository } from '../merchants/ports.js';
import type { TransactionRepository } from '../payments/ports.js';

/** The customer's link to a receipt page: an unguessable token for one sale or refund. */
export interface ReceiptLinkRecord {
  token: string;
  merchantId: string;
  /** The sale's transaction id or the refund's id. */
  receiptId: string;
  transactionId: string;
  createdAt: string;
}

/** One receipt e-mail of the mail queue (migration 0013); no card data beyond brand and last four. */
export interface ReceiptEmailRecord {
  id: string;
  merchantId: string;
  receiptId: string;
  transactionId: string;
  locale: string;
  recipient: string;
  subject: string;
  bodyText: string;
  status: EmailStatus;
  attempts: number;
  nextAttemptAt: string;
  sentAt: string | null;
  lastError: string | null;
  testOutbox: boolean;
  createdAt: string;
}

/** A merchant's ESC/POS receipt printer; no row: no printer. */
export interface ReceiptPrinterRecord {
  merchantId: string;
  connection: 'network' | 'usb';
  host: string | null;
  port: number | null;
  device: string | null;
  charactersPerLine: number;
  autoPrint: boolean;
  updatedAt: string;
}

/** The automatic print of an approved sale's receipt: written in the sale's unit of work, once per sale. */
export interface ReceiptPrintJobRecord {
  id: string;
  merchantId: string;
  receiptId: string;
  status: 'queued' | 'printed' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  printedAt: string | null;
  createdAt: string;
}

export interface ReceiptRepository {
  /** A refund of the merchant (a refund receipt's record). */
  refund(merchantId: string, refundId: string): Promise<RefundRecord | undefined>;
  insertLink(record: ReceiptLinkRecord): Promise<void>;
  linkFor(merchantId: string, receiptId: string): Promise<ReceiptLinkRecord | undefined>;
  linkByToken(token: string): Promise<ReceiptLinkRecord | undefined>;
  insertEmail(record: ReceiptEmailRecord): Promise<void>;
  getEmail(id: string): Promise<ReceiptEmailRecord | undefined>;
  /** Claims up to `limit` queued e-mails due at `now` under no live claim, oldest first (as OutboxRepository.claimDue). */
  claimDueEmails(now: string, claim: QueueClaim, limit: number): Promise<ReceiptEmailRecord[]>;
  /** Gives a claimed e-mail back unsent (if the claim is still `claimedBy`'s). */
  releaseEmail(id: string, claimedBy: string): Promise<void>;
  /** Records the outcome of an attempt and clears the claim, only while `claimedBy` holds it; false when the claim was lost. */
  settleEmail(
    id: string,
    claimedBy: string,
    change: Pick<ReceiptEmailRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'sentAt' | 'lastError' | 'testOutbox'>,
  ): Promise<boolean>;
  /** A receipt's e-mails, newest first. */
  listEmails(merchantId: string, receiptId: string): Promise<ReceiptEmailRecord[]>;
  printer(merchantId: string): Promise<ReceiptPrinterRecord | undefined>;
  savePrinter(record: ReceiptPrinterRecord): Promise<void>;
  removePrinter(merchantId: string): Promise<void>;
  /** Inserts the sale's auto-print job; false when the receipt already has one. */
  insertPrintJob(record: ReceiptPrintJobRecord): Promise<boolean>;
  getPrintJob(id: string): Promise<ReceiptPrintJobRecord | undefined>;
  printJobFor(receiptId: string): Promise<ReceiptPrintJobRecord | undefined>;
  duePrintJobs(now: string, limit: number): Promise<ReceiptPrintJobRecord[]>;
  /**
   * Takes a due job, as it was listed, for one instance until `until` (it is not due again before
   * then): false when another instance or pass took it first. A taker that dies leaves it due again
   * at `until`.
   */
  claimPrintJob(job: Pick<ReceiptPrintJobRecord, 'id' | 'attempts' | 'nextAttemptAt'>, until: string): Promise<boolean>;
  settlePrintJob(
    id: string,
    change: Pick<ReceiptPrintJobRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'printedAt'>,
  ): Promise<void>;
}

/** Where a receipt printer is: ESC/POS over TCP (port 9100 style), or a USB printer's device file. */
export type PrinterTarget = { connection: 'network'; host: string; port: number } | { connection: 'usb'; device: string };

/** One printed line, laid out by the core for the printer's width. */
export interface PrintLine {
  text: string;
  align?: 'left' | 'center';
  bold?: boolean;
  /** Double height (the total). */
  tall?: boolean;
}

export interface PrintDocument {
  lines: PrintLine[];
}

export type PrinterOutcome = { kind: 'printed' } | { kind: 'failed'; message: string };

/** Prints on an ESC/POS receipt printer (an adapter: main/infra/receipt-printer.ts); never throws. */
export interface ReceiptPrinter {
  print(target: PrinterTarget, document: PrintDocument): Promise<PrinterOutcome>;
}

/** The receipts feature's view of a unit of work. */
export interface ReceiptsUnit extends KernelUnit {
  receipts: ReceiptRepository;
  merchants: Pick<MerchantRepository, 'get'>;
  transactions: Pick<TransactionRepository, 'get'>;
}
