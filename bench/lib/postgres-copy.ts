/**
 * For benchmarks on PostgreSQL: a durable cluster in a temp dir, the gateway's schema by its own
 * migrations, and the rows of a seeded SQLite database copied over (the tables the list queries
 * read), then ANALYZE, as an operator's database would have statistics. Triggers are off while
 * copying (`session_replication_role = replica`): the copy is a bulk load of finished rows.
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { migratePostgres } from '../../db/postgres/migrate.js';
import { createPool } from '../../db/postgres/pg-store.js';
import { createDatabase, startCluster } from '../../tests/helpers/postgres.js';

const TABLES = ['merchants', 'credentials', 'channels', 'transactions'];
/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;

export interface PostgresCopy {
  url: string;
  pool: pg.Pool;
  query(sql: string, params: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}

export interface PlanSummary {
  /** Plan nodes in order, e.g. "Index Scan on transactions using transactions_merchant_created". */
  nodes: string[];
  sorts: boolean;
  seqScanOfTransactions: boolean;
  executionMs: number;
}

export async function copyToPostgres(db: Database.Database, log: (line: string) => void): Promise<PostgresCopy> {
  const cluster = await startCluster({ durable: true });
  const url = await createDatabase(cluster.url, 'bench');
  const pool = createPool(url, { max: 4 });
  await migratePostgres(pool);
  const client = await pool.connect();
  try {
    await client.query('SET session_replication_role = replica');
    for (const table of TABLES) {
      const pgColumns = (
        await client.query<{ column_name: string }>('SELECT column_name FROM information_schema.columns WHERE table_name = $1', [table])
      ).rows.map((r) => r.column_name);
      const sqliteColumns = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((r) => r.name));
      const columns = pgColumns.filter((c) => sqliteColumns.has(c));
      const quoted = columns.map((c) => `"${c}"`).join(', ');
      const batch = Math.floor(MAX_PARAMETERS / columns.length);
      const started = performance.now();
      let rows: unknown[][] = [];
      let copied = 0;
      const flush = async () => {
        if (rows.length === 0) return;
        const values = rows.map((row, r) => `(${row.map((_v, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
        await client.query(`INSERT INTO ${table} (${quoted}) VALUES ${values}`, rows.flat());
        copied += rows.length;
        rows = [];
      };
      await client.query('BEGIN');
      for (const row of db.prepare(`SELECT ${quoted} FROM ${table}`).raw().iterate() as IterableIterator<unknown[]>) {
        rows.push(row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
        if (rows.length >= batch) await flush();
      }
      await flush();
      await client.query('COMMIT');
      log(`copied ${copied} rows of ${table} to PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await client.query('ANALYZE');
  } finally {
    client.release();
  }
  return {
    url,
    pool,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    close: async () => {
      await pool.end();
      cluster.stop();
    },
  };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** PostgreSQL's plan of a repository query (EXPLAIN ANALYZE), summarised. */
export async function postgresPlan(pool: pg.Pool, sql: string, params: unknown[]): Promise<PlanSummary> {
  const result = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
  const root = (result.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> })['QUERY PLAN'][0] as {
    Plan: PlanNode;
    'Execution Time': number;
  };
  const nodes: string[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(
      `${node['Node Type']}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`,
    );
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(root.Plan);
  return {
    nodes,
    sorts: nodes.some((n) => n.startsWith('Sort') || n.startsWith('Incremental Sort')),
    seqScanOfTransactions: nodes.some((n) => n === 'Seq Scan on transactions'),
    executionMs: root['Execution Time'],
  };
}
