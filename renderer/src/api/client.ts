/**
 * The renderer's one typed door to the gateway core: staff session, the till's terminal, payments,
 * refunds with a manager's approval, and today's transactions. Screens call `TillgateClient`; how a
 * call travels is a `Transport` (transport.ts), and what it sends and answers is the contract's
 * operation (api/call.ts). The wire types are the contract's (contract/api/*.ts), the same
 * declarations the gateway's routes and core use; this file only names the ones the screens take
 * from here.
 */
import type { PaymentRequest, RefundRequest, RefundResponse, TransactionResponse } from '../../../contract/api/payments.js';
import type { PrintResult, Receipt, ReceiptEmail, ReceiptLink, ReceiptPrinterInput, ReceiptPrinterSetting } from '../../../contract/api/receipts.js';
import type { Approval, Credentials, Session } from '../../../contract/api/staff.js';
import type { TerminalConfig, TillAttempt, TillAttemptInput, TillResolution } from '../../../contract/api/till.js';
import type { Refund, Transaction } from '../../../contract/api/transactions.js';
import type { ApprovalAction, ReceiptLanguage } from '../../../contract/constants.js';
import { ApiError, defaultTransport, errorOf, isObject, type Transport, type TransportResponse } from './transport.js';

export { ApiError, bridgeTransport, defaultTransport, httpTransport, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

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
  /** A manager's single-use approval of one till action. */
  approve(action: ApprovalAction, credentials: Credentials): Promise<Approval>;
  /** POST /rest/refund with the approval token (needed for a cashier, harmless for others). */
  refund(request: RefundRequest, approvalToken: string | undefined, idempotencyKey: string): Promise<RefundResponse>;
  /** Today's transactions (since local midnight), newest first. */
  listToday(): Promise<Transaction[]>;
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

/** The answer's JSON object, which must carry `required`; a non-2xx answer throws its ApiError. */
export function expectObject<T>(response: TransportResponse, required: readonly string[]): T {
  if (response.status < 200 || response.status > 299) throw errorOf(response);
  if (!isObject(response.body) || required.some((key) => !(key in (response.body as Record<string, unknown>)))) {
    throw new ApiError('unexpected', 'The gateway sent an answer this app does not understand.', response.status);
  }
  return response.body as T;
}

/** The answer's JSON array; a non-2xx answer throws its ApiError. */
export function expectArray<T>(response: TransportResponse): T[] {
  if (response.status < 200 || response.status > 299) throw errorOf(response);
  if (!Array.isArray(response.body)) throw new ApiError('unexpected', 'The gateway sent an answer this app does not understand.', response.status);
  return response.body as T[];
}

const LIST_LIMIT = 200;

export function createClient(transport: Transport = defaultTransport()): TillgateClient {
  return {
    async session() {
      // Not logged in is an answer here (session null), not a 401 in the console.
      return expectObject<{ session: SessionInfo | null }>(await transport.send({ method: 'GET', path: '/ui/whoami' }), ['session']).session;
    },
    async login(credentials) {
      return expectObject<SessionInfo>(await transport.send({ method: 'POST', path: '/ui/session', body: credentials }), ['staff', 'merchant']);
    },
    async logout() {
      const response = await transport.send({ method: 'DELETE', path: '/ui/session' });
      if (response.status !== 204 && response.status !== 200) throw errorOf(response);
    },
    async terminal() {
      return expectObject<TerminalConfig>(await transport.send({ method: 'GET', path: '/ui/terminal' }), ['terminal_id', 'pin_key']);
    },
    async pay(request, idempotencyKey) {
      const response = await transport.send({ method: 'POST', path: '/rest/payment', body: request, headers: { 'Idempotency-Key': idempotencyKey } });
      return expectObject<TransactionResponse>(response, ['transaction_id', 'status_code']);
    },
    async tillAttempt() {
      return expectObject<{ attempt: TillAttempt | null }>(await transport.send({ method: 'GET', path: '/ui/till/attempt' }), ['attempt']).attempt;
    },
    async beginTillAttempt(input) {
      return expectObject<TillAttempt>(await transport.send({ method: 'PUT', path: '/ui/till/attempt', body: input }), ['attempt_id', 'idempotency_key']);
    },
    async resolveTillAttempt() {
      return expectObject<TillResolution>(await transport.send({ method: 'POST', path: '/ui/till/attempt/resolve' }), ['state']);
    },
    async setOwnPin(password, pin) {
      expectObject<{ has_pin: true }>(await transport.send({ method: 'PUT', path: '/ui/session/pin', body: { password, pin } }), ['has_pin']);
    },
    async approve(action, credentials) {
      return expectObject<Approval>(await transport.send({ method: 'POST', path: '/ui/approvals', body: { action, ...credentials } }), ['approval_token']);
    },
    async refund(request, approvalToken, idempotencyKey) {
      const response = await transport.send({
        method: 'POST',
        path: '/rest/refund',
        body: request,
        headers: { 'Idempotency-Key': idempotencyKey, ...(approvalToken ? { 'X-Manager-Approval': approvalToken } : {}) },
      });
      return expectObject<RefundResponse>(response, ['refund_id', 'status_code']);
    },
    async listToday() {
      const midnight = new Date();
      midnight.setHours(0, 0, 0, 0);
      const query = new URLSearchParams({ from: midnight.toISOString(), limit: String(LIST_LIMIT) });
      return expectArray<Transaction>(await transport.send({ method: 'GET', path: `/rest/transactions?${query.toString()}` }));
    },
    async transaction(id) {
      return expectObject<Transaction>(await transport.send({ method: 'GET', path: `/rest/transactions/${encodeURIComponent(id)}` }), ['transaction_id']);
    },
    async refunds(transactionId) {
      return expectArray<Refund>(await transport.send({ method: 'GET', path: `/rest/transactions/${encodeURIComponent(transactionId)}/refunds` }));
    },
    async receipt(receiptId) {
      return expectObject<Receipt>(await transport.send({ method: 'GET', path: `/ui/receipts/${encodeURIComponent(receiptId)}` }), ['receipt_id', 'kind']);
    },
    async printReceipt(receiptId) {
      return expectObject<PrintResult>(await transport.send({ method: 'POST', path: `/ui/receipts/${encodeURIComponent(receiptId)}/print` }), ['printed']);
    },
    async emailReceipt(receiptId, email, language) {
      const body = { email, ...(language ? { language } : {}) };
      return expectObject<ReceiptEmail>(await transport.send({ method: 'POST', path: `/ui/receipts/${encodeURIComponent(receiptId)}/email`, body }), ['email_id']);
    },
    async receiptLink(receiptId) {
      return expectObject<ReceiptLink>(await transport.send({ method: 'POST', path: `/ui/receipts/${encodeURIComponent(receiptId)}/link` }), ['url', 'qr_code']);
    },
    async receiptPrinter() {
      return expectObject<ReceiptPrinterSetting>(await transport.send({ method: 'GET', path: '/ui/receipt-printer' }), ['connection']);
    },
    async setReceiptPrinter(input) {
      return expectObject<ReceiptPrinterSetting>(await transport.send({ method: 'PUT', path: '/ui/receipt-printer', body: input }), ['connection']);
    },
    async testPrint() {
      return expectObject<PrintResult>(await transport.send({ method: 'POST', path: '/ui/receipt-printer/test' }), ['printed']);
    },
  };
}

/** The client every screen uses. */
export const client: TillgateClient = createClient();
