/**
 * Every instance on one database must use the same data key (issue 19; docs/decisions.md "Moving
 * to PostgreSQL, and one data key"). At each start, before the schema is migrated or anything is
 * written, the gateway opens the database's sealed canary (`key_check`, migration 24) with its
 * key; a database without one yet (a new one, or one from before migration 24) is tried on a
 * merchant's sealed webhook key instead, and gets the canary once the schema is current. A key
 * that cannot open them stops the start with DataKeyMismatchError, which says which key source
 * was used and what to do.
 *
 * The same steps for both engines: a synchronous pair for better-sqlite3 (compose() is
 * synchronous), an asynchronous pair for PostgreSQL.
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';

/** What the check needs of the vault (main/infra/vault.ts). */
export interface KeyCheckVault {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export const KEY_CHECK_TEXT = 'tillgate data key check v1';

export class DataKeyMismatchError extends Error {
  override name = 'DataKeyMismatchError';
  constructor(
    readonly keySource: string,
    readonly what: 'canary' | 'webhook key',
  ) {
    super(
      `The data key from ${keySource} does not open this database's sealed data (its ${what === 'canary' ? 'key check' : "merchants' webhook keys"}): ` +
        'the database was written by a gateway with another data key. Every gateway instance on a database must use the same data key. ' +
        'Start this one with the key the database was created with (GATEWAY_DATA_KEY, or the data.key file of the data directory it came from); ' +
        'do not make a new key, or stored card data cannot be read. The gateway did not start and changed nothing.',
    );
  }
}

function opens(vault: KeyCheckVault, sealed: string, expected: string | undefined): boolean {
  try {
    const text = vault.open(sealed);
    return expected === undefined || text === expected;
  } catch {
    return false;
  }
}

const CANARY_SQL = 'SELECT sealed FROM key_check WHERE id = 1';
const WEBHOOK_SQL = 'SELECT webhook_key_sealed FROM merchants ORDER BY id LIMIT 1';
const INSERT_SQL = 'INSERT INTO key_check (id, sealed, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING';

/** SQLite, before migrating: refuses a key that cannot open the sealed data there is. Reads only. */
export function verifyDataKeySqlite(db: Database.Database, vault: KeyCheckVault, keySource: string): void {
  const tables = new Set(
    (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('key_check', 'merchants')").all() as Array<{
        name: string;
      }>
    ).map((r) => r.name),
  );
  if (tables.has('key_check')) {
    const canary = db.prepare(CANARY_SQL).pluck().get() as string | undefined;
    if (canary !== undefined) {
      if (!opens(vault, canary, KEY_CHECK_TEXT)) throw new DataKeyMismatchError(keySource, 'canary');
      return;
    }
  }
  if (tables.has('merchants')) {
    const sealed = db.prepare(WEBHOOK_SQL).pluck().get() as string | undefined;
    if (sealed !== undefined && !opens(vault, sealed, undefined)) throw new DataKeyMismatchError(keySource, 'webhook key');
  }
}

/** SQLite, after migrating: writes the canary if there is none yet. */
export function ensureKeyCheckSqlite(db: Database.Database, vault: KeyCheckVault, keySource: string, now: Date): void {
  // Read first: the account commands run beside a serving gateway and need not take the write lock.
  let canary = db.prepare(CANARY_SQL).pluck().get() as string | undefined;
  if (canary === undefined) {
    db.prepare(INSERT_SQL).run(vault.seal(KEY_CHECK_TEXT), now.toISOString());
    canary = db.prepare(CANARY_SQL).pluck().get() as string;
  }
  if (!opens(vault, canary, KEY_CHECK_TEXT)) throw new DataKeyMismatchError(keySource, 'canary');
}

/** PostgreSQL, before migrating: as verifyDataKeySqlite. */
export async function verifyDataKeyPostgres(pool: pg.Pool, vault: KeyCheckVault, keySource: string): Promise<void> {
  const found = await pool.query<{ key_check: string | null; merchants: string | null }>(
    "SELECT to_regclass('key_check') AS key_check, to_regclass('merchants') AS merchants",
  );
  const row = found.rows[0];
  if (row?.key_check) {
    const canary = (await pool.query<{ sealed: string }>(CANARY_SQL)).rows[0];
    if (canary) {
      if (!opens(vault, canary.sealed, KEY_CHECK_TEXT)) throw new DataKeyMismatchError(keySource, 'canary');
      return;
    }
  }
  if (row?.merchants) {
    const sealed = (await pool.query<{ webhook_key_sealed: string }>(WEBHOOK_SQL)).rows[0];
    if (sealed && !opens(vault, sealed.webhook_key_sealed, undefined)) throw new DataKeyMismatchError(keySource, 'webhook key');
  }
}

/**
 * PostgreSQL, after migrating: writes the canary if there is none yet. Instances starting together
 * race on one row; the one that loses opens the winner's, so two different keys cannot both start.
 */
export async function ensureKeyCheckPostgres(pool: pg.Pool, vault: KeyCheckVault, keySource: string, now: Date): Promise<void> {
  let canary = (await pool.query<{ sealed: string }>(CANARY_SQL)).rows[0];
  if (!canary) {
    await pool.query(INSERT_SQL.replace('?, ?', '$1, $2'), [vault.seal(KEY_CHECK_TEXT), now.toISOString()]);
    canary = (await pool.query<{ sealed: string }>(CANARY_SQL)).rows[0];
  }
  if (!canary || !opens(vault, canary.sealed, KEY_CHECK_TEXT)) throw new DataKeyMismatchError(keySource, 'canary');
}
