/**
 * Staff screens in the shop's language (D21; docs/decisions.md "Staff screens in the shop's
 * language").
 *
 * `staff.language`: the staff member's own language for the staff screens (en, de, pt, hr); null
 * follows the shop's. At a joined till it is the till's own (a preference, not an authority: the
 * centre's replica does not carry it).
 *
 * `merchants.language` gains Croatian. A column's CHECK cannot be changed in SQLite, so the column is
 * replaced: a new one with the wider CHECK, the values copied, the old one dropped (its CHECK goes
 * with it) and the new one renamed. PostgreSQL takes the same statements.
 */
export const up = `
ALTER TABLE staff ADD COLUMN language TEXT CHECK (language IN ('en', 'de', 'pt', 'hr'));

ALTER TABLE merchants ADD COLUMN language_d21 TEXT NOT NULL DEFAULT 'en' CHECK (language_d21 IN ('en', 'de', 'pt', 'hr'));
UPDATE merchants SET language_d21 = language;
ALTER TABLE merchants DROP COLUMN language;
ALTER TABLE merchants RENAME COLUMN language_d21 TO language;
`;
