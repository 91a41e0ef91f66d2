/**
 * One gateway per data directory (issue "Reliability and security", 6): `gateway serve` and the
 * desktop app hold an OS file lock on `gateway.lock` in the data directory for as long as they run;
 * a second one is refused with a clear message instead of two processes writing one database.
 *
 * The lock is SQLite's own (fcntl on POSIX, LockFileEx on Windows): a tiny database in exclusive
 * locking mode inside an open write transaction. The operating system drops it when the process
 * ends, also on kill -9 or a crash, so a stale lock cannot outlive its holder. The administrative
 * commands (merchant create, staff create, backup) do not take it: they are short and run beside
 * a running gateway through SQLite's own locking of the main database.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const LOCK_FILE = 'gateway.lock';
const PID_FILE = 'gateway.pid';

export class InstanceLockedError extends Error {
  override name = 'InstanceLockedError';
}

export interface InstanceLock {
  release(): void;
}

export function acquireInstanceLock(dataDir: string, options: { nativeBinding?: string | undefined } = {}): InstanceLock {
  let db: Database.Database;
  try {
    db = new Database(join(dataDir, LOCK_FILE), { timeout: 0, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  } catch (error) {
    throw unwritable(dataDir, error);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER)');
    db.exec('BEGIN EXCLUSIVE');
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      let holder = '';
      try {
        holder = ` (process ${readFileSync(join(dataDir, PID_FILE), 'utf8').trim()})`;
      } catch {
        // The pid file is only a hint for the message.
      }
      throw new InstanceLockedError(
        `Another gateway is already running on the data directory ${dataDir}${holder}. Stop it first, or use another --data-dir.`,
      );
    }
    throw unwritable(dataDir, error);
  }
  writeFileSync(join(dataDir, PID_FILE), `${process.pid}\n`);
  return {
    release() {
      if (!db.open) return;
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

/** A data directory the gateway cannot write (a read-only mount, a full disk) said in words. */
function unwritable(dataDir: string, error: unknown): unknown {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || code === 'EROFS' || code === 'EACCES') {
    return new Error(
      `The data directory ${dataDir} is read-only: the gateway cannot store anything there. Make it writable (or choose another --data-dir) and start again.`,
    );
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC')
    return new Error(`The disk of the data directory ${dataDir} is full. Free some space and start again.`);
  return error;
}
