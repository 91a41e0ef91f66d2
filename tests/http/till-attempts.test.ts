// The till's card attempts (decisions.md D16, issue "The till: never charge twice"): the till records
// a sale's attempt before sending the payment and resolves it after the answer, a lost answer, a
// reload or a restart. Resolving fences the idempotency key, so a request that arrives late never
// runs; a sale is never charged twice. Through inject() on real SQLite, and against the real
// `gateway serve` for the answers the lost-answer test card drops and the slow-answer card delays.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { assertApiError } from '../helpers/api.js';
import { createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { newMerchant, orderId, posPayment, startHarness, type Harness } from '../helpers/payments.js';
import { countOf, onPostgres } from '../helpers/sql.js';
import { INSTANCE_DEAD_MS } from '../../main/core/instances.js';

const COOKIE = 'tillgate_session';
const LOST_ANSWER_CARD = '4000000000001513';
const SLOW_ANSWER_CARD = '4000000000001505';

interface Attempt {
  attempt_id: string;
  order_id: string;
  idempotency_key: string;
  amount: number;
  currency: string;
}

interface Resolution {
  state: 'none' | 'in_progress' | 'approved' | 'not_charged';
  attempt?: Attempt;
  transaction?: { transaction_id: string; status_code: number; order_id: string } | null;
}

describe('till attempts (inject)', () => {
  let h: Harness;
  let cookie: string;
  let approvedPan = '4111111111111111';

  before(async () => {
    h = await startHarness();
    const merchant = await newMerchant(h, 'Till Shop');
    const created = await h.gateway.staff.create({ merchantId: merchant.merchant_id, role: 'cashier', login: 'till', pin: '2580' });
    assert.ok(created.ok);
    const login = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'till', pin: '2580' } });
    assert.equal(login.statusCode, 200);
    cookie = `${COOKIE}=${login.cookies.find((c) => c.name === COOKIE)?.value ?? ''}`;
  });

  after(async () => {
    await h.close();
  });

  const begin = (body: Record<string, unknown>) =>
    h.app.inject({ method: 'PUT', url: '/ui/till/attempt', headers: { cookie }, payload: body });
  const resolve = async (): Promise<Resolution> => {
    const response = await h.app.inject({ method: 'POST', url: '/ui/till/attempt/resolve', headers: { cookie } });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Resolution>();
  };
  const current = async () =>
    (await h.app.inject({ method: 'GET', url: '/ui/till/attempt', headers: { cookie } })).json<{ attempt: Attempt | null }>().attempt;
  const pay = (body: Record<string, unknown>, key: string): Promise<LightMyRequestResponse> =>
    h.app.inject({ method: 'POST', url: '/rest/payment', headers: { cookie, 'idempotency-key': key }, payload: body });
  const chargedCount = (order: string) =>
    countOf(h, 'SELECT COUNT(*) AS n FROM transactions WHERE order_id = ? AND status_code IN (3, 4)', order);

  test('bad fields are named, all of them', async () => {
    assertApiError(await begin({ order_id: '', idempotency_key: 'has space', amount: 1.234, currency: 'EUR' }), 400, 1001, [
      'order_id',
      'idempotency_key',
      'amount',
    ]);
    assertApiError(await begin({ order_id: 'o', idempotency_key: 'k', amount: 0, currency: 'XYZ' }), 400, 1001, ['currency']);
    assertApiError(
      await h.app.inject({
        method: 'PUT',
        url: '/ui/till/attempt',
        payload: { order_id: 'o', idempotency_key: 'k', amount: 1, currency: 'EUR' },
      }),
      401,
      2001,
    );
    assert.equal(await current(), null, 'nothing recorded');
  });

  test('recorded before the payment, answered, resolved as approved; the same sale cannot be charged again', async () => {
    const order = orderId('till');
    const key = randomUUID();
    const started = await begin({ order_id: order, idempotency_key: key, amount: 21, currency: 'EUR' });
    assert.equal(started.statusCode, 201, started.body);
    assert.deepEqual((await current())?.order_id, order);
    assert.equal(
      (await begin({ order_id: order, idempotency_key: key, amount: 21, currency: 'EUR' })).statusCode,
      200,
      'repeating it is harmless',
    );
    const paid = await pay(posPayment(21, { pan: approvedPan, order }), key);
    assert.equal(paid.json<{ status_code: number }>().status_code, 3);
    const resolved = await resolve();
    assert.equal(resolved.state, 'approved');
    assert.equal(resolved.transaction?.transaction_id, paid.json<{ transaction_id: string }>().transaction_id);
    assert.equal(await current(), null, 'closed');
    assert.deepEqual(await resolve(), { state: 'none' });
    // Charging the same sale again is refused before anything reaches the card network.
    assertApiError(await begin({ order_id: order, idempotency_key: randomUUID(), amount: 21, currency: 'EUR' }), 400, 1002, ['order_id']);
    assert.equal(await chargedCount(order), 1);
  });

  test('an answer lost before the request arrived: resolving fences the key, the late request is refused, nothing is charged', async () => {
    const order = orderId('till');
    const key = randomUUID();
    assert.equal((await begin({ order_id: order, idempotency_key: key, amount: 9, currency: 'EUR' })).statusCode, 201);
    const resolved = await resolve();
    assert.equal(resolved.state, 'not_charged');
    assert.equal(resolved.transaction, null);
    const late = await pay(posPayment(9, { pan: approvedPan, order }), key);
    assertApiError(late, 422, 4002, ['Idempotency-Key']);
    assert.equal(await chargedCount(order), 0);
    // The sale can now be charged for real with a new request.
    const key2 = randomUUID();
    assert.equal((await begin({ order_id: order, idempotency_key: key2, amount: 9, currency: 'EUR' })).statusCode, 201);
    assert.equal((await pay(posPayment(9, { pan: approvedPan, order }), key2)).json<{ status_code: number }>().status_code, 3);
    assert.equal((await resolve()).state, 'approved');
    assert.equal(await chargedCount(order), 1);
  });

  test('an approved answer that never reached the till: the next sale is refused until the till has seen it', async () => {
    const order = orderId('till');
    const key = randomUUID();
    await begin({ order_id: order, idempotency_key: key, amount: 30, currency: 'EUR' });
    const paid = await pay(posPayment(30, { pan: approvedPan, order }), key);
    // The window never got this answer. Starting another sale is refused: this one was charged.
    const next = orderId('till');
    const refused = await begin({ order_id: next, idempotency_key: randomUUID(), amount: 5, currency: 'EUR' });
    assertApiError(refused, 400, 1002, ['order_id']);
    assert.match(refused.json<{ message: string }>().message, new RegExp(order));
    // So is charging the same sale again with a new key.
    assertApiError(await begin({ order_id: order, idempotency_key: randomUUID(), amount: 30, currency: 'EUR' }), 400, 1002);
    const resolved = await resolve();
    assert.equal(resolved.state, 'approved');
    assert.equal(resolved.transaction?.transaction_id, paid.json<{ transaction_id: string }>().transaction_id);
    assert.equal((await begin({ order_id: next, idempotency_key: randomUUID(), amount: 5, currency: 'EUR' })).statusCode, 201);
    assert.equal((await resolve()).state, 'not_charged', 'given up before sending: closed');
    assert.equal(await chargedCount(order), 1);
  });

  test('a PIN request, then the PIN: one sale, two requests, one charge', async () => {
    const order = orderId('till');
    const first = randomUUID();
    await begin({ order_id: order, idempotency_key: first, amount: 80, currency: 'EUR' });
    const pinRequest = await pay(posPayment(80, { pan: approvedPan, order }), first);
    assert.equal(pinRequest.json<{ message: string }>().message, 'request_pin');
    const second = randomUUID();
    const moved = await begin({ order_id: order, idempotency_key: second, amount: 80, currency: 'EUR' });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.json<Attempt>().idempotency_key, second);
    const approved = await pay(posPayment(80, { pan: approvedPan, order, sequence: 'subsequent', pin: '1234' }), second);
    assert.equal(approved.json<{ status_code: number }>().status_code, 3);
    assert.equal((await resolve()).state, 'approved');
    assert.equal(await chargedCount(order), 1);
  });

  test('a decline, then another card for the same sale', async () => {
    const order = orderId('till');
    const first = randomUUID();
    await begin({ order_id: order, idempotency_key: first, amount: 15, currency: 'EUR' });
    assert.equal((await pay(posPayment(15, { pan: '4000000000000002', order }), first)).json<{ status_code: number }>().status_code, 6);
    const second = randomUUID();
    assert.equal((await begin({ order_id: order, idempotency_key: second, amount: 15, currency: 'EUR' })).statusCode, 200);
    assert.equal((await pay(posPayment(15, { pan: approvedPan, order }), second)).json<{ status_code: number }>().status_code, 3);
    const resolved = await resolve();
    assert.equal(resolved.state, 'approved');
    assert.equal(await chargedCount(order), 1);
    approvedPan = '5555555555554444';
  });
});

describe('till attempts against the real gateway: lost and slow answers', () => {
  let gateway: GatewayProcess;
  let cookie: string;

  before(async () => {
    gateway = await startGateway({ args: ['--sim-slow-answer-ms', '1500'] });
    const merchant = createMerchant(gateway.dataDir, 'Real Till');
    const staff = runGateway([
      'staff',
      'create',
      '--data-dir',
      gateway.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--role',
      'cashier',
      '--login',
      'till',
      '--pin',
      '2580',
      '--json',
    ]);
    assert.equal(staff.status, 0, staff.stderr);
    const login = await fetch(`${gateway.url}/ui/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'till', pin: '2580' }),
    });
    assert.equal(login.status, 200);
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });

  after(async () => {
    await gateway?.stop();
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const resolve = async (): Promise<Resolution> => (await (await call('POST', '/ui/till/attempt/resolve')).json()) as Resolution;

  test('the lost-answer card: approved, but every answer (also the replay) is dropped; resolving tells the till it was approved', async () => {
    const order = orderId('lost');
    const key = randomUUID();
    assert.equal(
      (await call('PUT', '/ui/till/attempt', { order_id: order, idempotency_key: key, amount: 21, currency: 'EUR' })).status,
      201,
    );
    const body = posPayment(21, { pan: LOST_ANSWER_CARD, order });
    await assert.rejects(call('POST', '/rest/payment', body, { 'idempotency-key': key }), /fetch failed/, 'the connection drops');
    await assert.rejects(call('POST', '/rest/payment', body, { 'idempotency-key': key }), /fetch failed/, 'the replay is dropped too');
    const resolved = await resolve();
    assert.equal(resolved.state, 'approved');
    assert.equal(resolved.transaction?.status_code, 3);
    const list = (await (await call('GET', `/rest/transactions?order_id=${order}`)).json()) as unknown[];
    assert.equal(list.length, 1, 'charged once');
  });

  test('an open attempt outlives the gateway: after a restart the till finds it and resolves it', async () => {
    const order = orderId('restart');
    const key = randomUUID();
    await call('PUT', '/ui/till/attempt', { order_id: order, idempotency_key: key, amount: 12, currency: 'EUR' });
    await assert.rejects(call('POST', '/rest/payment', posPayment(12, { pan: LOST_ANSWER_CARD, order }), { 'idempotency-key': key }));
    const dataDir = gateway.dataDir;
    await gateway.stop();
    gateway = await startGateway({ dataDir, args: ['--sim-slow-answer-ms', '1500'] });
    const login = await fetch(`${gateway.url}/ui/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'till', pin: '2580' }),
    });
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const open = (await (await call('GET', '/ui/till/attempt')).json()) as { attempt: Attempt | null };
    assert.equal(open.attempt?.order_id, order);
    assert.equal(open.attempt?.idempotency_key, key);
    const resolved = await resolve();
    assert.equal(resolved.state, 'approved');
    assert.equal(resolved.transaction?.order_id, order);
  });

  test('kill -9 while the bank is answering, restart: the till is not told "still being processed" about a payment whose process died; nothing was charged, and the lost request never runs', async () => {
    const order = orderId('killed');
    const key = randomUUID();
    await call('PUT', '/ui/till/attempt', { order_id: order, idempotency_key: key, amount: 33.33, currency: 'EUR' });
    const body = posPayment(33.33, { pan: SLOW_ANSWER_CARD, order });
    const payment = call('POST', '/rest/payment', body, { 'idempotency-key': key }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await resolve()).state, 'in_progress', 'the bank is still answering');
    const dataDir = gateway.dataDir;
    await gateway.kill9();
    await payment;
    gateway = await startGateway({ dataDir, args: ['--sim-slow-answer-ms', '1500'] });
    const login = await fetch(`${gateway.url}/ui/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'till', pin: '2580' }),
    });
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    // SQLite: the data directory had one process, so its claim died with it. PostgreSQL: the killed
    // instance's claim ends with its beats (INSTANCE_DEAD_MS), not with the 5-minute lease.
    let resolved = await resolve();
    const deadline = Date.now() + INSTANCE_DEAD_MS + 10_000;
    if (onPostgres()) {
      while (resolved.state === 'in_progress' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 1000));
        resolved = await resolve();
      }
    }
    assert.equal(resolved.state, 'not_charged');
    assert.equal(resolved.attempt?.order_id, order);
    const late = await call('POST', '/rest/payment', body, { 'idempotency-key': key });
    assert.equal(late.status, 422, 'the request given up is never processed');
    const list = (await (await call('GET', `/rest/transactions?order_id=${order}`)).json()) as unknown[];
    assert.equal(list.length, 0, 'nothing was charged');
  });

  test('the slow-answer card: while it is being processed the attempt is in progress and no new charge can start', async () => {
    const order = orderId('slow');
    const key = randomUUID();
    await call('PUT', '/ui/till/attempt', { order_id: order, idempotency_key: key, amount: 7, currency: 'EUR' });
    const started = Date.now();
    const payment = call('POST', '/rest/payment', posPayment(7, { pan: SLOW_ANSWER_CARD, order }), { 'idempotency-key': key });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await resolve()).state, 'in_progress');
    const again = await call('PUT', '/ui/till/attempt', { order_id: order, idempotency_key: randomUUID(), amount: 7, currency: 'EUR' });
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error_code: number }).error_code, 4001);
    const answer = (await (await payment).json()) as { status_code: number };
    assert.equal(answer.status_code, 3);
    assert.ok(Date.now() - started >= 1400, 'the bank took its time');
    assert.equal((await resolve()).state, 'approved');
  });
});
