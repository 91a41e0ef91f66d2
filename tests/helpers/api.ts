/**
 * An in-process gateway for HTTP tests: compose() on a temp data dir with real SQLite, a movable
 * clock and a fixed data key, and buildServer() for inject(). Nothing listens.
 */
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import type { Clock } from '../../main/core/kernel.js';
import { makeTempDir } from './temp.js';
import type { CreatedMerchant } from '../../main/core/merchants/merchants.js';
import { composeOnEngine, type ComposeOptions, type Composition, type GatewayStore } from '../../main/compose.js';
import { testDatabaseFor } from './postgres.js';
import { buildServer } from '../../main/http/server.js';
import { createLogger } from '../../main/infra/logger.js';
import { resolveSettings } from '../../main/settings.js';
import { basicAuth } from './gateway-process.js';

/** A clock that tests move forward by hand. */
export class TestClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly baseMs = Date.now()) {}

  now(): Date {
    return new Date(this.baseMs + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestGateway {
  dir: string;
  clock: TestClock;
  dataKey: Buffer;
  composition: Composition<GatewayStore>;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  dir?: string;
  /** Command-line style flags for resolveSettings (e.g. `{ 'lockout-max-failures': '3' }`). */
  flags?: Record<string, string>;
  clock?: TestClock;
  dataKey?: Buffer;
  logger?: PinoLogger;
}

/**
 * compose() for tests on the engine the run asks for: TEST_ENGINE=postgres gives each gateway a
 * fresh database in the run's PostgreSQL cluster (tests/helpers/postgres.ts); otherwise SQLite in
 * the data directory. Tests read stored state through tests/helpers/sql.ts (`sqlOf`), on either
 * engine.
 */
export async function composeForTest(options: ComposeOptions): Promise<Composition<GatewayStore>> {
  if (process.env.TEST_ENGINE === 'postgres' && options.settings.databaseUrl === null) {
    // A gateway started again on the same data directory (a restart) finds the same database.
    options.settings.databaseUrl = await testDatabaseFor(options.settings.dataDir);
  }
  return composeOnEngine(options);
}

export function tempDir(prefix = 'tillgate-test-'): string {
  return makeTempDir(prefix);
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dir = options.dir ?? tempDir();
  const clock = options.clock ?? new TestClock();
  const dataKey = options.dataKey ?? randomBytes(32);
  // env {} so that GATEWAY_* variables of the developer's shell cannot change the tests.
  const settings = resolveSettings(dir, options.flags ?? {}, {});
  // TEST_LOG_LEVEL=error shows what went wrong behind a 500 while debugging a suite.
  const logger = options.logger ?? (process.env.TEST_LOG_LEVEL ? createLogger({ level: process.env.TEST_LOG_LEVEL }) : undefined);
  const composition = await composeForTest({ settings, clock, dataKey, logger: logger ?? createLogger({ level: 'silent' }) });
  const app = await buildServer(composition.gateway, logger ? { logger } : {});
  return {
    dir,
    clock,
    dataKey,
    composition,
    app,
    async close() {
      await app.close();
      await composition.close();
    },
  };
}

export interface TestMerchant extends CreatedMerchant {
  /** The `Authorization` header value for this merchant. */
  auth: string;
}

export async function createTestMerchant(gateway: TestGateway, name = 'Test Shop'): Promise<TestMerchant> {
  const created = await gateway.composition.gateway.merchants.create({ name });
  assert.ok(created.ok, 'merchant create failed');
  return { ...created.value, auth: basicAuth(created.value) };
}

export interface ApiErrorBody {
  error_code: number;
  message: string;
  errors: Array<{ field: string; message: string }>;
}

/** Asserts the decisions.md D3 error body and status; returns the parsed body. */
export function assertApiError(response: LightMyRequestResponse, status: number, errorCode: number, fields: string[] = []): ApiErrorBody {
  assert.equal(response.statusCode, status, `expected ${status}, got ${response.statusCode}: ${response.body}`);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const body = JSON.parse(response.body) as ApiErrorBody;
  assert.deepEqual(Object.keys(body).sort(), ['error_code', 'errors', 'message']);
  assert.equal(body.error_code, errorCode);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0, 'message must not be empty');
  assert.ok(Array.isArray(body.errors));
  for (const error of body.errors) {
    assert.deepEqual(Object.keys(error).sort(), ['field', 'message']);
    assert.equal(typeof error.field, 'string');
    assert.equal(typeof error.message, 'string');
  }
  const named = body.errors.map((e) => e.field);
  for (const field of fields) assert.ok(named.includes(field), `errors should name ${field}, named ${JSON.stringify(named)}`);
  return body;
}

/** A staff account of `merchant` with `role`, logged in: its id and its session cookie's value. */
export async function loginStaff(
  gateway: TestGateway,
  merchant: TestMerchant,
  role: string,
  login: string,
): Promise<{ staffId: string; session: string }> {
  const created = await gateway.composition.gateway.staff.create({ merchantId: merchant.merchant_id, role, login });
  assert.ok(created.ok);
  const response = await gateway.app.inject({ method: 'POST', url: '/ui/session', payload: { login, password: created.value.password } });
  assert.equal(response.statusCode, 200, response.body);
  const cookie = response.cookies.find((c) => c.name === 'tillgate_session');
  assert.ok(cookie?.value);
  return { staffId: created.value.staff_id, session: cookie.value };
}
