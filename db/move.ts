/**
 * Moving a gateway's history between databases (issue 19; docs/operations.md "Moving to
 * PostgreSQL"): `gateway export` reads every table of a database (SQLite in the data directory, or
 * PostgreSQL) in one consistent snapshot, `gateway import` writes them into an empty PostgreSQL
 * database in one transaction, and `gateway move-to-postgres` does both without a file.
 *
 * Nothing is held whole in memory: rows stream in batches from a cursor (better-sqlite3's
 * iterator, a PostgreSQL `DECLARE ... CURSOR`) to multi-row INSERTs, or through the export file a
 * line at a time. Values move as they are: sealed data stays sealed under the same data key.
 *
 * The checks: per-table row counts and the money sums (authorized, captured and refunded per
 * currency, refunds and the till ledger per currency and kind) are computed on the source inside
 * its snapshot and on the target inside the import's transaction, before COMMIT. If any differs
 * the import is rolled back and nothing is written.
 *
 * The export file (format "tillgate-export", version 1) is JSON lines, UTF-8, one JSON value per
 * line ending in "\n":
 *   1. a header: {"type":"header","format":"tillgate-export","format_version":1,"schema_version":N,
 *      "source":"sqlite"|"postgres","exported_at":ISO,"tables":[{"name":T,"columns":[C,...]},...]}
 *      with the tables in dependency order (a table after every table it references);
 *   2. one line per row: {"t":T,"r":[v1,v2,...]} with the values in the header's column order
 *      (strings, integers or null), all rows of a table together, tables in the header's order;
 *   3. a trailer: {"type":"end","rows":{T:n,...},"checks":{name:value,...},"sha256":HEX}, where
 *      sha256 is the SHA-256 of every byte of the file before the trailer line.
 * An import refuses a file whose header or schema version differs from the gateway's, whose rows
 * or trailer do not match, or that ends early.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { migrations } from './migrations/index.js';
import { BASELINE_VERSION, baseline } from './postgres/baseline.js';
import { migratePostgres, schemaVersionPostgres } from './postgres/migrate.js';

/**
 * Columns only PostgreSQL's schema has, with a default: `dashboard_hours.slot` (migration 21, one
 * row per database session). A SQLite export has no such column; its rows take the default.
 */
const POSTGRES_ONLY_COLUMNS: Readonly<Record<string, readonly string[]>> = { dashboard_hours: ['slot'] };

export const EXPORT_FORMAT = 'tillgate-export';
export const EXPORT_FORMAT_VERSION = 1;
/** The schema version this gateway writes and reads. */
export const SCHEMA_VERSION = migrations.at(-1)?.version ?? 0;
/** Rows per INSERT at most (and fewer for wide tables: PostgreSQL takes 65,535 parameters). */
const BATCH_ROWS = 500;
const MAX_PARAMETERS = 30_000;

/** Tables that are the engine's, not the gateway's data. */
const ENGINE_TABLES = new Set(['gateway_schema']);
/** Written by each start (db/key-check.ts): a target's own canary is replaced by the source's. */
const KEY_CHECK_TABLE = 'key_check';

export class MoveError extends Error {
  override name = 'MoveError';
}

export interface TableSpec {
  name: string;
  columns: string[];
}

export type Checks = Record<string, number>;

export interface ExportHeader {
  type: 'header';
  format: typeof EXPORT_FORMAT;
  format_version: number;
  schema_version: number;
  source: 'sqlite' | 'postgres';
  exported_at: string;
  tables: TableSpec[];
}

export interface ExportTrailer {
  type: 'end';
  rows: Record<string, number>;
  checks: Checks;
  sha256: string;
}

/** A database being read: its tables in dependency order, their rows in batches, its checks. */
export interface MoveSource {
  engine: 'sqlite' | 'postgres';
  schemaVersion: number;
  tables: TableSpec[];
  checks: Checks;
  batches(table: TableSpec, size: number): AsyncIterable<unknown[][]>;
  close(): Promise<void>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function batchSize(columns: number): number {
  return Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / Math.max(1, columns))));
}

// ---- dependency order ---------------------------------------------------------------------------

/**
 * Foreign keys written in the schema texts of both engines (the SQLite migrations, the PostgreSQL
 * baseline and later texts): the order must suit the target as well as the source, and the two
 * schemas do not declare exactly the same references.
 */
function schemaTextEdges(): Array<[string, string]> {
  const texts = [baseline, ...migrations.flatMap((m) => [m.up, ...(m.version > BASELINE_VERSION && m.postgres ? [m.postgres] : [])])];
  const edges: Array<[string, string]> = [];
  for (const text of texts) {
    for (const match of text.matchAll(/CREATE TABLE\s+"?(\w+)"?\s*\(([\s\S]*?)\)\s*(?:STRICT)?(?:,\s*WITHOUT ROWID)?\s*;/gi)) {
      for (const ref of (match[2] ?? '').matchAll(/REFERENCES\s+"?(\w+)"?/gi)) edges.push([match[1] as string, ref[1] as string]);
    }
    for (const match of text.matchAll(/ALTER TABLE\s+"?(\w+)"?\s+ADD COLUMN[^;]*?REFERENCES\s+"?(\w+)"?/gi))
      edges.push([match[1] as string, match[2] as string]);
  }
  return edges;
}

/** Tables sorted so that each comes after those it references (by name where free to choose). */
export function dependencyOrder(names: string[], catalogEdges: Array<[string, string]>): string[] {
  const present = new Set(names);
  const needs = new Map(names.map((name) => [name, new Set<string>()]));
  for (const [from, to] of [...catalogEdges, ...schemaTextEdges()]) {
    if (from !== to && present.has(from) && present.has(to)) needs.get(from)?.add(to);
  }
  const order: string[] = [];
  const done = new Set<string>();
  const remaining = [...names].sort();
  while (remaining.length > 0) {
    const index = remaining.findIndex((name) => [...(needs.get(name) ?? [])].every((dep) => done.has(dep)));
    if (index === -1) throw new MoveError(`the tables ${remaining.join(', ')} reference each other in a cycle`);
    const [next] = remaining.splice(index, 1) as [string];
    order.push(next);
    done.add(next);
  }
  return order;
}

// ---- checks --------------------------------------------------------------------------------------

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

const MONEY_CHECKS = [
  {
    sql: 'SELECT currency AS k, COUNT(*) AS n, SUM(authorized_minor) AS authorized, SUM(captured_minor) AS captured, SUM(refunded_minor) AS refunded FROM transactions GROUP BY currency',
    prefix: (row: Record<string, unknown>) => `transactions ${String(row.k)}`,
    values: ['n', 'authorized', 'captured', 'refunded'],
  },
  {
    sql: 'SELECT t.currency AS k, r.status_code AS s, COUNT(*) AS n, SUM(r.amount_minor) AS amount FROM refunds r JOIN transactions t ON t.id = r.transaction_id GROUP BY t.currency, r.status_code',
    prefix: (row: Record<string, unknown>) => `refunds ${String(row.k)} status ${String(row.s)}`,
    values: ['n', 'amount'],
  },
  {
    sql:
      'SELECT t.currency AS k, e.type AS s, COUNT(*) AS n, SUM(e.amount_minor) AS amount FROM till_ledger l ' +
      'JOIN transaction_events e ON e.id = l.event_id JOIN transactions t ON t.id = e.transaction_id GROUP BY t.currency, e.type',
    prefix: (row: Record<string, unknown>) => `till ledger ${String(row.k)} ${String(row.s)}`,
    values: ['n', 'amount'],
  },
] as const;

/** Row counts of every table and the money sums, on either engine (the same SQL). */
async function computeChecks(query: Query, tables: TableSpec[]): Promise<Checks> {
  const checks: Checks = {};
  for (const table of tables) {
    const [row] = await query(`SELECT COUNT(*) AS n FROM ${quote(table.name)}`);
    checks[`rows ${table.name}`] = Number(row?.n ?? 0);
  }
  for (const check of MONEY_CHECKS) {
    for (const row of await query(check.sql)) {
      for (const value of check.values) checks[`${check.prefix(row)} ${value === 'n' ? 'count' : value}`] = Number(row[value] ?? 0);
    }
  }
  return checks;
}

export interface CheckLine {
  name: string;
  source: number | undefined;
  target: number | undefined;
  equal: boolean;
}

export function compareChecks(source: Checks, target: Checks): CheckLine[] {
  const names = [...new Set([...Object.keys(source), ...Object.keys(target)])].sort((a, b) =>
    a.startsWith('rows ') === b.startsWith('rows ') ? a.localeCompare(b) : a.startsWith('rows ') ? -1 : 1,
  );
  return names.map((name) => ({ name, source: source[name], target: target[name], equal: source[name] === target[name] }));
}

// ---- sources -------------------------------------------------------------------------------------

/** The SQLite database as a source: one read transaction, so every table comes from one snapshot. */
export async function sqliteSource(db: Database.Database): Promise<MoveSource> {
  const schemaVersion = db.pragma('user_version', { simple: true }) as number;
  db.exec('BEGIN');
  const names = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>
  )
    .map((r) => r.name)
    .filter((name) => !ENGINE_TABLES.has(name));
  const edges: Array<[string, string]> = [];
  for (const name of names) {
    for (const fk of db.prepare('SELECT "table" AS ref FROM pragma_foreign_key_list(?)').all(name) as Array<{ ref: string }>)
      edges.push([name, fk.ref]);
  }
  const tables = dependencyOrder(names, edges).map((name) => ({
    name,
    columns: (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all(name) as Array<{ name: string }>).map((r) => r.name),
  }));
  const checks = await computeChecks(async (sql) => db.prepare(sql).all() as Array<Record<string, unknown>>, tables);
  return {
    engine: 'sqlite',
    schemaVersion,
    tables,
    checks,
    async *batches(table, size) {
      const rows = db
        .prepare(`SELECT ${table.columns.map(quote).join(', ')} FROM ${quote(table.name)}`)
        .raw(true)
        .iterate() as IterableIterator<unknown[]>;
      let batch: unknown[][] = [];
      for (const row of rows) {
        batch.push(row);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    async close() {
      if (db.inTransaction) db.exec('COMMIT');
    },
  };
}

/** Tables and foreign keys of the PostgreSQL schema the connection uses. */
async function postgresCatalog(client: pg.ClientBase): Promise<{ tables: TableSpec[]; edges: Array<[string, string]> }> {
  const columns = await client.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
     WHERE c.table_schema = current_schema() ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const row of columns.rows) {
    if (ENGINE_TABLES.has(row.table_name)) continue;
    byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row.column_name]);
  }
  const fks = await client.query<{ from_table: string; to_table: string }>(
    `SELECT c.conrelid::regclass::text AS from_table, c.confrelid::regclass::text AS to_table FROM pg_constraint c
     JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const unquote = (name: string) => name.replace(/^"(.*)"$/, '$1');
  const edges = fks.rows.map((r) => [unquote(r.from_table), unquote(r.to_table)] as [string, string]);
  const tables = dependencyOrder([...byTable.keys()], edges).map((name) => ({ name, columns: byTable.get(name) ?? [] }));
  return { tables, edges };
}

/** A PostgreSQL database as a source: one REPEATABLE READ snapshot, rows through cursors. */
export async function postgresSource(pool: pg.Pool): Promise<MoveSource> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const schemaVersion = await schemaVersionPostgres(client);
    const { tables } = await postgresCatalog(client);
    const checks = await computeChecks(async (sql) => (await client.query(sql)).rows as Array<Record<string, unknown>>, tables);
    return {
      engine: 'postgres',
      schemaVersion,
      tables,
      checks,
      async *batches(table, size) {
        await client.query(
          `DECLARE move_rows NO SCROLL CURSOR FOR SELECT ${table.columns.map(quote).join(', ')} FROM ${quote(table.name)}`,
        );
        for (;;) {
          const result = await client.query({ text: `FETCH ${size} FROM move_rows`, rowMode: 'array' });
          if (result.rows.length === 0) break;
          yield result.rows as unknown[][];
        }
        await client.query('CLOSE move_rows');
      },
      async close() {
        await client.query('COMMIT').catch(() => undefined);
        client.release();
      },
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
    throw error;
  }
}

// ---- export --------------------------------------------------------------------------------------

export interface ExportResult {
  file: string;
  rows: Record<string, number>;
  checks: Checks;
}

/** Writes `source` to `file` (which must not exist) in the export format. */
export async function exportToFile(source: MoveSource, file: string, now: Date): Promise<ExportResult> {
  if (source.schemaVersion !== SCHEMA_VERSION) {
    throw new MoveError(
      `the database has schema version ${source.schemaVersion}, this gateway's is ${SCHEMA_VERSION}: run \`gateway migrate\` on it first (with this gateway), then export`,
    );
  }
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const opened = once(out, 'open');
  const failed = new Promise<never>((_resolve, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  await Promise.race([opened, failed]);
  const hash = createHash('sha256');
  const write = async (value: unknown) => {
    const line = `${JSON.stringify(value)}\n`;
    hash.update(line, 'utf8');
    if (!out.write(line)) await Promise.race([once(out, 'drain'), failed]);
  };
  const header: ExportHeader = {
    type: 'header',
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    schema_version: source.schemaVersion,
    source: source.engine,
    exported_at: now.toISOString(),
    tables: source.tables,
  };
  await write(header);
  const rows: Record<string, number> = {};
  for (const table of source.tables) {
    let count = 0;
    for await (const batch of source.batches(table, batchSize(table.columns.length))) {
      for (const row of batch) await write({ t: table.name, r: row });
      count += batch.length;
    }
    rows[table.name] = count;
  }
  const trailer: ExportTrailer = { type: 'end', rows, checks: source.checks, sha256: hash.digest('hex') };
  out.end(`${JSON.stringify(trailer)}\n`);
  await Promise.race([once(out, 'finish'), failed]);
  return { file, rows, checks: source.checks };
}

// ---- import into PostgreSQL ----------------------------------------------------------------------

export interface ImportOptions {
  /** Empty a non-empty target first (`--delete-existing-data`); otherwise it is refused. */
  deleteExisting?: boolean;
}

export interface ImportResult {
  committed: boolean;
  rows: Record<string, number>;
  lines: CheckLine[];
}

/**
 * One import into PostgreSQL: migrates the target, then in one transaction checks it is empty
 * (but for its own key check), takes the rows in the given order with the gateway's triggers off
 * (the till ledger, dashboard sums and Z-report chain come as they were, not derived again), moves
 * every identity column past its maximum, compares the checks and commits only if all are equal.
 */
class PostgresImport {
  private readonly rows: Record<string, number> = {};
  private targetTables = new Map<string, TableSpec>();

  private constructor(private readonly client: pg.PoolClient) {}

  static async begin(pool: pg.Pool, tables: TableSpec[], schemaVersion: number, options: ImportOptions): Promise<PostgresImport> {
    if (schemaVersion !== SCHEMA_VERSION) {
      throw new MoveError(
        `the export has schema version ${schemaVersion}, this gateway's is ${SCHEMA_VERSION}: import with the gateway version that exported it, or migrate the source and export again`,
      );
    }
    await migratePostgres(pool);
    const client = await pool.connect();
    const run = new PostgresImport(client);
    try {
      await client.query('BEGIN');
      const target = await schemaVersionPostgres(client);
      if (target !== schemaVersion) throw new MoveError(`the target database has schema version ${target}, the export ${schemaVersion}`);
      const catalog = await postgresCatalog(client);
      run.targetTables = new Map(catalog.tables.map((t) => [t.name, t]));
      run.checkTables(tables, catalog.edges);
      const filled: string[] = [];
      for (const table of catalog.tables) {
        if (table.name === KEY_CHECK_TABLE) continue;
        const found = await client.query(`SELECT 1 FROM ${quote(table.name)} LIMIT 1`);
        if (found.rows.length > 0) filled.push(table.name);
      }
      if (filled.length > 0 && !options.deleteExisting) {
        throw new MoveError(
          `the target database is not empty (${filled.slice(0, 5).join(', ')}${filled.length > 5 ? ', ...' : ''} hold rows): import only into a new database, or add --delete-existing-data to delete everything in it first`,
        );
      }
      if (filled.length > 0 || options.deleteExisting) {
        await client.query(`TRUNCATE ${catalog.tables.map((t) => quote(t.name)).join(', ')} RESTART IDENTITY`);
      } else {
        await client.query(`DELETE FROM ${quote(KEY_CHECK_TABLE)}`);
      }
      // The gateway's own triggers (not the foreign keys) are off until the end of this transaction.
      for (const table of catalog.tables) await client.query(`ALTER TABLE ${quote(table.name)} DISABLE TRIGGER USER`);
      return run;
    } catch (error) {
      await run.abort();
      throw error;
    }
  }

  /** The incoming tables must be the target's, column for column, in an order its foreign keys allow. */
  private checkTables(tables: TableSpec[], edges: Array<[string, string]>): void {
    const incoming = new Set(tables.map((t) => t.name));
    const missing = [...this.targetTables.keys()].filter((name) => !incoming.has(name));
    const extra = tables.filter((t) => !this.targetTables.has(t.name)).map((t) => t.name);
    if (missing.length || extra.length) {
      throw new MoveError(
        `the export's tables differ from the target's${extra.length ? `; not in the target: ${extra.join(', ')}` : ''}${missing.length ? `; not in the export: ${missing.join(', ')}` : ''}`,
      );
    }
    for (const table of tables) {
      const all = this.targetTables.get(table.name)?.columns ?? [];
      // A PostgreSQL-only column an export from SQLite lacks takes its default (slot 0).
      const target =
        table.columns.length < all.length
          ? all.filter((c) => table.columns.includes(c) || !POSTGRES_ONLY_COLUMNS[table.name]?.includes(c))
          : all;
      const same = target.length === table.columns.length && table.columns.every((c) => target.includes(c));
      if (!same)
        throw new MoveError(`the columns of ${table.name} differ: export ${table.columns.join(', ')}; target ${target.join(', ')}`);
    }
    const position = new Map(tables.map((t, i) => [t.name, i]));
    for (const [from, to] of edges) {
      if (from !== to && (position.get(from) ?? 0) < (position.get(to) ?? 0))
        throw new MoveError(`the export lists ${from} before ${to}, which it references`);
    }
  }

  async insert(table: TableSpec, rows: unknown[][]): Promise<void> {
    if (rows.length === 0) return;
    const width = table.columns.length;
    const values = rows.map((row, r) => {
      if (!Array.isArray(row) || row.length !== width)
        throw new MoveError(`a row of ${table.name} has ${Array.isArray(row) ? row.length : 'no'} values, not ${width}`);
      return `(${row.map((_v, c) => `$${r * width + c + 1}`).join(', ')})`;
    });
    await this.client.query(
      `INSERT INTO ${quote(table.name)} (${table.columns.map(quote).join(', ')}) VALUES ${values.join(', ')}`,
      rows.flat(),
    );
    this.rows[table.name] = (this.rows[table.name] ?? 0) + rows.length;
  }

  async finish(expected: Checks): Promise<ImportResult> {
    try {
      const tables = [...this.targetTables.values()];
      for (const table of tables) await this.client.query(`ALTER TABLE ${quote(table.name)} ENABLE TRIGGER USER`);
      // Identity columns continue after the imported rows (invoice ids, till ledger sequence, ...).
      const identities = await this.client.query<{ table_name: string; column_name: string }>(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
      );
      for (const { table_name: table, column_name: column } of identities.rows) {
        await this.client.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX(${quote(column)}) FROM ${quote(table)}), 0) + 1, false)`,
          [quote(table), column],
        );
      }
      const actual = await computeChecks(async (sql) => (await this.client.query(sql)).rows as Array<Record<string, unknown>>, tables);
      const lines = compareChecks(expected, actual);
      if (lines.every((line) => line.equal)) {
        await this.client.query('COMMIT');
        this.client.release();
        return { committed: true, rows: this.rows, lines };
      }
      await this.abort();
      return { committed: false, rows: this.rows, lines };
    } catch (error) {
      await this.abort();
      throw error;
    }
  }

  async abort(): Promise<void> {
    try {
      await this.client.query('ROLLBACK');
      this.client.release();
    } catch {
      this.client.release(true);
    }
  }
}

/** `gateway move-to-postgres`: the source's rows straight into PostgreSQL, checked against the source. */
export async function moveToPostgres(source: MoveSource, pool: pg.Pool, options: ImportOptions = {}): Promise<ImportResult> {
  const run = await PostgresImport.begin(pool, source.tables, source.schemaVersion, options);
  try {
    for (const table of source.tables) {
      for await (const batch of source.batches(table, batchSize(table.columns.length))) await run.insert(table, batch);
    }
  } catch (error) {
    await run.abort();
    throw error;
  }
  return run.finish(source.checks);
}

function parseLine(line: string, number: number): Record<string, unknown> {
  try {
    const value = JSON.parse(line) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw new MoveError(`line ${number} of the export is not a JSON object: the file is damaged`);
  }
}

function readHeader(value: Record<string, unknown>): ExportHeader {
  if (value.type !== 'header' || value.format !== EXPORT_FORMAT)
    throw new MoveError(`not a Tillgate export (no "${EXPORT_FORMAT}" header on its first line)`);
  if (value.format_version !== EXPORT_FORMAT_VERSION)
    throw new MoveError(
      `the export's format version ${String(value.format_version)} is not ${EXPORT_FORMAT_VERSION}, the one this gateway reads`,
    );
  if (typeof value.schema_version !== 'number' || !Array.isArray(value.tables))
    throw new MoveError('the export header has no schema version or tables');
  const tables = value.tables as unknown[];
  for (const table of tables) {
    const t = table as Partial<TableSpec> | null;
    if (typeof t?.name !== 'string' || !Array.isArray(t.columns) || !t.columns.every((c) => typeof c === 'string'))
      throw new MoveError('the export header lists a table without a name or columns');
  }
  return value as unknown as ExportHeader;
}

/** `gateway import`: an export file into PostgreSQL, checked against the file's trailer and hash. */
export async function importFromFile(file: string, pool: pg.Pool, options: ImportOptions = {}): Promise<ImportResult> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  const hash = createHash('sha256');
  let run: PostgresImport | undefined;
  let header: ExportHeader | undefined;
  let trailer: ExportTrailer | undefined;
  let number = 0;
  try {
    const specs = new Map<string, TableSpec>();
    const counts: Record<string, number> = {};
    const finished = new Set<string>();
    let current: TableSpec | undefined;
    let batch: unknown[][] = [];
    const flush = async () => {
      if (current && batch.length > 0) await run?.insert(current, batch);
      batch = [];
    };
    for await (const line of lines) {
      number += 1;
      if (trailer) throw new MoveError(`the export goes on after its end line (line ${number}): the file is damaged`);
      const value = parseLine(line, number);
      if (!header) {
        header = readHeader(value);
        for (const table of header.tables) specs.set(table.name, table);
        run = await PostgresImport.begin(pool, header.tables, header.schema_version, options);
      } else if (value.type === 'end') {
        await flush();
        trailer = value as unknown as ExportTrailer;
        if (trailer.sha256 !== hash.digest('hex'))
          throw new MoveError('the export does not match its checksum (sha256): the file was changed or damaged after it was written');
        for (const table of header.tables) {
          if ((trailer.rows?.[table.name] ?? -1) !== (counts[table.name] ?? 0))
            throw new MoveError(
              `the export's end line counts ${String(trailer.rows?.[table.name])} rows of ${table.name}, the file holds ${counts[table.name] ?? 0}`,
            );
        }
        continue;
      } else {
        const name = value.t;
        const spec = typeof name === 'string' ? specs.get(name) : undefined;
        if (!spec || !Array.isArray(value.r)) throw new MoveError(`line ${number} of the export is not a row of a table in its header`);
        if (spec !== current) {
          await flush();
          if (current) finished.add(current.name);
          if (finished.has(spec.name)) throw new MoveError(`the rows of ${spec.name} are not together in the export (line ${number})`);
          current = spec;
        }
        batch.push(value.r as unknown[]);
        counts[spec.name] = (counts[spec.name] ?? 0) + 1;
        if (batch.length >= batchSize(spec.columns.length)) await flush();
      }
      hash.update(`${line}\n`, 'utf8');
    }
    if (!header) throw new MoveError('the export is empty');
    if (!trailer || !run) throw new MoveError('the export ends before its end line: the file is incomplete');
    if (typeof trailer.checks !== 'object' || trailer.checks === null) throw new MoveError('the export end line has no checks');
  } catch (error) {
    await run?.abort();
    throw error;
  } finally {
    lines.close();
    input.destroy();
  }
  return run.finish(trailer.checks);
}
