// The centre's side of joined tills (issue 26, parts 1 and 2): an admin's one-time pairing code, the
// join (a credential of the till's own), its reports, the replica it keeps, and forwarding the sales
// it stored: each once, under the id the till gave it, however often and however concurrently the
// batch is sent. Through inject() on both engines.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { basicAuth } from '../helpers/gateway-process.js';
import { freshPan, newMerchant, posPayment, startHarness, type Harness } from '../helpers/payments.js';
import { countOf, sqlOf } from '../helpers/sql.js';

const COOKIE = 'tillgate_session';
const FORWARD_DECLINE = '4000000000000416';

interface Joined {
  api_key: string;
  api_password: string;
  till_id: string;
  merchant_id: string;
  limits: { per_payment: number; total_per_currency: number; count: number; age_hours: number };
}
interface Result {
  seq: number;
  transaction_id: string;
  status_code: number;
  status: string;
  message: string | null;
  refused?: string;
}

describe('a centre and its joined tills', () => {
  let h: Harness;
  let shop: TestMerchant;
  let adminCookie = '';
  let till: Joined;
  let tillAuth = '';

  const logIn = async () => {
    const login = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'owner', pin: '2468' } });
    adminCookie = `${COOKIE}=${login.cookies.find((c) => c.name === COOKIE)?.value ?? ''}`;
  };
  const invite = async (tillId: string) => {
    const response = await h.app.inject({ method: 'POST', url: `/ui/tills/${tillId}/invite`, headers: { cookie: adminCookie } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<{ code: string; expires_at: string }>();
  };
  const join = (code: string) => h.app.inject({ method: 'POST', url: '/centre/join', payload: { code, till_version: '0.1.0' } });
  const forward = (entries: unknown[], authorization = tillAuth) =>
    h.app.inject({ method: 'POST', url: '/centre/forward', headers: { authorization }, payload: { entries } });
  /** A stored sale as the till forwards it. */
  const entry = (seq: number, amount: number, pan = freshPan(), terminal = 'TILL-2') => {
    const request = posPayment(amount, { pan, entry: 'chip' });
    (request.pos_data as { terminal: { id: string } }).terminal.id = terminal;
    return { seq, transaction_id: randomUUID() as string, stored_at: new Date().toISOString(), staff_id: null, request };
  };

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Centre Bakery');
    assert.ok(
      (await h.gateway.staff.create({ merchantId: shop.merchant_id, role: 'admin', login: 'owner', pin: '2468', displayName: 'Olga' })).ok,
    );
    await logIn();
  });

  after(async () => {
    await h.close();
  });

  test('an admin makes a one-time pairing code (the till is created); the till joins with it once and gets its own credential', async () => {
    const { code } = await invite('TILL-2');
    assert.match(code, /^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/, 'plain HTTP: no fingerprint in the code');
    const joined = await join(code);
    assert.equal(joined.statusCode, 200, joined.body);
    till = joined.json<Joined>();
    assert.deepEqual(
      [till.till_id, till.merchant_id, till.limits],
      ['TILL-2', shop.merchant_id, { per_payment: 100, total_per_currency: 1000, count: 200, age_hours: 24 }],
    );
    tillAuth = basicAuth(till);
    assertApiError(await join(code), 404, 3001, ['code']);
    assertApiError(await join('AAAA-BBBB-CCCC-DDDD-EEEE'), 404, 3001, ['code']);
    // Only the code's hash is kept.
    assert.equal(await countOf(h, 'SELECT COUNT(*) AS n FROM till_invites WHERE code_hash = ?', code), 0);
    assert.equal(
      await countOf(
        h,
        "SELECT COUNT(*) AS n FROM audit_log WHERE merchant_id = ? AND action IN ('till_invite', 'till_join')",
        shop.merchant_id,
      ),
      2,
    );
    const tills = (await h.app.inject({ method: 'GET', url: '/ui/tills', headers: { cookie: adminCookie } })).json<{
      tills: Array<{ till_id: string }>;
    }>();
    assert.ok(tills.tills.some((t) => t.till_id === 'TILL-2'));
  });

  test('a code is valid for 24 hours; joining again replaces the earlier link and revokes its credential', async () => {
    const stale = await invite('TILL-3');
    h.clock.advance(24 * 60 * 60 * 1000 + 1000);
    assertApiError(await join(stale.code), 404, 3001, ['code']);
    await logIn(); // the admin's session ended meanwhile
    const again = await join((await invite('TILL-2')).code);
    assert.equal(again.statusCode, 200);
    const old = tillAuth;
    till = again.json<Joined>();
    tillAuth = basicAuth(till);
    assert.equal(
      (await h.app.inject({ method: 'GET', url: '/centre/replica', headers: { authorization: old } })).statusCode,
      401,
      'the earlier credential is revoked',
    );
  });

  test("the till reports and gets its limits and the replica's digest; the replica has staff and API credentials as hashes, not the till's own; other credentials get 403", async () => {
    const report = {
      version: '0.1.0',
      stored: { count: 2, oldest_at: new Date().toISOString(), totals: [{ currency: 'EUR', amount: 12.5 }] },
      open_attempt: false,
    };
    const beat = await h.app.inject({ method: 'POST', url: '/centre/heartbeat', headers: { authorization: tillAuth }, payload: report });
    assert.equal(beat.statusCode, 200, beat.body);
    const { replica_digest: digest } = beat.json<{ replica_digest: string }>();
    const replica = (await h.app.inject({ method: 'GET', url: '/centre/replica', headers: { authorization: tillAuth } })).json<{
      digest: string;
      credentials: Array<{ api_key: string; password_hash: string }>;
      staff: Array<{ login: string; pin_hash: string | null }>;
    }>();
    assert.equal(replica.digest, digest);
    assert.deepEqual(
      replica.credentials.map((c) => c.api_key),
      [shop.api_key],
    );
    assert.match(replica.credentials[0]?.password_hash ?? '', /^scrypt\$/);
    assert.ok(!JSON.stringify(replica).includes(shop.api_password), 'no clear secret');
    assert.deepEqual(
      replica.staff.map((s) => s.login),
      [],
      'an admin never reaches a till (D20)',
    );
    assertApiError(
      await h.app.inject({ method: 'POST', url: '/centre/heartbeat', headers: { authorization: shop.auth }, payload: report }),
      403,
      2002,
      ['Authorization'],
    );
    // A new staff member changes the digest (the till fetches the replica again).
    assert.ok(
      (await h.gateway.staff.create({ merchantId: shop.merchant_id, role: 'cashier', login: 'anna', pin: '1357', displayName: 'Anna' })).ok,
    );
    const next = (
      await h.app.inject({ method: 'POST', url: '/centre/heartbeat', headers: { authorization: tillAuth }, payload: report })
    ).json<{ replica_digest: string }>();
    assert.notEqual(next.replica_digest, digest);
  });

  test('forwarded sales are created once under the ids the till gave them: a replayed batch, and two batches at once, charge nothing again', async () => {
    const batch = [entry(1, 12.5), entry(2, 30), entry(3, 4.2, FORWARD_DECLINE)];
    const first = await forward(batch);
    assert.equal(first.statusCode, 200, first.body);
    const results = first.json<{ results: Result[] }>().results;
    assert.deepEqual(
      results.map((r) => [r.seq, r.transaction_id, r.status_code, r.message]),
      [
        [1, batch[0]?.transaction_id, 3, 'Approved'],
        [2, batch[1]?.transaction_id, 3, 'Approved'],
        [3, batch[2]?.transaction_id, 6, '51 Insufficient funds'],
      ],
    );
    // The whole batch again, part of it, and the whole batch twice at the same moment.
    const [again, part, ...racing] = await Promise.all([forward(batch), forward([batch[1]]), forward(batch), forward(batch)]);
    assert.deepEqual(again?.json<{ results: Result[] }>().results, results);
    assert.deepEqual(part?.json<{ results: Result[] }>().results, [results[1]]);
    for (const r of racing) for (const result of r.json<{ results: Result[] }>().results) assert.deepEqual(result, results[result.seq - 1]);
    for (const e of batch) assert.equal(await countOf(h, 'SELECT COUNT(*) AS n FROM transactions WHERE id = ?', e.transaction_id), 1);
    const detail = (
      await h.app.inject({
        method: 'GET',
        url: `/rest/transactions/${batch[0]?.transaction_id ?? ''}`,
        headers: { authorization: shop.auth },
      })
    ).json<{ status: string; amount: number }>();
    assert.deepEqual([detail.status, detail.amount], ['completed', 12.5]);
  });

  test("a stored sale is the forwarding till's whatever terminal id it names (D19); a payment that is not card-present, or an id that is taken, is refused and charges nothing", async () => {
    const other = entry(4, 9, freshPan(), 'TILL-9');
    const taken = entry(5, 9);
    const existing = await h.app.inject({
      method: 'POST',
      url: '/rest/payment',
      headers: { authorization: shop.auth },
      payload: posPayment(9, { pan: freshPan() }),
    });
    taken.transaction_id = existing.json<{ transaction_id: string }>().transaction_id;
    const answer = (await forward([other, taken])).json<{ results: Result[] }>().results;
    assert.deepEqual(
      answer.map((r) => [r.seq, r.status_code, Boolean(r.refused)]),
      [
        [4, 3, false],
        [5, 11, true],
      ],
    );
    assert.equal(
      await countOf(h, 'SELECT COUNT(*) AS n FROM transactions WHERE id = ? AND till_id = ?', other.transaction_id, till.till_id),
      1,
      'booked under the forwarding till, not TILL-9',
    );
    assertApiError(await forward([{ ...entry(6, 1), request: { payment_type: 'cardpos' } }]), 400, 1001);
    assertApiError(await forward([entry(7, 1)], shop.auth), 403, 2002);
  });
  test("a joined till names the cashier of a sale (X-Till-Staff, honoured only from a till's credential) and asks how a sale with a lost answer ended (POST /centre/fence)", async () => {
    const anna = await h.gateway.staff.create({
      merchantId: shop.merchant_id,
      role: 'cashier',
      login: 'berta',
      pin: '8642',
      displayName: 'Berta',
    });
    assert.ok(anna.ok);
    const staffId = anna.value.staff_id;
    const key = `till:${till.till_id}:${randomUUID()}`;
    const sale = posPayment(7.5, { pan: freshPan(), entry: 'chip' });
    (sale.pos_data as { terminal: { id: string } }).terminal.id = till.till_id;
    const paid = await h.app.inject({
      method: 'POST',
      url: '/rest/payment',
      headers: { authorization: tillAuth, 'idempotency-key': key, 'x-till-staff': staffId },
      payload: sale,
    });
    assert.equal(paid.statusCode, 200, paid.body);
    const id = paid.json<{ transaction_id: string }>().transaction_id;
    assert.equal(
      await countOf(h, "SELECT COUNT(*) AS n FROM transactions WHERE id = ? AND details LIKE '%' || ? || '%'", id, staffId),
      1,
      "the sale is the cashier's",
    );
    // Only a till may name a cashier, and only an active one of its merchant.
    assertApiError(
      await h.app.inject({
        method: 'POST',
        url: '/rest/payment',
        headers: { authorization: shop.auth, 'x-till-staff': staffId },
        payload: posPayment(1, { pan: freshPan() }),
      }),
      403,
      2002,
      ['X-Till-Staff'],
    );
    assertApiError(
      await h.app.inject({
        method: 'POST',
        url: '/rest/payment',
        headers: { authorization: tillAuth, 'x-till-staff': randomUUID() },
        payload: posPayment(1, { pan: freshPan() }),
      }),
      403,
      2002,
      ['X-Till-Staff'],
    );

    const fence = (idempotency_key: string) =>
      h.app.inject({ method: 'POST', url: '/centre/fence', headers: { authorization: tillAuth }, payload: { idempotency_key } });
    const ran = await fence(key);
    assert.equal(ran.statusCode, 200, ran.body);
    const answer = ran.json<{ state: string; status: number; body: { transaction_id: string; status_code: number } }>();
    assert.deepEqual([answer.state, answer.status, answer.body.transaction_id, answer.body.status_code], ['processed', 200, id, 3]);
    // A key that never arrived is fenced: it never runs afterwards, so "not run" stays true.
    const lost = `till:${till.till_id}:${randomUUID()}`;
    assert.equal((await fence(lost)).json<{ state: string }>().state, 'not_run');
    const late = await h.app.inject({
      method: 'POST',
      url: '/rest/payment',
      headers: { authorization: tillAuth, 'idempotency-key': lost },
      payload: sale,
    });
    assert.notEqual(late.statusCode, 200, 'a fenced key never charges');
    assert.equal(await countOf(h, 'SELECT COUNT(*) AS n FROM transactions WHERE order_id = ?', String(sale.order_id)), 1);
    assertApiError(await fence(`till:TILL-9:${randomUUID()}`), 400, 1001, ['idempotency_key']);
    assertApiError(
      await h.app.inject({
        method: 'POST',
        url: '/centre/fence',
        headers: { authorization: shop.auth },
        payload: { idempotency_key: key },
      }),
      403,
      2002,
    );
  });
  test('a stored sale declined when forwarded goes on "Needs attention" in the same unit, with its till, cashier, card and order, fires its postback flagged forwarded_decline, and leaves the list when marked handled', async () => {
    const decline = entry(20, 6.5, FORWARD_DECLINE);
    const cora = await h.gateway.staff.create({
      merchantId: shop.merchant_id,
      role: 'cashier',
      login: 'cora',
      pin: '9753',
      displayName: 'Cora',
    });
    assert.ok(cora.ok);
    (decline as { staff_id: string | null }).staff_id = cora.value.staff_id;
    (decline.request as Record<string, unknown>).postback_url = 'https://shop.example/postbacks';
    const [result] = (await forward([decline])).json<{ results: Result[] }>().results;
    assert.equal(result?.status_code, 6);
    const dashboard = await h.app.inject({ method: 'GET', url: '/ui/dashboard', headers: { cookie: adminCookie } });
    assert.equal(dashboard.statusCode, 200, dashboard.body);
    const attention = dashboard.json<{ attention: { forwarded_declines: { count: number; items: Array<Record<string, unknown>> } } }>()
      .attention.forwarded_declines;
    const item = attention.items.find((i) => i.transaction_id === decline.transaction_id);
    assert.ok(item, JSON.stringify(attention));
    assert.deepEqual(
      [item.till_id, item.staff_name, item.amount, item.currency, item.card_brand, item.card_last_four, item.order_id],
      ['TILL-2', 'Cora', 6.5, 'EUR', 'visa', '0416', decline.request.order_id],
    );
    assert.match(String(item.message), /^51 /);
    const row = await sqlOf(h).get<{ payload: string }>('SELECT payload FROM postback_outbox WHERE subject_id = ?', decline.transaction_id);
    const payload = JSON.parse(row?.payload ?? '{}') as { forwarded_decline?: boolean; stored_sale?: { till_id: string } };
    assert.equal(payload.forwarded_decline, true);
    assert.equal(payload.stored_sale?.till_id, 'TILL-2');
    // Forwarded again: still one entry.
    await forward([decline]);
    assert.equal(await countOf(h, 'SELECT COUNT(*) AS n FROM forwarded_declines WHERE transaction_id = ?', decline.transaction_id), 1);
    const handled = await h.app.inject({
      method: 'POST',
      url: `/ui/forwarded-declines/${decline.transaction_id}/handled`,
      headers: { cookie: adminCookie },
    });
    assert.equal(handled.statusCode, 200, handled.body);
    assertApiError(
      await h.app.inject({
        method: 'POST',
        url: `/ui/forwarded-declines/${decline.transaction_id}/handled`,
        headers: { cookie: adminCookie },
      }),
      404,
      3001,
      ['transaction_id'],
    );
    const after = (await h.app.inject({ method: 'GET', url: '/ui/dashboard', headers: { cookie: adminCookie } })).json<{
      attention: { forwarded_declines: { items: Array<{ transaction_id: string }> } };
    }>();
    assert.ok(!after.attention.forwarded_declines.items.some((i) => i.transaction_id === decline.transaction_id));
  });
  test('an admin sets what a joined till may store (audited); the till gets the limits with its next report; bad limits are named, an unjoined till is 404', async () => {
    const limits = { per_payment: 250, total_per_currency: 20_000, count: 1500, age_hours: 48 };
    const set = await h.app.inject({ method: 'PUT', url: '/ui/tills/TILL-2/limits', headers: { cookie: adminCookie }, payload: limits });
    assert.equal(set.statusCode, 200, set.body);
    const report = { version: '0.1.0', stored: { count: 0, oldest_at: null, totals: [] }, open_attempt: false };
    const beat = (
      await h.app.inject({ method: 'POST', url: '/centre/heartbeat', headers: { authorization: tillAuth }, payload: report })
    ).json<{ limits: unknown }>();
    assert.deepEqual(beat.limits, limits);
    assert.equal(await countOf(h, "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'till_limits' AND subject_id = 'TILL-2'"), 1);
    assertApiError(
      await h.app.inject({
        method: 'PUT',
        url: '/ui/tills/TILL-2/limits',
        headers: { cookie: adminCookie },
        payload: { per_payment: -1, total_per_currency: 'x', count: 1.5 },
      }),
      400,
      1001,
      ['per_payment', 'total_per_currency', 'count', 'age_hours'],
    );
    assertApiError(
      await h.app.inject({ method: 'PUT', url: '/ui/tills/TILL-1/limits', headers: { cookie: adminCookie }, payload: limits }),
      404,
      3001,
      ['till_id'],
    );
  });
});
