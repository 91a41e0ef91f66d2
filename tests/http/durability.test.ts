// Durability of the group-commit fast path (docs/reliability.md "Durability: an acknowledged write
// survives a crash"): a real `gateway serve` takes payments with idempotency keys from several
// concurrent keep-alive clients and is killed with SIGKILL in the middle of the load. The database,
// opened read-only afterwards, must hold every payment whose 200 answer a client received, with its
// event log (authorization and capture), its postback outbox record when it asked for postbacks,
// and its idempotency record; and nothing may be half-written: no transaction without its log or
// outbox record or idempotency record, no record pointing at a missing transaction. A restart then
// serves them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../db/open.js';
import { basicAuth, createMerchant, startGateway, tempDataDir, type GatewayProcess } from '../helpers/gateway-process.js';
import { sqliteOnly } from '../helpers/sql.js';

const CLIENTS = 12;
const LOAD_MS = 2500;
const EXPIRY_YEAR = new Date().getUTCFullYear() + 3;

interface Acknowledged {
  key: string;
  orderId: string;
  transactionId: string;
  postback: boolean;
}

/** A receiver on 127.0.0.1 that accepts every postback. */
async function startSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/postbacks`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** POSTs JSON on a keep-alive agent; resolves with status and parsed body, rejects on a broken connection. */
function post(
  agent: http.Agent,
  url: string,
  auth: string,
  key: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: auth,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'idempotency-key': key,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch (error) {
            reject(error as Error);
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

function payment(orderId: string, postbackUrl: string | undefined): Record<string, unknown> {
  return {
    payment_type: 'cardpos',
    order_id: orderId,
    amount: 12.34,
    currency: 'EUR',
    ...(postbackUrl ? { postback_url: postbackUrl } : {}),
    pos_data: {
      type: { terminal_entry_mode: 'contactless' },
      card: { number: '4111111111111111', expiry_month: 12, expiry_year: EXPIRY_YEAR },
      terminal: { id: 'T-0001', type: 'softpos', attended: true },
    },
  };
}

describe('durability: kill -9 during load', sqliteOnly("SQLite's group commit, checked in the database file after kill -9"), () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  test('every acknowledged payment is stored whole, and nothing is half-written', { timeout: 60_000 }, async () => {
    const dataDir = tempDataDir('gateway-durability-');
    const merchant = createMerchant(dataDir, 'Durable Shop');
    const auth = basicAuth(merchant);
    const sink = await startSink();
    cleanups.push(() => sink.close());
    const server: GatewayProcess = await startGateway({ dataDir });
    cleanups.push(() => server.kill9());

    const acknowledged: Acknowledged[] = [];
    const failures = new Map<string, number>();
    let stop = false;
    const agents: http.Agent[] = [];
    const client = async (c: number) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      for (let n = 0; !stop && n < 100_000; n += 1) {
        const key = `dur-${c}-${n}`;
        const orderId = `order-${c}-${n}`;
        const withPostback = n % 2 === 0;
        try {
          const answer = await post(agent, `${server.url}/rest/payment`, auth, key, payment(orderId, withPostback ? sink.url : undefined));
          if (answer.status === 200 && answer.body.error_code === 0 && answer.body.status_code === 3) {
            acknowledged.push({ key, orderId, transactionId: String(answer.body.transaction_id), postback: withPostback });
          } else {
            failures.set(`HTTP ${answer.status}`, (failures.get(`HTTP ${answer.status}`) ?? 0) + 1);
          }
        } catch (error) {
          // The connection broke: the server was killed with this request in flight.
          const code = (error as NodeJS.ErrnoException).code ?? 'error';
          failures.set(code, (failures.get(code) ?? 0) + 1);
          if (!stop) await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_unused, c) => client(c));

    await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
    const beforeKill = acknowledged.length;
    await server.kill9();
    stop = true;
    await Promise.all(clients);
    for (const agent of agents) agent.destroy();

    assert.ok(beforeKill >= 50, `the load ran (${beforeKill} payments acknowledged before the kill)`);
    const refused = [...failures.entries()].filter(([kind]) => kind.startsWith('HTTP'));
    assert.deepEqual(refused, [], 'no request was answered with an error while the server ran');

    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
    cleanups.push(async () => db.close());
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    assert.deepEqual(db.pragma('foreign_key_check'), []);

    const transactions = db
      .prepare('SELECT id, order_id, status_code, amount_minor, postback_url FROM transactions WHERE merchant_id = ?')
      .all(merchant.merchant_id) as Array<{
      id: string;
      order_id: string;
      status_code: number;
      amount_minor: number;
      postback_url: string | null;
    }>;
    const byId = new Map(transactions.map((t) => [t.id, t]));
    const eventsOf = db.prepare("SELECT type FROM transaction_events WHERE transaction_id = ? AND type <> 'postback' ORDER BY id");
    const outboxOf = db.prepare(
      "SELECT sequence, url FROM postback_outbox WHERE subject_type = 'transaction' AND subject_id = ? ORDER BY sequence",
    );
    const idempotency = db
      .prepare('SELECT key, status, body FROM idempotency_keys WHERE merchant_id = ?')
      .all(merchant.merchant_id) as Array<{
      key: string;
      status: number;
      body: string;
    }>;
    // The reply is the claim (taken in the payment's own unit): requests in flight at the kill left
    // nothing behind, no claim to lapse, and a retry of their keys runs them.
    const claimed = idempotency.filter((row) => row.status === 0).map((row) => row.key);
    assert.deepEqual(claimed, [], 'no key is left claimed');
    const replyByKey = new Map(
      idempotency.map((row) => [row.key, { status: row.status, body: JSON.parse(row.body) as Record<string, unknown> }]),
    );

    // 1. Every acknowledged payment is there, whole.
    for (const ack of acknowledged) {
      const row = byId.get(ack.transactionId);
      assert.ok(row, `acknowledged payment ${ack.transactionId} (${ack.key}) is missing after kill -9`);
      assert.equal(row.order_id, ack.orderId);
      assert.equal(row.status_code, 3);
      assert.equal(row.amount_minor, 1234);
      assert.deepEqual(
        (eventsOf.all(ack.transactionId) as Array<{ type: string }>).map((e) => e.type),
        ['authorization', 'capture'],
        `event log of ${ack.transactionId}`,
      );
      const outbox = outboxOf.all(ack.transactionId) as Array<{ sequence: number; url: string }>;
      if (ack.postback) {
        assert.equal(outbox.length, 1, `outbox record of ${ack.transactionId}`);
        assert.equal(outbox[0]?.url, sink.url);
      } else {
        assert.equal(outbox.length, 0);
      }
      const reply = replyByKey.get(ack.key);
      assert.ok(reply, `idempotency record of ${ack.key}`);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.transaction_id, ack.transactionId);
    }

    // 2. Nothing half-written: every stored transaction (acknowledged or not) is complete.
    const keyByTransaction = new Map([...replyByKey].map(([key, reply]) => [String(reply.body.transaction_id), key]));
    for (const t of transactions) {
      assert.deepEqual(
        (eventsOf.all(t.id) as Array<{ type: string }>).map((e) => e.type),
        ['authorization', 'capture'],
        `transaction ${t.id} without its full event log`,
      );
      assert.equal((outboxOf.all(t.id) as unknown[]).length, t.postback_url ? 1 : 0, `outbox of ${t.id}`);
      assert.ok(keyByTransaction.has(t.id), `transaction ${t.id} without its idempotency record`);
    }
    for (const [key, reply] of replyByKey) {
      assert.ok(byId.has(String(reply.body.transaction_id)), `idempotency record ${key} points at a missing transaction`);
    }
    const orphanEvents = db
      .prepare('SELECT COUNT(*) AS n FROM transaction_events e LEFT JOIN transactions t ON t.id = e.transaction_id WHERE t.id IS NULL')
      .get() as { n: number };
    const orphanOutbox = db
      .prepare(
        "SELECT COUNT(*) AS n FROM postback_outbox o LEFT JOIN transactions t ON t.id = o.subject_id WHERE o.subject_type = 'transaction' AND t.id IS NULL",
      )
      .get() as { n: number };
    assert.equal(orphanEvents.n, 0);
    assert.equal(orphanOutbox.n, 0);
    assert.ok(transactions.length >= acknowledged.length);
    db.close();

    // 3. A restart recovers and serves the payments; a retry with a used key replays.
    const restarted = await startGateway({ dataDir });
    cleanups.push(() => restarted.stop());
    const last = acknowledged[acknowledged.length - 1];
    assert.ok(last);
    const shown = await fetch(`${restarted.url}/rest/transactions/${last.transactionId}`, { headers: { authorization: auth } });
    assert.equal(shown.status, 200);
    const agent = new http.Agent({ keepAlive: false });
    const replay = await post(
      agent,
      `${restarted.url}/rest/payment`,
      auth,
      last.key,
      payment(last.orderId, last.postback ? sink.url : undefined),
    );
    assert.equal(replay.status, 200);
    assert.equal(replay.body.transaction_id, last.transactionId);
    assert.equal(await restarted.stop(), 0);
    process.stdout.write(
      `# ${acknowledged.length} payments acknowledged, ${transactions.length} stored, broken requests at the kill: ${JSON.stringify(Object.fromEntries(failures))}\n`,
    );
  });
});
