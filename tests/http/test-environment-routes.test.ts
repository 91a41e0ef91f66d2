// The Test environment's hook and route exist only on a gateway that runs it (main/http/test-environment.ts):
// the lost-answer test card's answer is dropped, and POST /test/clock moves a movable clock, on the
// simulator's gateway; a gateway whose processor is another environment's answers that card and has
// no /test/clock, even when its processor would drop the card's answer and its clock is movable.
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { OPERATIONS } from '../../contract/operation-table.js';
import type { Composition, GatewayStore } from '../../main/compose.js';
import type { Processor } from '../../main/core/payments/ports.js';
import { buildServer } from '../../main/http/server.js';
import { createLogger } from '../../main/infra/logger.js';
import { resolveSettings } from '../../main/settings.js';
import { composeForTest, tempDir } from '../helpers/api.js';
import { basicAuth } from '../helpers/gateway-process.js';
import { orderId, posPayment } from '../helpers/payments.js';

const LOST_ANSWER_CARD = '4000000000001513';

interface Served {
  composition: Composition<GatewayStore>;
  app: FastifyInstance;
  url: string;
  auth: string;
}

/** A gateway on a real socket (inject() has none to drop), with a movable clock and one merchant. */
async function serve(processor?: (simulator: Processor) => Processor): Promise<Served> {
  const composition = await composeForTest({
    settings: resolveSettings(tempDir(), { 'sim-clock': 'movable' }, {}),
    dataKey: randomBytes(32),
    logger: createLogger({ level: 'silent' }),
    ...(processor ? { processor } : {}),
  });
  const created = await composition.gateway.merchants.create({ name: 'Environment Shop' });
  assert.ok(created.ok);
  const app = await buildServer(composition.gateway);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { composition, app, url: `http://127.0.0.1:${port}`, auth: basicAuth(created.value) };
}

async function close(served: Served | undefined): Promise<void> {
  await served?.app.close();
  await served?.composition.close();
}

function pay(served: Served): Promise<Response> {
  return fetch(`${served.url}${OPERATIONS['payments.create'].path}`, {
    method: 'POST',
    headers: { authorization: served.auth, 'content-type': 'application/json' },
    body: JSON.stringify(posPayment(13, { pan: LOST_ANSWER_CARD, order: orderId('env') })),
  });
}

function moveClock(served: Served): Promise<Response> {
  return fetch(`${served.url}${OPERATIONS['centre.advanceClock'].path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_seconds: 60 }),
  });
}

describe('the Test environment', () => {
  let served: Served | undefined;
  before(async () => {
    served = await serve();
  });
  after(() => close(served));

  test('runs on the simulator: the lost-answer card approves, and its answer never arrives', async () => {
    assert.equal(served?.composition.gateway.postbackBackOffice.environment().environment, 'test');
    await assert.rejects(pay(served as Served), /fetch failed/);
  });

  test('POST /test/clock moves the movable clock', async () => {
    const response = await moveClock(served as Served);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { offset_seconds: number }).offset_seconds, 60);
  });
});

describe('another environment', () => {
  let served: Served | undefined;
  before(async () => {
    // Not the simulator: the same answers, but environment production. It keeps the simulator's
    // dropsTerminalAnswer, so only the server's registration decides whether an answer is dropped.
    served = await serve((simulator) => {
      const processor: Processor = Object.create(simulator) as Processor;
      Object.defineProperty(processor, 'environment', { value: 'production' });
      return processor;
    });
  });
  after(() => close(served));

  test('answers the lost-answer card: the hook is not registered', async () => {
    assert.equal(served?.composition.gateway.postbackBackOffice.environment().environment, 'production');
    const response = await pay(served as Served);
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(((await response.json()) as { status_code: number }).status_code, 3);
  });

  test('has no POST /test/clock, though its clock is movable', async () => {
    assert.ok(served?.composition.gateway.movableClock);
    const response = await moveClock(served as Served);
    assert.equal(response.status, 404);
  });
});
