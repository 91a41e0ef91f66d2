// Several gateway instances on one PostgreSQL database (issue 19, "Concurrency across instances"):
// real `gateway serve` processes, as a load balancer would spread requests over them. Captures and
// refunds of one transaction raced across the instances never exceed the limits, and no instance
// asks the processor for more than is left (the simulator answers follow-ups after 100 ms, so the
// requests overlap); one idempotency key sent to every instance at once runs once; a scheduled
// settlement runs once; and kill -9 of one instance under load loses no acknowledged payment while
// the others keep answering.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { ErrorCode } from '../../contract/codes.js';
import {
  basicAuth,
  runGateway,
  startGateway,
  tempDataDir,
  type GatewayProcess,
  type MerchantCredentials,
} from '../helpers/gateway-process.js';
import { cardPayment, EXPIRY_YEAR, SETTLING_IBAN } from '../helpers/payments.js';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres.js';

const skip = postgresAvailable() ? false : 'PostgreSQL 15 binaries are not installed (apt-get install postgresql)';

const INSTANCES = 3;
const SIM_DELAY_MS = 400;
/** The message of the guarded update that refuses a capture after the processor said yes. */
const CAPTURE_AFTER_PROCESSOR = 'The capture would exceed the authorization';
const REFUND_AFTER_PROCESSOR = 'The refund would exceed the captured amount';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('several instances on one PostgreSQL database', { skip }, () => {
  const env = { GATEWAY_DATA_KEY: randomBytes(32).toString('base64') };
  let url = '';
  let pool: pg.Pool;
  let merchant: MerchantCredentials;
  let auth = '';
  const instances: GatewayProcess[] = [];

  const start = async (): Promise<GatewayProcess> => {
    const instance = await startGateway({
      dataDir: tempDataDir('gateway-pg-instance-'),
      args: ['--database', url, '--sim-delay-ms', String(SIM_DELAY_MS), '--sim-follow-up-ms', '100'],
      env,
    });
    instances.push(instance);
    return instance;
  };

  const post = async (instance: GatewayProcess, path: string, body: unknown, key?: string): Promise<Answer> => {
    const response = await fetch(`${instance.url}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const amounts = async (id: string) => {
    const row = (await pool.query('SELECT amount_minor, captured_minor, refunded_minor FROM transactions WHERE id = $1', [id]))
      .rows[0] as Record<string, string>;
    return { amount: Number(row.amount_minor), captured: Number(row.captured_minor), refunded: Number(row.refunded_minor) };
  };

  const eventsOf = async (id: string, type: string): Promise<number> =>
    Number(
      (await pool.query('SELECT count(*) AS n FROM transaction_events WHERE transaction_id = $1 AND type = $2', [id, type])).rows[0].n,
    );

  before(async () => {
    url = await createTestDatabase('instances');
    const created = runGateway(
      ['merchant', 'create', '--data-dir', tempDataDir('gateway-pg-cli-'), '--database', url, '--name', 'Chain Shop', '--json'],
      env,
    );
    assert.equal(created.status, 0, created.stderr);
    merchant = JSON.parse(created.stdout) as MerchantCredentials;
    auth = basicAuth(merchant);
    pool = new pg.Pool({ connectionString: url, max: 2 });
    for (let i = 0; i < INSTANCES; i += 1) await start();
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.kill9()));
    await pool?.end();
  });

  test('captures raced across the instances: captured <= authorized, and no instance asks the processor for more than is left', async () => {
    const authorized = await post(instances[0] as GatewayProcess, '/rest/authorize', cardPayment('4111111111111111', 100));
    assert.equal(authorized.status, 200, JSON.stringify(authorized.body));
    const id = String(authorized.body.transaction_id);
    // Six captures of 40.00 on 100.00, two per instance, all at once: two fit.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_unused, n) =>
        post(instances[n % INSTANCES] as GatewayProcess, '/rest/capture', { transaction_id: id, amount: 40 }),
      ),
    );
    const captured = answers.filter((a) => a.status === 200);
    assert.equal(captured.length, 2, JSON.stringify(answers.map((a) => [a.status, a.body.message])));
    for (const refused of answers.filter((a) => a.status !== 200)) {
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error_code, ErrorCode.amountLimit);
      // Refused before the processor was asked ("at most 20.00 EUR can still be captured"), never after it said yes.
      assert.notEqual(refused.body.message, CAPTURE_AFTER_PROCESSOR, 'an instance asked the processor for more than was authorized');
      assert.match(String(refused.body.message), /at most 20(\.00)? EUR/);
    }
    assert.deepEqual(await amounts(id), { amount: 10_000, captured: 8_000, refunded: 0 });
    assert.equal(await eventsOf(id, 'capture'), 2);

    // Then five refunds of 30.00 on the 80.00 captured: two fit.
    const refunds = await Promise.all(
      Array.from({ length: 5 }, (_unused, n) =>
        post(instances[n % INSTANCES] as GatewayProcess, '/rest/refund', { transaction_id: id, amount: 30 }),
      ),
    );
    assert.equal(refunds.filter((a) => a.status === 200).length, 2, JSON.stringify(refunds.map((a) => [a.status, a.body.message])));
    for (const refused of refunds.filter((a) => a.status !== 200)) {
      assert.equal(refused.body.error_code, ErrorCode.amountLimit);
      assert.notEqual(refused.body.message, REFUND_AFTER_PROCESSOR, 'an instance asked the processor to refund more than was captured');
    }
    assert.deepEqual(await amounts(id), { amount: 10_000, captured: 8_000, refunded: 6_000 });
    assert.equal(Number((await pool.query('SELECT count(*) AS n FROM refunds WHERE transaction_id = $1', [id])).rows[0].n), 2);
    // Every lease was given back.
    assert.equal(Number((await pool.query('SELECT count(*) AS n FROM operation_locks')).rows[0].n), 0);
  });

  test('one idempotency key sent to every instance at once runs once; the others answer 409 or the same reply', async () => {
    const body = cardPayment('4111111111111111', 12.5);
    const answers = await Promise.all(instances.map((instance) => post(instance, '/rest/payment', body, 'race-across-instances')));
    const ok = answers.filter((a) => a.status === 200);
    assert.ok(ok.length >= 1, JSON.stringify(answers));
    assert.equal(new Set(ok.map((a) => a.body.transaction_id)).size, 1, 'every 200 is the same payment');
    for (const other of answers.filter((a) => a.status !== 200)) {
      assert.equal(other.status, 409);
      assert.equal(other.body.error_code, ErrorCode.idempotencyInFlight);
    }
    const stored = await pool.query('SELECT count(*) AS n FROM transactions WHERE order_id = $1', [body.order_id]);
    assert.equal(Number(stored.rows[0].n), 1);
  });

  test('a scheduled settlement runs once, whichever instance finds it due', async () => {
    const debits = await Promise.all(
      Array.from({ length: 6 }, (_unused, n) =>
        post(instances[n % INSTANCES] as GatewayProcess, '/rest/payment', {
          payment_type: 'dd',
          order_id: `dd-${n}-${Date.now()}`,
          amount: 25,
          currency: 'EUR',
          iban: SETTLING_IBAN,
          account_holder: 'Ada Lovelace',
        }),
      ),
    );
    const ids = debits.map((d) => {
      assert.equal(d.status, 200, JSON.stringify(d.body));
      return String(d.body.transaction_id);
    });
    for (const id of ids) {
      for (let waited = 0; (await amounts(id)).captured === 0; waited += 50) {
        if (waited >= 20_000) {
          const tasks = await pool.query(
            'SELECT t.status_code, t.captured_minor, t.message, (SELECT json_agg(e.type) FROM transaction_events e WHERE e.transaction_id = t.id) AS events FROM transactions t WHERE id = $1',
            [id],
          );
          assert.fail(
            `settlement of ${id} never ran: ${JSON.stringify(tasks.rows)} ${instances.map((i) => i.stderr().slice(-1500)).join('\n')}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    // Give any second run the time to happen, then count: one settlement each.
    await new Promise((resolve) => setTimeout(resolve, 3 * SIM_DELAY_MS));
    for (const id of ids) {
      assert.equal(await eventsOf(id, 'capture'), 1, `transaction ${id} settled more than once`);
      assert.equal((await amounts(id)).captured, 2_500);
    }
  });

  test(
    'kill -9 of one instance under load: every acknowledged payment is stored, and the others keep answering',
    { timeout: 60_000 },
    async () => {
      const victim = instances[0] as GatewayProcess;
      const acknowledged: Array<{ id: string; instance: number; afterKill: boolean }> = [];
      let killed = false;
      let stop = false;
      const client = async (c: number) => {
        for (let n = 0; !stop; n += 1) {
          const index = (c + n) % INSTANCES;
          const instance = instances[index] as GatewayProcess;
          if (killed && instance === victim) continue;
          const body = {
            payment_type: 'cardpos',
            order_id: `load-${c}-${n}`,
            amount: 3.21,
            currency: 'EUR',
            pos_data: {
              type: { terminal_entry_mode: 'contactless' },
              card: { number: '4111111111111111', expiry_month: 12, expiry_year: EXPIRY_YEAR },
              terminal: { id: 'T-0001', type: 'softpos', attended: true },
            },
          };
          const wasKilled = killed;
          try {
            const answer = await post(instance, '/rest/payment', body, `load-${c}-${n}`);
            if (answer.status === 200 && answer.body.status_code === 3)
              acknowledged.push({ id: String(answer.body.transaction_id), instance: index, afterKill: wasKilled });
          } catch {
            // The connection broke: the request went to the instance being killed.
          }
        }
      };
      const clients = Array.from({ length: 6 }, (_unused, c) => client(c));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await victim.kill9();
      killed = true;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      stop = true;
      await Promise.all(clients);

      assert.ok(
        acknowledged.some((a) => a.instance === 0 && !a.afterKill),
        'the killed instance took payments before it died',
      );
      const survivors = acknowledged.filter((a) => a.afterKill);
      assert.ok(survivors.length > 0, 'the surviving instances kept answering');
      const ids = acknowledged.map((a) => a.id);
      const stored = await pool.query<{ id: string }>('SELECT id FROM transactions WHERE id = ANY($1) AND status_code = 3', [ids]);
      assert.equal(stored.rows.length, ids.length, 'every acknowledged payment is in the database');
      // And the acknowledged payments are whole: each has its authorization and capture in the log.
      const logged = await pool.query(
        'SELECT count(DISTINCT transaction_id) AS n FROM transaction_events WHERE transaction_id = ANY($1) AND type = $2',
        [ids, 'capture'],
      );
      assert.equal(Number(logged.rows[0].n), ids.length);
    },
  );
});
