/** How the token screens name statuses, networks and the steps of a token's history. */
import type { NetworkTokenStatus, TokenHistoryEvent, TokenNetwork } from '../../../contract/constants.js';
import { toneClass, type Tone } from '../ui/tags.js';

export const TOKEN_STATUS_NAMES: Record<NetworkTokenStatus, string> = {
  requested: 'Requested',
  active: 'Active',
  suspended: 'Suspended',
  failed: 'Failed',
  archive_pending: 'Archiving',
  archived: 'Archived',
};

/** What each status means, where the detail shows it. */
export const TOKEN_STATUS_NOTES: Record<NetworkTokenStatus, string> = {
  requested: 'The card network is provisioning the token.',
  active: 'Payments with the token and a cryptogram are approved.',
  suspended: 'The network suspended it: payments with it are declined until it is resumed.',
  failed: 'The issuer declined to provision a token for this card.',
  archive_pending: 'Archived on request; the network confirms shortly.',
  archived: 'Archived for good: it can no longer be used.',
};

export const NETWORK_NAMES: Record<TokenNetwork, string> = { visa: 'Visa', mastercard: 'Mastercard' };

export function networkName(network: string): string {
  return NETWORK_NAMES[network as TokenNetwork] ?? network;
}

export function historyText(event: TokenHistoryEvent, status: NetworkTokenStatus): string {
  if (event === 'created') return 'Requested';
  if (event === 'refreshed') return `Refreshed by the network (still ${TOKEN_STATUS_NAMES[status].toLowerCase()})`;
  return TOKEN_STATUS_NAMES[status];
}

const TONES: Record<NetworkTokenStatus, Tone> = { requested: 'wait', active: 'ok', suspended: 'warn', failed: 'bad', archive_pending: 'off', archived: 'off' };

/** The status tag's class: colour plus text, never colour alone. */
export const tokenStatusClass = (status: NetworkTokenStatus) => toneClass(TONES[status]);

/** `•••• 1234` */
export const lastFour = (digits: string) => `•••• ${digits}`;
