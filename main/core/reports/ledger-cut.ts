/**
 * A clean cut of a till's ledger (D19; docs/decisions.md "The shop's books").
 *
 * A book's entries are numbered as their sales and refunds commit. On PostgreSQL the entry is
 * written at commit by a trigger that holds the book's advisory lock in share mode until the
 * transaction ends, so sales of one till commit side by side and share a disk flush. Their numbers
 * then need not follow commit order: number 11 may be visible while 10 is still committing. A unit
 * whose cut is kept holds the book's lock exclusively from before its snapshot (UnitOptions.holding):
 * every entry numbered before it is then committed and visible, and every later one gets a higher
 * number. Those units are the Z close (its watermark ends the day) and the centre's ledger for a
 * joined till (the till keeps the position reached). On SQLite one writer at a time gives the same.
 *
 * The rest take no lock. Views of an open day (X report, Today's sales, the shop's day): an entry
 * committing while one is read shows in the next read, and within one read every figure comes from
 * the same entries. Retiring a till (refused while its day has entries after its last Z): a sale
 * committing at that moment was never seen by it, with or without the lock, as the sale checks its
 * till in a statement of its own before it is written.
 */

/** The lock's name: the text the ledger's trigger hashes (`merchant_id || '/' || book`). */
export function bookLock(merchantId: string, book: string): string {
  return `${merchantId}/${book}`;
}
