/** How the token screens name statuses, networks and the steps of a token's history (words from the `tokens` catalogue). */
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import type { NetworkTokenStatus, TokenHistoryEvent, TokenNetwork } from '../../../contract/constants.js';
import { toneClass, type Tone } from '../ui/tags.js';

/** Each status's name (a new status fails to compile until it has one). */
export const TOKEN_STATUS_NAMES: Record<NetworkTokenStatus, MessageId> = {
  requested: 'tokens.status.requested',
  active: 'tokens.status.active',
  suspended: 'tokens.status.suspended',
  failed: 'tokens.status.failed',
  archive_pending: 'tokens.status.archive_pending',
  archived: 'tokens.status.archived',
};

/** What each status means, where the detail shows it. */
export const TOKEN_STATUS_NOTES: Record<NetworkTokenStatus, MessageId> = {
  requested: 'tokens.statusNote.requested',
  active: 'tokens.statusNote.active',
  suspended: 'tokens.statusNote.suspended',
  failed: 'tokens.statusNote.failed',
  archive_pending: 'tokens.statusNote.archive_pending',
  archived: 'tokens.statusNote.archived',
};

/** The card networks' own names (brands: the same in every language). */
export const NETWORK_NAMES: Record<TokenNetwork, string> = { visa: 'Visa', mastercard: 'Mastercard' };

export function networkName(network: string): string {
  return NETWORK_NAMES[network as TokenNetwork] ?? network;
}

export function historyText(t: Translate, event: TokenHistoryEvent, status: NetworkTokenStatus): string {
  if (event === 'created') return t('tokens.status.requested');
  if (event === 'refreshed') return t('tokens.history.refreshed', { status });
  return t(TOKEN_STATUS_NAMES[status]);
}

const TONES: Record<NetworkTokenStatus, Tone> = {
  requested: 'wait',
  active: 'ok',
  suspended: 'warn',
  failed: 'bad',
  archive_pending: 'off',
  archived: 'off',
};

/** The status tag's class: colour plus text, never colour alone. */
export const tokenStatusClass = (status: NetworkTokenStatus) => toneClass(TONES[status]);

/** `•••• 1234` */
export const lastFour = (digits: string) => `•••• ${digits}`;
