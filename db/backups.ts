/**
 * Backups of the gateway database (issue "Reliability and security", 7): scheduled online backups
 * (SQLite's backup API copies a consistent snapshot page by page while the gateway keeps serving),
 * kept newest-first up to a count, and a restore that checks a file before it replaces anything.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations/index.js';
import { DATABASE_FILE } from './open.js';

const PREFIX = 'gateway-';
const SUFFIX = '.sqlite';
/** Tables a gateway database has at every schema version worth restoring. */
const REQUIRED_TABLES = ['merchants', 'transactions', 'credentials'];

export interface BackupFile {
  file: string;
  at: Date;
}

/** Backups in `dir`, newest first. */
export function listBackups(dir: string): BackupFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX))
    .map((name) => ({ file: join(dir, name), at: statSync(join(dir, name)).mtime }))
    .sort((a, b) => b.file.localeCompare(a.file));
}

/** Writes a consistent copy of `db` into `dir` (a temporary name, renamed when complete). */
export async function writeBackup(db: Database.Database, dir: string, now: Date): Promise<string> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Milliseconds in the name: two backups in one second must not overwrite each other.
  const stamp = now.toISOString().replace(/[-:]/g, '');
  const file = join(dir, `${PREFIX}${stamp}${SUFFIX}`);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  await db.backup(partial);
  renameSync(partial, file);
  return file;
}

/** Deletes all but the newest `keep` backups; answers what it deleted. */
export function pruneBackups(dir: string, keep: number): string[] {
  const old = listBackups(dir).slice(keep);
  for (const { file } of old) rmSync(file, { force: true });
  return old.map((b) => b.file);
}

export interface BackupCheck {
  ok: boolean;
  problems: string[];
  schemaVersion?: number;
  merchants?: number;
  transactions?: number;
}

/**
 * What a restore would bring back, and whether it can: a readable SQLite file that passes
 * `integrity_check`, a gateway schema no newer than this code, and sealed data this data key opens.
 */
export function checkBackup(file: string, opensSealed: (sealed: string) => boolean): BackupCheck {
  if (!existsSync(file)) return { ok: false, problems: [`${file} does not exist`] };
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    return { ok: false, problems: [`${basename(file)} is not a database: ${(error as Error).message}`] };
  }
  try {
    const problems: string[] = [];
    let integrity: string[];
    try {
      integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    } catch (error) {
      return { ok: false, problems: [`${basename(file)} is not a database: ${(error as Error).message}`] };
    }
    if (integrity.join() !== 'ok') problems.push(`integrity check failed: ${integrity.slice(0, 3).join('; ')}`);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    if (schemaVersion > (migrations.at(-1)?.version ?? 0))
      problems.push(
        `its schema version ${schemaVersion} is newer than this gateway supports (up to ${migrations.at(-1)?.version ?? 0}): upgrade the gateway first`,
      );
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name),
    );
    const missing = REQUIRED_TABLES.filter((table) => !tables.has(table));
    if (missing.length)
      return { ok: false, problems: [...problems, `not a gateway database: no ${missing.join(', ')} table`], schemaVersion };
    const sealed = db.prepare('SELECT webhook_key_sealed FROM merchants LIMIT 1').pluck().get() as string | undefined;
    if (sealed !== undefined && !opensSealed(sealed)) {
      problems.push(
        "its sealed data does not open with this data directory's data key: restore it where the key it was made with is (data.key or GATEWAY_DATA_KEY)",
      );
    }
    const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
    return { ok: problems.length === 0, problems, schemaVersion, merchants: count('merchants'), transactions: count('transactions') };
  } finally {
    db.close();
  }
}

/**
 * Puts a checked backup in place of the data directory's database. The current database is kept
 * beside it (`gateway.sqlite.before-restore-<time>`); its WAL files go with it. Call only while no
 * gateway runs on the directory (the instance lock).
 */
export function restoreBackup(dataDir: string, file: string, now: Date): { replaced: string | null } {
  const target = join(dataDir, DATABASE_FILE);
  let replaced: string | null = null;
  if (existsSync(target)) {
    // Folds the WAL into the file first, so the kept copy is whole on its own.
    const current = new Database(target);
    current.pragma('wal_checkpoint(TRUNCATE)');
    current.close();
    replaced = `${target}.before-restore-${now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}`;
    renameSync(target, replaced);
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  const incoming = new Database(file, { readonly: true, fileMustExist: true });
  try {
    incoming.exec(`VACUUM INTO '${target.replace(/'/g, "''")}'`);
  } finally {
    incoming.close();
  }
  return { replaced };
}
