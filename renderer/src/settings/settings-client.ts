/**
 * The calls of Settings -> Shops and terminals (main/http/routes/ui.ts: /ui/shops, /ui/terminals;
 * decisions.md "Merchant management"): the merchant's shops with their terminal ids, a new shop, a
 * terminal put in a shop or taken out. Typed by the contract (contract/api/payment-methods.ts); same
 * transports and error shape as api/client.ts.
 */
import type { Shop, TerminalAssignment } from '../../../contract/api/payment-methods.js';
import { defaultTransport, expectArray, expectObject, type Transport } from '../api/client.js';

export type { Shop, TerminalAssignment };

export interface SettingsClient {
  /** The merchant's shops and their terminal ids (admin and back office). */
  shops(): Promise<Shop[]>;
  /** A new shop (admin). */
  createShop(name: string): Promise<Shop>;
  /** Puts a terminal id in a shop, moving it from another shop (admin). */
  assignTerminal(shopId: string, terminalId: string): Promise<TerminalAssignment>;
  /** Takes a terminal out of its shop (admin). */
  unassignTerminal(terminalId: string): Promise<TerminalAssignment>;
}

export function createSettingsClient(transport: Transport = defaultTransport()): SettingsClient {
  return {
    async shops() {
      return expectArray<Shop>(await transport.send({ method: 'GET', path: '/ui/shops' }));
    },
    async createShop(name) {
      return expectObject<Shop>(await transport.send({ method: 'POST', path: '/ui/shops', body: { name } }), ['shop_id']);
    },
    async assignTerminal(shopId, terminalId) {
      const path = `/ui/shops/${encodeURIComponent(shopId)}/terminals`;
      return expectObject<TerminalAssignment>(await transport.send({ method: 'POST', path, body: { terminal_id: terminalId } }), ['terminal_id']);
    },
    async unassignTerminal(terminalId) {
      return expectObject<TerminalAssignment>(await transport.send({ method: 'DELETE', path: `/ui/terminals/${encodeURIComponent(terminalId)}` }), ['terminal_id']);
    },
  };
}

export const settingsClient: SettingsClient = createSettingsClient();
