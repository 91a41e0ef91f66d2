import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { MAX_BODY_DEPTH } from '../../contract/constants.js';
import { buildServer, UI_NOT_BUILT } from '../../main/http/server.js';
import { assertApiError, createTestMerchant, startTestGateway, tempDir, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { countOf } from '../helpers/sql.js';

const CARD = '4111111111111111';

const validMandate = {
  payment_type: 'dd',
  recurring: 1,
  first_name: 'Ada',
  last_name: 'Lovelace',
  account_holder: 'Ada Lovelace',
  iban: 'DE89 3704 0044 0532 0130 00',
  email: 'ada@example.com',
} as const;

interface MandateBody {
  sepa_mandate: string;
  mandate_date: string;
  payment_type: string;
  recurring: number;
  iban_last_four: string;
  error_code: number;
}

function mandateCount(gw: TestGateway, merchantId: string): Promise<number> {
  return countOf(gw, 'SELECT COUNT(*) AS n FROM mandates WHERE merchant_id = ?', merchantId);
}

function idempotencyRows(gw: TestGateway, merchantId: string, key: string): Promise<number> {
  return countOf(gw, 'SELECT COUNT(*) AS n FROM idempotency_keys WHERE merchant_id = ? AND key = ?', merchantId, key);
}

async function postMandate(
  gw: TestGateway,
  merchant: TestMerchant,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return gw.app.inject({
    method: 'POST',
    url: '/rest/create_mandate_reference',
    headers: { authorization: merchant.auth, 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function basic(key: string, password: string): string {
  return `Basic ${Buffer.from(`${key}:${password}`).toString('base64')}`;
}

describe('HTTP foundation', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let otherShop: TestMerchant;

  before(async () => {
    gw = await startTestGateway({ flags: { 'lockout-max-failures': '3' } });
    shop = await createTestMerchant(gw, 'Shop A');
    otherShop = await createTestMerchant(gw, 'Shop B');
  });

  after(async () => {
    await gw.close();
  });

  const list = (options: Partial<InjectOptions> & { url?: string } = {}) =>
    gw.app.inject({ method: 'GET', url: '/rest/transactions', headers: { authorization: shop.auth }, ...options });

  describe('authentication', () => {
    test('authenticated GET /rest/transactions is 200 with an empty array', async () => {
      const response = await list();
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      assert.deepEqual(response.json(), []);
      assert.ok(response.headers['x-request-id'], 'every response carries X-Request-Id');
    });

    test('no Authorization: 401 with WWW-Authenticate and the D3 body', async () => {
      const response = await list({ headers: {}, remoteAddress: '10.1.0.1' });
      assertApiError(response, 401, 2001);
      assert.match(String(response.headers['www-authenticate']), /^Basic realm="gateway"/);
    });

    test('wrong password: 401', async () => {
      const response = await list({ headers: { authorization: basic(shop.api_key, `${shop.api_password}x`) }, remoteAddress: '10.1.0.2' });
      const body = assertApiError(response, 401, 2001);
      assert.match(String(response.headers['www-authenticate']), /^Basic realm="gateway"/);
      assert.ok(!response.body.includes(shop.api_key), 'the key is not echoed');
      assert.ok(body.message.length > 0);
    });

    test('unknown API key: 401', async () => {
      const response = await list({ headers: { authorization: basic('tg_test_unknown', shop.api_password) }, remoteAddress: '10.1.0.3' });
      assertApiError(response, 401, 2001);
      assert.match(String(response.headers['www-authenticate']), /^Basic realm="gateway"/);
    });

    test("another merchant's key with this merchant's password: 401", async () => {
      const response = await list({ headers: { authorization: basic(otherShop.api_key, shop.api_password) }, remoteAddress: '10.1.0.4' });
      assertApiError(response, 401, 2001);
    });

    test('malformed Authorization headers: 401, never 5xx', async () => {
      const headers = [
        'Bearer abc',
        'Basic',
        'Basic !!!',
        `Basic ${Buffer.from('no-colon').toString('base64')}`,
        `Basic ${Buffer.from(':only-password').toString('base64')}`,
      ];
      for (const [i, authorization] of headers.entries()) {
        const response = await list({ headers: { authorization }, remoteAddress: `10.2.0.${i + 1}` });
        assertApiError(response, 401, 2001);
      }
    });

    test('after N failures from one source: 429 (4004) with Retry-After, even with correct credentials', async () => {
      const source = '10.3.0.1';
      const wrong = basic(shop.api_key, 'wrong-password');
      for (let i = 0; i < 3; i += 1) {
        assertApiError(await list({ headers: { authorization: wrong }, remoteAddress: source }), 401, 2001);
      }
      const locked = await list({ remoteAddress: source });
      assertApiError(locked, 429, 4004);
      const retryAfter = Number(locked.headers['retry-after']);
      assert.ok(
        Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 15 * 60,
        `Retry-After ${String(locked.headers['retry-after'])}`,
      );
      // The lock-out is per source: the same credentials from elsewhere still work.
      const elsewhere = await list({ remoteAddress: '10.3.0.2' });
      assert.equal(elsewhere.statusCode, 200);
    });

    test('fewer failures than the limit do not lock out', async () => {
      const source = '10.3.1.1';
      const wrong = basic(shop.api_key, 'wrong-password');
      for (let i = 0; i < 2; i += 1) assertApiError(await list({ headers: { authorization: wrong }, remoteAddress: source }), 401, 2001);
      assert.equal((await list({ remoteAddress: source })).statusCode, 200);
    });
  });

  describe('request validation', () => {
    test('malformed JSON: 400 naming body, without echoing the body', async () => {
      const response = await postMandate(gw, shop, `{"card_number": "${CARD}", "iban": "DE89`);
      assertApiError(response, 400, 1001, ['body']);
      assert.ok(!response.body.includes(CARD), 'the card number is not echoed');
      assert.ok(!response.body.includes('411111'), 'not even its BIN');
      assert.ok(!response.body.includes('DE89'), 'no part of the body is echoed');
    });

    test('empty JSON body: 400 naming body', async () => {
      const response = await postMandate(gw, shop, '');
      assertApiError(response, 400, 1001, ['body']);
    });

    test('JSON that is not an object: 400', async () => {
      for (const payload of ['[]', '"text"', '42', 'null']) {
        const response = await postMandate(gw, shop, payload);
        assertApiError(response, 400, 1001);
      }
    });

    test('prototype pollution attempt: 400, not processed', async () => {
      const response = await postMandate(gw, shop, `{"__proto__": {"admin": true}, ${JSON.stringify(validMandate).slice(1)}`);
      assertApiError(response, 400, 1001);
    });

    test('unknown field: 400 naming it', async () => {
      const response = await postMandate(gw, shop, { ...validMandate, card_number: CARD });
      const body = assertApiError(response, 400, 1001, ['card_number']);
      assert.ok(!response.body.includes(CARD));
      assert.match(body.errors.find((e) => e.field === 'card_number')?.message ?? '', /not a known field/);
    });

    test('missing required fields: 400 naming each', async () => {
      const response = await postMandate(gw, shop, { payment_type: 'dd' });
      assertApiError(response, 400, 1001, ['account_holder', 'iban']);
    });

    test('wrong type, no coercion: "recurring": "1" is 400 naming recurring', async () => {
      const response = await postMandate(gw, shop, { ...validMandate, recurring: '1' });
      const body = assertApiError(response, 400, 1001, ['recurring']);
      assert.equal(body.errors.length, 1, JSON.stringify(body.errors));
    });

    test('invalid IBAN checksum: 400 naming iban', async () => {
      const response = await postMandate(gw, shop, { ...validMandate, iban: 'DE89370400440532013001' });
      assertApiError(response, 400, 1001, ['iban']);
      assert.ok(!response.body.includes('DE89370400440532013001'));
    });

    test('a valid request creates a mandate (control for the 400s above)', async () => {
      const before = await mandateCount(gw, shop.merchant_id);
      const response = await postMandate(gw, shop, validMandate);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json<MandateBody>();
      assert.match(body.sepa_mandate, /^MND-\d{8}-[A-Z2-9]{10}$/);
      assert.ok(body.sepa_mandate.length <= 35);
      assert.equal(body.iban_last_four, '3000');
      assert.equal(body.error_code, 0);
      assert.equal(body.recurring, 1);
      assert.equal(await mandateCount(gw, shop.merchant_id), before + 1);
    });

    test('body above 1 MiB: 413 with error_code 4003', async () => {
      const response = await postMandate(gw, shop, { ...validMandate, first_name: 'x'.repeat(1024 * 1024) });
      assertApiError(response, 413, 4003);
    });

    test('a body just under 1 MiB is parsed (and then validated)', async () => {
      const payload = JSON.stringify({ ...validMandate, first_name: '' });
      const padded = `${payload.slice(0, -1)}${' '.repeat(1024 * 1024 - payload.length)}}`;
      assert.equal(Buffer.byteLength(padded), 1024 * 1024);
      const response = await postMandate(gw, shop, padded);
      assert.equal(response.statusCode, 200, response.body);
    });

    test(`a body nested deeper than ${MAX_BODY_DEPTH} levels: 400 naming body at every endpoint, nothing stored; ${MAX_BODY_DEPTH} levels are parsed`, async () => {
      const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
      const before = await mandateCount(gw, shop.merchant_id);
      const valid = JSON.stringify(validMandate).slice(0, -1);
      for (const levels of [MAX_BODY_DEPTH, 1_000, 20_000]) {
        // The body is level 1, so `deep` holds the rest; the endpoints the fuzzer found answering 500.
        for (const url of ['/rest/create_mandate_reference', '/rest/payment', '/rest/checkouts', '/v2/network_tokens', '/rest/invoices']) {
          const response = await gw.app.inject({
            method: 'POST',
            url,
            headers: { authorization: shop.auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            payload: `${url === '/rest/create_mandate_reference' ? valid : '{"x":1'},"deep":${nested(levels)}}`,
          });
          assert.ok(response.statusCode < 500, `${url} ${levels}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          if (levels + 1 > MAX_BODY_DEPTH) {
            const body = assertApiError(response, 400, 1001, ['body']);
            assert.match(body.errors[0]?.message ?? '', new RegExp(`more than ${MAX_BODY_DEPTH} levels`));
          } else {
            // Within the bound the schema decides: `deep` is not a known field.
            assert.doesNotMatch(response.body, /levels deep/, url);
          }
        }
      }
      // Brackets inside strings are text, not nesting.
      const inString = await postMandate(gw, shop, { ...validMandate, first_name: `Ada${'[{'.repeat(500)}` });
      assert.doesNotMatch(inString.body, /levels deep/);
      assert.equal(await mandateCount(gw, shop.merchant_id), before);
    });

    test('text with the NUL character: 400 naming each field (or path, or query), on both engines, nothing stored', async () => {
      const before = await mandateCount(gw, shop.merchant_id);
      const response = await postMandate(gw, shop, {
        ...validMandate,
        first_name: 'Ada\u0000',
        last_name: 'Love\u0000lace',
        email: 'ada@example.com',
      });
      const body = assertApiError(response, 400, 1001, ['first_name', 'last_name']);
      assert.match(body.errors[0]?.message ?? '', /NUL/);
      assert.equal(await mandateCount(gw, shop.merchant_id), before);
      const key = await postMandate(gw, shop, JSON.stringify(validMandate).replace('"email"', '"em\\u0000ail"'));
      assertApiError(key, 400, 1001, ['em\\u0000ail']);
      const path = await gw.app.inject({ method: 'GET', url: '/rest/transactions/a%00b', headers: { authorization: shop.auth } });
      assertApiError(path, 400, 1001, ['path']);
      const query = await gw.app.inject({ method: 'GET', url: '/rest/transactions?order_id=a%00b', headers: { authorization: shop.auth } });
      assertApiError(query, 400, 1001, ['query']);
      // An escaped backslash before "u0000" is text, not NUL.
      const text = await postMandate(gw, shop, { ...validMandate, first_name: 'Ada \\u0000' });
      assert.equal(text.statusCode, 200, text.body);
    });

    test('a failure inside the error handler is still a 500 in the D3 shape, without its message', async () => {
      const app = await buildServer(gw.composition.gateway, { uiDir: tempDir() });
      try {
        app.get('/rest/error-handler-fails', async () => {
          // `validation` that is not a list makes the handler's own reading of it throw.
          throw Object.assign(new Error('internal detail 4111111111111111'), { validation: 5, validationContext: 'body' });
        });
        const response = await app.inject({ method: 'GET', url: '/rest/error-handler-fails' });
        const body = assertApiError(response, 500, 5002);
        assert.match(body.message, /correlation id/);
        assert.doesNotMatch(response.body, /internal detail|4111|iterable/);
      } finally {
        await app.close();
      }
    });

    test('a request that reaches a closing gateway: 503 (5004) in the D3 shape, Retry-After, not started', async () => {
      const app = await buildServer(gw.composition.gateway, { uiDir: tempDir() });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as AddressInfo;
      const body = JSON.stringify(validMandate);
      const request = (key: string, payload: string) =>
        `POST /rest/create_mandate_reference HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${shop.auth}\r\nContent-Type: application/json\r\n` +
        `Idempotency-Key: ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${payload}`;
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
      });
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      const before = await mandateCount(gw, shop.merchant_id);
      // The first request is under way (its body half sent) when the gateway starts closing; the
      // second, pipelined behind it on the same connection, arrives at a closing gateway.
      await new Promise<void>((resolve) => socket.write(request(randomUUID(), body.slice(0, 10)), () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closed = app.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.write(`${body.slice(10)}${request(randomUUID(), body)}`);
      await Promise.all([closed, ended]);
      const answers = received.split(/(?=HTTP\/1\.1 )/);
      assert.equal(answers.length, 2, received);
      assert.match(answers[0] ?? '', /^HTTP\/1\.1 200/);
      assert.match(answers[1] ?? '', /^HTTP\/1\.1 503/);
      assert.match(answers[1] ?? '', /retry-after: 5/i);
      const refused = JSON.parse((answers[1] ?? '').split('\r\n\r\n')[1] ?? '') as {
        error_code: number;
        message: string;
        errors: unknown[];
      };
      assert.equal(refused.error_code, 5004);
      assert.deepEqual(Object.keys(refused).sort(), ['error_code', 'errors', 'message']);
      assert.equal(await mandateCount(gw, shop.merchant_id), before + 1, 'the first request did its work, the second none');
    });

    test('wrong content type: 4xx naming Content-Type', async () => {
      const response = await gw.app.inject({
        method: 'POST',
        url: '/rest/create_mandate_reference',
        headers: { authorization: shop.auth, 'content-type': 'text/plain' },
        payload: JSON.stringify(validMandate),
      });
      assert.ok(response.statusCode >= 400 && response.statusCode < 500, String(response.statusCode));
      assertApiError(response, response.statusCode, 1001, ['Content-Type']);
      const form = await gw.app.inject({
        method: 'POST',
        url: '/rest/create_mandate_reference',
        headers: { authorization: shop.auth, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'payment_type=dd',
      });
      assertApiError(form, form.statusCode, 1001, ['Content-Type']);
    });

    test('unknown route: 404 with the D3 body', async () => {
      const response = await gw.app.inject({ method: 'GET', url: '/rest/nothing-here', headers: { authorization: shop.auth } });
      assertApiError(response, 404, 3001);
      const post = await gw.app.inject({ method: 'POST', url: `/rest/pay/${CARD}`, headers: { authorization: shop.auth } });
      assertApiError(post, 404, 3001);
      assert.ok(!post.body.includes(CARD), 'a card number in the path is masked');
    });

    test('a URL that cannot be decoded or has an over-long parameter: 400 naming path, URL not echoed', async () => {
      const badEncoding = await gw.app.inject({
        method: 'GET',
        url: `/rest/transactions/${CARD}%ff`,
        headers: { authorization: shop.auth },
      });
      assertApiError(badEncoding, 400, 1001, ['path']);
      assert.ok(!badEncoding.body.includes(CARD));
      const longParam = await gw.app.inject({
        method: 'GET',
        url: `/rest/transactions/${CARD}${'x'.repeat(100)}/log`,
        headers: { authorization: shop.auth },
      });
      assertApiError(longParam, 400, 1001, ['path']);
      assert.ok(!longParam.body.includes(CARD));
    });

    test('/app/ of a checkout whose UI was never built: 503 saying how to build it, not "No route"', async () => {
      const unbuilt = await buildServer(gw.composition.gateway, { uiDir: tempDir() });
      try {
        for (const url of ['/app/', '/app/index.html']) {
          const response = await unbuilt.inject({ method: 'GET', url });
          assert.equal(response.statusCode, 503, url);
          assert.equal(response.body, UI_NOT_BUILT);
          assert.match(response.body, /npm run build:renderer/);
        }
        assert.equal((await unbuilt.inject({ method: 'GET', url: '/' })).headers.location, '/docs');
      } finally {
        await unbuilt.close();
      }
      const builtDir = tempDir();
      writeFileSync(join(builtDir, 'index.html'), '<!doctype html><title>Tillgate</title>');
      const built = await buildServer(gw.composition.gateway, { uiDir: builtDir });
      try {
        const page = await built.inject({ method: 'GET', url: '/app/' });
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /<title>Tillgate<\/title>/);
        assert.equal((await built.inject({ method: 'GET', url: '/' })).headers.location, '/app/');
      } finally {
        await built.close();
      }
    });

    test('unknown transaction: 404 (3001) naming transaction_id', async () => {
      const response = await gw.app.inject({
        method: 'GET',
        url: `/rest/transactions/${randomUUID()}`,
        headers: { authorization: shop.auth },
      });
      assertApiError(response, 404, 3001, ['transaction_id']);
    });
  });

  describe('transaction list filters', () => {
    test('valid filters: 200', async () => {
      const query = new URLSearchParams({
        from: '2024-02-29T00:00:00+02:00',
        to: '2026-12-31T23:59:59Z',
        status: '3,8',
        currency: 'EUR',
        order_id: 'order-1',
        limit: '500',
        offset: '0',
      });
      const response = await list({ url: `/rest/transactions?${query}` });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), []);
    });

    const bad: Array<[string, string]> = [
      ['from', 'from=yesterday'],
      ['from', 'from=2026-13-45T00:00:00Z'],
      ['to', 'to=2026-01-01T25:00:00Z'],
      ['from', 'from=2026-02-30T00:00:00Z'],
      ['to', 'to=2025-02-29'],
      ['status', 'status=3,99'],
      ['status', 'status=completed'],
      ['status', 'status=3,,8'],
      ['currency', 'currency=EURO'],
      ['currency', 'currency=eur'],
      ['currency', 'currency=XAU'],
      ['limit', 'limit=501'],
      ['limit', 'limit=0'],
      ['limit', 'limit=-1'],
      ['offset', 'offset=abc'],
      ['from', 'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z'],
      ['unknown', 'unknown=1'],
    ];
    for (const [field, query] of bad) {
      test(`?${query}: 400 naming ${field}`, async () => {
        const response = await list({ url: `/rest/transactions?${query}` });
        assertApiError(response, 400, 1001, [field]);
      });
    }

    test('several bad filters: every field is named', async () => {
      const response = await list({ url: '/rest/transactions?from=nope&status=x&currency=US&limit=501' });
      assertApiError(response, 400, 1001, ['from', 'status', 'currency', 'limit']);
    });

    test('bad input never yields 5xx', async () => {
      const requests: InjectOptions[] = [
        { method: 'GET', url: `/rest/transactions/${'x'.repeat(65)}` },
        { method: 'GET', url: '/rest/transactions/%00%ff' },
        { method: 'GET', url: `/rest/transactions/${CARD}%ff` },
        { method: 'GET', url: `/rest/transactions/${CARD}${'x'.repeat(100)}/log` },
        { method: 'GET', url: '/rest/transactions?from=%E2%82%AC&to=%00' },
        { method: 'GET', url: '/rest/transactions?status=' },
        { method: 'GET', url: '/rest/transactions?limit=99999999999999999999' },
        { method: 'GET', url: '/rest/transactions?from[]=1&from[]=2' },
        { method: 'POST', url: '/rest/transactions', payload: '{}' },
        { method: 'DELETE', url: '/rest/create_mandate_reference' },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: '{"a":'.repeat(5000) },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: JSON.stringify({ ...validMandate, iban: '€'.repeat(40) }) },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: JSON.stringify({ ...validMandate, email: 'not-an-email' }) },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: JSON.stringify({ ...validMandate, bic: 'XXXX' }) },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: JSON.stringify({ ...validMandate, account_holder: '   ' }) },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: JSON.stringify({ ...validMandate, payment_type: 'card' }) },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: JSON.stringify({ ...validMandate, recurring: 2 }) },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: JSON.stringify({ ...validMandate, recurring: 1.5 }) },
        { method: 'POST', url: '/rest/create_mandate_reference', payload: JSON.stringify({ ...validMandate, recurring: null }) },
      ];
      for (const request of requests) {
        const response = await gw.app.inject({
          ...request,
          headers: { authorization: shop.auth, ...(request.payload !== undefined ? { 'content-type': 'application/json' } : {}) },
        });
        assert.ok(
          response.statusCode >= 400 && response.statusCode < 500,
          `${request.method} ${request.url}: ${response.statusCode} ${response.body}`,
        );
        assertApiError(response, response.statusCode, JSON.parse(response.body).error_code as number);
        assert.ok(!response.body.includes(CARD), `${request.method} ${request.url} echoes the card number: ${response.body}`);
      }
    });
  });

  describe('idempotency', () => {
    test('same key and body: same status, byte-identical body, Idempotent-Replayed, one mandate', async () => {
      const key = randomUUID();
      const before = await mandateCount(gw, shop.merchant_id);
      const first = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      // Same JSON with another key order and spacing is the same request (RFC 8785 fingerprint).
      const reordered = JSON.stringify(Object.fromEntries(Object.entries(validMandate).reverse()), null, 2);
      for (const payload of [validMandate, reordered]) {
        const again = await postMandate(gw, shop, payload, { 'idempotency-key': key });
        assert.equal(again.statusCode, first.statusCode);
        assert.equal(again.body, first.body);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.equal(again.headers['content-type'], first.headers['content-type']);
      }
      assert.equal(await mandateCount(gw, shop.merchant_id), before + 1);
    });

    test('same key, different body: 422 with error_code 4002, nothing created', async () => {
      const key = randomUUID();
      const first = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(first.statusCode, 200);
      const before = await mandateCount(gw, shop.merchant_id);
      const changed = await postMandate(gw, shop, { ...validMandate, account_holder: 'Someone Else' }, { 'idempotency-key': key });
      assertApiError(changed, 422, 4002);
      assert.equal(await mandateCount(gw, shop.merchant_id), before);
      // The original is still replayed afterwards.
      const again = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(again.body, first.body);
    });

    test('same key, a body that does not validate: 422 with error_code 4002 (the key holds an answer), not the 400', async () => {
      // Nothing is looked up before the operation runs: its refusal, which is never stored, is
      // not given for a key that holds an answer (Operations.perform looks the key up then).
      const key = randomUUID();
      const first = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(first.statusCode, 200);
      const before = await mandateCount(gw, shop.merchant_id);
      assertApiError(await postMandate(gw, shop, { ...validMandate, iban: 'not an iban' }, { 'idempotency-key': key }), 422, 4002);
      assert.equal(await mandateCount(gw, shop.merchant_id), before);
      // Without the key the same body is refused as it is.
      assertApiError(await postMandate(gw, shop, { ...validMandate, iban: 'not an iban' }), 400, 1001);
    });

    test('X-Idempotency-Key works the same and shares the key space with Idempotency-Key', async () => {
      const key = randomUUID();
      const before = await mandateCount(gw, shop.merchant_id);
      const first = await postMandate(gw, shop, validMandate, { 'x-idempotency-key': key });
      assert.equal(first.statusCode, 200);
      const again = await postMandate(gw, shop, validMandate, { 'x-idempotency-key': key });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      const viaOtherHeader = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(viaOtherHeader.body, first.body);
      assert.equal(viaOtherHeader.headers['idempotent-replayed'], 'true');
      const changed = await postMandate(gw, shop, { ...validMandate, recurring: 0 }, { 'x-idempotency-key': key });
      assertApiError(changed, 422, 4002);
      assert.equal(await mandateCount(gw, shop.merchant_id), before + 1);
    });

    test('keys are scoped per merchant', async () => {
      const key = randomUUID();
      const beforeA = await mandateCount(gw, shop.merchant_id);
      const beforeB = await mandateCount(gw, otherShop.merchant_id);
      const a = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      const b = await postMandate(gw, otherShop, validMandate, { 'idempotency-key': key });
      assert.equal(a.statusCode, 200);
      assert.equal(b.statusCode, 200);
      assert.equal(b.headers['idempotent-replayed'], undefined, "not a replay of the other merchant's reply");
      assert.notEqual(a.json<MandateBody>().sepa_mandate, b.json<MandateBody>().sepa_mandate);
      // A different body under the same key is fine for the other merchant too.
      const otherKey = randomUUID();
      assert.equal((await postMandate(gw, shop, validMandate, { 'idempotency-key': otherKey })).statusCode, 200);
      assert.equal((await postMandate(gw, otherShop, { ...validMandate, recurring: 0 }, { 'idempotency-key': otherKey })).statusCode, 200);
      assert.equal(await mandateCount(gw, shop.merchant_id), beforeA + 2);
      assert.equal(await mandateCount(gw, otherShop.merchant_id), beforeB + 2);
    });

    test('key length: 255 characters are accepted, 256 are a 400 naming the header; empty is a 400', async () => {
      const longest = 'k'.repeat(255);
      const ok = await postMandate(gw, shop, validMandate, { 'idempotency-key': longest });
      assert.equal(ok.statusCode, 200, ok.body);
      const before = await mandateCount(gw, shop.merchant_id);
      const tooLong = await postMandate(gw, shop, validMandate, { 'idempotency-key': 'k'.repeat(256) });
      assertApiError(tooLong, 400, 1001, ['Idempotency-Key']);
      const tooLongX = await postMandate(gw, shop, validMandate, { 'x-idempotency-key': 'k'.repeat(256) });
      assertApiError(tooLongX, 400, 1001, ['X-Idempotency-Key']);
      const empty = await postMandate(gw, shop, validMandate, { 'idempotency-key': '' });
      assertApiError(empty, 400, 1001, ['Idempotency-Key']);
      assert.equal(await mandateCount(gw, shop.merchant_id), before);
    });

    test('requests rejected by validation are not stored: the key can be reused for the fixed request', async () => {
      // A semantic (use-case) validation failure...
      const key = randomUUID();
      const bad = await postMandate(gw, shop, { ...validMandate, iban: 'DE89370400440532013001' }, { 'idempotency-key': key });
      assertApiError(bad, 400, 1001, ['iban']);
      assert.equal(await idempotencyRows(gw, shop.merchant_id, key), 0);
      const before = await mandateCount(gw, shop.merchant_id);
      const fixed = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(fixed.statusCode, 200, fixed.body);
      assert.equal(fixed.headers['idempotent-replayed'], undefined);
      assert.equal(await mandateCount(gw, shop.merchant_id), before + 1);
      assert.equal(await idempotencyRows(gw, shop.merchant_id, key), 1);
      // ...and a schema failure.
      const key2 = randomUUID();
      assertApiError(await postMandate(gw, shop, { ...validMandate, recurring: '1' }, { 'idempotency-key': key2 }), 400, 1001, [
        'recurring',
      ]);
      assertApiError(await postMandate(gw, shop, '{not json', { 'idempotency-key': key2 }), 400, 1001, ['body']);
      const fixed2 = await postMandate(gw, shop, validMandate, { 'idempotency-key': key2 });
      assert.equal(fixed2.statusCode, 200, fixed2.body);
      assert.equal(fixed2.headers['idempotent-replayed'], undefined);
      assert.equal(await mandateCount(gw, shop.merchant_id), before + 2);
    });

    test('concurrent requests with one key are processed once: the others replay or get 409 (4001)', async () => {
      const key = randomUUID();
      const before = await mandateCount(gw, shop.merchant_id);
      const responses = await Promise.all(Array.from({ length: 6 }, () => postMandate(gw, shop, validMandate, { 'idempotency-key': key })));
      assert.equal(await mandateCount(gw, shop.merchant_id), before + 1, 'exactly one mandate');
      const succeeded = responses.filter((r) => r.statusCode === 200);
      assert.ok(succeeded.length >= 1);
      assert.equal(new Set(succeeded.map((r) => r.body)).size, 1, 'every 200 carries the same reply');
      assert.equal(succeeded.filter((r) => r.headers['idempotent-replayed'] === undefined).length, 1, 'one original, the rest replays');
      for (const response of responses.filter((r) => r.statusCode !== 200)) assertApiError(response, 409, 4001);
      // Once settled, the key replays.
      const after = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(after.headers['idempotent-replayed'], 'true');
      assert.equal(after.body, succeeded[0]?.body);
    });

    test('GET requests ignore idempotency keys', async () => {
      const key = randomUUID();
      const response = await list({ headers: { authorization: shop.auth, 'idempotency-key': key } });
      assert.equal(response.statusCode, 200);
      assert.equal(await idempotencyRows(gw, shop.merchant_id, key), 0);
    });
  });
});

describe('idempotency records are durable and expire', () => {
  test('a record survives a restart on the same data dir, and is not replayed after the retention', async () => {
    const first = await startTestGateway();
    const shop = await createTestMerchant(first);
    const key = randomUUID();
    const original = await postMandate(first, shop, validMandate, { 'idempotency-key': key });
    assert.equal(original.statusCode, 200, original.body);
    await first.close();

    // "Restart": a new composition and server on the same directory, data key and clock.
    const second = await startTestGateway({ dir: first.dir, dataKey: first.dataKey, clock: first.clock });
    try {
      const replay = await postMandate(second, shop, validMandate, { 'idempotency-key': key });
      assert.equal(replay.statusCode, original.statusCode);
      assert.equal(replay.body, original.body);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assertApiError(await postMandate(second, shop, { ...validMandate, recurring: 0 }, { 'idempotency-key': key }), 422, 4002);
      assert.equal(await mandateCount(second, shop.merchant_id), 1);

      // Just inside the retention (1 hour by default): still replayed.
      second.clock.advance(60 * 60 * 1000 - 60 * 1000);
      const late = await postMandate(second, shop, validMandate, { 'idempotency-key': key });
      assert.equal(late.headers['idempotent-replayed'], 'true');
      assert.equal(late.body, original.body);

      // Past the retention: the key is new again, the request is processed once more.
      second.clock.advance(2 * 60 * 1000);
      const expired = await postMandate(second, shop, validMandate, { 'idempotency-key': key });
      assert.equal(expired.statusCode, 200, expired.body);
      assert.equal(expired.headers['idempotent-replayed'], undefined);
      assert.notEqual(expired.json<MandateBody>().sepa_mandate, original.json<MandateBody>().sepa_mandate);
      assert.equal(await mandateCount(second, shop.merchant_id), 2);
      // The key now holds the new reply.
      const replayOfNew = await postMandate(second, shop, validMandate, { 'idempotency-key': key });
      assert.equal(replayOfNew.body, expired.body);

      // Expired records are purged.
      second.clock.advance(60 * 60 * 1000 + 1000);
      assert.ok((await second.composition.gateway.idempotency.purgeExpired()) >= 1);
      assert.equal(await idempotencyRows(second, shop.merchant_id, key), 0);
    } finally {
      await second.close();
    }
  });

  test('the retention is a setting', async () => {
    const gw = await startTestGateway({ flags: { 'idempotency-retention-hours': '2' } });
    try {
      const shop = await createTestMerchant(gw);
      const key = randomUUID();
      const original = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      gw.clock.advance(90 * 60 * 1000);
      const replay = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, original.body);
      gw.clock.advance(31 * 60 * 1000);
      const fresh = await postMandate(gw, shop, validMandate, { 'idempotency-key': key });
      assert.equal(fresh.headers['idempotent-replayed'], undefined);
      assert.equal(await mandateCount(gw, shop.merchant_id), 2);
    } finally {
      await gw.close();
    }
  });
});
