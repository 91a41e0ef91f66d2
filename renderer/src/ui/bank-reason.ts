/**
 * A decline's reason as the bank's answer states it (`55 Incorrect PIN`, the transaction's
 * `message`), in the screens' language (D21): the simulator's and acquirers' usual answers by their
 * response code, each with its own words in every language; an answer of other words (a centre's
 * "Over the till's limits", a code this list does not know) is the gateway's text as it came.
 */
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';

/** The answers whose words are known: code and the English text the bank sends with it. */
const KNOWN: Readonly<Record<string, { text: string; id: MessageId }>> = {
  '05': { text: 'Do not honour', id: 'common.bank.05' },
  '13': { text: 'Invalid amount', id: 'common.bank.13' },
  '14': { text: 'Invalid card number', id: 'common.bank.14' },
  '51': { text: 'Insufficient funds', id: 'common.bank.51' },
  '54': { text: 'Expired card', id: 'common.bank.54' },
  '55': { text: 'Incorrect PIN', id: 'common.bank.55' },
  '75': { text: 'PIN tries exceeded', id: 'common.bank.75' },
};

/** `{ code, reason }` of a bank answer `NN text`; the reason in the screens' words when known. */
export function bankReason(message: string | null | undefined, t: Translate): { code?: string; reason: string } | undefined {
  if (!message) return undefined;
  const match = /^(\w{2})\s+(.*)$/.exec(message);
  if (!match) return { reason: message };
  const [, code = '', text = ''] = match;
  const known = KNOWN[code];
  return { code, reason: known && known.text === text ? t(known.id) : text };
}
