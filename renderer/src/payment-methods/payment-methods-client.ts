/**
 * The calls of Settings -> Shops and terminals (main/http/routes/payment-methods/shops.ts: /ui/shops, /ui/terminals;
 * decisions.md "Merchant management"): the merchant's shops with their terminal ids, a new shop, a
 * terminal put in a shop or taken out. Typed by the contract (contract/api/payment-methods.ts); same
 * transports and error shape as the other clients (api/call.ts, api/transport.ts).
 */
import type { Shop, TerminalAssignment } from '../../../contract/api/payment-methods.js';
import { caller } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type { Shop, TerminalAssignment };

export interface PaymentMethodsClient {
  /** The merchant's shops and their terminal ids (admin and back office). */
  shops(): Promise<Shop[]>;
  /** A new shop (admin). */
  createShop(name: string): Promise<Shop>;
  /** Puts a terminal id in a shop, moving it from another shop (admin). */
  assignTerminal(shopId: string, terminalId: string): Promise<TerminalAssignment>;
  /** Takes a terminal out of its shop (admin). */
  unassignTerminal(terminalId: string): Promise<TerminalAssignment>;
}

export function createPaymentMethodsClient(transport: Transport = defaultTransport()): PaymentMethodsClient {
  const call = caller(transport);
  return {
    shops: () => call('payment-methods.shops'),
    createShop: (name) => call('payment-methods.createShop', { body: { name } }),
    assignTerminal: (shopId, terminalId) =>
      call('payment-methods.assignTerminal', { params: { shop_id: shopId }, body: { terminal_id: terminalId } }),
    unassignTerminal: (terminalId) => call('payment-methods.unassignTerminal', { params: { terminal_id: terminalId } }),
  };
}

export const paymentMethodsClient: PaymentMethodsClient = createPaymentMethodsClient();
