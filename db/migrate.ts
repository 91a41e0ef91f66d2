/**
 * Migration runner (in the manner of Signal Desktop's): all pending migrations run in one
 * transaction under PRAGMA user_version; a database from a newer version is refused clearly.
 */
import type Database from 'better-sqlite3';
import { migrations as allMigrations, type Migration } from './migrations/index.js';

export class DatabaseTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `The database has schema version ${found}, but this version of the gateway knows versions up to ${supported}. ` +
        'Upgrade the gateway, or restore a backup made by this version.',
    );
    this.name = 'DatabaseTooNewError';
  }
}

export interface MigrationReport {
  from: number;
  to: number;
  applied: string[];
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Database.Database, migrations: readonly Migration[] = allMigrations): MigrationReport {
  migrations.forEach((m, index) => {
    if (m.version !== index + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${index + 1}`);
  });
  const latest = migrations.length;
  const from = schemaVersion(db);
  if (from > latest) throw new DatabaseTooNewError(from, latest);
  const pending = migrations.filter((m) => m.version > from);
  db.transaction(() => {
    for (const migration of pending) {
      db.exec(migration.up);
      db.pragma(`user_version = ${migration.version}`);
    }
  }).immediate();
  return { from, to: latest, applied: pending.map((m) => `${String(m.version).padStart(4, '0')}-${m.name}`) };
}
