/**
 * The tables a sale's configuration is read from before its unit (main/core/configuration-cache.ts:
 * the terminal's shop, the payment method's settings, the sale's till, the printer's auto-print),
 * and which writes to them change what those reads answer. Every statement is classified once, when
 * it is prepared (db/sql.ts, db/postgres/pg-sql.ts): a unit that ran one that writes the
 * configuration makes its store drop what this instance remembers of it at the unit's commit.
 * Migration 35 has PostgreSQL tell the other instances, with the same tables and columns.
 *
 * For each table: the columns whose change matters, or `null` for every column. A till's screen
 * hold and heartbeat (`tills.holder_*`, `seen_at`) and a joined till's heartbeat and forwards
 * (`till_links.last_seen_at`, `last_forward_at`, ...) are not configuration: a sale reads only
 * whether a till exists, is retired, or is joined.
 */
export const CONFIGURATION_TABLES: Readonly<Record<string, readonly string[] | null>> = {
  terminals: null,
  payment_method_settings: null,
  receipt_printers: null,
  tills: ['merchant_id', 'till_id', 'retired_at'],
  till_links: ['merchant_id', 'till_id'],
};

const NAME = '"?([a-z_]+)"?';
const UPDATE = new RegExp(`^\\s*update\\s+${NAME}\\s+set\\s+([\\s\\S]*?)(?:\\s+where\\s|\\s+returning\\s|$)`, 'i');
const TOUCHES = new RegExp(
  `\\b(?:(?:insert(?:\\s+or\\s+[a-z]+)?|replace)\\s+into|delete\\s+from|update|truncate(?:\\s+table)?)\\s+${NAME}`,
  'gi',
);

/**
 * Whether a statement's text may write the configuration: an INSERT, DELETE or TRUNCATE of one of
 * its tables anywhere in the text (also inside a WITH, or as an upsert's target), or an UPDATE of
 * one that sets a column that matters. An UPDATE whose SET list cannot be read counts as a write.
 * Reads never count.
 */
export function writesConfiguration(text: string): boolean {
  for (const match of text.matchAll(TOUCHES)) {
    const table = (match[1] ?? '').toLowerCase();
    if (!(table in CONFIGURATION_TABLES)) continue;
    const columns = CONFIGURATION_TABLES[table];
    if (!columns || !/^update\b/i.test(match[0])) return true;
    const set = UPDATE.exec(text.slice(match.index));
    if (!set || set[1] !== match[1]) return true;
    const assigned = [...(set[2] ?? '').matchAll(/"?([a-z_]+)"?\s*=/gi)].map((m) => (m[1] ?? '').toLowerCase());
    if (assigned.length === 0 || assigned.some((column) => columns.includes(column))) return true;
  }
  return false;
}
