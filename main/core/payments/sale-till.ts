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
import type { Repositories } from '../unit-of-work.js';

export async function saleTillOf(repos: Repositories, merchantId: string, requestTill: string | undefined, terminalId: string | null | undefined): Promise<string | null> {
  if (requestTill !== undefined) return requestTill;
  if (!terminalId) return null;
  return (await repos.tills.sellsHere(merchantId, terminalId)) ? terminalId : null;
}
