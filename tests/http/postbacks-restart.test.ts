// Postbacks survive a crash (decisions.md D7: a durable outbox written with the state change,
// at-least-once delivery that survives restarts): real `gateway serve` processes on one data dir,
// a merchant made with the CLI, receivers on 127.0.0.1 that are down (closed port) or answer 500;
// kill -9 with postbacks undelivered, restart, and every postback arrives with its original
// event_id. After a clean delivery and a kill -9, nothing already delivered is sent again.
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import canonicalizeModule from 'canonicalize';
import { Webhook } from 'standardwebhooks';
import type { PostbackDelivery as DeliveryView } from '../../contract/api/postbacks.js';
import {
  basicAuth,
  createMerchant,
  startGateway,
  tempDataDir,
  type GatewayProcess,
  type MerchantCredentials,
} from '../helpers/gateway-process.js';
import { cardPayment, redirectPayment } from '../helpers/postback-gateway.js';
import { closedPort, startReceiver, webhookHeaders, type Receiver, type ReceivedPostback } from '../helpers/postback-receiver.js';
import { dataDirectoryOnly } from '../helpers/sql.js';

const canonicalize = canonicalizeModule as unknown as (input: unknown) => string;

class Client {
  private readonly auth: string;

  constructor(
    public server: GatewayProcess,
    credentials: MerchantCredentials,
  ) {
    this.auth = basicAuth(credentials);
  }

  async post(path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${this.server.url}${path}`, {
      method: 'POST',
      headers: { authorization: this.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as Record<string, unknown>;
    assert.equal(response.status, 200, `${path}: ${JSON.stringify(parsed)}`);
    assert.equal(parsed.error_code, 0);
    return parsed;
  }

  async postbacks(): Promise<DeliveryView[]> {
    const response = await fetch(`${this.server.url}/rest/postbacks?limit=500`, { headers: { authorization: this.auth } });
    assert.equal(response.status, 200);
    return (await response.json()) as DeliveryView[];
  }

  async attempts(transactionId: string): Promise<DeliveryView[]> {
    const response = await fetch(`${this.server.url}/rest/transactions/${transactionId}/postbacks`, {
      headers: { authorization: this.auth },
    });
    assert.equal(response.status, 200);
    return (await response.json()) as DeliveryView[];
  }
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function verify(postback: ReceivedPostback, webhookKey: string): void {
  assert.deepEqual(new Webhook(webhookKey).verify(postback.raw, webhookHeaders(postback.headers)), postback.body);
  const { checksum, ...rest } = postback.body;
  assert.equal(checksum, createHmac('sha256', webhookKey).update(canonicalize(rest)).digest('hex'));
}

/** Payments that change state several times (authorize, capture, refund), decline, complete and start. */
async function makePayments(client: Client, urls: string[]): Promise<void> {
  for (const url of urls) {
    const authorized = await client.post('/rest/authorize', cardPayment('4111111111111111', 40, url));
    await client.post('/rest/capture', { transaction_id: authorized.transaction_id, amount: 40 });
    await client.post('/rest/refund', { transaction_id: authorized.transaction_id, amount: 15 });
    await client.post('/rest/payment', cardPayment('4000000000009995', 8, url));
    await client.post('/rest/payment', cardPayment('5555555555554444', 19.99, url));
    await client.post('/rest/payment', redirectPayment(25, url));
  }
}

describe('postbacks across kill -9 and restart', dataDirectoryOnly('gateway processes killed and restarted'), () => {
  test('postbacks undelivered at kill -9 are all delivered after a restart, with their original event_id', async () => {
    const dataDir = tempDataDir('tillgate-postbacks-restart-');
    const credentials = createMerchant(dataDir, 'Restart Shop');
    const downPort = await closedPort();
    const downUrl = `http://127.0.0.1:${downPort}/postbacks`;
    const failing = await startReceiver({ respond: 500 });
    let receiver: Receiver | undefined;
    let server = await startGateway({ dataDir });
    try {
      const client = new Client(server, credentials);
      await makePayments(client, [downUrl, failing.url()]);

      // Every postback has failed at least once (connection refused or HTTP 500); none is delivered.
      const undelivered = await until(
        async () => {
          const views = await client.postbacks();
          return views.length === 12 && views.every((v) => v.attempts >= 1) ? views : undefined;
        },
        10_000,
        'a failed attempt of every postback',
      );
      await server.kill9();
      assert.ok(
        undelivered.every((v) => v.state === 'pending' && v.delivered_at === null),
        JSON.stringify(undelivered),
      );
      assert.ok(failing.received.length >= 6);

      // The receivers come back; a new server starts on the same data dir.
      receiver = await startReceiver({ port: downPort, respond: 200 });
      failing.respond(200);
      const failedBefore = failing.received.length;
      server = await startGateway({ dataDir });
      client.server = server;

      await receiver.waitFor(6, 15_000);
      await until(
        async () => (failing.received.length >= failedBefore + 6 ? true : undefined),
        15_000,
        'the 500 receiver to get its postbacks',
      );
      const delivered = await until(
        async () => {
          const views = await client.postbacks();
          return views.every((v) => v.state === 'delivered') ? views : undefined;
        },
        15_000,
        'every postback delivered',
      );
      assert.deepEqual(
        delivered.map((v) => v.event_id).sort(),
        undelivered.map((v) => v.event_id).sort(),
        'the same postbacks, none lost, none new',
      );

      const arrived = [...receiver.received, ...failing.received.slice(failedBefore)];
      const byEvent = new Map(undelivered.map((v) => [v.event_id, v]));
      for (const postback of arrived) {
        const original = byEvent.get(String(postback.body.event_id));
        assert.ok(original, `${String(postback.body.event_id)} is one of the postbacks from before the crash`);
        assert.equal(postback.body.sequence, original.sequence);
        const { event_id: _e, sequence: _s, checksum: _c, ...payload } = postback.body;
        assert.deepEqual(payload, original.payload);
        verify(postback, credentials.webhook_key);
      }
      assert.deepEqual(
        [...new Set(arrived.map((p) => String(p.body.event_id)))].sort(),
        [...byEvent.keys()].sort(),
        'every postback arrived',
      );
      const toDown = new Set(receiver.received.map((p) => p.body.event_id));
      assert.deepEqual(
        [...toDown].sort(),
        undelivered
          .filter((v) => v.url === downUrl)
          .map((v) => v.event_id)
          .sort(),
      );

      // Per transaction, sequences are complete (authorize 1, capture 2, refund 3).
      const flows = delivered.filter((v) => v.sequence === 3);
      assert.equal(flows.length, 2);
      for (const flow of flows) {
        assert.deepEqual(
          delivered
            .filter((v) => v.subject_id === flow.subject_id)
            .map((v) => [v.sequence, v.status_code])
            .sort(),
          [
            [1, 4],
            [2, 3],
            [3, 8],
          ],
        );
      }

      // The attempt log keeps the failures from before the crash and ends delivered.
      const [first] = await client.attempts(flows[0]?.subject_id as string);
      assert.ok(first);
      const log = first.attempt_log ?? [];
      assert.ok(log.length >= 2);
      assert.ok(log.slice(0, -1).every((a) => a.outcome === 'failed'));
      assert.equal(log.at(-1)?.outcome, 'delivered');
      assert.equal(await server.stop(), 0);
    } finally {
      await server.kill9();
      await receiver?.close();
      await failing.close();
    }
  });

  test('a postback in flight at kill -9 (the receiver had not answered) is sent again after the restart', async () => {
    const dataDir = tempDataDir('tillgate-postbacks-restart-');
    const credentials = createMerchant(dataDir, 'In Flight Shop');
    const receiver = await startReceiver({ respond: 'hang' });
    let server = await startGateway({ dataDir });
    try {
      const client = new Client(server, credentials);
      const paid = await client.post('/rest/payment', cardPayment('4111111111111111', 11, receiver.url()));
      await receiver.waitFor(1, 10_000);
      const eventId = receiver.received[0]?.body.event_id;
      await server.kill9();

      receiver.respond(200);
      server = await startGateway({ dataDir });
      client.server = server;
      await receiver.waitFor(2, 10_000);
      assert.equal(receiver.received[1]?.body.event_id, eventId, 'the same event_id: at-least-once, de-duplicated by the receiver');
      assert.equal(receiver.received[1]?.raw, receiver.received[0]?.raw);
      verify(receiver.received[1] as ReceivedPostback, credentials.webhook_key);
      const [view] = await until(
        async () => {
          const views = await client.attempts(String(paid.transaction_id));
          return views[0]?.state === 'delivered' ? views : undefined;
        },
        10_000,
        'the postback recorded as delivered',
      );
      assert.deepEqual(
        view?.attempt_log?.map((a) => [a.attempt, a.outcome, a.http_status]),
        [[1, 'delivered', 200]],
        'the unrecorded attempt left no trace',
      );
      assert.equal(await server.stop(), 0);
    } finally {
      await server.kill9();
      await receiver.close();
    }
  });

  test('after a clean delivery and a kill -9, a restart sends nothing again', async () => {
    const dataDir = tempDataDir('tillgate-postbacks-restart-');
    const credentials = createMerchant(dataDir, 'Clean Shop');
    const receiver = await startReceiver({ respond: 200 });
    let server = await startGateway({ dataDir });
    try {
      const client = new Client(server, credentials);
      await makePayments(client, [receiver.url()]);
      await receiver.waitFor(6, 10_000);
      await until(
        async () => {
          const views = await client.postbacks();
          return views.length === 6 && views.every((v) => v.state === 'delivered') ? true : undefined;
        },
        10_000,
        'every postback recorded as delivered',
      );
      for (const postback of receiver.received) verify(postback, credentials.webhook_key);
      assert.equal(new Set(receiver.received.map((p) => p.body.event_id)).size, 6);
      await server.kill9();

      server = await startGateway({ dataDir });
      client.server = server;
      // Several poll intervals of the delivery worker pass...
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(receiver.received.length, 6, 'nothing already delivered is sent again');
      // ...while the worker does run: a new payment's postback arrives, and only that one.
      const paid = await client.post('/rest/payment', cardPayment('4111111111111111', 3, receiver.url()));
      await receiver.waitFor(7, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(receiver.received.length, 7);
      assert.equal(receiver.received[6]?.body.transaction_id, paid.transaction_id);
      verify(receiver.received[6] as ReceivedPostback, credentials.webhook_key);
      assert.ok((await client.postbacks()).every((v) => v.state === 'delivered' && v.attempts === 1));
      assert.equal(await server.stop(), 0);
    } finally {
      await server.kill9();
      await receiver.close();
    }
  });
});
