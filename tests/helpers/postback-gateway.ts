/**
 * An in-process gateway for postback tests: compose() on the test run's engine (SQLite in a temp dir,
 * or PostgreSQL with TEST_ENGINE=postgres) with a movable
 * clock, buildServer() for inject(), and the real HTTP postback sender. With `background: false`
 * nothing is sent until the test calls `deliver()` (deterministic retries with clock.advance());
 * with `background: true` the delivery worker runs as in production.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { PostbackDelivery as DeliveryView } from '../../contract/api/postbacks.js';
import type { ComposeOptions, Composition, GatewayStore } from '../../main/compose.js';
import type { Gateway } from '../../main/core/gateway.js';
import { buildServer } from '../../main/http/server.js';
import { createLogger } from '../../main/infra/logger.js';
import { resolveSettings } from '../../main/settings.js';
import { composeForTest, tempDir, TestClock } from './api.js';
import { basicAuth } from './gateway-process.js';

export const EXPIRY_YEAR = String(new Date().getUTCFullYear() + 3);

export interface PostbackHarness {
  dir: string;
  clock: TestClock;
  composition: Composition<GatewayStore>;
  gateway: Gateway;
  app: FastifyInstance;
  merchant(name?: string): Promise<MerchantClient>;
  /** Runs every due postback attempt now and waits until each is recorded. */
  deliver(): Promise<void>;
  close(): Promise<void>;
}

export interface MerchantClient {
  merchantId: string;
  webhookKey: string;
  auth: string;
  post(path: string, body?: unknown): Promise<LightMyRequestResponse>;
  get(path: string): Promise<LightMyRequestResponse>;
  /** POST answering 200 with error_code 0; the parsed body. */
  ok(path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** GET answering 200; the parsed body. */
  read<T = unknown>(path: string): Promise<T>;
  postbacksOf(transactionId: string): Promise<DeliveryView[]>;
  log(transactionId: string): Promise<Array<{ type: string; status: number; amount: number; message: string | null; created_at: string }>>;
}

export async function startPostbackGateway(
  options: { flags?: Record<string, string>; background?: boolean; clock?: TestClock; delivery?: ComposeOptions['postbackDelivery'] } = {},
): Promise<PostbackHarness> {
  const dir = tempDir('tillgate-postbacks-');
  const clock = options.clock ?? new TestClock();
  const settings = resolveSettings(dir, { 'sim-delay-ms': '20', ...options.flags }, {});
  const composition = await composeForTest({
    settings,
    clock,
    dataKey: randomBytes(32),
    background: options.background ?? false,
    postbackDelivery: options.delivery,
    logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  const app = await buildServer(composition.gateway, process.env.TEST_LOG_LEVEL ? { logger: composition.logger } : {});
  const gateway = composition.gateway;
  let names = 0;
  return {
    dir,
    clock,
    composition,
    gateway,
    app,
    async merchant(name) {
      names += 1;
      const created = await gateway.merchants.create({ name: name ?? `Postback Shop ${names}` });
      assert.ok(created.ok, 'merchant create failed');
      const auth = basicAuth(created.value);
      const post = (path: string, body: unknown = {}) =>
        app.inject({
          method: 'POST',
          url: path,
          headers: { authorization: auth, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      const get = (path: string) => app.inject({ method: 'GET', url: path, headers: { authorization: auth } });
      const read = async <T>(path: string): Promise<T> => {
        const response = await get(path);
        assert.equal(response.statusCode, 200, `GET ${path}: ${response.body}`);
        return response.json();
      };
      return {
        merchantId: created.value.merchant_id,
        webhookKey: created.value.webhook_key,
        auth,
        post,
        get,
        read,
        async ok(path, body) {
          const response = await post(path, body);
          assert.equal(response.statusCode, 200, `POST ${path} ${JSON.stringify(body)}: ${response.body}`);
          const parsed = response.json();
          assert.equal(parsed.error_code, 0, response.body);
          return parsed;
        },
        postbacksOf: (id) => read(`/rest/transactions/${id}/postbacks`),
        log: (id) => read(`/rest/transactions/${id}/log`),
      };
    },
    deliver: () => gateway.postbackDelivery.drain(),
    async close() {
      await app.close();
      await composition.close();
    },
  };
}

let orders = 0;
export function orderId(prefix = 'pb'): string {
  orders += 1;
  return `${prefix}-${process.pid}-${orders}`;
}

/** A server-to-server card payment body (cardecom). */
export function cardPayment(
  pan: string,
  amount: number,
  postbackUrl: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    payment_type: 'cardecom',
    order_id: orderId(),
    amount,
    currency: 'EUR',
    card_number: pan,
    card_expiry_month: '12',
    card_expiry_year: EXPIRY_YEAR,
    card_cvv: '123',
    card_holder: 'Ada Lovelace',
    postback_url: postbackUrl,
    ...extra,
  };
}

/** A hosted-page card payment: created as `started` (status 1), waiting for the customer. */
export function redirectPayment(amount: number, postbackUrl: string): Record<string, unknown> {
  return {
    payment_type: 'cardecom',
    order_id: orderId('redirect'),
    amount,
    currency: 'EUR',
    postback_url: postbackUrl,
    success_url: 'https://shop.example/ok',
    error_url: 'https://shop.example/failed',
    merchant_reference: 'Order 1',
  };
}
