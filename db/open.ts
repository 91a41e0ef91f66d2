/** Opens the gateway database: WAL, synchronous=FULL (an acknowledged payment survives a power cut). */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export const DATABASE_FILE = 'gateway.sqlite';

export interface OpenDatabaseOptions {
  readonly?: boolean;
  /** A better-sqlite3 binary built for another ABI (the Electron host passes its own; see main/electron/native.ts). */
  nativeBinding?: string;
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
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
