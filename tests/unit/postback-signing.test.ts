// Postback retry schedule and signing (decisions.md D7): nextAttemptAt exactly, scaled, and the
// give-up after 3 days; checksum = hex HMAC-SHA256 over RFC 8785 (JCS) of the body without
// checksum, keyed with the whole webhook key string; Standard Webhooks signatures verified by the
// npm `standardwebhooks` package unchanged, with both keys during a rotation.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import {
  DEFAULT_DELIVERY_SETTINGS,
  GIVE_UP_AFTER_MS,
  LATER_RETRY_MS,
  nextAttemptAt,
  RETRY_DELAYS_MS,
} from '../../main/core/postbacks/delivery.js';
import { postbackChecksum, signPostback, standardSignature, webhookSecretBytes } from '../../main/core/postbacks/signing.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function newKey(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Simulates a receiver that always fails, attempting exactly when scheduled; returns the offsets (ms after creation) of every attempt. */
function attemptOffsets(scale: number): number[] {
  const created = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
  const offsets = [0];
  let now = created;
  for (let failed = 1; failed < 100; failed += 1) {
    const next = nextAttemptAt(created, now, failed, scale);
    if (!next) return offsets;
    offsets.push(next.getTime() - created.getTime());
    now = next;
  }
  throw new Error('the schedule never gives up');
}

describe('postback retry schedule (nextAttemptAt)', () => {
  test('the documented delays: 1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h, then every 24 h; 3 days in all; 10 s timeout', () => {
    assert.deepEqual(RETRY_DELAYS_MS, [1 * MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR]);
    assert.equal(LATER_RETRY_MS, DAY);
    assert.equal(GIVE_UP_AFTER_MS, 3 * DAY);
    assert.equal(DEFAULT_DELIVERY_SETTINGS.timeoutMs, 10_000);
    assert.equal(DEFAULT_DELIVERY_SETTINGS.retryScale, 1);
  });

  test('after the n-th failure the next attempt is exactly the n-th delay after that failure', () => {
    const created = new Date('2026-03-01T10:00:00.000Z');
    const expected = [1 * MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY];
    for (const [index, delay] of expected.entries()) {
      const now = new Date(created.getTime() + 1234 + index); // the delay counts from the failed attempt, not from creation
      assert.equal(
        nextAttemptAt(created, now, index + 1, 1)?.toISOString(),
        new Date(now.getTime() + delay).toISOString(),
        `after failure ${index + 1}`,
      );
    }
  });

  test('a receiver that always fails is tried 10 times within 3 days, then the postback fails', () => {
    const offsets = attemptOffsets(1);
    const minutes = offsets.map((ms) => ms / MINUTE);
    assert.deepEqual(minutes, [0, 1, 6, 21, 81, 261, 621, 1341, 1341 + 1440, 1341 + 2 * 1440]);
    const last = offsets.at(-1) as number;
    assert.ok(last <= 3 * DAY, 'every attempt lies within 3 days');
    assert.ok(last + DAY > 3 * DAY, 'one more day would pass the 3 days');
    // Exactly at the 3-day boundary is still allowed; one millisecond beyond is not.
    const created = new Date('2026-03-01T00:00:00.000Z');
    assert.ok(nextAttemptAt(created, new Date(created.getTime() + 2 * DAY), 9, 1), 'a retry landing exactly at 3 days is kept');
    assert.equal(nextAttemptAt(created, new Date(created.getTime() + 2 * DAY + 1), 9, 1), null, 'a retry landing after 3 days gives up');
  });

  test('the retry scale multiplies every delay and the 3-day window', () => {
    for (const scale of [0.001, 0.5, 2]) {
      assert.deepEqual(
        attemptOffsets(scale),
        attemptOffsets(1).map((ms) => ms * scale),
        `scale ${scale}`,
      );
    }
    const created = new Date('2026-03-01T00:00:00.000Z');
    assert.equal(nextAttemptAt(created, created, 1, 0.001)?.toISOString(), '2026-03-01T00:00:00.060Z');
    assert.equal(nextAttemptAt(created, created, 8, 0.001)?.toISOString(), new Date(created.getTime() + 86_400).toISOString());
    assert.equal(nextAttemptAt(created, new Date(created.getTime() + 3 * DAY * 0.001), 8, 0.001), null);
  });
});

describe('postback checksum (HMAC-SHA256 over RFC 8785 JCS)', () => {
  const key = newKey();
  const body = {
    transaction_id: 'tx-1',
    status_code: 3,
    status: 'completed',
    amount: 10.5,
    big: 1e21,
    message: 'Caf\u00e9 \u20ac "quoted"\n',
    order_id: null,
    nested: { z: true, y: [3, 'b', { d: 1, c: 2 }], a: false },
    included_fees: '0.39',
  };
  const canonical =
    '{"amount":10.5,"big":1e+21,"included_fees":"0.39","message":"Caf\u00e9 \u20ac \\"quoted\\"\\n","nested":{"a":false,"y":[3,"b",{"c":2,"d":1}],"z":true},' +
    '"order_id":null,"status":"completed","status_code":3,"transaction_id":"tx-1"}';

  test('is the lowercase hex HMAC-SHA256 of the canonical JSON, keyed with the whole key string (UTF-8)', () => {
    const checksum = postbackChecksum(body, key);
    assert.match(checksum, /^[0-9a-f]{64}$/);
    assert.equal(checksum, createHmac('sha256', Buffer.from(key, 'utf8')).update(canonical, 'utf8').digest('hex'));
    // Not the decoded secret bytes: those are for the Standard Webhooks signature only.
    assert.notEqual(checksum, createHmac('sha256', webhookSecretBytes(key)).update(canonical, 'utf8').digest('hex'));
  });

  test('is independent of key order and ignores an existing checksum field', () => {
    const reversed = Object.fromEntries(Object.entries(body).reverse());
    reversed.nested = { a: false, y: [3, 'b', { c: 2, d: 1 }], z: true };
    assert.equal(postbackChecksum(reversed, key), postbackChecksum(body, key));
    assert.equal(postbackChecksum({ checksum: 'anything', ...body }, key), postbackChecksum(body, key));
  });

  test('changes when any field changes, and with another key', () => {
    const original = postbackChecksum(body, key);
    assert.notEqual(postbackChecksum({ ...body, amount: 10.51 }, key), original);
    assert.notEqual(postbackChecksum({ ...body, status_code: 6 }, key), original);
    assert.notEqual(postbackChecksum({ ...body, extra: null }, key), original);
    assert.notEqual(postbackChecksum({ ...body, nested: { ...body.nested, y: [3, 'b', { c: 2, d: 2 }] } }, key), original);
    assert.notEqual(postbackChecksum(body, newKey()), original);
  });
});

describe('signed postbacks (body, headers, Standard Webhooks)', () => {
  const payload = {
    transaction_id: 'tx-9',
    payment_type: 'cardecom',
    status_code: 3,
    status: 'completed',
    order_id: 'o-9',
    amount: 12,
    included_fees: '0.39',
  };
  const now = () => Math.floor(Date.now() / 1000);

  test('the body carries event_id, sequence and a checksum that verifies; headers follow Standard Webhooks', () => {
    const key = newKey();
    const timestamp = now();
    const signed = signPostback(payload, { eventId: 'evt-1', sequence: 4, attempt: 2, timestampSeconds: timestamp }, { current: key });
    const body = JSON.parse(signed.rawBody) as Record<string, unknown>;
    assert.equal(body.event_id, 'evt-1');
    assert.equal(body.sequence, 4);
    for (const [field, value] of Object.entries(payload)) assert.deepEqual(body[field], value, field);
    const { checksum, ...rest } = body;
    assert.equal(checksum, postbackChecksum(rest, key));
    assert.equal(signed.headers['webhook-id'], 'evt-1');
    assert.equal(signed.headers['webhook-timestamp'], String(timestamp));
    assert.equal(signed.headers['x-postback-attempt'], '2');
    assert.equal(signed.headers['content-type'], 'application/json');
    assert.match(signed.headers['webhook-signature'] as string, /^v1,[A-Za-z0-9+/]+=*$/);
    assert.equal(signed.headers['webhook-signature'], standardSignature('evt-1', timestamp, signed.rawBody, key));
    assert.deepEqual(new Webhook(key).verify(signed.rawBody, signed.headers), body);
  });

  test('a changed body fails both the checksum and the signature', () => {
    const key = newKey();
    const signed = signPostback(payload, { eventId: 'evt-2', sequence: 1, attempt: 1, timestampSeconds: now() }, { current: key });
    const tamperedBody: Record<string, unknown> = { ...(JSON.parse(signed.rawBody) as Record<string, unknown>), amount: 1200 };
    const { checksum, ...rest } = tamperedBody;
    assert.notEqual(postbackChecksum(rest, key), checksum);
    const tamperedRaw = JSON.stringify(tamperedBody);
    assert.throws(() => new Webhook(key).verify(tamperedRaw, signed.headers), /No matching signature/);
    assert.throws(() => new Webhook(key).verify(signed.rawBody, { ...signed.headers, 'webhook-id': 'evt-other' }), /No matching signature/);
    assert.throws(() => new Webhook(newKey()).verify(signed.rawBody, signed.headers), /No matching signature/);
  });

  test('during a key rotation both keys sign webhook-signature; the checksum uses the new key', () => {
    const oldKey = newKey();
    const newer = newKey();
    const timestamp = now();
    const signed = signPostback(
      payload,
      { eventId: 'evt-3', sequence: 2, attempt: 1, timestampSeconds: timestamp },
      { current: newer, previous: oldKey },
    );
    const signatures = (signed.headers['webhook-signature'] as string).split(' ');
    assert.deepEqual(signatures, [
      standardSignature('evt-3', timestamp, signed.rawBody, newer),
      standardSignature('evt-3', timestamp, signed.rawBody, oldKey),
    ]);
    assert.ok(new Webhook(newer).verify(signed.rawBody, signed.headers), 'verifies with the new key');
    assert.ok(new Webhook(oldKey).verify(signed.rawBody, signed.headers), 'verifies with the old key');
    assert.throws(() => new Webhook(newKey()).verify(signed.rawBody, signed.headers), /No matching signature/);
    const { checksum, ...rest } = JSON.parse(signed.rawBody) as Record<string, unknown>;
    assert.equal(checksum, postbackChecksum(rest, newer));
    assert.notEqual(checksum, postbackChecksum(rest, oldKey));

    const after = signPostback(payload, { eventId: 'evt-3', sequence: 2, attempt: 2, timestampSeconds: timestamp }, { current: newer });
    assert.equal((after.headers['webhook-signature'] as string).split(' ').length, 1);
    assert.throws(() => new Webhook(oldKey).verify(after.rawBody, after.headers), /No matching signature/);
    assert.ok(new Webhook(newer).verify(after.rawBody, after.headers));
  });
});
