/**
 * The renderer's one typed door to the gateway core: staff session, the till's terminal, payments,
 * refunds with a manager's approval, and today's transactions. Screens call `TillgateClient`; how a
 * call travels is a `Transport` (transport.ts), and what it sends and answers is the contract's
 * operation (api/call.ts). The wire types are the contract's (contract/api/*.ts), the same
 * declarations the gateway's routes and core use; this file only names the ones the screens take
 * from here.
 */
import type { PaymentRequest, RefundRequest, RefundResponse, TransactionResponse } from '../../../contract/api/payments.js';
import type {
  PrintResult,
  Receipt,
  ReceiptEmail,
  ReceiptLink,
  ReceiptPrinterInput,
  ReceiptPrinterSetting,
} from '../../../contract/api/receipts.js';
import type { Approval, Credentials, Session } from '../../../contract/api/staff.js';
import type { TerminalConfig, TillAttempt, TillAttemptInput, TillResolution } from '../../../contract/api/till.js';
import type { Refund, Transaction } from '../../../contract/api/transactions.js';
import type { ApprovalAction, ReceiptLanguage } from '../../../contract/constants.js';
import type { StaffLanguage } from '../../../contract/i18n/languages.js';
import { caller } from './call.js';
import { defaultTransport, type Transport } from './transport.js';

export {
  ApiError,
  bridgeTransport,
  defaultTransport,
  httpTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

// ---- wire types (the contract's) -----------------------------------------------------------------

export type { PosCard, PosData } from '../../../contract/api/payments.js';
export type { PosEntryMode, StaffRole } from '../../../contract/constants.js';
export type {
  Approval,
  Credentials,
  PaymentRequest,
  PrintResult,
  Receipt,
  ReceiptEmail,
  ReceiptLanguage,
  ReceiptLink,
  ReceiptPrinterInput,
  ReceiptPrinterSetting,
  Refund,
  RefundRequest,
  RefundResponse,
  TerminalConfig,
  TillAttempt,
  TillAttemptInput,
  TillResolution,
  Transaction,
  TransactionResponse,
};
/** The staff session (GET /ui/session): the contract's `Session`. */
export type SessionInfo = Session;

// ---- client ---------------------------------------------------------------------------------------

export interface TillgateClient {
  /** The current staff session, or null when nobody is logged in (or the session ended). */
  session(): Promise<SessionInfo | null>;
  login(credentials: Credentials): Promise<SessionInfo>;
  logout(): Promise<void>;
  terminal(): Promise<TerminalConfig>;
  /** POST /rest/payment; a decline is a normal answer (status_code 6), not an error. */
  pay(request: PaymentRequest, idempotencyKey: string): Promise<TransactionResponse>;
  /** This till's open card attempt (its outcome not yet known to the till), or null. */
  tillAttempt(): Promise<TillAttempt | null>;
  /** Records the attempt the till is about to send; 4001 while an earlier one may still charge, 1002 when the sale was charged. */
  beginTillAttempt(input: TillAttemptInput): Promise<TillAttempt>;
  /** How the till's open attempt ended (the gateway fences its key first). */
  resolveTillAttempt(): Promise<TillResolution>;
  /** Sets the logged-in staff member's own PIN, confirmed with their password. */
  setOwnPin(password: string, pin: string): Promise<void>;
  /** The logged-in staff member's own language for the staff screens (null: the shop's); answers the one kept. */
  setOwnLanguage(language: StaffLanguage | null): Promise<StaffLanguage | null>;
  /** A manager's single-use approval of one till action. */
  approve(action: ApprovalAction, credentials: Credentials): Promise<Approval>;
  /** POST /rest/refund with the approval token (needed for a cashier, harmless for others). */
  refund(request: RefundRequest, approvalToken: string | undefined, idempotencyKey: string): Promise<RefundResponse>;
  transaction(id: string): Promise<Transaction>;
  refunds(transactionId: string): Promise<Refund[]>;
  /** A sale's (transaction id) or a refund's (refund id) receipt, rebuilt by the gateway. */
  receipt(receiptId: string): Promise<Receipt>;
  /** Prints it on the receipt printer; a printer that does not answer is `printed: false`. */
  printReceipt(receiptId: string): Promise<PrintResult>;
  emailReceipt(receiptId: string, email: string, language?: ReceiptLanguage): Promise<ReceiptEmail>;
  /** The customer's link to the receipt page, with its QR code. */
  receiptLink(receiptId: string): Promise<ReceiptLink>;
  receiptPrinter(): Promise<ReceiptPrinterSetting>;
  setReceiptPrinter(input: ReceiptPrinterInput): Promise<ReceiptPrinterSetting>;
  testPrint(): Promise<PrintResult>;
}

export function createClient(transport: Transport = defaultTransport()): TillgateClient {
  const call = caller(transport);
  return {
    // Not logged in is an answer here (session null), not a 401 in the console.
    session: async () => (await call('staff.whoami')).session,
    login: (credentials) => call('staff.login', { body: credentials }),
    async logout() {
      await call('staff.logout');
    },
    terminal: () => call('till.terminal'),
    pay: (request, idempotencyKey) => call('payments.create', { body: request, headers: { 'Idempotency-Key': idempotencyKey } }),
    tillAttempt: async () => (await call('till.attempt')).attempt,
    beginTillAttempt: (input) => call('till.beginAttempt', { body: input }),
    resolveTillAttempt: () => call('till.resolveAttempt'),
    async setOwnPin(password, pin) {
      await call('staff.setOwnPin', { body: { password, pin } });
    },
    setOwnLanguage: async (language) => (await call('staff.setOwnLanguage', { body: { language } })).language,
    approve: (action, credentials) => call('staff.approve', { body: { action, ...credentials } }),
    refund: (request, approvalToken, idempotencyKey) =>
      call('payments.refund', {
        body: request,
        headers: { 'Idempotency-Key': idempotencyKey, ...(approvalToken ? { 'X-Manager-Approval': approvalToken } : {}) },
      }),
    transaction: (id) => call('transactions.get', { params: { transaction_id: id } }),
    refunds: (transactionId) => call('transactions.refunds', { params: { transaction_id: transactionId } }),
    receipt: (receiptId) => call('receipts.get', { params: { receipt_id: receiptId } }),
    printReceipt: (receiptId) => call('receipts.print', { params: { receipt_id: receiptId } }),
    emailReceipt: (receiptId, email, language) =>
      call('receipts.email', { params: { receipt_id: receiptId }, body: { email, ...(language ? { language } : {}) } }),
    receiptLink: (receiptId) => call('receipts.link', { params: { receipt_id: receiptId } }),
    receiptPrinter: () => call('receipts.printer'),
    setReceiptPrinter: (input) => call('receipts.setPrinter', { body: input }),
    testPrint: () => call('receipts.testPrint'),
  };
}

/** The client every screen uses. */
export const client: TillgateClient = createClient();
