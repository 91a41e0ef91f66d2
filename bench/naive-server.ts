/**
 * The naive reference of the payments benchmark: Fastify and one better-sqlite3 INSERT of a
 * transaction-like row per request in its own implicit transaction (one commit, one fsync each),
 * random UUIDv4 keys, WAL, synchronous=FULL, no logging, no auth, no validation.
 *
 *   node --import tsx bench/naive-server.ts --data-dir DIR [--port 0] [--synchronous FULL|OFF] [--database postgres://...]
 *
 * `--synchronous OFF` (no fsync at all, not durable) is not a reference but a ceiling: what this
 * stack (Fastify + one insert) does per second on one core when the disk costs nothing.
 *
 * `--database URL`: the same row into the same table on PostgreSQL instead, with the driver and pool
 * the gateway uses (pg, 10 connections), one named prepared INSERT per request in its own implicit
 * transaction (one commit each; the cluster decides durability, bench clusters are durable). It is
 * the floor of a payment on PostgreSQL: what one request that writes one row costs there, so that
 * PostgreSQL's cost against SQLite's can be told apart from the gateway's own (bench/side-by-side.ts
 * `--bin naive`).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    port: { type: 'string' },
    synchronous: { type: 'string', default: 'FULL' },
    database: { type: 'string' },
  },
});
if (values.synchronous !== 'FULL' && values.synchronous !== 'OFF') throw new Error('--synchronous must be FULL or OFF');
const dir = values['data-dir'];
if (!dir) throw new Error('--data-dir DIR is required');
mkdirSync(dir, { recursive: true });

const TABLE = `CREATE TABLE IF NOT EXISTS payments (
  id TEXT PRIMARY KEY,
  payment_type TEXT NOT NULL,
  order_id TEXT,
  currency TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  status_code INTEGER NOT NULL,
  card_last_four TEXT,
  details TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
)`;
const INSERT = `INSERT INTO payments (id, payment_type, order_id, currency, amount_minor, status_code, card_last_four, details, created_at, updated_at)
   VALUES `;

/** Writes one row: on SQLite synchronously (no promise, as before), on PostgreSQL a promise. */
let insert: (values: unknown[]) => Promise<unknown> | undefined;
let close: () => Promise<void>;
if (values.database) {
  const pool = new pg.Pool({ connectionString: values.database, max: 10 });
  await pool.query(TABLE);
  const text = `${INSERT}($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
  insert = (row) => pool.query({ name: 'naive_insert', text, values: row });
  close = () => pool.end();
} else {
  const db = new Database(join(dir, 'naive.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${values.synchronous}`);
  db.exec(`${TABLE} STRICT`);
  const statement = db.prepare(`${INSERT}(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  insert = (row) => {
    statement.run(...row);
    return undefined;
  };
  close = async () => {
    db.close();
  };
}

interface Body {
  payment_type?: string;
  order_id?: string;
  amount?: number;
  currency?: string;
  pos_data?: { card?: { number?: string }; terminal?: unknown };
}

const app = Fastify({ logger: false });
app.post('/rest/payment', async (request) => {
  const body = request.body as Body;
  const id = randomUUID();
  const now = new Date().toISOString();
  const amountMinor = Math.round((body.amount ?? 0) * 100);
  const written = insert([
    id,
    body.payment_type ?? 'cardpos',
    body.order_id ?? null,
    body.currency ?? 'EUR',
    amountMinor,
    3,
    body.pos_data?.card?.number?.slice(-4) ?? null,
    JSON.stringify({ terminal: body.pos_data?.terminal ?? null }),
    now,
    now,
  ]);
  if (written) await written;
  return {
    transaction_id: id,
    status_code: 3,
    status: 'completed',
    order_id: body.order_id ?? null,
    amount: body.amount,
    currency: body.currency,
    error_code: 0,
  };
});

const address = await app.listen({ host: '127.0.0.1', port: Number(values.port ?? 0) });
process.stdout.write(`listening on ${address}\n`);
const stop = () => {
  void app
    .close()
    .then(close)
    .then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
