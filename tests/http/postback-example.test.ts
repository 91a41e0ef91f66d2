// The receiver example of docs/postbacks.md (docs/examples/postback-receiver.mjs) really works: run
// as a child process with the merchant's webhook key, it accepts the gateway's postbacks (both the
// checksum and the Standard Webhooks signature verify), drops a duplicate, and rejects tampering.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { cardPayment, startPostbackGateway, type MerchantClient, type PostbackHarness } from '../helpers/postback-gateway.js';
import { startReceiver, webhookHeaders, type Receiver, type ReceivedPostback } from '../helpers/postback-receiver.js';

const EXAMPLE = fileURLToPath(new URL('../../docs/examples/postback-receiver.mjs', import.meta.url));

interface Example {
  url: string;
  lines: string[];
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

async function startExample(webhookKey: string): Promise<Example> {
  const child: ChildProcess = spawn(process.execPath, [EXAMPLE], {
    env: { PATH: process.env.PATH ?? '', WEBHOOK_KEY: webhookKey, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const consumed = new Set<number>();
  /** The first line not matched before that matches (lines of concurrent deliveries come in any order). */
  const waitForLine = (pattern: RegExp, timeoutMs = 5000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        for (let i = 0; i < lines.length; i += 1) {
          if (!consumed.has(i) && pattern.test(lines[i] as string)) {
            consumed.add(i);
            listeners.delete(check);
            clearTimeout(timer);
            resolve(lines[i] as string);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no line matching ${String(pattern)} in ${timeoutMs} ms; stdout: ${JSON.stringify(lines)} stderr: ${stderr}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  const listening = await waitForLine(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
  return {
    url: `${listening.slice('listening on '.length)}/postbacks`,
    lines,
    waitForLine,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function postRaw(url: string, raw: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
  await response.arrayBuffer();
  return response.status;
}

/** RFC 8785 for JSON values, as a merchant would write it. */
function jcs(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const object = value as Record<string, unknown>;
  return `{${Object.keys(object)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${jcs(object[key])}`)
    .join(',')}}`;
}

describe('docs/examples/postback-receiver.mjs', () => {
  let h: PostbackHarness;
  let m: MerchantClient;
  let example: Example;
  let recorder: Receiver;

  before(async () => {
    h = await startPostbackGateway();
    m = await h.merchant();
    example = await startExample(m.webhookKey);
    recorder = await startReceiver();
  });
  after(async () => {
    await example.stop();
    await recorder.close();
    await h.close();
  });

  test('accepts the gateway postbacks of a payment, verifying checksum and signature', async () => {
    const tricky = 'Ünïcødé "quoted" \\ tab\t ✓ 😀 </script> \u2028';
    const authorized = await m.ok(
      '/rest/authorize',
      cardPayment('4111111111111111', 123.45, example.url, { additional_transaction_data: tricky }),
    );
    await m.ok('/rest/capture', { transaction_id: authorized.transaction_id, amount: 100 });
    const declined = await m.ok('/rest/payment', cardPayment('4000000000000002', 9.99, example.url));
    await h.deliver();

    const views = [...(await m.postbacksOf(String(authorized.transaction_id))), ...(await m.postbacksOf(String(declined.transaction_id)))];
    assert.equal(views.length, 3);
    for (const view of views) {
      assert.deepEqual([view.state, view.attempt_log?.[0]?.http_status], ['delivered', 200], JSON.stringify(view.attempt_log));
      // Postbacks of one payment may arrive out of order (several are sent at once, as on PostgreSQL with
      // its parallel claims): the example verifies each, and calls one older than the latest it saw stale.
      const line = await example.waitForLine(new RegExp(`^(verified|stale) event_id=${view.event_id} `));
      if (line.startsWith('verified'))
        assert.match(
          line,
          new RegExp(`sequence=${view.sequence} subject=${view.subject_id} status_code=${String(view.status_code)} attempt=1$`),
        );
      else assert.match(line, new RegExp(`sequence=${view.sequence} latest=\\d+$`));
    }
    assert.ok(!example.lines.some((line) => line.startsWith('rejected')), example.lines.join('\n'));

    // A resend is the same event_id: the example recognises the duplicate and still answers 200.
    const first = views[0];
    assert.ok(first);
    assert.equal((await m.post(`/rest/postbacks/${first.event_id}/resend`)).statusCode, 200);
    await h.deliver();
    await example.waitForLine(new RegExp(`^duplicate event_id=${first.event_id}$`));
    assert.equal((await m.postbacksOf(String(authorized.transaction_id)))[0]?.attempt_log?.at(-1)?.http_status, 200);
  });

  test('rejects a tampered body, a forged signature or checksum, and an old timestamp with 400', async () => {
    // A real signed postback, captured by a recording receiver, replayed to the example.
    await m.ok('/rest/payment', cardPayment('4111111111111111', 50, recorder.url()));
    await h.deliver();
    const original = recorder.received[0] as ReceivedPostback;
    const headers = webhookHeaders(original.headers);
    assert.equal(await postRaw(example.url, original.raw, headers), 200, 'the untouched postback is accepted');
    await example.waitForLine(new RegExp(`^verified event_id=${String(original.body.event_id)} `));

    // Changed amount, original headers: the signature no longer matches.
    const tampered = JSON.stringify({ ...original.body, amount: 5000 });
    assert.equal(await postRaw(example.url, tampered, headers), 400);
    await example.waitForLine(/^rejected: no webhook-signature matches the webhook key$/);

    // Changed amount with a valid Standard Webhooks signature but the old checksum: the checksum catches it.
    const wh = new Webhook(m.webhookKey);
    const resigned = {
      ...headers,
      'webhook-signature': wh.sign(headers['webhook-id'], new Date(Number(headers['webhook-timestamp']) * 1000), tampered),
    };
    assert.equal(await postRaw(example.url, tampered, resigned), 400);
    await example.waitForLine(/^rejected: checksum does not match the webhook key$/);

    // Sanity of that step: with a recomputed checksum too, the same body is accepted (a new event_id, so no duplicate).
    const { checksum: _c, ...rest }: Record<string, unknown> = { ...original.body, amount: 5000, event_id: 'evt-recomputed' };
    const recomputed = JSON.stringify({ ...rest, checksum: createHmac('sha256', m.webhookKey).update(jcs(rest)).digest('hex') });
    const recomputedHeaders = { ...headers, 'webhook-id': 'evt-recomputed' };
    recomputedHeaders['webhook-signature'] = wh.sign('evt-recomputed', new Date(Number(headers['webhook-timestamp']) * 1000), recomputed);
    assert.equal(await postRaw(example.url, recomputed, recomputedHeaders), 200);
    await example.waitForLine(/^verified event_id=evt-recomputed /);

    // Signed with another key; a timestamp 10 minutes old; no signature headers; not JSON.
    const stranger = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    const forged = {
      ...headers,
      'webhook-signature': stranger.sign(headers['webhook-id'], new Date(Number(headers['webhook-timestamp']) * 1000), original.raw),
    };
    assert.equal(await postRaw(example.url, original.raw, forged), 400);
    await example.waitForLine(/^rejected: no webhook-signature matches/);
    const oldSeconds = Math.floor(Date.now() / 1000) - 600;
    const old = {
      ...headers,
      'webhook-timestamp': String(oldSeconds),
      'webhook-signature': wh.sign(headers['webhook-id'], new Date(oldSeconds * 1000), original.raw),
    };
    assert.equal(await postRaw(example.url, original.raw, old), 400);
    await example.waitForLine(/^rejected: webhook-timestamp is more than 5 minutes off$/);
    assert.equal(await postRaw(example.url, original.raw, {}), 400);
    await example.waitForLine(/^rejected: missing webhook-id/);
    assert.equal(await postRaw(example.url, 'not json', headers), 400);
    await example.waitForLine(/^rejected: the body is not a JSON object$/);
  });

  test('a gateway postback to the example run with another key is refused (400) and retried', async () => {
    const wrong = await startExample(`whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    try {
      const paid = await m.ok('/rest/payment', cardPayment('4111111111111111', 2, wrong.url));
      await h.deliver();
      await wrong.waitForLine(/^rejected: no webhook-signature matches the webhook key$/);
      const [view] = await m.postbacksOf(String(paid.transaction_id));
      assert.deepEqual(
        [view?.state, view?.attempt_log?.[0]?.http_status, view?.attempt_log?.[0]?.outcome, view?.last_error],
        ['pending', 400, 'failed', 'HTTP 400'],
      );
    } finally {
      await wrong.stop();
    }
  });
});
