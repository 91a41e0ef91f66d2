/**
 * Migrations on PostgreSQL: the same numbered, forward-only sequence as SQLite (db/migrations),
 * the same refusal of a database newer than the code. An empty database gets the baseline (the
 * schema at BASELINE_VERSION) and then every later migration: its `postgres` text where it has one,
 * else the `up` text SQLite runs (db/migrations/index.ts). All of it runs in
 * one transaction (PostgreSQL's DDL is transactional) under an advisory lock, so instances started
 * together migrate once: the others wait, then find nothing to do.
 */
import type pg from 'pg';
import { DatabaseTooNewError, type MigrationReport } from '../migrate.js';
import { migrations as allMigrations, type Migration } from '../migrations/index.js';
import { BASELINE_VERSION, baseline } from './baseline.js';

/** pg_advisory_xact_lock key of the migration run ('tillgate' in ASCII, as a number). */
const MIGRATION_LOCK = 0x74696c6c67617465n;

export async function schemaVersionPostgres(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ found: string | null }>("SELECT to_regclass('gateway_schema') AS found");
  if (!exists.rows[0]?.found) return 0;
  const row = await client.query<{ version: number }>('SELECT version FROM gateway_schema');
  return row.rows[0]?.version ?? 0;
}

export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[] = allMigrations): Promise<MigrationReport> {
  migrations.forEach((m, index) => {
    if (m.version !== index + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${index + 1}`);
  });
  const latest = migrations.length;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    const from = await schemaVersionPostgres(client);
    if (from > latest) throw new DatabaseTooNewError(from, latest);
    const applied: string[] = [];
    const label = (m: Migration) => `${String(m.version).padStart(4, '0')}-${m.name}`;
    let version = from;
    if (version === 0 && latest >= BASELINE_VERSION) {
      await client.query(baseline);
      await client.query('CREATE TABLE gateway_schema (version INTEGER NOT NULL)');
      await client.query('INSERT INTO gateway_schema (version) VALUES (0)');
      applied.push(...migrations.filter((m) => m.version <= BASELINE_VERSION).map(label));
      version = BASELINE_VERSION;
    }
    for (const m of migrations.filter((candidate) => candidate.version > version)) {
      await client.query(m.postgres ?? m.up);
      applied.push(label(m));
      version = m.version;
    }
    if (applied.length > 0) await client.query('UPDATE gateway_schema SET version = $1', [version]);
    await client.query('COMMIT');
    return { from, to: latest, applied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
