// Property-based tests over every endpoint of the OpenAPI document (/rest and /v2 with API
// credentials, a partner's on /v2/merchants, the app's /ui routes with an admin's session) (issue
// "Reliability and security", 10), with fast-check: requests made from each operation's own examples, mutated
// (fields dropped, replaced by values of other types, extra fields, odd path ids and queries),
// plus arbitrary JSON bodies. Properties: never a 5xx; every error in the documented shape (D3, or
// {message, error} for invoices); and afterwards the money invariants hold in the database
// (captured <= authorized, refunded <= captured, refunds sum to what was refunded, one active
// invoice per number and channel). A second property runs random sequences of authorize, capture,
// reverse and refund on the same transactions, concurrently, checking the limits after each.
//
// Bounded and repeatable: a fixed seed and a fixed count. PROPERTY_RUNS=5000 (and PROPERTY_SEED)
// run longer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { TestMerchant } from '../helpers/api.js';
import { basicAuth } from '../helpers/gateway-process.js';
import { newMerchant, orderId, startHarness, type Harness } from '../helpers/payments.js';
import { jsonText, percentEncodeAnyText, unusualUnicode, withHostileValue } from '../helpers/hostile-json.js';
import { sqlOf } from '../helpers/sql.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 250);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);

interface Operation {
  method: string;
  path: string;
  examples: unknown[];
  query: string[];
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> };
        parameters?: { in: string; name: string }[];
      }
    >
  >;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Values of every JSON type, and the usual suspects of an API's input. */
const oddValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1e12, max: 1e12 }),
  fc.double({ noNaN: true }),
  fc.constantFrom(1e308, -0, 0.005, 999999999.999, 1234.567, 'NaN', '1e3', '', ' ', '0x10', '4111111111111111', 'DE89370400440532013000'),
  fc.string({ maxLength: 40 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

/** A copy of an example with some fields dropped, some replaced by odd values, maybe an extra one. */
function mutated(example: unknown): fc.Arbitrary<unknown> {
  if (example === null || typeof example !== 'object' || Array.isArray(example)) return fc.oneof(fc.constant(example), oddValue);
  const entries = Object.entries(example as Record<string, unknown>);
  return fc
    .tuple(
      fc.array(fc.boolean(), { minLength: entries.length, maxLength: entries.length }),
      fc.array(fc.option(oddValue, { freq: 4 }), { minLength: entries.length, maxLength: entries.length }),
      fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), oddValue), { freq: 3 }),
    )
    .map(([drop, replace, extra]) => {
      const copy: Record<string, unknown> = {};
      entries.forEach(([key, value], i) => {
        if (drop[i] && i % 3 === 0) return;
        const odd = replace[i];
        copy[key] = odd !== null && odd !== undefined ? odd : value;
      });
      if (extra) copy[extra[0]] = extra[1];
      return copy;
    });
}

function isD3(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return (
    Number.isInteger(b.error_code) &&
    typeof b.message === 'string' &&
    Array.isArray(b.errors) &&
    b.errors.every(
      (e) =>
        e &&
        typeof e === 'object' &&
        typeof (e as Record<string, unknown>).field === 'string' &&
        typeof (e as Record<string, unknown>).message === 'string',
    )
  );
}

function isInvoiceError(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return typeof b.message === 'string' && (typeof b.error === 'string' || Array.isArray(b.error));
}

describe('properties of every endpoint', () => {
  let h: Harness;
  let merchant: TestMerchant;
  /** A partner's credentials for the merchant-management paths (/v2/merchants). */
  let partnerAuth = '';
  /** Path parameters the generator fills in with a real value some of the time. */
  let known: Record<string, string[]> = {};
  /** An admin's session for the app's own /ui routes. */
  let staffCookie = '';
  let operations: Operation[] = [];
  const seen: string[] = [];

  before(async () => {
    h = await startHarness();
    merchant = await newMerchant(h, 'Property Shop');
    const admin = await h.gateway.staff.create({ merchantId: merchant.merchant_id, role: 'admin', login: 'prop-admin', pin: '2468' });
    assert.ok(admin.ok);
    const login = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'prop-admin', pin: '2468' } });
    staffCookie = `tillgate_session=${login.cookies.find((c) => c.name === 'tillgate_session')?.value ?? ''}`;
    const partner = await h.gateway.partners.create({ name: 'Property Vendor' });
    assert.ok(partner.ok);
    partnerAuth = basicAuth(partner.value);
    // A merchant of its own: what the generated PUTs switch off must not change what the API's payments may do.
    const managed = await h.gateway.merchants.create({ name: 'Property Managed Shop', partnerId: partner.value.partner_id });
    assert.ok(managed.ok);
    const shop = await h.gateway.partners.createShop(managed.value.merchant_id, 'Property Shop Station Road');
    assert.ok(shop.ok);
    known = { merchant_id: [managed.value.merchant_id], shop_id: [shop.value.shop_id], payment_type: ['cardecom', 'cardpos', 'dd', 'a2a'] };
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDoc>();
    operations = Object.entries(doc.paths)
      .filter(([path]) => /^\/(rest|v2|ui)\//.test(path))
      .flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([method]) => METHODS.includes(method))
          .map(([method, op]) => ({
            method: method.toUpperCase(),
            path,
            examples: Object.values(op.requestBody?.content?.['application/json']?.examples ?? {}).map((e) => e.value),
            query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
          })),
      );
    assert.ok(operations.length > 30, `the API's operations: ${operations.length}`);
  });

  after(async () => {
    await h.close();
  });

  const request = fc.integer({ min: 0, max: 10_000 }).chain((index) => {
    const op = operations[index % operations.length] as Operation;
    const oddId = fc.oneof(
      fc.constant('00000000-0000-7000-8000-000000000000'),
      fc.string({ minLength: 1, maxLength: 30 }),
      fc.constantFrom('4993855515500716', '..', '%', 'INV-0001', 'a\u0000b'),
      unusualUnicode,
    );
    // Each path parameter: an odd id, or (for the merchant-management ones) mostly a real one.
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    const pathIds = fc.tuple(
      ...names.map((name) =>
        known[name]
          ? fc.oneof({ arbitrary: fc.constantFrom(...(known[name] as string[])), weight: 4 }, { arbitrary: oddId, weight: 1 })
          : oddId,
      ),
    );
    // Valid requests (the examples as they are), near-valid ones (mutated), and anything at all.
    const body = op.examples.length
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...op.examples), weight: 3 },
          { arbitrary: fc.constantFrom(...op.examples).chain(mutated), weight: 4 },
          { arbitrary: fc.anything({ maxDepth: 2 }), weight: 1 },
        )
      : fc.option(fc.anything({ maxDepth: 2 }));
    const query = fc.array(
      fc.tuple(fc.constantFrom(...(op.query.length ? op.query : ['x'])), fc.oneof(fc.string({ maxLength: 20 }), unusualUnicode)),
      { maxLength: 3 },
    );
    return fc.record({ op: fc.constant(op), ids: pathIds, body, query });
  });

  test(`${RUNS} generated requests: never a 5xx, errors in the documented shape`, async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ op, ids, body, query }) => {
        let next = 0;
        const path = op.path.replace(/\{[^}]+\}/g, () => percentEncodeAnyText(ids[next++] ?? ''));
        const search = new URLSearchParams(query).toString();
        const hasBody = op.method !== 'GET' && op.method !== 'DELETE' && body !== undefined;
        const response = await h.app.inject({
          method: op.method as 'GET',
          url: `${path}${search ? `?${search}` : ''}`,
          headers: {
            ...(op.path.startsWith('/ui/')
              ? { cookie: staffCookie }
              : { authorization: op.path.startsWith('/v2/merchants/') ? partnerAuth : merchant.auth }),
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
          },
          ...(hasBody ? { payload: JSON.stringify(body ?? null) } : {}),
        });
        seen.push(`${op.method} ${op.path} ${response.statusCode}`);
        assert.ok(response.statusCode < 500, `${op.method} ${path} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
        if (response.statusCode >= 400) {
          const parsed: unknown = response.body ? JSON.parse(response.body) : null;
          // Invoice endpoints (their e-mails, and the app's invoice screens) keep the interface's own {message, error} shape.
          const invoice = op.path.startsWith('/rest/invoices') || op.path.startsWith('/rest/emails') || op.path.startsWith('/ui/invoices');
          assert.ok(
            isD3(parsed) || (invoice && isInvoiceError(parsed)),
            `${op.method} ${path} ${response.statusCode}: ${response.body.slice(0, 300)}`,
          );
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // The generator reached a good part of the API, not one corner of it.
    const reached = new Set(seen.map((line) => line.split(' ').slice(0, 2).join(' ')));
    // ... and not only with requests refused at the door: some did their work.
    assert.ok(
      seen.filter((line) => / 2\d\d$/.test(line)).length >= RUNS * 0.05,
      `successful requests: ${seen.filter((line) => / 2\d\d$/.test(line)).length}`,
    );
    assert.ok(reached.size >= Math.min(operations.length, RUNS) * 0.6, `operations reached: ${reached.size} of ${operations.length}`);
  });

  test(`${RUNS} hostile bodies (nesting to 25,000 levels, strings to 300,000 characters, long arrays, odd Unicode) at every endpoint: never a 5xx`, async () => {
    const withBody = () => operations.filter((op) => op.method !== 'GET' && op.method !== 'DELETE');
    const hostile = fc.integer({ min: 0, max: 10_000 }).chain((index) => {
      const ops = withBody();
      const op = ops[index % ops.length] as Operation;
      const body = op.examples.length ? fc.constantFrom(...op.examples).chain(withHostileValue) : withHostileValue({});
      return fc.record({ op: fc.constant(op), body });
    });
    const reached = new Set<string>();
    await fc.assert(
      fc.asyncProperty(hostile, async ({ op, body }) => {
        const path = op.path.replace(/\{(\w+)\}/g, (_all, name: string) => known[name]?.[0] ?? '00000000-0000-7000-8000-000000000000');
        const response = await h.app.inject({
          method: op.method as 'POST',
          url: path,
          headers: {
            ...(op.path.startsWith('/ui/')
              ? { cookie: staffCookie }
              : { authorization: op.path.startsWith('/v2/merchants/') ? partnerAuth : merchant.auth }),
            'content-type': 'application/json',
          },
          payload: jsonText(body),
        });
        reached.add(`${op.method} ${op.path}`);
        assert.ok(response.statusCode < 500, `${op.method} ${path} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
        if (response.statusCode >= 400 && response.statusCode !== 413) {
          const parsed: unknown = JSON.parse(response.body);
          const invoice = op.path.startsWith('/rest/invoices') || op.path.startsWith('/rest/emails') || op.path.startsWith('/ui/invoices');
          assert.ok(
            isD3(parsed) || (invoice && isInvoiceError(parsed)),
            `${op.method} ${path} ${response.statusCode}: ${response.body.slice(0, 300)}`,
          );
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    assert.ok(reached.size >= Math.min(withBody().length, RUNS) * 0.6, `operations reached: ${reached.size} of ${withBody().length}`);
  });

  test('random sequences of authorize, capture, reverse and refund, some at once: the money limits always hold', async () => {
    const step = fc.record({
      kind: fc.constantFrom('capture', 'reverse', 'refund'),
      amount: fc.option(
        fc.integer({ min: 1, max: 12_000 }).map((cents) => cents / 100),
        { freq: 3 },
      ),
      together: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 10_000 }),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        async (authorizedCents, steps) => {
          const authorize = await h.app.inject({
            method: 'POST',
            url: '/rest/authorize',
            headers: { authorization: merchant.auth, 'content-type': 'application/json' },
            payload: {
              payment_type: 'cardecom',
              order_id: orderId('prop'),
              amount: authorizedCents / 100,
              currency: 'EUR',
              card_number: '4111111111111111',
              card_expiry_month: '12',
              card_expiry_year: String(new Date().getUTCFullYear() + 2),
              card_cvv: '123',
              card_holder: 'Ada Lovelace',
            },
          });
          const id = authorize.json<{ transaction_id: string }>().transaction_id;
          const send = (s: (typeof steps)[number]) =>
            h.app.inject({
              method: 'POST',
              url: `/rest/${s.kind}`,
              headers: { authorization: merchant.auth, 'content-type': 'application/json' },
              payload: { transaction_id: id, ...(s.amount !== null ? { amount: s.amount } : {}) },
            });
          // Steps marked `together` run at the same moment as the one before them.
          let batch: Array<(typeof steps)[number]> = [];
          const flush = async () => {
            const answers = await Promise.all(batch.map(send));
            for (const answer of answers) assert.ok(answer.statusCode < 500, answer.body);
            batch = [];
          };
          for (const s of steps) {
            if (!s.together) await flush();
            batch.push(s);
          }
          await flush();
          await assertMoneyInvariants(h);
        },
      ),
      { numRuns: Math.max(20, Math.round(RUNS / 5)), seed: SEED },
    );
  });

  test('afterwards, across everything the generated requests did: the money and invoice invariants hold', async () => {
    await assertMoneyInvariants(h);
  });
});

async function assertMoneyInvariants(h: Harness): Promise<void> {
  const sql = sqlOf(h);
  const broken = await sql.all(
    `SELECT id, authorized_minor, captured_minor, refunded_minor FROM transactions
     WHERE captured_minor > authorized_minor OR refunded_minor > captured_minor OR captured_minor < 0 OR refunded_minor < 0 OR authorized_minor < 0`,
  );
  assert.deepEqual(broken, [], 'captured <= authorized and refunded <= captured');
  const refunds = await sql.all(
    `SELECT t.id, t.refunded_minor, COALESCE(SUM(CASE WHEN r.status_code = 1 THEN r.amount_minor END), 0) AS refunds
     FROM transactions t LEFT JOIN refunds r ON r.transaction_id = t.id
     GROUP BY t.id HAVING COALESCE(SUM(CASE WHEN r.status_code = 1 THEN r.amount_minor END), 0) <> t.refunded_minor`,
  );
  assert.deepEqual(refunds, [], 'successful refunds add up to what was refunded');
  const duplicates = await sql.all(
    'SELECT channel_id, debt_claim_number, COUNT(*) AS n FROM invoices WHERE active = 1 GROUP BY channel_id, debt_claim_number HAVING COUNT(*) > 1',
  );
  assert.deepEqual(duplicates, [], 'one active invoice per number and channel');
}
