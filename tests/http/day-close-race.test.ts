// Closing a till's day while its sales commit (D19: each sale in exactly one day and one Z, on both
// engines). Many card-present sales of one till run at once while its day is closed again and again;
// afterwards every closed day plus the open day add up to exactly the sales that were approved, each
// counted once. On SQLite one writer numbers the ledger in commit order; on PostgreSQL a sequence
// number is taken before its transaction commits, so a close must not cut by number alone.
// Through inject() on the pass's engine.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { DayReport, ZReportList } from '../../contract/api/reports.js';
import type { TestMerchant } from '../helpers/api.js';
import { freshPan, newMerchant, posPayment, startHarness, type Harness } from '../helpers/payments.js';
import type pg from 'pg';
import { PgStore } from '../../db/postgres/pg-store.js';

const COOKIE = 'tillgate_session';
const SALES = Number(process.env.RACE_SALES ?? 600);

describe('closing the day while sales commit', () => {
  let h: Harness;
  let shop: TestMerchant;
  let cookie = '';

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Busy Bakery');
    assert.ok(
      (await h.gateway.staff.create({ merchantId: shop.merchant_id, role: 'back_office', login: 'boss', pin: '2468', displayName: 'Olga' }))
        .ok,
    );
    const session = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'boss', pin: '2468' } });
    cookie = `${COOKIE}=${session.cookies.find((c) => c.name === COOKIE)?.value ?? ''}`;
  });

  after(async () => {
    await h.close();
  });

  /** A chip sale at `till` through the API, approved. */
  const sellAt = async (till: string, amount: number) => {
    const body = posPayment(amount, { pan: freshPan(), entry: 'chip' });
    (body.pos_data as { terminal: { id: string } }).terminal.id = till;
    const answer = await h.app.inject({
      method: 'POST',
      url: '/rest/payment',
      headers: { authorization: shop.auth, 'idempotency-key': randomUUID() },
      payload: body,
    });
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json<{ status: string; amount: number }>();
  };

  /** A captured sale of `till` written in `client`'s open transaction (the ledger's trigger runs at its commit). */
  const saleInTransaction = async (client: pg.PoolClient, till: string, minor: number, order: string) => {
    const id = randomUUID();
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO transactions (id, merchant_id, payment_type, operation, status_code, order_id, currency, amount_minor, captured_minor, details, till_id, created_at, updated_at)
       VALUES ($1, $2, 'cardpos', 'payment', 3, $3, 'EUR', $4, $4, '{}', $5, $6, $6)`,
      [id, shop.merchant_id, `${order}-${id.slice(0, 8)}`, minor, till, new Date().toISOString()],
    );
    await client.query(
      `INSERT INTO transaction_events (id, transaction_id, type, status, amount_minor, created_at) VALUES ($1, $2, 'capture', 3, $3, $4)`,
      [randomUUID(), id, minor, new Date().toISOString()],
    );
  };

  test('PostgreSQL: a sale whose transaction commits after a close that came after it started is in the next day, not lost', async (t) => {
    const store = h.composition.store;
    // On SQLite one writer commits at a time: a close cannot pass a sale that has not committed.
    if (!(store instanceof PgStore)) return t.skip('one writer on SQLite: the ledger is numbered in commit order by construction');
    const client = await store.pool.connect();
    try {
      await saleInTransaction(client, 'TILL-1', 777, 'late');
      // Meanwhile: another sale commits, and the day is closed.
      await sellAt('TILL-1', 1.23);
      const closed = await h.app.inject({
        method: 'POST',
        url: '/ui/reports/z?terminal_id=TILL-1',
        headers: { cookie, 'idempotency-key': randomUUID() },
      });
      assert.equal(closed.statusCode, 201, closed.body);
      assert.deepEqual(
        closed.json<DayReport>().totals.map((r) => r.approved),
        [{ count: 1, amount: 1.23 }],
        'the close counted what had committed',
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const open = (await h.app.inject({ method: 'GET', url: '/ui/reports/x?terminal_id=TILL-1', headers: { cookie } })).json<DayReport>();
    assert.deepEqual(
      open.totals.map((r) => r.approved),
      [{ count: 1, amount: 7.77 }],
      'the late sale is in the next day',
    );
  });

  test('PostgreSQL: a close waits for a sale whose ledger entry is numbered and not yet committed, and counts it', async (t) => {
    const store = h.composition.store;
    if (!(store instanceof PgStore)) return t.skip('one writer on SQLite: the ledger is numbered in commit order by construction');
    const TILL = 'TILL-5';
    assert.ok((await h.gateway.tills.create(shop.merchant_id, { till_id: TILL }, { staffId: null })).ok);
    const client = await store.pool.connect();
    try {
      await saleInTransaction(client, TILL, 555, 'numbered');
      // The ledger's trigger runs now instead of at commit: the entry has its number (under the book's
      // lock in share mode) while its transaction is still open.
      await client.query('SET CONSTRAINTS ALL IMMEDIATE');
      // Another sale of the till commits meanwhile, with a higher number.
      await sellAt(TILL, 1.11);
      let closedAt = 0;
      const closing = h.app
        .inject({ method: 'POST', url: `/ui/reports/z?terminal_id=${TILL}`, headers: { cookie, 'idempotency-key': randomUUID() } })
        .then((answer) => {
          closedAt = Date.now();
          return answer;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(closedAt, 0, 'the close waits while an entry of its till is numbered and not committed');
      const committedAt = Date.now();
      await client.query('COMMIT');
      const closed = await closing;
      assert.equal(closed.statusCode, 201, closed.body);
      assert.ok(closedAt >= committedAt);
      assert.deepEqual(
        closed.json<DayReport>().totals.map((r) => r.approved),
        [{ count: 2, amount: 6.66 }],
        'the close counted the numbered sale and the one after it',
      );
    } finally {
      client.release();
    }
    const open = (await h.app.inject({ method: 'GET', url: `/ui/reports/x?terminal_id=${TILL}`, headers: { cookie } })).json<DayReport>();
    assert.deepEqual(
      open.totals.map((r) => r.approved),
      [],
      'nothing is left over for the next day',
    );
  });

  test('every approved sale is in exactly one of the Z reports closed meanwhile or in the open day', async () => {
    // A till of its own: its days hold this test's sales only.
    const TILL = 'TILL-9';
    assert.ok((await h.gateway.tills.create(shop.merchant_id, { till_id: TILL }, { staffId: null })).ok);
    let selling = true;
    const sell = (n: number) => sellAt(TILL, 1 + (n % 50));
    const closes = (async () => {
      let closed = 0;
      while (selling) {
        const z = await h.app.inject({
          method: 'POST',
          url: `/ui/reports/z?terminal_id=${TILL}`,
          headers: { cookie, 'idempotency-key': randomUUID() },
        });
        assert.equal(z.statusCode, 201, z.body);
        closed += 1;
      }
      return closed;
    })();
    const answers = [];
    // Many at a time, so that sales commit while a close takes its figures.
    for (let start = 0; start < SALES; start += 40)
      answers.push(...(await Promise.all(Array.from({ length: 40 }, (_, i) => sell(start + i)))));
    selling = false;
    const closedDays = await closes;
    assert.ok(closedDays >= 3, `closed ${closedDays} days while selling`);

    const approved = answers.filter((a) => a.status === 'completed');
    const expected = { count: approved.length, minor: approved.reduce((sum, a) => sum + Math.round(a.amount * 100), 0) };
    let count = 0;
    let minor = 0;
    const add = (report: Pick<DayReport, 'totals'>) => {
      const eur = report.totals.find((t) => t.currency === 'EUR');
      count += eur?.approved.count ?? 0;
      minor += Math.round((eur?.approved.amount ?? 0) * 100);
    };
    for (let offset = 0; ; offset += 100) {
      const page = (
        await h.app.inject({ method: 'GET', url: `/ui/reports/z?terminal_id=${TILL}&limit=100&offset=${offset}`, headers: { cookie } })
      ).json<ZReportList>();
      for (const item of page.items) add(item);
      if (offset + 100 >= page.total) break;
    }
    add((await h.app.inject({ method: 'GET', url: `/ui/reports/x?terminal_id=${TILL}`, headers: { cookie } })).json<DayReport>());
    assert.deepEqual({ count, minor }, expected, 'the closed days and the open day count every sale once');
  });
});
