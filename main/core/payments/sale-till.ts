/**
 * Which till a card-present sale belongs to (D19, docs/decisions.md "The shop's books"), decided
 * once when the sale is created and kept on the transaction (`till_id`), so every figure about it
 * (Today's sales, X and Z, the shop's day, the list, the export) reads the same till:
 *
 * 1. The till the request comes from, when the gateway knows it: a joined till's own credential (its
 *    sales, whatever terminal id its POS software sent), or a till screen's (the till it holds).
 * 2. Else the till `pos_data.terminal.id` names, when it is an active till that sells on this
 *    gateway (POS software at a till sends that till's id).
 * 3. Else none: the ledger books the sale under "other terminals" (OTHER_TERMINALS_BOOK), a line of
 *    its own in the shop's day with its own X and Z. The same rule holds online and while a centre
 *    is away: a joined till books its stored sales as its own (1).
 */
import type { FieldError } from '../../../contract/api/common.js';
import type { PaymentsUnit } from './ports.js';

export async function saleTillOf(
  repos: PaymentsUnit,
  merchantId: string,
  requestTill: string | undefined,
  terminalId: string | null | undefined,
): Promise<string | null> {
  if (requestTill !== undefined) return requestTill;
  if (!terminalId) return null;
  return (await repos.tills.sellsHere(merchantId, terminalId)) ? terminalId : null;
}

/**
 * Whether a joined till's sale (its own credential, or its journal while away) names another of the
 * shop's tills as its terminal: refused, online and away alike, so no till's credential writes in
 * another till's name (D20). Any other terminal id (POS software's own, "T-0001") is the till's own
 * sale (1); a till screen's sale is its till's whatever it names, as before.
 */
export async function namesAnotherTill(
  repos: PaymentsUnit,
  merchantId: string,
  requestTill: string | undefined,
  terminalId: string | null | undefined,
): Promise<boolean> {
  if (requestTill === undefined || !terminalId || terminalId === requestTill) return false;
  return (await repos.tills.get(merchantId, terminalId)) !== undefined;
}

export function anotherTillError(tillId: string | null): FieldError {
  return { field: 'pos_data.terminal.id', message: `is another till's id: a sale at ${tillId ?? 'this till'} names this till or none` };
}
