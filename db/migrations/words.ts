/**
 * The words of a table definition that SQLite and PostgreSQL spell differently (docs/decisions.md
 * "One schema for both engines (issue 37)"). A migration writes its statements once, with these
 * words in them, and `bothEngines` spells them for each engine: no SQL is rewritten afterwards.
 *
 * - A 64-bit integer column: SQLite's STRICT tables know INTEGER (always 64-bit there) and no
 *   BIGINT; PostgreSQL's INTEGER is 32-bit, its BIGINT 64-bit.
 * - After a CREATE TABLE's closing parenthesis: SQLite's STRICT (type-checked columns) and WITHOUT
 *   ROWID (a table stored by its primary key) are SQLite's storage options; PostgreSQL has neither.
 */
export interface Words {
  /** A 64-bit integer column's type. */
  integer: string;
  /** Written right after a CREATE TABLE's closing parenthesis. */
  strict: string;
  /** The same, for a table stored by its primary key. */
  strictWithoutRowid: string;
}

export const SQLITE_WORDS: Words = { integer: 'INTEGER', strict: ' STRICT', strictWithoutRowid: ' STRICT, WITHOUT ROWID' };

export const POSTGRES_WORDS: Words = { integer: 'BIGINT', strict: '', strictWithoutRowid: '' };

/** A migration's statements, written once, spelled for SQLite (`up`) and PostgreSQL (`postgres`). */
export function bothEngines(statements: (words: Words) => string): { up: string; postgres: string } {
  return { up: statements(SQLITE_WORDS), postgres: statements(POSTGRES_WORDS) };
}
