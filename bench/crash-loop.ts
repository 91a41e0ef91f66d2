/**
 * Crash loop (issue "Reliability and security", 11): a real `gateway serve` under mixed load
 * (card payments with postbacks, authorizations with captures, refunds, invoices that send an
 * e-mail, network tokens) as fast as this machine takes it, killed with SIGKILL at a random moment,
 * restarted, CYCLES times. After every restart:
 *   - PRAGMA integrity_check is ok and no foreign key dangles;
 *   - every write a client saw acknowledged is there, whole (a payment with its log; a capture and
 *     a refund in the amounts; an invoice; a token);
 *   - nothing is duplicated: one transaction per idempotency key and order, one invoice per number;
 *   - requests sent again with their idempotency key replay instead of running twice.
 * At the end the gateway runs until the postback outbox and the mail queue are empty: every
 * postback event reached the receiver (at least once) and every e-mail is sent.
 *
 *   node --import tsx bench/crash-loop.ts            (CYCLES=20, LOAD_MS=1500, CLIENTS=8)
 * Writes bench/results/crash-loop.json; docs/reliability.md quotes it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../db/open.js';
import { basicAuth, createMerchant, startGateway, tempDataDir, type GatewayProcess } from '../tests/helpers/gateway-process.js';

const CYCLES = Number(process.env.CYCLES ?? 20);
const LOAD_MS = Number(process.env.LOAD_MS ?? 1500);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const EXPIRY_YEAR = new Date().getUTCFullYear() + 3;

type Kind = 'payment' | 'capture' | 'refund' | 'invoice' | 'token';
interface Ack {
  kind: Kind;
  key: string;
  body: unknown;
  path: string;
  /** What the answer said: a transaction id, an invoice number, a token id. */
  id: string;
  /** The transaction a capture or refund moved, and by how much (minor units). */
  target?: string;
  amountMinor?: number;
}

const received = new Map<string, number>();
async function startReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      try {
        const eventId = String((JSON.parse(text) as { event_id?: unknown }).event_id ?? '');
        received.set(eventId, (received.get(eventId) ?? 0) + 1);
      } catch {
        // not JSON: ignored
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/postbacks`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const dataDir = tempDataDir('tillgate-crash-loop-');
  const merchant = createMerchant(dataDir, 'Crash Loop Shop');
  const auth = basicAuth(merchant);
  const receiver = await startReceiver();
  const acks: Ack[] = [];
  /** Authorizations and completed payments the clients may capture or refund. */
  const authorized: string[] = [];
  const completed: string[] = [];
  const stats = { cycles: 0, acknowledged: 0, brokenInFlight: 0, refused: 0, replays: 0, perCycle: [] as number[] };
  let invoiceCounter = 0;

  const send = async (
    base: string,
    path: string,
    key: string,
    body: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> } | undefined> => {
    try {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    } catch {
      stats.brokenInFlight += 1; // killed with this request in flight: outcome unknown, not acknowledged
      return undefined;
    }
  };

  const card = { number: '4111111111111111', expiry_month: 12, expiry_year: EXPIRY_YEAR };
  const pos = { type: { terminal_entry_mode: 'contactless' }, card, terminal: { id: 'T-CRASH', type: 'softpos', attended: true } };
  const oneRequest = async (base: string, n: number): Promise<void> => {
    const key = randomUUID();
    const choice = n % 10;
    let kind: Kind;
    let path: string;
    let body: Record<string, unknown>;
    let target: string | undefined;
    let amountMinor: number | undefined;
    if (choice < 4) {
      kind = 'payment';
      path = '/rest/payment';
      body = { payment_type: 'cardpos', order_id: `o-${key}`, amount: 12.34, currency: 'EUR', postback_url: receiver.url, pos_data: pos };
    } else if (choice < 6) {
      kind = 'payment';
      path = '/rest/authorize';
      body = { payment_type: 'cardpos', order_id: `o-${key}`, amount: 20, currency: 'EUR', postback_url: receiver.url, pos_data: pos };
    } else if (choice === 6 && authorized.length) {
      kind = 'capture';
      path = '/rest/capture';
      target = authorized.splice(Math.floor(Math.random() * authorized.length), 1)[0];
      amountMinor = 1500;
      body = { transaction_id: target, amount: 15 };
    } else if (choice === 7 && completed.length) {
      kind = 'refund';
      path = '/rest/refund';
      target = completed.splice(Math.floor(Math.random() * completed.length), 1)[0];
      amountMinor = 234;
      body = { transaction_id: target, amount: 2.34 };
    } else if (choice === 8) {
      kind = 'invoice';
      path = '/rest/invoices';
      invoiceCounter += 1;
      body = {
        url_name: merchant.channel.url_name,
        invoice: {
          amount: 42.5,
          debt_claim_number: `CRASH-${invoiceCounter}-${key.slice(0, 8)}`,
          email: 'customer@example.com',
          send_initial_email: true,
        },
      };
    } else {
      kind = 'token';
      path = '/v2/network_tokens';
      body = { card_number: '5555555555554444', expiry_month: 12, expiry_year: EXPIRY_YEAR, card_holder: 'Crash Loop' };
    }
    const answer = await send(base, path, key, body);
    if (!answer) return;
    if (answer.status >= 300) {
      stats.refused += 1;
      return;
    }
    const json = answer.json;
    const id = String(
      json.transaction_id ??
        (json.invoice as { debt_claim_number?: string } | undefined)?.debt_claim_number ??
        (json.data as { id?: string } | undefined)?.id ??
        '',
    );
    acks.push({ kind, key, body, path, id, ...(target ? { target } : {}), ...(amountMinor ? { amountMinor } : {}) });
    if (path === '/rest/authorize' && json.status_code === 4) authorized.push(id);
    if (path === '/rest/payment' && json.status_code === 3) completed.push(id);
  };

  let gateway: GatewayProcess | undefined;
  for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
    gateway = await startGateway({ dataDir, args: ['--backup-interval-hours', '0'] });
    const base = gateway.url;
    verify(dataDir, acks, merchant.merchant_id);
    // Some acknowledged requests again with their key: they replay, nothing runs twice.
    for (const ack of acks.slice(-5)) {
      const again = await send(base, ack.path, ack.key, ack.body);
      assert.ok(again && again.status < 300, `replay of ${ack.path} ${ack.key}`);
      stats.replays += 1;
    }
    let stop = false;
    const before = acks.length;
    const clients = Array.from({ length: CLIENTS }, async (_u, c) => {
      for (let n = c; !stop; n += CLIENTS) await oneRequest(base, n);
    });
    // SIGKILL at a random moment of the load.
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS * (0.5 + Math.random())));
    await gateway.kill9();
    stop = true;
    await Promise.all(clients);
    stats.cycles = cycle;
    stats.perCycle.push(acks.length - before);
    process.stdout.write(`cycle ${cycle}: ${acks.length - before} acknowledged writes before kill -9\n`);
  }

  // The last restart: let the outbox and the mail queue drain, then check delivery.
  gateway = await startGateway({ dataDir, args: ['--backup-interval-hours', '0'] });
  const report = verify(dataDir, acks, merchant.merchant_id);
  const deadline = Date.now() + 120_000;
  let pending = { postbacks: -1, emails: -1 };
  while (Date.now() < deadline) {
    pending = queueDepth(dataDir);
    if (pending.postbacks === 0 && pending.emails === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await gateway.stop();
  await receiver.close();
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  const events = db.prepare("SELECT id FROM postback_outbox WHERE state = 'delivered'").pluck().all() as string[];
  db.close();
  const missing = events.filter((eventId) => !received.has(eventId));
  assert.deepEqual(pending, { postbacks: 0, emails: 0 }, 'the outbox and the mail queue drained after the restarts');
  assert.deepEqual(missing, [], 'every delivered postback reached the receiver');

  stats.acknowledged = acks.length;
  const result = {
    date: new Date().toISOString(),
    cycles: stats.cycles,
    load_ms: LOAD_MS,
    clients: CLIENTS,
    acknowledged_writes: acks.length,
    by_kind: Object.fromEntries(
      ['payment', 'capture', 'refund', 'invoice', 'token'].map((kind) => [kind, acks.filter((a) => a.kind === kind).length]),
    ),
    in_flight_at_kill: stats.brokenInFlight,
    refused: stats.refused,
    replays_checked: stats.replays,
    postback_events_delivered: events.length,
    postback_deliveries_received: [...received.values()].reduce((a, b) => a + b, 0),
    duplicate_deliveries: [...received.values()].filter((n) => n > 1).length,
    ...report,
    lost: 0,
    duplicated: 0,
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/crash-loop.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

/** The checks after a kill: integrity, every acknowledged write whole, nothing twice. */
function verify(dataDir: string, acks: readonly Ack[], merchantId: string): { transactions: number; invoices: number; tokens: number } {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    const tx = db.prepare('SELECT id, order_id, status_code, captured_minor, refunded_minor FROM transactions WHERE id = ?');
    const logOf = db.prepare("SELECT COUNT(*) FROM transaction_events WHERE transaction_id = ? AND type <> 'postback'").pluck();
    const captured = new Map<string, number>();
    const refunded = new Map<string, number>();
    for (const ack of acks) {
      if (ack.kind === 'payment') {
        const row = tx.get(ack.id) as { order_id: string } | undefined;
        assert.ok(row, `acknowledged payment ${ack.id} is there`);
        assert.ok((logOf.get(ack.id) as number) >= 1, `payment ${ack.id} has its log`);
      } else if (ack.kind === 'capture' && ack.target) {
        captured.set(ack.target, (captured.get(ack.target) ?? 0) + (ack.amountMinor ?? 0));
      } else if (ack.kind === 'refund' && ack.target) {
        refunded.set(ack.target, (refunded.get(ack.target) ?? 0) + (ack.amountMinor ?? 0));
      } else if (ack.kind === 'invoice') {
        assert.equal(
          db.prepare('SELECT COUNT(*) FROM invoices WHERE merchant_id = ? AND debt_claim_number = ?').pluck().get(merchantId, ack.id),
          1,
          `invoice ${ack.id} once`,
        );
      } else if (ack.kind === 'token') {
        assert.ok(db.prepare('SELECT 1 FROM network_tokens WHERE id = ?').get(ack.id), `token ${ack.id} is there`);
      }
    }
    for (const [id, minor] of captured)
      assert.ok(((tx.get(id) as { captured_minor: number }).captured_minor ?? 0) >= minor, `capture of ${id} kept`);
    for (const [id, minor] of refunded)
      assert.ok(((tx.get(id) as { refunded_minor: number }).refunded_minor ?? 0) >= minor, `refund of ${id} kept`);
    // Nothing twice: one transaction per order id (each request had its own order and key).
    const twice = db
      .prepare('SELECT order_id, COUNT(*) AS n FROM transactions WHERE merchant_id = ? GROUP BY order_id HAVING n > 1')
      .all(merchantId);
    assert.deepEqual(twice, [], 'no order charged twice');
    const money = db
      .prepare('SELECT COUNT(*) FROM transactions WHERE captured_minor > authorized_minor OR refunded_minor > captured_minor')
      .pluck()
      .get();
    assert.equal(money, 0, 'money limits hold');
    return {
      transactions: db.prepare('SELECT COUNT(*) FROM transactions WHERE merchant_id = ?').pluck().get(merchantId) as number,
      invoices: db.prepare('SELECT COUNT(*) FROM invoices WHERE merchant_id = ?').pluck().get(merchantId) as number,
      tokens: db.prepare('SELECT COUNT(*) FROM network_tokens WHERE merchant_id = ?').pluck().get(merchantId) as number,
    };
  } finally {
    db.close();
  }
}

function queueDepth(dataDir: string): { postbacks: number; emails: number } {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return {
      postbacks: db.prepare("SELECT COUNT(*) FROM postback_outbox WHERE state NOT IN ('delivered', 'failed')").pluck().get() as number,
      emails: db.prepare("SELECT COUNT(*) FROM emails WHERE status = 'queued'").pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

await main();
