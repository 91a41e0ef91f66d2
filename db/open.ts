/** Opens the gateway database: WAL, synchronous=FULL (an acknowledged payment survives a power cut). */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export const DATABASE_FILE = 'gateway.sqlite';

export interface OpenDatabaseOptions {
  readonly?: boolean;
  /** A better-sqlite3 binary built for another ABI (the Electron host passes its own; see main/electron/native.ts). */
  nativeBinding?: string;
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database.Database {
  if (file !== ':memory:' && !options.readonly) keepPrivate(file);
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Group commit runs every request in a SAVEPOINT; SQLite copies each page a savepoint changes
  // into a statement journal, which spills to a temporary file after 64 KiB, i.e. within every
  // batch (docs/benchmarks.md: ~15-30 % of payment throughput). In memory it never touches a
  // file. Durability is unchanged: that journal only serves ROLLBACK TO within one transaction.
  db.pragma('temp_store = MEMORY');
  return db;
}

/**
 * The data file is its owner's alone (0600, D20), its folder too (0700, when made here): created
 * so before SQLite opens it, and made so if an older version left it readable. SQLite gives its
 * -wal and -shm files the database file's permissions.
 */
function keepPrivate(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  } catch {
    // Not writable or not ours: SQLite's own open says what is wrong.
  }
}
