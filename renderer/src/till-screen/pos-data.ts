/**
 * `pos_data` of a card-present (`cardpos`) payment, from what the reader read and the till's
 * terminal (GET /ui/terminal): entry mode, PIN retry sequence, card (PAN + expiry, track 2 or EMV
 * data), terminal id/type/capabilities, and the encrypted PIN block under the terminal's key.
 */
import type { PosData } from '../../../contract/api/payments.js';
import type { TerminalConfig } from '../../../contract/api/tills.js';
import type { CardRead } from './card-read.js';

export interface PosOptions {
  /** `subsequent` on the PIN retry after `request_pin` (decisions.md D3). */
  sequence?: 'initial' | 'subsequent';
  /** The ISO-0 block, already encrypted under `terminal.pin_key`. */
  pinBlock?: string;
}

export function buildPosData(card: CardRead, terminal: TerminalConfig, options: PosOptions = {}): PosData {
  return {
    type: { terminal_entry_mode: card.entry, ...(options.sequence ? { sequence: options.sequence } : {}) },
    card: { ...card.posCard },
    terminal: { id: terminal.terminal_id, type: terminal.type, attended: terminal.attended, capabilities: [...terminal.capabilities] },
    ...(options.pinBlock
      ? {
          pin_block: {
            format: 'ISO-0' as const,
            block: options.pinBlock,
            zone_id: terminal.pin_key.zone_id,
            key_id: terminal.pin_key.key_id,
          },
        }
      : {}),
  };
}
