/**
 * The till screen's calls: its terminal (main/http/routes/tills/terminal.ts), a card payment, and the
 * card attempt the till records before it sends one and resolves when it does not know how it ended
 * (main/http/routes/till-attempts). Typed by the contract (contract/api/tills.ts,
 * contract/api/till-attempts.ts, contract/api/payments.ts); same transports and error shape as the
 * other clients (api/call.ts, api/transport.ts).
 */
import type { PaymentRequest, TransactionResponse } from '../../../contract/api/payments.js';
import type { TillAttempt, TillAttemptInput, TillResolution } from '../../../contract/api/till-attempts.js';
import type { TerminalConfig } from '../../../contract/api/tills.js';
import { caller } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type { PosCard, PosData } from '../../../contract/api/payments.js';
export type { PosEntryMode } from '../../../contract/constants.js';
export type { PaymentRequest, TerminalConfig, TillAttempt, TillAttemptInput, TillResolution, TransactionResponse };

export interface TillClient {
  terminal(): Promise<TerminalConfig>;
  /** POST /rest/payment; a decline is a normal answer (status_code 6), not an error. */
  pay(request: PaymentRequest, idempotencyKey: string): Promise<TransactionResponse>;
  /** This till's open card attempt (its outcome not yet known to the till), or null. */
  attempt(): Promise<TillAttempt | null>;
  /** Records the attempt the till is about to send; 4001 while an earlier one may still charge, 1002 when the sale was charged. */
  beginAttempt(input: TillAttemptInput): Promise<TillAttempt>;
  /** How the till's open attempt ended (the gateway fences its key first). */
  resolveAttempt(): Promise<TillResolution>;
}

export function createTillClient(transport: Transport = defaultTransport()): TillClient {
  const call = caller(transport);
  return {
    terminal: () => call('tills.terminal'),
    pay: (request, idempotencyKey) => call('payments.create', { body: request, headers: { 'Idempotency-Key': idempotencyKey } }),
    attempt: async () => (await call('till-attempts.current')).attempt,
    beginAttempt: (input) => call('till-attempts.begin', { body: input }),
    resolveAttempt: () => call('till-attempts.resolve'),
  };
}

export const tillClient: TillClient = createTillClient();
