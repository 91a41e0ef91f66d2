// The postback outbox across instances on one PostgreSQL database (issue 19; docs/decisions.md
// "PostgreSQL: outbox and mail queue claims"): workers claim due records with a lease before
// sending, so each postback goes out from one instance; a killed instance's claims are taken over
// when their lease ends. Real receivers on 127.0.0.1, real compositions and real `gateway serve`
// processes (kill -9) on a PostgreSQL cluster of the test run (tests/helpers/postgres.ts). And the
// postback log's search on PostgreSQL: migration 27's backfill, and the search's plans.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { migrate } from '../../db/migrate.js';
import { openDatabase } from '../../db/open.js';
import { migrations } from '../../db/migrations/index.js';
import { postbackLogCountSql, postbackLogSql } from '../../db/postbacks/repositories.js';
import { queueClaimStatement } from '../../db/queue-claim.js';
import { migratePostgres } from '../../db/postgres/migrate.js';
import { composeOnEngine, type Composition, type GatewayStore } from '../../main/compose.js';
import type { Mailer } from '../../main/core/mail/ports.js';
import type { PostbackSender } from '../../main/core/postbacks/delivery.js';
import { createLogger } from '../../main/infra/logger.js';
import { createPostbackSender } from '../../main/infra/postback-sender.js';
import { resolveSettings } from '../../main/settings.js';
import { basicAuth, runGateway, startGateway, tempDataDir, type GatewayProcess } from '../helpers/gateway-process.js';
import { api, cardPayment, newMerchant, startHarness } from '../helpers/payments.js';
import { headerText, startReceiver, type Receiver, type ReceivedPostback } from '../helpers/postback-receiver.js';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.js';

const skip = postgresAvailable() ? false : 'PostgreSQL 15 binaries are not installed (apt-get install postgresql)';

/** The outbox's claim as the repositories compile it for each engine, and its values in order (claimedBy, claimUntil, now, now, limit). */
const claimText = (dialect: 'sqlite' | 'postgres') =>
  queueClaimStatement({ dialect, prepare: () => ({ get: () => undefined, all: () => [], run: () => ({ changes: 0 }) }) }, 'postback_outbox')
    .sql;
const OUTBOX_CLAIM = { sqlite: claimText('sqlite'), postgres: claimText('postgres') };
const claimValues = () => {
  const now = new Date().toISOString();
  return ['a', 'b', now, now, 50];
};

/** `count` pending postbacks of one transaction (sequences 2..count+1), due from `firstDue` on, `spacingMs` apart, to `urls` in turn. */
async function seedOutbox(
  pool: pg.Pool,
  merchantId: string,
  transactionId: string,
  urls: string[],
  count: number,
  firstDue: number,
  spacingMs: number,
): Promise<string[]> {
  const ids: string[] = [];
  const created = new Date().toISOString();
  const values: unknown[] = [];
  const rows: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `pb-${transactionId.slice(0, 8)}-${String(i).padStart(4, '0')}`;
    ids.push(id);
    const base = values.length;
    values.push(
      id,
      merchantId,
      transactionId,
      i + 2,
      urls[i % urls.length],
      JSON.stringify({ transaction_id: transactionId, status_code: 2, n: i }),
      new Date(firstDue + i * spacingMs).toISOString(),
      created,
    );
    rows.push(
      `($${base + 1}, $${base + 2}, 'transaction', $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6}, 'pending', 0, $${base + 7}, $${base + 8})`,
    );
  }
  await pool.query(
    `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at) VALUES ${rows.join(', ')}`,
    values,
  );
  return ids;
}

/** How often each postback (webhook-id) arrived. */
function arrivals(received: readonly ReceivedPostback[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of received) {
    const id = headerText(r.headers, 'webhook-id');
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const delivered = async (pool: pg.Pool, ids: readonly string[]) =>
  Number((await pool.query("SELECT count(*) AS n FROM postback_outbox WHERE state = 'delivered' AND id = ANY($1)", [ids])).rows[0].n);

test('the claim query reads the claimable index in due order, without a sort (SQLite)', () => {
  const db = openDatabase(':memory:');
  try {
    migrate(db);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${OUTBOX_CLAIM.sqlite}`).all(...claimValues()) as Array<{ detail: string }>).map(
      (r) => r.detail,
    );
    assert.ok(
      plan.some((line) => /SEARCH postback_outbox USING COVERING INDEX postback_outbox_claimable \(next_attempt_at<\?\)/.test(line)),
      plan.join('\n'),
    );
    assert.ok(!plan.some((line) => /TEMP B-TREE|SCAN postback_outbox/.test(line)), plan.join('\n'));
  } finally {
    db.close();
  }
});

describe('PostgreSQL: the postback outbox across instances', { skip }, () => {
  const receivers: Receiver[] = [];
  const compositions: Array<Composition<GatewayStore>> = [];
  const processes: GatewayProcess[] = [];
  after(async () => {
    for (const p of processes) await p.kill9();
    for (const c of compositions) await c.close();
    for (const r of receivers) await r.close();
  });

  test('the claim query reads the claimable index in due order, locks and skips what others hold, without a sort (PostgreSQL)', async () => {
    const url = await createTestDatabase('claim_plan');
    const pool = new pg.Pool({ connectionString: url });
    try {
      await migratePostgres(pool);
      const h = await startHarness({ database: url });
      let merchantId: string;
      let transactionId: string;
      try {
        const merchant = await newMerchant(h, 'Plan Shop');
        merchantId = merchant.merchant_id;
        transactionId = (await api(h, merchant).ok<{ transaction_id: string }>('/rest/payment', cardPayment('4111111111111111', 5)))
          .transaction_id;
      } finally {
        await h.close();
      }
      // Many delivered records and a few waiting ones, as in a gateway that has run for a while.
      await seedOutbox(pool, merchantId, transactionId, ['http://127.0.0.1:9/p'], 5000, Date.now() - 60_000, 1);
      await pool.query("UPDATE postback_outbox SET state = 'delivered' WHERE sequence > 200");
      await pool.query('ANALYZE postback_outbox');
      const plan = (await pool.query({ text: `EXPLAIN ${OUTBOX_CLAIM.postgres}`, values: claimValues() })).rows
        .map((r: Record<string, string>) => r['QUERY PLAN'])
        .join('\n');
      assert.match(plan, /LockRows/);
      assert.match(plan, /Index Scan using postback_outbox_claimable on postback_outbox/);
      assert.doesNotMatch(plan, /\bSort\b|Seq Scan on postback_outbox/);
    } finally {
      await pool.end();
    }
  });

  test('three gateways on one database drain 1,200 queued postbacks to real receivers: each is sent once, by one of them', async () => {
    const url = await createTestDatabase('outbox_three');
    const h = await startHarness({ database: url });
    // Every instance of one database shares the data key (the merchant's webhook key is sealed with it).
    const dataKey = h.dataKey;
    let merchantId: string;
    let transactionId: string;
    try {
      const merchant = await newMerchant(h, 'Three Instances');
      merchantId = merchant.merchant_id;
      transactionId = (await api(h, merchant).ok<{ transaction_id: string }>('/rest/payment', cardPayment('4111111111111111', 12)))
        .transaction_id;
    } finally {
      await h.close();
    }
    // Eight receivers (eight hosts to the per-receiver limit), each taking 40 ms to answer.
    for (let i = 0; i < 8; i += 1) receivers.push(await startReceiver({ delayMs: 40 }));
    const mine = receivers.slice(-8);
    const sent = [0, 0, 0];
    for (const index of [0, 1, 2]) {
      const http = createPostbackSender({ privateAddresses: 'allow' });
      const counting: PostbackSender = {
        send: (request) => {
          sent[index] = (sent[index] ?? 0) + 1;
          return http.send(request);
        },
      };
      const settings = resolveSettings(tempDataDir('tillgate-pg-outbox-'), { database: url, 'sim-delay-ms': '20' }, {});
      compositions.push(
        await composeOnEngine({ settings, dataKey, background: true, postbackSender: counting, logger: createLogger({ level: 'silent' }) }),
      );
    }
    const pool = new pg.Pool({ connectionString: url });
    try {
      // All due at one instant, once all three instances poll: they claim at once.
      const ids = await seedOutbox(
        pool,
        merchantId,
        transactionId,
        mine.map((r) => r.url()),
        1200,
        Date.now() + 1500,
        0,
      );
      await until('all 1,200 are delivered', async () => (await delivered(pool, ids)) === ids.length);
      const received = mine.flatMap((r) => r.received);
      const counts = arrivals(received);
      assert.equal(counts.size, ids.length, 'every postback arrived');
      assert.deepEqual(
        [...counts.entries()].filter(([, n]) => n !== 1),
        [],
        'no postback arrived twice',
      );
      assert.equal(received.length, ids.length);
      assert.deepEqual([...counts.keys()].sort(), [...ids].sort());
      const attempts = (
        await pool.query(
          'SELECT outbox_id, count(*) AS n FROM postback_attempts WHERE outbox_id = ANY($1) GROUP BY outbox_id HAVING count(*) <> 1',
          [ids],
        )
      ).rows;
      assert.deepEqual(attempts, [], 'one attempt recorded per postback');
      assert.equal(
        Number((await pool.query('SELECT count(*) AS n FROM postback_outbox WHERE claimed_by IS NOT NULL')).rows[0].n),
        0,
        'no claim left',
      );
      assert.equal(
        sent.reduce((a, b) => a + b, 0),
        ids.length,
        `sends per instance: ${sent.join(', ')}`,
      );
      assert.ok(sent.filter((n) => n > 0).length >= 2, `more than one instance delivered (sends per instance: ${sent.join(', ')})`);
    } finally {
      await pool.end();
      for (const c of compositions.splice(0)) await c.close();
    }
  });

  test('three gateways on one database share the mail queue: 300 queued receipt e-mails, each handed to a mailer once', async () => {
    const url = await createTestDatabase('mail_three');
    const h = await startHarness({ database: url });
    let merchantId: string;
    let transactionId: string;
    try {
      const merchant = await newMerchant(h, 'Mail Instances');
      merchantId = merchant.merchant_id;
      transactionId = (await api(h, merchant).ok<{ transaction_id: string }>('/rest/payment', cardPayment('4111111111111111', 7)))
        .transaction_id;
    } finally {
      await h.close();
    }
    const handed: string[][] = [[], [], []];
    const mail: Array<Composition<GatewayStore>> = [];
    try {
      for (const index of [0, 1, 2]) {
        const mailer: Mailer = {
          // Each message takes a moment, as an SMTP hand-over does.
          send: async (message) => {
            handed[index]?.push(message.subject);
            await new Promise((resolve) => setTimeout(resolve, 5));
            return { kind: 'sent' };
          },
        };
        const settings = resolveSettings(tempDataDir('tillgate-pg-mail-'), { database: url, 'sim-delay-ms': '20' }, {});
        mail.push(
          await composeOnEngine({
            settings,
            dataKey: h.dataKey,
            background: true,
            mailer,
            mail: { pollMs: 100 },
            logger: createLogger({ level: 'silent' }),
          }),
        );
      }
      const pool = new pg.Pool({ connectionString: url });
      try {
        const due = new Date(Date.now() + 1000).toISOString();
        const ids = Array.from({ length: 300 }, (_, i) => `mail-${String(i).padStart(3, '0')}`);
        for (const id of ids) {
          await pool.query(
            `INSERT INTO receipt_emails (id, merchant_id, receipt_id, transaction_id, locale, recipient, subject, body_text, status, attempts, next_attempt_at, created_at)
             VALUES ($1, $2, $3, $3, 'en', 'customer@example.com', $1, 'Your receipt', 'queued', 0, $4, $4)`,
            [id, merchantId, transactionId, due],
          );
        }
        await until(
          'all 300 are sent',
          async () => Number((await pool.query("SELECT count(*) AS n FROM receipt_emails WHERE status = 'sent'")).rows[0].n) === ids.length,
        );
        const all = handed.flat();
        assert.equal(all.length, ids.length, `hand-overs per instance: ${handed.map((h) => h.length).join(', ')}`);
        assert.deepEqual([...all].sort(), ids, 'each e-mail handed over once');
        assert.deepEqual((await pool.query('SELECT id FROM receipt_emails WHERE attempts <> 1 OR claimed_by IS NOT NULL')).rows, []);
        assert.ok(
          handed.filter((list) => list.length > 0).length >= 2,
          `more than one instance sent (${handed.map((h) => h.length).join(', ')})`,
        );
      } finally {
        await pool.end();
      }
    } finally {
      for (const c of mail) await c.close();
    }
  });

  test('200 queued postbacks while gateway processes start and die (kill -9): each arrives, repeats only of postbacks a killed instance held, its claims taken over after their lease', async () => {
    const url = await createTestDatabase('outbox_kill');
    const env = { GATEWAY_DATA_KEY: randomBytes(32).toString('base64') };
    const LEASE_MS = 4000;
    const args = ['--database', url, '--postback-claim-lease-ms', String(LEASE_MS)];
    const created = runGateway(
      ['merchant', 'create', '--data-dir', tempDataDir(), '--database', url, '--name', 'Killed Instances', '--json'],
      env,
    );
    assert.equal(created.status, 0, created.stderr);
    const merchant = JSON.parse(created.stdout) as { merchant_id: string; api_key: string; api_password: string };
    const start = async () => {
      const p = await startGateway({ args, env });
      processes.push(p);
      return p;
    };
    const a = await start();
    const b = await start();
    const payment = await fetch(`${a.url}/rest/payment`, {
      method: 'POST',
      headers: { authorization: basicAuth(merchant), 'content-type': 'application/json' },
      body: JSON.stringify(cardPayment('4111111111111111', 20)),
    });
    const transactionId = ((await payment.json()) as { transaction_id: string }).transaction_id;
    assert.equal(payment.status, 200);
    // One receiver taking 150 ms per answer (an instance sends it 4 at a time), and the postbacks
    // falling due over 10 s: the drain lasts longer than starting a gateway takes, and the
    // instances hold claims most of that time.
    const receiver = await startReceiver({ delayMs: 150 });
    receivers.push(receiver);
    const pool = new pg.Pool({ connectionString: url });
    try {
      const ids = await seedOutbox(pool, merchant.merchant_id, transactionId, [receiver.url()], 200, Date.now() + 500, 50);
      const claimedBy = async (p: GatewayProcess) =>
        (
          await pool.query("SELECT id FROM postback_outbox WHERE state = 'pending' AND claimed_by LIKE $1", [`%:${String(p.child.pid)}/%`])
        ).rows.map((r: { id: string }) => r.id);
      const running = [a, b];
      const starting: Array<Promise<GatewayProcess>> = [];
      /**
       * Once `afterArrivals` postbacks arrived, kills (kill -9) the running instance that holds the
       * most claims at that moment, and starts another (without waiting for it); returns what the
       * killed one held (its claims stay in the database until their lease ends: nothing else may
       * touch them).
       */
      const killOneHolding = async (afterArrivals: number) => {
        let victim: GatewayProcess | undefined;
        await until(`${afterArrivals} arrivals and claims held by a running instance`, async () => {
          if (receiver.received.length < afterArrivals) return false;
          let most = 0;
          for (const p of running) {
            const n = (await claimedBy(p)).length;
            if (n > most) [most, victim] = [n, p];
          }
          return most > 0;
        });
        const killed = victim as GatewayProcess;
        await killed.kill9();
        running.splice(running.indexOf(killed), 1);
        const held = await claimedBy(killed);
        starting.push(start().then((p) => (running.push(p), p)));
        return held;
      };
      const held = new Set<string>();
      for (const id of await killOneHolding(30)) held.add(id);
      for (const id of await killOneHolding(80)) held.add(id);
      const d = await (starting.at(-1) as Promise<GatewayProcess>);
      await Promise.all(starting);
      assert.ok(held.size > 0, 'the killed instances held claims');
      await until('all 200 are delivered', async () => (await delivered(pool, ids)) === ids.length);
      const counts = arrivals(receiver.received);
      assert.deepEqual([...counts.keys()].sort(), [...ids].sort(), 'every postback arrived');
      const repeated = [...counts.entries()].filter(([, n]) => n > 1).map(([id]) => id);
      assert.deepEqual(
        repeated.filter((id) => !held.has(id)),
        [],
        `only postbacks a killed instance had claimed arrive twice (repeated: ${repeated.length}; held by killed instances: ${held.size})`,
      );
      assert.ok(
        [...counts.values()].every((n) => n <= 3),
        'at most once more per kill',
      );
      // The held claims were taken over: every one of them was delivered by another instance, and
      // no postback has more than one recorded delivery.
      const twice = (
        await pool.query(
          "SELECT outbox_id FROM postback_attempts WHERE outbox_id = ANY($1) AND outcome = 'delivered' GROUP BY outbox_id HAVING count(*) > 1",
          [ids],
        )
      ).rows;
      assert.deepEqual(twice, []);
      assert.equal(
        Number((await pool.query('SELECT count(*) AS n FROM postback_outbox WHERE claimed_by IS NOT NULL')).rows[0].n),
        0,
        'no claim left',
      );
      // The instances still running answer.
      assert.equal(
        (await fetch(`${d.url}/rest/transactions/${transactionId}`, { headers: { authorization: basicAuth(merchant) } })).status,
        200,
      );
      // For the report: how many arrived twice (at-least-once across a kill between the receiver's answer and the record).
      process.stdout.write(
        `# kill -9 drain: ${ids.length} postbacks, ${receiver.received.length} arrivals, ${repeated.length} repeated, ${held.size} claims held by killed instances\n`,
      );
    } finally {
      await pool.end();
    }
  });
});

describe('PostgreSQL: what a postback is about, and the log search (migration 27)', { skip }, () => {
  test("migration 27 gives each stored postback the order id its body carries: a transaction's and a checkout's; a token's none", async () => {
    const pool = new pg.Pool({ connectionString: await createTestDatabase('pb_order') });
    try {
      await migratePostgres(
        pool,
        migrations.filter((m) => m.version < 27),
      );
      await pool.query(
        "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ('m1', 'Shop', 'EUR', 'x', '2026-01-01T00:00:00.000Z')",
      );
      const bodies: Array<[string, string, Record<string, unknown>]> = [
        ['p-transaction', 'transaction', { transaction_id: 't1', status_code: 3, order_id: 'order-1001' }],
        // PostgreSQL reads no JSON text with an escaped NUL: passed over, the migration goes on.
        ['p-nul', 'transaction', { transaction_id: 't3', status_code: 3, order_id: 'order-1003', message: 'a\u0000b' }],
        ['p-payout', 'transaction', { transaction_id: 't2', status_code: 2, order_id: null }],
        ['p-checkout', 'checkout', { checkout_id: 'c1', status: 'completed', transaction_id: 't1', order_id: 'WEB-7' }],
        ['p-token', 'token', { id: 'k1', status: 'active', network: 'visa', error: null }],
      ];
      for (const [id, kind, body] of bodies) {
        await pool.query(
          `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
           VALUES ($1, 'm1', $2, $1, 1, 'http://127.0.0.1:9/pb', $3, 'delivered', 1, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z')`,
          [id, kind, JSON.stringify(body)],
        );
      }
      await migratePostgres(pool);
      const rows = (await pool.query<{ id: string; order_id: string | null }>('SELECT id, order_id FROM postback_outbox ORDER BY id')).rows;
      assert.deepEqual(
        rows.map((r) => [r.id, r.order_id]),
        [
          ['p-checkout', 'WEB-7'],
          ['p-nul', null],
          ['p-payout', null],
          ['p-token', null],
          ['p-transaction', 'order-1001'],
        ],
      );
    } finally {
      await pool.end();
    }
  });

  test('the search reads the order id, subject id and primary key indexes in the log order, and finds what a plain query finds', async () => {
    const pool = new pg.Pool({ connectionString: await createTestDatabase('pb_search') });
    const merchantId = 'search-merchant';
    try {
      await migratePostgres(pool);
      await pool.query(
        "INSERT INTO merchants (id, name, currency, webhook_key_sealed, created_at) VALUES ($1, 'Search', 'EUR', 'x', '2025-01-01T00:00:00.000Z')",
        [merchantId],
      );
      // 30,000 postbacks over 300 days: three per subject, every tenth a token's (no order id), most delivered.
      await pool.query(
        `INSERT INTO postback_outbox (id, merchant_id, subject_type, subject_id, order_id, sequence, url, payload, state, attempts, next_attempt_at, created_at)
         SELECT 'pb-' || lpad(n::text, 6, '0'), $1, CASE WHEN n % 10 = 0 THEN 'token' ELSE 'transaction' END, 'sub-' || (n / 3)::text,
                CASE WHEN n % 10 = 0 THEN NULL ELSE 'order-' || (n / 3)::text END, n % 3 + 1, 'http://127.0.0.1:9/pb', '{}',
                CASE WHEN n % 50 = 0 THEN 'failed' ELSE 'delivered' END, 1, '2026-06-01T00:00:00.000Z',
                to_char(timestamp '2025-08-01' + n * interval '864 seconds', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         FROM generate_series(1, 30000) AS n`,
        [merchantId],
      );
      await pool.query('ANALYZE postback_outbox');
      const planOf = async (sql: string, params: unknown[]) => {
        const explained = await pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        const nodes: string[] = [];
        const walk = (node: { 'Node Type': string; 'Index Name'?: string; Plans?: unknown[] }) => {
          nodes.push(`${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}`);
          for (const child of node.Plans ?? []) walk(child as typeof node);
        };
        walk((explained.rows[0] as { 'QUERY PLAN': Array<{ Plan: { 'Node Type': string } }> })['QUERY PLAN'][0]!.Plan);
        return nodes;
      };
      const rowsOf = async (sql: string, params: unknown[]) => (await pool.query<{ id: string }>(sql, params)).rows.map((r) => r.id);
      const plain = async (where: string, params: unknown[]) =>
        (
          await pool.query<{ id: string }>(
            `SELECT id FROM postback_outbox WHERE merchant_id = $1 AND ${where} ORDER BY created_at DESC, id DESC LIMIT 50`,
            [merchantId, ...params],
          )
        ).rows.map((r) => r.id);

      const byOrder = postbackLogSql(merchantId, { search: { orderId: 'order-4101' } }, 50, 0, 'postgres');
      const orderPlan = await planOf(byOrder.sql, byOrder.params);
      assert.deepEqual(
        orderPlan.filter((n) => n.startsWith('Index') || n.startsWith('Seq') || n.startsWith('Bitmap')),
        ['Index Scan postback_outbox_merchant_order'],
        orderPlan.join(', '),
      );
      assert.ok(!orderPlan.some((n) => /Sort/.test(n)), `read in order: ${orderPlan.join(', ')}`);
      const orderRows = await rowsOf(byOrder.sql, byOrder.params);
      assert.equal(orderRows.length, 3);
      assert.deepEqual(orderRows, await plain('order_id = $2', ['order-4101']));

      const pasted = postbackLogSql(
        merchantId,
        { search: { orderId: 'sub-4100', id: 'sub-4100' }, status: 'delivered' },
        50,
        0,
        'postgres',
      );
      const pastedPlan = await planOf(pasted.sql, pasted.params);
      const reads = pastedPlan.filter((n) => n.startsWith('Index') || n.startsWith('Seq') || n.startsWith('Bitmap'));
      assert.deepEqual(
        reads,
        ['Index Scan postback_outbox_merchant_order', 'Index Scan postback_outbox_merchant_subject_id', 'Index Scan postback_outbox_pkey'],
        pastedPlan.join(', '),
      );
      const pastedRows = await rowsOf(pasted.sql, pasted.params);
      assert.equal(pastedRows.length, 2, 'the subject has three, one of them failed');
      assert.deepEqual(pastedRows, await plain("state = 'delivered' AND (order_id = $2 OR subject_id = $2 OR id = $2)", ['sub-4100']));
      const count = postbackLogCountSql(merchantId, { search: { orderId: 'pb-012300', id: 'pb-012300' } }, 'postgres');
      assert.ok(!(await planOf(count.sql, count.params)).some((n) => n.startsWith('Seq')), 'the count reads the indexes too');
      assert.equal(Number((await pool.query<{ n: string }>(count.sql, count.params)).rows[0]?.n), 1);
    } finally {
      await pool.end();
    }
  });
});
