#!/usr/bin/env node
// A Tillgate postback receiver with no dependencies (Node 20+): it checks the Standard Webhooks
// signature over the raw body and the body's `checksum` (HMAC-SHA256 over RFC 8785 canonical JSON),
// drops duplicates by `event_id` and older states by `sequence`, and answers 200 or 400.
//
//   WEBHOOK_KEY=whsec_... PORT=8080 node postback-receiver.mjs
//
// WEBHOOK_KEY may hold several keys separated by commas (during a key rotation: "new,old").
// HOST defaults to 127.0.0.1. One line per postback goes to stdout:
//   verified event_id=... sequence=... subject=... status_code=... attempt=...
//   duplicate event_id=...        (already processed: answered 200, nothing done)
//   stale event_id=... sequence=... latest=...   (older than a state already seen: answered 200)
//   rejected: <reason>            (answered 400)
import http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

const KEYS = (process.env.WEBHOOK_KEY ?? '').split(/[\s,]+/).filter(Boolean);
const PORT = Number(process.env.PORT ?? 8080);
const HOST = process.env.HOST ?? '127.0.0.1';
const TOLERANCE_SECONDS = 5 * 60;
const MAX_BODY_BYTES = 1024 * 1024;

if (KEYS.length === 0 || KEYS.some((key) => !key.startsWith('whsec_'))) {
  process.stderr.write('set WEBHOOK_KEY to the webhook key (whsec_...) of the merchant\n');
  process.exit(2);
}

/** RFC 8785 (JCS) for JSON values: keys sorted by UTF-16 code units, ECMAScript number and string forms. */
export function canonicalize(value) {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('JSON has no NaN or Infinity');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalize(value[key])}`).join(',')}}`;
  }
  throw new Error(`not a JSON value: ${typeof value}`);
}

function sameText(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Standard Webhooks: v1 = base64 HMAC-SHA256 of "{id}.{timestamp}.{raw body}" keyed with the bytes after whsec_. */
function checkSignature(headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return 'missing webhook-id, webhook-timestamp or webhook-signature';
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - seconds) > TOLERANCE_SECONDS)
    return 'webhook-timestamp is more than 5 minutes off';
  const passed = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => s.slice(3));
  for (const key of KEYS) {
    const secret = Buffer.from(key.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(rawBody).digest('base64');
    if (passed.some((signature) => sameText(signature, expected))) return null;
  }
  return 'no webhook-signature matches the webhook key';
}

/** checksum = lowercase hex HMAC-SHA256 of the canonical JSON of the body without checksum, keyed with the whole key string. */
function checkChecksum(body) {
  const { checksum, ...rest } = body;
  if (typeof checksum !== 'string') return 'the body has no checksum';
  const canonical = canonicalize(rest);
  for (const key of KEYS) {
    if (sameText(createHmac('sha256', key).update(canonical, 'utf8').digest('hex'), checksum)) return null;
  }
  return 'checksum does not match the webhook key';
}

const seen = new Set(); // event_ids processed (keep them in your database in real life)
const latest = new Map(); // subject -> highest sequence processed

function answer(response, status, text) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(status === 200 ? { received: true } : { error: text }));
}

const server = http.createServer((request, response) => {
  if (request.method !== 'POST') return answer(response, 405, 'POST only');
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) request.destroy();
    else chunks.push(chunk);
  });
  request.on('end', () => {
    const rawBody = Buffer.concat(chunks);
    let body;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      body = undefined;
    }
    const problem =
      body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)
        ? 'the body is not a JSON object'
        : (checkSignature(request.headers, rawBody) ??
          checkChecksum(body) ??
          (body.event_id !== request.headers['webhook-id'] ? 'event_id differs from webhook-id' : null));
    if (problem) {
      process.stdout.write(`rejected: ${problem}\n`);
      return answer(response, 400, problem);
    }
    const eventId = body.event_id;
    const subject = body.transaction_id ?? body.checkout_id ?? body.id;
    if (seen.has(eventId)) {
      process.stdout.write(`duplicate event_id=${eventId}\n`);
      return answer(response, 200);
    }
    seen.add(eventId);
    const newest = latest.get(subject) ?? 0;
    if (body.sequence < newest) {
      process.stdout.write(`stale event_id=${eventId} sequence=${body.sequence} latest=${newest}\n`);
      return answer(response, 200);
    }
    latest.set(subject, body.sequence);
    // Hand the postback to your own queue here and answer at once (within 10 seconds at most).
    process.stdout.write(
      `verified event_id=${eventId} sequence=${body.sequence} subject=${subject} status_code=${body.status_code ?? body.status} attempt=${request.headers['x-postback-attempt']}\n`,
    );
    return answer(response, 200);
  });
});

server.listen(PORT, HOST, () => {
  const { port } = server.address();
  process.stdout.write(`listening on http://${HOST.includes(':') ? `[${HOST}]` : HOST}:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
