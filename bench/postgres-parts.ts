/**
 * What parts of a PostgreSQL payment cost: CPU per payment (gateway + every cluster process, both
 * pinned to CPU 0 as issue 38 measures them, wrk on CPU 1) with the schema as built, and with one
 * part switched off at a time in the bench's own temp cluster:
 *
 *   node --import tsx bench/postgres-parts.ts [--seconds 8] [--connections 50] [--rounds 3] [--out NAME]
 *
 * - `without the till ledger's trigger`: the deferred trigger that books each sale's money events in
 *   its till's ledger at commit (a PL/pgSQL function per event: a lookup of the sale, the book's
 *   advisory lock in share mode, an INSERT into till_ledger).
 * - `the ledger's lock exclusive` and `the ledger without its lock`: the same trigger with its
 *   advisory lock taken exclusively, as before migration 34 (every sale of one till waits for the
 *   one before it to commit), or not at all (the function as the database has it, with that one
 *   call changed or removed).
 * - `the ledger's trigger once per statement`: a candidate, not the schema. One PL/pgSQL call per
 *   INSERT statement over its new events (a transition table), instead of one call per event; a
 *   sale's two events are one statement. Its locks and numbers are taken at the statement's end.
 * - `without the dashboard's trigger`: the AFTER INSERT trigger that adds a sale to its hour's sums.
 * - `commits not waiting for the disk`: synchronous_commit = off, what the durable commit costs.
 *
 * These are measurements, not options: the gateway always runs with all of them. Each round runs
 * every variant once, in turn (the part switched off before and back on after its run), each round
 * starting one variant later, so that the machine's swings and the order fall on all of them. The
 * medians over the rounds and each variant's difference to `as built` are printed. Parts that are
 * not the schema's (the configuration reads, the driver) are measured by bench/side-by-side.ts
 * against builds.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { basicAuth, machine, median, processCpuMicros, startGateway, tempDir, wrkPayments, writeResult } from './lib/procs.js';
import { clusterCpu, merchantOn, pinCluster } from './lib/postgres-cluster.js';
import { createDatabase, startCluster } from '../tests/helpers/postgres.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    out: { type: 'string' },
  },
});

interface Variant {
  name: string;
  /** Statements run one by one before the variant's run, and after it to undo it. */
  off: string[];
  on: string[];
}

/** The money events the ledger books (migration 31's WHEN clause). */
const BOOKED = "e.type IN ('authorization', 'reauthorization', 'capture', 'refund') AND t.payment_type = 'cardpos'";
/** A candidate, not the schema: the ledger's trigger once per statement, over the statement's new events. */
const PER_STATEMENT = `CREATE FUNCTION till_ledger_append_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended(b.shop || '/' || b.book, 0))
  FROM (SELECT DISTINCT t.merchant_id AS shop, COALESCE(t.till_id, '*') AS book
        FROM new_events e JOIN transactions t ON t.id = e.transaction_id WHERE ${BOOKED}) b;
  INSERT INTO till_ledger (merchant_id, terminal_id, event_id)
  SELECT t.merchant_id, COALESCE(t.till_id, '*'), e.id FROM new_events e JOIN transactions t ON t.id = e.transaction_id WHERE ${BOOKED};
  RETURN NULL;
END $$`;

/**
 * The variants, given the ledger function's definition and its trigger's as the database has them
 * (pg_get_functiondef, pg_get_triggerdef).
 */
const variantsFor = (ledger: string, trigger: string): Variant[] => [
  { name: 'as built', off: [], on: [] },
  {
    name: "without the till ledger's trigger",
    off: ['ALTER TABLE transaction_events DISABLE TRIGGER till_ledger_append'],
    on: ['ALTER TABLE transaction_events ENABLE TRIGGER till_ledger_append'],
  },
  {
    name: "the ledger's lock exclusive",
    off: [ledger.replace('pg_advisory_xact_lock_shared(', 'pg_advisory_xact_lock(')],
    on: [ledger],
  },
  {
    name: 'the ledger without its lock',
    off: [ledger.replace(/PERFORM pg_advisory_xact_lock_shared\([^;]*;/, '')],
    on: [ledger],
  },
  {
    name: "the ledger's trigger once per statement",
    off: [
      'DROP TRIGGER till_ledger_append ON transaction_events',
      PER_STATEMENT,
      'CREATE TRIGGER till_ledger_append_rows AFTER INSERT ON transaction_events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION till_ledger_append_rows()',
    ],
    on: ['DROP TRIGGER till_ledger_append_rows ON transaction_events', 'DROP FUNCTION till_ledger_append_rows()', trigger],
  },
  {
    name: "without the dashboard's trigger",
    off: ['ALTER TABLE transactions DISABLE TRIGGER dashboard_hours_transaction_insert'],
    on: ['ALTER TABLE transactions ENABLE TRIGGER dashboard_hours_transaction_insert'],
  },
  {
    name: 'commits not waiting for the disk',
    off: ['ALTER SYSTEM SET synchronous_commit = off', 'SELECT pg_reload_conf()'],
    on: ['ALTER SYSTEM RESET synchronous_commit', 'SELECT pg_reload_conf()'],
  },
];

const machineBefore = machine();
const cluster = await startCluster({ durable: true });
pinCluster(cluster.dataDir, 0);
const dir = tempDir('tillgate-postgres-parts-');
const rounds: Array<Record<string, unknown>> = [];
/** Per variant, in VARIANTS' order: the CPU per payment of each round. */
let spent: Array<{ gateway: number[]; cluster: number[] }> = [];
let VARIANTS: Variant[] = [];
try {
  const database = await createDatabase(cluster.url, 'parts');
  const auth = basicAuth(merchantOn(dir, database));
  const server = await startGateway(dir, { cpu: 0, args: ['--database', database] });
  const admin = new pg.Client({ connectionString: database });
  await admin.connect();
  try {
    const ledger = (await admin.query<{ def: string }>("SELECT pg_get_functiondef('till_ledger_append'::regproc) AS def")).rows[0]?.def;
    if (!ledger?.includes('PERFORM pg_advisory_xact_lock_shared('))
      throw new Error("the ledger's function takes no shared advisory lock: update this bench");
    const trigger = (
      await admin.query<{ def: string }>("SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgname = 'till_ledger_append'")
    ).rows[0]?.def;
    if (!trigger) throw new Error("the ledger's trigger is missing: update this bench");
    VARIANTS = variantsFor(ledger, trigger);
    spent = VARIANTS.map(() => ({ gateway: [], cluster: [] }));
    const connections = Number(values.connections);
    await wrkPayments(server.url, auth, 3, connections);
    for (let round = 1; round <= Number(values.rounds); round++) {
      // Each round starts one variant later, so that no variant always runs first (after the
      // previous round's last) or always in the same place.
      for (let k = 0; k < VARIANTS.length; k++) {
        const i = (k + round - 1) % VARIANTS.length;
        const variant = VARIANTS[i] as Variant;
        for (const sql of variant.off) await admin.query(sql);
        try {
          // A short run first, so that a reloaded setting has reached every connection.
          await wrkPayments(server.url, auth, 1, connections);
          const clusterBefore = clusterCpu(cluster.dataDir);
          const gatewayBefore = processCpuMicros(server.pid);
          const run = await wrkPayments(server.url, auth, Number(values.seconds), connections);
          const gateway = (processCpuMicros(server.pid) - gatewayBefore) / (run.requests || 1);
          const clusterUs = (clusterCpu(cluster.dataDir) - clusterBefore) / (run.requests || 1);
          spent[i]?.gateway.push(gateway);
          spent[i]?.cluster.push(clusterUs);
          rounds.push({
            round,
            variant: variant.name,
            requests: run.requests,
            wrk: run.line,
            gatewayUsPerPayment: Math.round(gateway),
            clusterUsPerPayment: Math.round(clusterUs),
          });
          console.log(
            `round ${round} ${variant.name}: ${run.line} gateway ${gateway.toFixed(0)} + cluster ${clusterUs.toFixed(0)} = ${(gateway + clusterUs).toFixed(0)} us per payment`,
          );
        } finally {
          for (const sql of variant.on) await admin.query(sql);
        }
      }
    }
  } finally {
    await admin.end();
    await server.stop();
  }
  const total = (i: number) => median(spent[i]?.gateway ?? []) + median(spent[i]?.cluster ?? []);
  for (const [i, variant] of VARIANTS.entries()) {
    const gateway = median(spent[i]?.gateway ?? []);
    const clusterUs = median(spent[i]?.cluster ?? []);
    console.log(
      `median ${variant.name}: gateway ${gateway.toFixed(0)} + cluster ${clusterUs.toFixed(0)} = ${total(i).toFixed(0)} us per payment${i > 0 ? ` (${(total(i) - total(0)).toFixed(0)} us against as built)` : ''}`,
    );
  }
  if (values.out) {
    console.log(
      `written ${writeResult(values.out, { benchmark: 'postgres-parts', values, machine: machineBefore, machineAfter: machine(), rounds })}`,
    );
  }
} finally {
  cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
