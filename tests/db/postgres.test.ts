// The gateway on PostgreSQL (issue 19): the migration runner (baseline, then the numbered
// sequence; refusal of a newer database; instances migrating at once), the engine's triggers, and
// payments through the HTTP API on a real PostgreSQL cluster (initdb in a temp dir: tests/helpers/
// postgres.ts). The other HTTP suites run on PostgreSQL with TEST_ENGINE=postgres.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { ErrorCode } from '../../contract/codes.js';
import { DatabaseTooNewError } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { TASK_LEASE_MS } from '../../main/core/scheduler.js';
import { success } from '../../main/core/errors.js';
import { StorageUnavailableError } from '../../main/core/kernel.js';
import { IdempotencyConflict } from '../../main/core/idempotency/idempotency.js';
import { BASELINE_VERSION } from '../../db/postgres/baseline.js';
import { transactionListSql } from '../../db/payments/transactions.js';
import type { TransactionFilter } from '../../main/core/payments/ports.js';
import { migratePostgres, schemaVersionPostgres } from '../../db/postgres/migrate.js';
import { createPool, PgStore } from '../../db/postgres/pg-store.js';
import { namedStatement } from '../../db/postgres/pg-sql.js';
import { api, cardPayment, DAY, newMerchant, startHarness, type Harness } from '../helpers/payments.js';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const skip = postgresAvailable() ? false : 'PostgreSQL 15 binaries are not installed (apt-get install postgresql)';

/** What pg's clients are handed from now until `stop()`, each query as `label` names it (undefined: not kept). */
function recordQueries(label: (config: unknown) => string | undefined): { seen: string[]; stop: () => void } {
  const original = pg.Client.prototype.query;
  const seen: string[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const named = label(args[0]);
    if (named !== undefined) seen.push(named);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return {
    seen,
    stop: () => {
      pg.Client.prototype.query = original;
    },
  };
}

/** Waits until `ready` (every 10 ms, 5 s at most), then asserts it. */
async function waitUntil(what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await ready()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(await ready(), what);
}

/** A unit of `store` that writes one audit row with `id`: 'ok', or the error it failed with. */
function recordAudit(store: PgStore, merchantId: string): (id: string) => Promise<unknown> {
  return (id) =>
    store
      .run((tx) =>
        tx.audit.record({
          id,
          merchantId,
          staffId: null,
          approvedBy: null,
          action: 'commit_group_test',
          subjectId: null,
          detail: null,
          createdAt: new Date().toISOString(),
        }),
      )
      .then(
        () => 'ok',
        (error: unknown) => error,
      );
}

/**
 * Audit rows inserted by another session and held in its open transaction: a unit inserting the
 * same id waits for it (the unique index), and with it the group it is in. `waiting` counts this
 * database's backends waiting on such a lock.
 */
function auditLocks(pool: pg.Pool, merchantId: string) {
  const holding = new Set<pg.PoolClient>();
  return {
    async hold(id: string): Promise<() => Promise<void>> {
      const client = await pool.connect();
      holding.add(client);
      await client.query('BEGIN');
      await client.query("INSERT INTO audit_log (id, merchant_id, action, created_at) VALUES ($1, $2, 'commit_group_test', $3)", [
        id,
        merchantId,
        new Date().toISOString(),
      ]);
      return async () => {
        holding.delete(client);
        await client.query('ROLLBACK');
        client.release();
      };
    },
    async waiting(): Promise<number> {
      const sql =
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%audit_log%'";
      return Number((await pool.query(sql)).rows[0].n);
    },
    release(): void {
      for (const client of holding) client.release(true);
      holding.clear();
    },
  };
}

describe('PostgreSQL', { skip }, () => {
  test('statement texts are used as they are, each named (prepared) once per text; a plain INSERT is told from one that answers', () => {
    const text = "SELECT * FROM t WHERE a = $1 AND b = '?' AND c ? 'key'";
    assert.equal(namedStatement(text).text, text, "nothing is rewritten: a quoted ? and jsonb's ? operator stay");
    // Each text is one named (prepared) statement: the same name for the same text, another for another.
    assert.equal(namedStatement(text).name, namedStatement(text).name);
    assert.notEqual(namedStatement('SELECT 1 FROM t WHERE a = $1').name, namedStatement(text).name);
    // A plain INSERT changes one row or fails: inside a unit its answer need not be awaited.
    assert.equal(namedStatement('insert into "t" ("a") values ($1)').plainInsert, true);
    assert.equal(namedStatement('INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING').plainInsert, false);
    assert.equal(namedStatement('insert into "t" ("a") values ($1) returning "id"').plainInsert, false);
  });

  test('an empty database gets the whole sequence once; a second run finds nothing to do; three instances starting at once migrate it once', async () => {
    const url = await createTestDatabase('migrate');
    const pools = [createPool(url), createPool(url), createPool(url)];
    try {
      const reports = await Promise.all(pools.map((pool) => migratePostgres(pool)));
      const applied = reports.filter((r) => r.applied.length > 0);
      assert.equal(applied.length, 1, 'one instance migrated');
      assert.equal(applied[0]?.applied.length, migrations.length);
      assert.ok(applied[0]?.applied[BASELINE_VERSION - 1]?.startsWith(String(BASELINE_VERSION).padStart(4, '0')));
      for (const report of reports) assert.equal(report.to, migrations.at(-1)?.version);
      const again = await migratePostgres(pools[0] as pg.Pool);
      assert.deepEqual(again.applied, []);
      const client = await (pools[0] as pg.Pool).connect();
      try {
        assert.equal(await schemaVersionPostgres(client), migrations.at(-1)?.version);
        // Money columns are 64-bit integers.
        const types = await client.query<{ data_type: string }>(
          "SELECT data_type FROM information_schema.columns WHERE table_name = 'transactions' AND column_name IN ('amount_minor', 'captured_minor', 'refunded_minor')",
        );
        assert.deepEqual(
          types.rows.map((r) => r.data_type),
          ['bigint', 'bigint', 'bigint'],
        );
      } finally {
        client.release();
      }
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  test('reads started together outside a unit leave as one batch (one Sync) once their statements are known on the connection, read with the kept row descriptions; a failing read fails the ones behind it and the connection goes on', async () => {
    const url = await createTestDatabase('batched');
    // One connection: every readEach below runs on it.
    const pool = createPool(url, { max: 1, pipeline: true });
    const store = new PgStore(pool);
    // What the store hands to pg's client, by kind (query objects only).
    const recorder = recordQueries((config) => (typeof config === 'object' && config ? config.constructor.name : undefined));
    const submitted = recorder.seen;
    try {
      await migratePostgres(pool);
      const task = {
        id: 'batched-1',
        kind: 'batched_test',
        subjectId: 'batched-1',
        merchantId: 'no-merchant',
        dueAt: '2999-01-01T00:00:00.000Z',
        state: 'pending' as const,
        attempts: 3,
        lastError: null,
        createdAt: new Date().toISOString(),
      };
      await store.run(async (tx) => tx.tasks.insert(task));
      const reads = () =>
        store.readEach((r) =>
          Promise.all([r.tasks.due('2999-01-01T00:00:00.000Z', 10), r.tasks.nextDueAt(), r.tasks.due('2000-01-01', 10)]),
        );
      submitted.length = 0;
      const first = await reads();
      assert.deepEqual(
        submitted,
        ['PreparedQuery', 'PreparedQuery', 'PreparedQuery'],
        'first on the connection: each prepared and described',
      );
      submitted.length = 0;
      const second = await reads();
      assert.deepEqual(submitted, ['PreparedBatch'], 'then all three in one batch');
      assert.deepEqual(second, first);
      assert.deepEqual(second[0], [task], "the kept parsers read the row: a BIGINT comes back a number, as pg's own parse gives it");
      assert.equal(second[1], '2999-01-01T00:00:00.000Z');
      assert.deepEqual(second[2], []);

      // The second read's value cannot be a BIGINT: PostgreSQL refuses it at Bind and skips the rest
      // up to the Sync. The first read was answered before it.
      const settled = await store.readEach((r) =>
        Promise.allSettled([
          r.tasks.due('2999-01-01T00:00:00.000Z', 10),
          r.tasks.due('2999-01-01T00:00:00.000Z', 'many' as unknown as number),
          r.tasks.nextDueAt(),
        ]),
      );
      assert.equal(settled[0].status, 'fulfilled');
      assert.deepEqual(settled[0].status === 'fulfilled' ? settled[0].value : undefined, [task]);
      assert.equal(settled[1].status === 'rejected' ? (settled[1].reason as { code?: string }).code : 'answered', '22P02');
      assert.equal(settled[2].status === 'rejected' ? (settled[2].reason as { code?: string }).code : 'answered', '22P02');
      submitted.length = 0;
      assert.deepEqual(await reads(), first, 'the connection answers the next batch');
      assert.deepEqual(submitted, ['PreparedBatch']);
    } finally {
      recorder.stop();
      await store.close();
    }
  });

  test("a book's settled position waits for its entries that are numbered and not committed, not for other books', and holds nothing after", async () => {
    const url = await createTestDatabase('settled');
    const pool = createPool(url, { max: 2, pipeline: true });
    const store = new PgStore(pool);
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    // An entry as the ledger's trigger writes it (migration 34): under its book's lock in share mode, numbered, not committed.
    const numbered = async (client: pg.Client, book: string, event: string) => {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock_shared(hashtextextended('m-settled/' || $1, 0))", [book]);
      const row = await client.query<{ seq: string }>(
        "INSERT INTO till_ledger (merchant_id, terminal_id, event_id) VALUES ('m-settled', $1, $2) RETURNING seq",
        [book, event],
      );
      return Number(row.rows[0]?.seq);
    };
    try {
      await migratePostgres(pool);
      const seq = await numbered(writer, 'TILL-1', 'e-1');
      const elsewhere = await numbered(other, 'TILL-2', 'e-2');
      assert.ok(elsewhere > seq);
      let settledAt = 0;
      const settling = store
        .readEach((r) => r.dayReports.settled('m-settled', 'TILL-1'))
        .then((position) => {
          settledAt = Date.now();
          return position;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(settledAt, 0, 'it waits for the numbered entry of its book');
      await writer.query('COMMIT');
      const position = await settling;
      assert.ok(position >= elsewhere, 'then answers the last number drawn, the open entry of another book included');
      assert.equal(
        await store.read((r) => r.dayReports.watermark('m-settled', 'TILL-1', position)),
        seq,
        'and a cut there sees the entry that waited',
      );
      // Another book's open entry held nothing up, and nothing holds the book's lock after the answer.
      await other.query('ROLLBACK');
      await writer.query('BEGIN');
      const free = await writer.query<{ got: boolean }>("SELECT pg_try_advisory_xact_lock(hashtextextended('m-settled/TILL-1', 0)) AS got");
      await writer.query('ROLLBACK');
      assert.equal(free.rows[0]?.got, true);
    } finally {
      await writer.end();
      await other.end();
      await store.close();
    }
  });

  test("the configuration listener is trusted once it heard its own notification; it counts other connections' committed configuration writes (not a till's heartbeat), and stops being trusted while its connection is lost", async () => {
    const url = await createTestDatabase('configuration_listen');
    const setup = createPool(url, { max: 2 });
    await migratePostgres(setup);
    const store = new PgStore(createPool(url, { max: 2, pipeline: true }), { listen: { url } });
    const until = async (what: string, check: () => boolean | Promise<boolean>) => {
      const deadline = Date.now() + 15_000;
      while (!(await check())) {
        assert.ok(Date.now() < deadline, `${what} within 15 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      await until('the listener hears', () => store.configurationGeneration() !== undefined);
      const heard = store.configurationGeneration() as number;
      // A statement trigger: heard whether or not the statement changed a row.
      await setup.query("DELETE FROM tills WHERE till_id = 'none'");
      await until('a DELETE of tills is heard', () => (store.configurationGeneration() ?? 0) > heard);
      const afterInsert = store.configurationGeneration() as number;
      assert.equal(afterInsert, heard + 1);
      // A screen's heartbeat and a rolled-back change are not heard; the terminal after them is, once.
      await setup.query("UPDATE tills SET seen_at = '2026-11-29T00:00:01Z' WHERE till_id = 'none'");
      const client = await setup.connect();
      try {
        await client.query('BEGIN');
        await client.query("UPDATE tills SET retired_at = '2026-11-29T00:00:02Z' WHERE till_id = 'none'");
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
      await setup.query("UPDATE terminals SET shop_id = 's-2' WHERE terminal_id = 'none'");
      await until('the terminal is heard', () => (store.configurationGeneration() ?? 0) > afterInsert);
      assert.equal(store.configurationGeneration(), afterInsert + 1, 'only the terminal was heard');
      // Its connection ended by the server: not trusted until a new one heard its own notification.
      const ended = await setup.query(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'tillgate-configuration' AND datname = current_database()",
      );
      assert.deepEqual(ended.rows, [{ ended: true }]);
      await until('the lost listener is not trusted', () => store.configurationGeneration() === undefined);
      await until('a new connection hears again', () => store.configurationGeneration() !== undefined);
      assert.ok((store.configurationGeneration() as number) > afterInsert + 1, 'a new count: nothing read before is used again');
    } finally {
      await store.close();
      await setup.end();
    }
  });

  test("migration 26 gives an invoice's payments made before it the invoice's number", async () => {
    const url = await createTestDatabase('m26');
    const pool = createPool(url);
    try {
      await migratePostgres(
        pool,
        migrations.filter((m) => m.version < 26),
      );
      await pool.query(
        "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'w', '2026-01-01T00:00:00Z')",
      );
      await pool.query(
        "INSERT INTO channels (id, merchant_id, url_name, name, currency, language, created_at) VALUES ('c1', 'm1', 'shop', 'Shop', 'EUR', 'en', '2026-01-01T00:00:00Z')",
      );
      const invoice = await pool.query<{ id: string }>(
        `INSERT INTO invoices (uuid, merchant_id, channel_id, debt_claim_number, active, status, print_date, amount_minor, currency, redirect_after_payments, send_initial_email, created_at, updated_at)
         VALUES ('u-1', 'm1', 'c1', 'INV-0042', 1, 'paid', '2026-01-01', 100, 'EUR', 0, 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z') RETURNING id`,
      );
      const insert = `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, order_id, currency, amount_minor, details, created_at, updated_at)
        VALUES ($1, 'm1', 'cardecom', 'payment', 3, $2, 'EUR', 100, $3, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`;
      await pool.query(insert, ['t1', 'u-1', JSON.stringify({ invoice_id: Number(invoice.rows[0]?.id), instalment: 1 })]);
      await pool.query(insert, ['t2', 'order-2', '{}']);
      await migratePostgres(pool);
      const rows = await pool.query('SELECT id, invoice_number FROM transactions ORDER BY id');
      assert.deepEqual(rows.rows, [
        { id: 't1', invoice_number: 'INV-0042' },
        { id: 't2', invoice_number: null },
      ]);
    } finally {
      await pool.end();
    }
  });

  test('a database from a newer gateway is refused, and left as it is', async () => {
    const url = await createTestDatabase('newer');
    const pool = createPool(url);
    try {
      await migratePostgres(pool);
      await pool.query('UPDATE gateway_schema SET version = $1', [migrations.length + 5]);
      await assert.rejects(
        migratePostgres(pool),
        (error: unknown) => error instanceof DatabaseTooNewError && /schema version \d+/.test(error.message),
      );
      assert.equal((await pool.query('SELECT version FROM gateway_schema')).rows[0].version, migrations.length + 5);
    } finally {
      await pool.end();
    }
  });

  describe('two instances on one database', () => {
    let url: string;
    let a: Harness;
    let b: Harness;
    before(async () => {
      url = await createTestDatabase('instances');
      a = await startHarness({ database: url });
      b = await startHarness({ database: url });
    });
    after(async () => {
      await a.close();
      await b.close();
    });

    test('a unit whose INSERT sent without waiting fails commits nothing, though COMMIT left with it; an optimistic INSERT that meets a row runs the unit once more, carefully', async () => {
      const merchant = await newMerchant(a, 'Pipelined Commit');
      const store = a.composition.gateway.store;
      const entry = (id: string) => ({
        id,
        merchantId: merchant.merchant_id,
        staffId: null,
        approvedBy: null,
        action: 'pipelined_commit_test',
        subjectId: null,
        detail: null,
        createdAt: new Date().toISOString(),
      });
      const pool = new pg.Pool({ connectionString: url });
      try {
        // The second INSERT repeats the first's id: both are sent without waiting, COMMIT follows them
        // in the same write, and PostgreSQL answers it with ROLLBACK.
        let tries = 0;
        const failed = await store
          .run(async (tx) => {
            tries += 1;
            await tx.audit.record(entry('pipelined-1'));
            await tx.audit.record(entry('pipelined-1'));
            await tx.instances.beat('written-beside-a-failed-insert', new Date().toISOString());
          })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        assert.equal((failed as { code?: string } | undefined)?.code, '23505', String(failed));
        assert.equal(tries, 2, 'run once optimistically, then once carefully, then the error is the answer');
        const rows = await pool.query(
          "SELECT (SELECT count(*) FROM audit_log WHERE id = 'pipelined-1') AS audit, (SELECT count(*) FROM gateway_instances WHERE id = 'written-beside-a-failed-insert') AS beat",
        );
        assert.deepEqual(rows.rows[0], { audit: '0', beat: '0' }, 'nothing of the unit committed');
        // A unit that succeeds commits what it sent without waiting.
        await store.run(async (tx) => tx.audit.record(entry('pipelined-2')));
        assert.equal((await pool.query("SELECT count(*) AS n FROM audit_log WHERE id = 'pipelined-2'")).rows[0].n, '1');
      } finally {
        await pool.end();
      }
    });

    test('a unit whose statements are plain INSERTs into different tables is one statement on its own, all its rows or none; INSERTs held before a read are sent before it', async () => {
      const merchant = await newMerchant(a, 'Combined Inserts');
      const store = a.composition.gateway.store;
      const audit = (id: string) => ({
        id,
        merchantId: merchant.merchant_id,
        staffId: null,
        approvedBy: null,
        action: 'combined_insert_test',
        subjectId: null,
        detail: "a '$1' in a value",
        createdAt: new Date().toISOString(),
      });
      const task = (id: string) => ({
        id,
        kind: 'combined_insert_test',
        subjectId: id,
        merchantId: merchant.merchant_id,
        dueAt: '2999-01-01T00:00:00.000Z',
        state: 'pending' as const,
        attempts: 0,
        lastError: null,
        createdAt: new Date().toISOString(),
      });
      // What this store's connections send to PostgreSQL while a unit runs (the texts of pg's queries).
      let sent: string[] = [];
      const unit = async <T>(work: Parameters<typeof store.run<T>>[0]) => {
        const recorder = recordQueries((config) => (typeof config === 'string' ? config : ((config as { text?: string }).text ?? '')));
        sent = recorder.seen;
        try {
          return await store.run(work);
        } finally {
          recorder.stop();
        }
      };
      const pool = new pg.Pool({ connectionString: url });
      const count = async (table: string, id: string) =>
        Number((await pool.query(`SELECT count(*) AS n FROM ${table} WHERE id = $1`, [id])).rows[0].n);
      try {
        await unit(async (tx) => {
          await tx.audit.record(audit('combined-1'));
          await tx.tasks.insert(task('combined-1'));
        });
        assert.equal(sent.length, 1, `one statement, no BEGIN or COMMIT: ${sent.join(' | ')}`);
        assert.match(sent[0] ?? '', /^WITH s1 AS \(insert into "audit_log".*\) insert into "scheduled_tasks"/);
        assert.equal(await count('audit_log', 'combined-1'), 1);
        assert.equal(await count('scheduled_tasks', 'combined-1'), 1);
        assert.equal(
          (await pool.query("SELECT detail FROM audit_log WHERE id = 'combined-1'")).rows[0].detail,
          "a '$1' in a value",
          'values stay values',
        );

        // The task's id is taken: the one statement fails, and the audit row beside it is not written.
        const failed = await unit(async (tx) => {
          await tx.audit.record(audit('combined-2'));
          await tx.tasks.insert(task('combined-1'));
        }).then(
          () => undefined,
          (error: unknown) => error,
        );
        assert.equal((failed as { code?: string } | undefined)?.code, '23505', String(failed));
        assert.equal(await count('audit_log', 'combined-2'), 0, 'nothing of the failed unit');

        // A read after held INSERTs: BEGIN and the INSERTs leave before it, and it sees their rows.
        const seen = await unit(async (tx) => {
          await tx.tasks.insert(task('combined-3'));
          await tx.audit.record(audit('combined-3'));
          return (await tx.tasks.due('2999-01-01T00:00:00.000Z', 10_000)).map((due) => due.id);
        });
        assert.ok(seen.includes('combined-3'), 'the read saw the row inserted before it');
        assert.match(sent[0] ?? '', /^BEGIN ISOLATION LEVEL SERIALIZABLE$/);
        assert.match(sent[1] ?? '', /^WITH s1 AS \(insert into "scheduled_tasks"/);
        assert.match(sent[2] ?? '', /^select /);
        assert.equal(sent.at(-1), 'COMMIT');
        assert.equal(await count('audit_log', 'combined-3'), 1);

        // Two rows of one table are two statements (a statement does not see its own WITH clauses'
        // rows), inside one transaction.
        await unit(async (tx) => {
          await tx.audit.record(audit('combined-4'));
          await tx.audit.record(audit('combined-5'));
        });
        assert.deepEqual(
          sent.map((text) => text.slice(0, 18)),
          ['BEGIN ISOLATION LE', 'insert into "audit', 'insert into "audit', 'COMMIT'],
        );
        assert.equal((await count('audit_log', 'combined-4')) + (await count('audit_log', 'combined-5')), 2);

        // An INSERT that reads (the outbox numbers its record from the subject's last one) is never
        // run without the unit's BEGIN, even alone.
        await unit(async (tx) =>
          tx.outbox.append({
            id: 'combined-6',
            merchantId: merchant.merchant_id,
            subjectType: 'transaction',
            subjectId: 'combined-subject',
            orderId: null,
            url: 'http://127.0.0.1:9/postback',
            payload: {},
            state: 'delivered',
            attempts: 0,
            nextAttemptAt: '2999-01-01T00:00:00.000Z',
            createdAt: new Date().toISOString(),
          }),
        );
        assert.deepEqual(
          sent.map((text) => text.slice(0, 30)),
          ['BEGIN ISOLATION LEVEL SERIALIZ', 'insert into "postback_outbox" ', 'COMMIT'],
        );
        assert.equal(await count('postback_outbox', 'combined-6'), 1);
      } finally {
        await pool.end();
      }
    });

    test('units that end as one statement while a group is at PostgreSQL commit together as the next group; a group PostgreSQL refuses runs each member alone, each to its own outcome; a group whose connection is lost fails every member as storage unavailable, and writes nothing', async () => {
      const merchant = await newMerchant(a, 'Commit Groups');
      const store = a.composition.gateway.store as PgStore;
      const record = recordAudit(store, merchant.merchant_id);
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      const locks = auditLocks(pool, merchant.merchant_id);
      const count = async (ids: string[]) =>
        Number((await pool.query('SELECT count(*) AS n FROM audit_log WHERE id = ANY($1)', [ids])).rows[0].n);
      try {
        // Every pooled connection prepares the statement (the first execution on one goes alone).
        for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 10 }, (_, i) => record(`group-warm-${round}-${i}`)));
        const before = { ...store.groups.counts };

        // 1. A unit out alone, waiting on a row another session holds; three end meanwhile and wait.
        const gate = await locks.hold('group-gate-1');
        const gated = record('group-gate-1');
        await waitUntil('the gated unit waits on its lock', async () => (await locks.waiting()) === 1);
        const grouped = ['group-1a', 'group-1b', 'group-1c'].map(record);
        await waitUntil('three units wait for the group out', () => store.groups.queued === 3);
        await gate();
        assert.deepEqual(await Promise.all([gated, ...grouped]), ['ok', 'ok', 'ok', 'ok']);
        assert.equal(store.groups.counts.groups - before.groups, 2, 'the gated unit, then one group of three');
        assert.equal(store.groups.counts.statements - before.statements, 4);
        assert.equal(await count(['group-gate-1', 'group-1a', 'group-1b', 'group-1c']), 4);

        // 2. A group with one id twice: PostgreSQL refuses it whole; alone, one of the two writes the
        // row and the other meets it; the members beside them are written.
        const gate2 = await locks.hold('group-gate-2');
        const gated2 = record('group-gate-2');
        await waitUntil('the gated unit waits on its lock', async () => (await locks.waiting()) === 1);
        const mixed = ['group-2a', 'group-2dup', 'group-2dup', 'group-2b'].map(record);
        await waitUntil('four units wait for the group out', () => store.groups.queued === 4);
        await gate2();
        const outcomes = await Promise.all([gated2, ...mixed]);
        assert.equal(store.groups.counts.refused - before.refused, 1, 'the group of four was refused once');
        assert.deepEqual([outcomes[0], outcomes[1], outcomes[4]], ['ok', 'ok', 'ok'], 'the members beside the duplicate are written');
        const dup = [outcomes[2], outcomes[3]];
        assert.equal(dup.filter((o) => o === 'ok').length, 1, 'one of the two writes the id');
        assert.equal((dup.find((o) => o !== 'ok') as { code?: string } | undefined)?.code, '23505', 'the other meets it');
        assert.equal(await count(['group-gate-2', 'group-2a', 'group-2dup', 'group-2b']), 4);

        // 3. A group waiting on a lock loses its connection: every member fails as storage
        // unavailable, none runs again alone, and nothing of the group is written.
        const gate3 = await locks.hold('group-gate-3');
        const blocker = await locks.hold('group-3a');
        const gated3 = record('group-gate-3');
        await waitUntil('the gated unit waits on its lock', async () => (await locks.waiting()) === 1);
        const lost = ['group-3a', 'group-3b', 'group-3c'].map(record);
        await waitUntil('three units wait for the group out', () => store.groups.queued === 3);
        await gate3();
        assert.equal(await gated3, 'ok');
        await waitUntil('the group waits on the held row', async () => (await locks.waiting()) === 1);
        await pool.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%audit_log%'",
        );
        // Bounded: a member run again alone would wait on the held row for good.
        const settled = await Promise.race([
          Promise.all(lost),
          new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000).unref()),
        ]);
        assert.ok(Array.isArray(settled), String(settled));
        for (const outcome of settled) assert.ok(outcome instanceof StorageUnavailableError, String(outcome));
        await blocker();
        assert.equal(await count(['group-3a', 'group-3b', 'group-3c']), 0, 'nothing of the lost group');
        // The store goes on: the broken connection was not given back to the pool.
        assert.equal(await record('group-4'), 'ok');
      } finally {
        locks.release();
        await pool.end();
      }
    });

    test('a network cut while a group is at PostgreSQL fails every member as storage unavailable, the group commits all or none, and the store connects again after', async () => {
      const merchant = await newMerchant(a, 'Commit Groups Cut');
      const target = new URL(url);
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
      const proxied = new URL(url);
      proxied.port = String(proxy.port);
      const store = new PgStore(createPool(proxied.toString(), { max: 5, pipeline: true }));
      const direct = new pg.Pool({ connectionString: url, max: 3 });
      const locks = auditLocks(direct, merchant.merchant_id);
      const record = recordAudit(store, merchant.merchant_id);
      try {
        for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 5 }, (_, i) => record(`cut-warm-${round}-${i}`)));
        const endGate = await locks.hold('cut-gate');
        const endBlock = await locks.hold('cut-a');
        const gated = record('cut-gate');
        await waitUntil('the gated unit waits on its lock', async () => (await locks.waiting()) === 1);
        const cutOff = ['cut-a', 'cut-b', 'cut-c'].map(record);
        await waitUntil('three units wait for the group out', () => store.groups.queued === 3);
        await endGate();
        assert.equal(await gated, 'ok');
        await waitUntil('the group waits on the held row', async () => (await locks.waiting()) === 1);
        proxy.cut();
        for (const outcome of await Promise.all(cutOff)) assert.ok(outcome instanceof StorageUnavailableError, String(outcome));
        // PostgreSQL has not noticed the cut: once the row is let go, its backend runs the group and
        // commits it at the Sync it already has, or not at all. The client cannot know which (so every
        // member answered 503); the group is all or none.
        await endBlock();
        const backends = async () =>
          Number(
            (
              await direct.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND query LIKE '%audit_log%' AND pid <> pg_backend_pid()",
              )
            ).rows[0].n,
          );
        await waitUntil('the cut group has ended at PostgreSQL', async () => (await backends()) === 0);
        const written = await direct.query("SELECT count(*) AS n FROM audit_log WHERE id IN ('cut-a', 'cut-b', 'cut-c')");
        assert.ok(['0', '3'].includes(written.rows[0].n), `all of the group or none: ${written.rows[0].n}`);
        proxy.restore();
        assert.equal(await record('cut-after'), 'ok');
      } finally {
        locks.release();
        await store.close();
        await direct.end();
        await proxy.close();
      }
    });

    test('one idempotency key raced across both: one payment; the others answer it again or 409 while it runs; the losing unit rolls back whole', async () => {
      const merchant = await newMerchant(a, 'Two Instances');
      const body = cardPayment('4111111111111111', 42);
      const send = (h: Harness) => api(h, merchant).post('/rest/payment', body, { 'idempotency-key': 'race-1' });
      const answers = await Promise.all([a, b, a, b, a, b, a, b].map(send));
      const ok = answers.filter((r) => r.statusCode === 200);
      const busy = answers.filter((r) => r.statusCode === 409);
      assert.equal(ok.length + busy.length, answers.length, answers.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
      assert.ok(ok.length >= 1);
      assert.equal(new Set(ok.map((r) => r.json().transaction_id)).size, 1, 'every 200 is the same payment');
      for (const r of busy) assert.equal(r.json().error_code, ErrorCode.idempotencyInFlight, r.body);
      const pool = new pg.Pool({ connectionString: url });
      try {
        const rows = await pool.query('SELECT count(*) AS n FROM transactions WHERE order_id = $1', [body.order_id]);
        assert.equal(rows.rows[0].n, '1', 'one transaction for the order');
        // The key now holds the reply: after the race, both instances answer it again.
        for (const h of [a, b]) {
          const again = await send(h);
          assert.equal(again.statusCode, 200);
          assert.equal(again.headers['idempotent-replayed'], 'true');
        }
        // A claim left by an instance that died lapses, and the key works again.
        await pool.query(
          "INSERT INTO idempotency_keys (merchant_id, key, fingerprint, status, body, created_at, expires_at) VALUES ($1, 'died-1', 'x', 0, 'null', $2, $3)",
          [merchant.merchant_id, new Date(Date.now() - 10 * 60_000).toISOString(), new Date(Date.now() - 5 * 60_000).toISOString()],
        );
        const after = await api(b, merchant).post('/rest/payment', cardPayment('4111111111111111', 43), { 'idempotency-key': 'died-1' });
        assert.equal(after.statusCode, 200, after.body);
        // The claim is the reply, taken in the operation's own unit: both instances let a request
        // with the key run, one unit commits, and the other rolls back whole and answers the reply.
        const first = await a.composition.gateway.idempotency.start(merchant.merchant_id, 'both-1', 'f');
        const second = await b.composition.gateway.idempotency.start(merchant.merchant_id, 'both-1', 'f');
        assert.equal(first.kind, 'proceed');
        assert.equal(second.kind, 'proceed', 'no claim in the database: the other instance lets it run too');
        const held = await a.composition.gateway.idempotency.start(merchant.merchant_id, 'both-1', 'f');
        assert.equal(held.kind, 'reject', 'within one instance the key is held while its request runs');
        if (first.kind !== 'proceed' || second.kind !== 'proceed') return;
        const won = await a.composition.gateway.operations.perform({ merchantId: merchant.merchant_id, idempotency: first.scope }, (op) =>
          op.commit(a.composition.gateway.store, async () => success({ winner: 'a' })),
        );
        assert.deepEqual(won, success({ winner: 'a' }));
        const lost = await b.composition.gateway.operations
          .perform({ merchantId: merchant.merchant_id, idempotency: second.scope }, (op) =>
            op.commit(b.composition.gateway.store, async (tx) => {
              await tx.instances.beat('written-by-the-losing-unit', new Date().toISOString());
              return success({ winner: 'b' });
            }),
          )
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        assert.ok(lost instanceof IdempotencyConflict, String(lost));
        // The stored answer with its text as stored: a replay sends those bytes as they are.
        assert.deepEqual(lost.settled, { kind: 'replay', answer: { kind: 'ok', body: { winner: 'a' }, json: '{"winner":"a"}' } });
        const written = await pool.query("SELECT count(*) AS n FROM gateway_instances WHERE id = 'written-by-the-losing-unit'");
        assert.equal(written.rows[0].n, '0', 'the losing unit rolled back whole');
        await first.release();
        await second.release();
      } finally {
        await pool.end();
      }
    });
  });

  describe('scheduled work across instances', () => {
    test('an authorization due to expire is expired by one instance, however many look for due work at once', async () => {
      const url = await createTestDatabase('tasks');
      const runners = [await startHarness({ database: url }), await startHarness({ database: url }), await startHarness({ database: url })];
      try {
        const merchant = await newMerchant(runners[0] as Harness, 'Expiring');
        const c = api(runners[0] as Harness, merchant);
        const ids: string[] = [];
        for (let i = 0; i < 5; i++)
          ids.push((await c.ok<{ transaction_id: string }>('/rest/authorize', cardPayment('4111111111111111', 10 + i))).transaction_id);
        for (const h of runners) h.clock.advance(40 * DAY);
        const ran = await Promise.all(runners.map((h) => h.advance(0)));
        assert.equal(
          ran.reduce((sum, n) => sum + n, 0),
          ids.length,
          `tasks run per instance: ${ran.join(', ')}`,
        );
        for (const id of ids) {
          const log = await c.log(id);
          assert.equal(log.filter((entry) => entry.type !== 'authorization').length, 1, JSON.stringify(log));
        }
      } finally {
        for (const h of runners) await h.close();
      }
    });

    test("a task whose instance died after claiming it is run by another once the claim's lease ends, once", async () => {
      const url = await createTestDatabase('tasks_died');
      const survivor = await startHarness({ database: url });
      const pool = new pg.Pool({ connectionString: url });
      try {
        const merchant = await newMerchant(survivor, 'Died Mid-Task');
        const c = api(survivor, merchant);
        const id = (await c.ok<{ transaction_id: string }>('/rest/authorize', cardPayment('4111111111111111', 12))).transaction_id;
        survivor.clock.advance(40 * DAY);
        // The instance that died had claimed the expiry (the runner's claim: its due time moved to
        // the end of the lease) and never ran it.
        const leaseEnd = new Date(survivor.clock.now().getTime() + TASK_LEASE_MS).toISOString();
        const claimed = await pool.query(
          "UPDATE scheduled_tasks SET due_at = $1 WHERE subject_id = $2 AND state = 'pending' RETURNING kind",
          [leaseEnd, id],
        );
        assert.equal(claimed.rowCount, 1, 'the authorization had one pending task');
        assert.equal(await survivor.advance(0), 0, 'claimed by the dead instance: not run while its lease holds');
        assert.equal((await c.transaction(id)).status_code, 4, 'still authorized');
        assert.equal(await survivor.advance(TASK_LEASE_MS - 1000), 0);
        assert.equal(await survivor.advance(2000), 1, 'taken over once the lease ended');
        assert.equal(await survivor.advance(TASK_LEASE_MS * 2), 0, 'and not again');
        const log = await c.log(id);
        assert.equal(log.filter((entry) => entry.type !== 'authorization').length, 1, JSON.stringify(log));
        assert.notEqual((await c.transaction(id)).status_code, 4, 'the authorization expired');
      } finally {
        await pool.end();
        await survivor.close();
      }
    });
  });

  describe('a gateway on PostgreSQL', () => {
    let h: Harness;
    let url: string;
    before(async () => {
      url = await createTestDatabase('gateway');
      h = await startHarness({ database: url });
    });
    after(() => h.close());

    test('authorize, capture part, refund part: amounts through the API, the money columns, the dashboard rollup written by the triggers', async () => {
      const merchant = await newMerchant(h, 'PG Shop');
      const c = api(h, merchant);
      const authorized = await c.ok<{ transaction_id: string; status_code: number }>(
        '/rest/authorize',
        cardPayment('4111111111111111', 100),
      );
      assert.equal(authorized.status_code, 4);
      const id = authorized.transaction_id;
      await c.ok('/rest/capture', { transaction_id: id, amount: 30 });
      await c.ok('/rest/refund', { transaction_id: id, amount: 10 });
      const refused = await c.post('/rest/refund', { transaction_id: id, amount: 20.01 });
      assert.equal(refused.statusCode, 400, refused.body);
      const read = await c.transaction(id);
      assert.equal(read.captured_amount, 30);
      const pool = new pg.Pool({ connectionString: url });
      try {
        const row = (await pool.query('SELECT amount_minor, captured_minor, refunded_minor FROM transactions WHERE id = $1', [id])).rows[0];
        assert.deepEqual(row, { amount_minor: '10000', captured_minor: '3000', refunded_minor: '1000' });
        const hours = (
          await pool.query(
            'SELECT sum(payments) AS payments, sum(captured_minor) AS captured, sum(refunded_minor) AS refunded FROM dashboard_hours',
          )
        ).rows[0];
        assert.deepEqual(hours, { payments: '1', captured: '3000', refunded: '1000' });
        // The till ledger and closed days never change, on this engine too.
        await pool.query("INSERT INTO till_ledger (merchant_id, terminal_id, event_id) VALUES ('m', 't', 'e')");
        await assert.rejects(pool.query('UPDATE till_ledger SET terminal_id = $1', ['x']), /append-only/);
        await assert.rejects(pool.query('DELETE FROM till_ledger'), /append-only/);
      } finally {
        await pool.end();
      }
    });
  });

  // The back office's list of several statuses (issue 19, "index scans, no sorts"): PostgreSQL read
  // the status index and sorted the matches; one ordered read per status, merged, needs no sort.
  describe('the transaction list', () => {
    let pool: pg.Pool;
    const merchantId = 'list-merchant';
    const DAY_MS = 86_400_000;
    const end = Date.parse('2026-06-01T00:00:00.000Z');
    before(async () => {
      pool = createPool(await createTestDatabase('list'));
      await migratePostgres(pool);
      await pool.query(
        "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ($1, 'List', 'EUR', 'x', '2025-01-01T00:00:00.000Z')",
        [merchantId],
      );
      // 40,000 rows over 400 days, two every 28.8 minutes; most are settled (status 6), a few
      // authorized (4), refused (2) or refunded (8). Some rows share a creation time, so the id
      // decides their order.
      await pool.query(
        `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, currency, amount_minor, created_at, updated_at)
         SELECT 'tx-' || lpad(n::text, 6, '0'), $1, 'cardpos', 'authorize',
                CASE WHEN n % 97 = 0 THEN 2 WHEN n % 41 = 0 THEN 4 WHEN n % 23 = 0 THEN 8 ELSE 6 END,
                CASE WHEN n % 5 = 0 THEN 'USD' ELSE 'EUR' END, 1000 + n,
                to_char(to_timestamp(($2::bigint - (n / 2)::bigint * 1728000) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                '2026-06-01T00:00:00.000Z'
         FROM generate_series(1, 40000) AS n`,
        [merchantId, end],
      );
      await pool.query('ANALYZE transactions');
    });
    after(() => pool.end());

    const iso = (ms: number) => new Date(ms).toISOString();
    const cases: Array<{ name: string; filter: Partial<TransactionFilter>; rowsOnly?: boolean }> = [
      { name: 'status list', filter: { statusCodes: [2, 4, 8] } },
      { name: 'status list + the last day', filter: { statusCodes: [2, 8], from: iso(end - DAY_MS) } },
      {
        name: 'currency + status list + a month',
        filter: { currency: 'USD', statusCodes: [4, 8], from: iso(end - 60 * DAY_MS), to: iso(end - 30 * DAY_MS) },
      },
      { name: 'status list, page 3', filter: { statusCodes: [2, 4], offset: 100 } },
      { name: 'status list + keyset', filter: { statusCodes: [4, 6, 8], after: { createdAt: iso(end - 100 * DAY_MS), id: 'tx-005000' } } },
      // Amount bounds come after the statuses among the parameters: the rows are checked. The plan
      // is PostgreSQL's choice by cost here (a rare status within an amount range: it may collect a
      // few rows from a bitmap and sort them), so it is not.
      {
        name: 'status list + amount range + keyset',
        rowsOnly: true,
        filter: {
          statusCodes: [4, 8],
          amountScaled: { min: 200_000, max: 1_000_000 },
          after: { createdAt: iso(end - 20 * DAY_MS), id: 'tx-000000' },
        },
      },
    ];
    const assertMergedPerStatus = async (text: string, params: unknown[], statuses: number) => {
      const explained = await pool.query(`EXPLAIN (FORMAT JSON) ${text}`, params);
      const nodes: string[] = [];
      const walk = (node: { 'Node Type': string; 'Index Name'?: string; Plans?: unknown[] }) => {
        nodes.push(`${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}`);
        for (const child of node.Plans ?? []) walk(child as typeof node);
      };
      walk((explained.rows[0] as { 'QUERY PLAN': Array<{ Plan: { 'Node Type': string } }> })['QUERY PLAN'][0]!.Plan);
      assert.ok(!nodes.some((n) => /Sort/.test(n)), `no sort: ${nodes.join(', ')}`);
      assert.ok(nodes.includes('Merge Append'), nodes.join(', '));
      const reads = nodes.filter((n) => n.startsWith('Index'));
      assert.equal(reads.length, statuses, nodes.join(', '));
      for (const read of reads) assert.match(read, / transactions_merchant_status_filters$/, nodes.join(', '));
    };
    for (const { name, filter, rowsOnly } of cases) {
      test(`${name}: ${rowsOnly ? '' : 'one ordered index read per status, merged without a sort, '}the same rows in the same order`, async () => {
        const full: TransactionFilter = { limit: 50, offset: 0, ...filter };
        const { sql, params } = transactionListSql(merchantId, full, 'postgres');
        const text = sql;
        if (!rowsOnly) await assertMergedPerStatus(text, params, full.statusCodes?.length ?? 0);
        const rows = (await pool.query<{ id: string }>(text, params)).rows.map((r) => r.id);
        const terms = ['merchant_id = $1', 'status_code = ANY($2)'];
        const values: unknown[] = [merchantId, full.statusCodes];
        const add = (sqlTerm: (n: number) => string, ...more: unknown[]) => {
          values.push(...more);
          terms.push(sqlTerm(values.length));
        };
        if (full.currency) add((n) => `currency = $${n}`, full.currency);
        // EUR and USD: a hundredth of the scaled amount is the amount in minor units.
        if (full.amountScaled?.min !== undefined) add((n) => `amount_minor >= $${n}`, full.amountScaled.min / 100);
        if (full.amountScaled?.max !== undefined) add((n) => `amount_minor <= $${n}`, full.amountScaled.max / 100);
        if (full.from) add((n) => `created_at >= $${n}`, full.from);
        if (full.to) add((n) => `created_at <= $${n}`, full.to);
        if (full.after) add((n) => `(created_at, id) < ($${n - 1}, $${n})`, full.after.createdAt, full.after.id);
        const expected = (
          await pool.query<{ id: string }>(
            `SELECT id FROM transactions WHERE ${terms.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT 50 OFFSET ${full.offset}`,
            values,
          )
        ).rows.map((r) => r.id);
        assert.ok(expected.length > 0, 'the case finds rows');
        assert.deepEqual(rows, expected);
      });
    }
  });
});
