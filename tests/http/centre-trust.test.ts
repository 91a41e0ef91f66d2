// The centre holds the keys (D20, issue 35): each attack an outside probe made on a centre and its
// joined tills, replayed. Part one through inject() against a centre with two merchants (forwarding,
// pairing, the replica, a till credential's live sales); part two with real processes: a centre of
// the pass's engine and a till joined from its own data directory behind a TCP proxy of the test's
// own (what a till refuses, what it keeps, and how fast the centre's word reaches it).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { basicAuth } from '../helpers/gateway-process.js';
import { freshPan, newMerchant, posPayment, startHarness, type Harness } from '../helpers/payments.js';
import { ADMIN, CASHIER, MANAGER, Shop, until } from '../helpers/shop.js';
import { countOf, sqlOf } from '../helpers/sql.js';

const COOKIE = 'tillgate_session';

describe('the centre trusts no till: forwarding, pairing, the replica, a till credential (inject)', () => {
  let h: Harness;
  let shop: TestMerchant;
  let other: TestMerchant;
  let adminCookie = '';
  let tillAuth = '';
  let tillCashier = '';
  let otherCashier = '';

  const invite = async (tillId: string) => {
    const response = await h.app.inject({ method: 'POST', url: `/ui/tills/${tillId}/invite`, headers: { cookie: adminCookie } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<{ code: string }>().code;
  };
  const join = (code: string, source = '127.0.0.1') =>
    h.app.inject({ method: 'POST', url: '/centre/join', remoteAddress: source, payload: { code, till_version: '0.1.0' } });
  const forward = (entries: unknown[]) =>
    h.app.inject({ method: 'POST', url: '/centre/forward', headers: { authorization: tillAuth }, payload: { entries } });
  const entry = (amount: number, options: { staff?: string | null; storedAt?: string; terminal?: string } = {}) => {
    const request = posPayment(amount, { pan: freshPan(), entry: 'chip' });
    (request.pos_data as { terminal: { id: string } }).terminal.id = options.terminal ?? 'TILL-2';
    return {
      seq: Math.floor(Math.random() * 1e9) + 1,
      transaction_id: randomUUID() as string,
      stored_at: options.storedAt ?? new Date(h.clock.now()).toISOString(),
      staff_id: options.staff ?? null,
      request,
    };
  };
  const detail = async (id: string) =>
    (await h.app.inject({ method: 'GET', url: `/ui/transactions/${id}`, headers: { cookie: adminCookie } })).json<
      Record<string, unknown>
    >();

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Trust Bakery');
    other = await newMerchant(h, 'Other Bakery');
    assert.ok(
      (await h.gateway.staff.create({ merchantId: shop.merchant_id, role: 'admin', login: 'owner', pin: '2468', displayName: 'Olga' })).ok,
    );
    const cashier = await h.gateway.staff.create({
      merchantId: shop.merchant_id,
      role: 'cashier',
      login: 'anna',
      pin: '1357',
      displayName: 'Anna',
    });
    const stranger = await h.gateway.staff.create({
      merchantId: other.merchant_id,
      role: 'cashier',
      login: 'eve',
      pin: '9753',
      displayName: 'Eve',
    });
    assert.ok(cashier.ok && stranger.ok);
    tillCashier = cashier.value.staff_id;
    otherCashier = stranger.value.staff_id;
    const login = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'owner', pin: '2468' } });
    adminCookie = `${COOKIE}=${login.cookies.find((c) => c.name === COOKIE)?.value ?? ''}`;
    const joined = await join(await invite('TILL-2'));
    assert.equal(joined.statusCode, 200, joined.body);
    tillAuth = basicAuth(joined.json<{ api_key: string; api_password: string }>());
  });

  after(async () => {
    await h.close();
  });

  test("a forwarded sale names only the till's own merchant's staff: another merchant's cashier or an unknown id leaves it with none, flagged", async () => {
    const theirs = entry(3.1, { staff: otherCashier });
    const made = entry(3.2, { staff: 'not-a-staff' });
    const ours = entry(3.3, { staff: tillCashier });
    const answer = await forward([theirs, made, ours]);
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(
      answer.json<{ results: Array<{ status: string }> }>().results.map((r) => r.status),
      ['completed', 'completed', 'completed'],
    );
    for (const refused of [theirs, made]) {
      const view = await detail(refused.transaction_id);
      assert.equal(view.cashier, null, 'no cashier the centre does not know');
      assert.equal((view.stored as { cashier_refused: boolean }).cashier_refused, true);
    }
    const view = await detail(ours.transaction_id);
    assert.deepEqual(view.cashier, { staff_id: tillCashier, name: 'Anna' });
    assert.equal((view.stored as { cashier_refused: boolean }).cashier_refused, false);
  });

  test("a forwarded sale over the till's limits, stored too long ago or in the future, or naming another till is not authorized: declined, on Needs attention, with its postback", async () => {
    const huge = entry(900_000, { staff: tillCashier });
    (huge.request as Record<string, unknown>).postback_url = 'https://example.com/postbacks';
    const ancient = entry(5, { storedAt: '2001-05-01T10:00:00.000Z' });
    const future = entry(5.5, { storedAt: new Date(h.clock.now().getTime() + 3_600_000).toISOString() });
    const elsewhere = entry(6, { terminal: 'TILL-1' });
    const answer = await forward([huge, ancient, future, elsewhere]);
    assert.equal(answer.statusCode, 200, answer.body);
    const results = answer.json<{ results: Array<{ transaction_id: string; status: string; message: string }> }>().results;
    assert.deepEqual(
      results.map((r) => r.status),
      ['declined', 'declined', 'declined', 'declined'],
      answer.body,
    );
    for (const r of results) assert.match(r.message, /Over the till's limits/);
    assert.match(results.find((r) => r.transaction_id === huge.transaction_id)?.message ?? '', /at most 100\.00 EUR/);
    assert.match(results.find((r) => r.transaction_id === elsewhere.transaction_id)?.message ?? '', /names TILL-1, another till/);
    const ids = [huge, ancient, future, elsewhere].map((e) => e.transaction_id);
    for (const id of ids)
      assert.equal(
        await countOf(h, 'SELECT COUNT(*) AS n FROM forwarded_declines WHERE transaction_id = ? AND handled_at IS NULL', id),
        1,
        'on Needs attention',
      );
    const postback = await sqlOf(h).get<{ payload: string }>(
      'SELECT payload FROM postback_outbox WHERE subject_id = ?',
      huge.transaction_id,
    );
    assert.match(postback?.payload ?? '', /Over the till's limits/, 'its postback says why');
    const dashboard = (await h.app.inject({ method: 'GET', url: '/ui/dashboard?period=today', headers: { cookie: adminCookie } })).json<{
      attention: { forwarded_declines: { count: number } };
    }>();
    assert.ok(dashboard.attention.forwarded_declines.count >= 4, JSON.stringify(dashboard.attention));
  });

  test('a forwarded id that exists elsewhere answers the same conflict as any other, without saying it exists', async () => {
    const theirs = await h.app.inject({
      method: 'POST',
      url: '/rest/payment',
      headers: { authorization: other.auth },
      payload: posPayment(4, { pan: freshPan(), entry: 'chip' }),
    });
    const theirId = theirs.json<{ transaction_id: string }>().transaction_id;
    const ours = entry(4);
    const first = await forward([ours]);
    assert.equal(first.statusCode, 200, first.body);
    const sameIdOtherSeq = { ...entry(4), transaction_id: ours.transaction_id };
    const answers = await Promise.all([forward([{ ...entry(4), transaction_id: theirId }]), forward([sameIdOtherSeq])]);
    const refusals = answers.map((a) => a.json<{ results: Array<{ refused?: string; message: string }> }>().results[0]);
    assert.equal(refusals[0]?.refused, refusals[1]?.refused, "the same answer for another merchant's id and this till's own");
    assert.ok(refusals[0]?.refused && !/taken|exist/i.test(refusals[0].refused), refusals[0]?.refused);
  });

  test("the replica carries the till's shop's staff who work at a till (no admin, no one disabled, no other merchant's) and the shop's till ids", async () => {
    const disabled = await h.gateway.staff.create({
      merchantId: shop.merchant_id,
      role: 'back_office',
      login: 'gone',
      pin: '8642',
      displayName: 'Gone',
    });
    assert.ok(disabled.ok);
    const off = await h.app.inject({
      method: 'POST',
      url: `/ui/staff/${disabled.value.staff_id}/disable`,
      headers: { cookie: adminCookie },
    });
    assert.equal(off.statusCode, 200, off.body);
    const replica = (await h.app.inject({ method: 'GET', url: '/centre/replica', headers: { authorization: tillAuth } })).json<{
      staff: Array<{ login: string; role: string }>;
      till_ids: string[];
    }>();
    assert.deepEqual(
      replica.staff.map((s) => s.login),
      ['anna'],
    );
    assert.deepEqual(replica.till_ids, ['TILL-1', 'TILL-2']);
  });

  test("a till credential's live sale may not name another till (400 naming pos_data.terminal.id); a terminal that is no till is the till's own sale", async () => {
    const named = async (terminal: string) => {
      const body = posPayment(7, { pan: freshPan(), entry: 'chip' });
      (body.pos_data as { terminal: { id: string } }).terminal.id = terminal;
      return h.app.inject({
        method: 'POST',
        url: '/rest/payment',
        headers: { authorization: tillAuth, 'idempotency-key': `till:TILL-2:${randomUUID()}` },
        payload: body,
      });
    };
    assertApiError(await named('TILL-1'), 400, 1001, ['pos_data.terminal.id']);
    const own = await named('TILL-9');
    assert.equal(own.statusCode, 200, own.body);
    assert.equal((await detail(own.json<{ transaction_id: string }>().transaction_id)).till !== null, true);
    assert.deepEqual(((await detail(own.json<{ transaction_id: string }>().transaction_id)).till as { till_id: string }).till_id, 'TILL-2');
  });

  test('/centre/* takes a till credential before it reads the body: a merchant credential gets 403, not 400', async () => {
    assertApiError(
      await h.app.inject({
        method: 'POST',
        url: '/centre/forward',
        headers: { authorization: shop.auth },
        payload: { entries: 'nonsense' },
      }),
      403,
      2002,
      ['Authorization'],
    );
    assertApiError(
      await h.app.inject({ method: 'POST', url: '/centre/heartbeat', headers: { authorization: shop.auth }, payload: {} }),
      403,
      2002,
      ['Authorization'],
    );
  });

  test('pairing is locked out per source like a login: wrong codes end in 429 with Retry-After, and then even a good code waits; another source is not locked', async () => {
    const source = '198.51.100.7';
    let locked;
    for (let i = 0; i < 40 && !locked; i += 1) {
      const answer = await join(`WRNG-CODE-${String(i).padStart(4, 'A')}-AAAA-AAAA`, source);
      if (answer.statusCode === 429) locked = answer;
      else assertApiError(answer, 404, 3001, ['code']);
    }
    assert.ok(locked, 'locked out within 40 wrong codes');
    assert.ok(Number(locked.headers['retry-after']) >= 1, JSON.stringify(locked.headers));
    const good = await invite('TILL-3');
    assert.equal((await join(good, source)).statusCode, 429, 'a locked source waits whatever it sends');
    assert.equal((await join(good, '198.51.100.8')).statusCode, 200, 'another source joins');
  });
});

describe('a joined till is no authority: it refuses, keeps only what it needs, sealed, and follows the centre (processes)', () => {
  let shop: Shop;
  let tillDir = '';

  before(async () => {
    shop = await Shop.open('Harbour Trust');
    tillDir = (await shop.join('TILL-7')).process.dataDir;
  });

  after(async () => {
    await shop?.stop();
  });

  const login = async (where: string, who: { login: string; pin: string }) =>
    fetch(`${shop.urlOf(where)}/ui/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: who.login, pin: who.pin }),
    });
  const basic = (credential: { api_key: string; api_password: string }) =>
    `Basic ${Buffer.from(`${credential.api_key}:${credential.api_password}`).toString('base64')}`;
  const readsAtTill = async (credential: { api_key: string; api_password: string }) =>
    (await fetch(`${shop.urlOf('TILL-7')}/rest/transactions`, { headers: { authorization: basic(credential) } })).status;

  test("the till refuses every change that is the centre's (credentials, staff, PINs, tills, pairing codes, limits, settings) and is never a centre itself", async () => {
    const refusals: Array<[string, string, unknown]> = [
      ['POST', '/ui/credentials', undefined],
      [
        'POST',
        '/ui/staff',
        { role: 'admin', login: 'mallory', display_name: 'Mallory', pin: '4444', password: 'a long enough password 1' },
      ],
      ['PUT', '/ui/session/pin', { pin: '9999' }],
      ['POST', '/ui/tills', { till_id: 'TILL-8' }],
      ['POST', '/ui/tills/TILL-9/invite', undefined],
      ['PUT', '/ui/tills/TILL-7/limits', { per_payment: 100000, total_per_currency: 1000000, count: 10000, age_hours: 720 }],
      ['PUT', '/ui/profile', { name: 'Not the shop' }],
      ['POST', '/ui/webhook-key/rotate', undefined],
    ];
    for (const [method, path, body] of refusals) {
      const answer = await shop.ui('TILL-7', method, path, body, MANAGER);
      assert.equal(answer.status, 403, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(
        (answer.body.errors as Array<{ field: string }>).map((e) => e.field),
        ['till'],
        `${method} ${path}`,
      );
    }
    const join = await fetch(`${shop.urlOf('TILL-7')}/centre/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'AAAA-BBBB-CCCC-DDDD-EEEE', till_version: 'x' }),
    });
    assert.equal(join.status, 403, 'a till takes no pairing code');
    const replica = await fetch(`${shop.urlOf('TILL-7')}/centre/replica`, { headers: { authorization: shop.auth } });
    assert.equal(replica.status, 403);
    // Reading stays: the manager sees the shop's staff and credentials as the till keeps them.
    assert.equal((await shop.ui('TILL-7', 'GET', '/ui/staff', undefined, MANAGER)).status, 200);
  });

  test("the till keeps its shop's till staff only, with hashes sealed by its data key, in files only its owner reads; an admin logs in at the centre, not here", async () => {
    assert.equal((await login('TILL-7', ADMIN)).status, 401, 'no admin hash at a till');
    assert.equal((await login('TILL-7', CASHIER)).status, 200);
    assert.equal((await login('centre', ADMIN)).status, 200);
    const db = new Database(join(tillDir, 'gateway.sqlite'), { readonly: true });
    try {
      const staff = db.prepare('SELECT login, password_hash, pin_hash FROM staff ORDER BY login').all() as Array<{
        login: string;
        password_hash: string;
        pin_hash: string | null;
      }>;
      assert.deepEqual(
        staff.map((s) => s.login),
        ['kasia', 'mira'],
      );
      for (const s of staff) {
        assert.match(s.pin_hash ?? '', /^sealed\$v1\./, `${s.login}'s PIN hash is sealed`);
        assert.match(s.password_hash, /^sealed\$v1\./);
      }
    } finally {
      db.close();
    }
    for (const name of readdirSync(tillDir).filter((n) => n.startsWith('gateway.sqlite') || n === 'data.key')) {
      assert.equal(statSync(join(tillDir, name)).mode & 0o777, 0o600, `${name} is 0600`);
    }
  });

  test('what the centre revokes or disables is gone at the till within seconds, online and after a reconnect', async () => {
    const made = await shop.ui('centre', 'POST', '/ui/credentials');
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const credential = made.body as { credential_id: string; api_key: string; api_password: string };
    await until('the new credential at the till', async () => ((await readsAtTill(credential)) === 200 ? true : undefined), 15_000);
    assert.equal((await shop.ui('centre', 'POST', `/ui/credentials/${credential.credential_id}/revoke`)).status, 200);
    await until(
      'the revoked credential refused at the till',
      async () => ((await readsAtTill(credential)) === 401 ? true : undefined),
      10_000,
    );

    // Revoked while the till cannot reach the centre: refused once it is back.
    const second = (await shop.ui('centre', 'POST', '/ui/credentials')).body as {
      credential_id: string;
      api_key: string;
      api_password: string;
    };
    await until('the second credential at the till', async () => ((await readsAtTill(second)) === 200 ? true : undefined), 15_000);
    const till = shop.tills.get('TILL-7');
    assert.ok(till);
    till.proxy.cut();
    await until('the till away', async () => ((await shop.link('TILL-7')).state === 'away' ? true : undefined));
    assert.equal((await shop.ui('centre', 'POST', `/ui/credentials/${second.credential_id}/revoke`)).status, 200);
    till.proxy.restore();
    await until(
      'the credential revoked meanwhile refused at the till',
      async () => ((await readsAtTill(second)) === 401 ? true : undefined),
      10_000,
    );

    // A cashier disabled at the centre: their session at the till ends, and they no longer log in there.
    const session = (await login('TILL-7', CASHIER)).headers.get('set-cookie')?.split(';')[0] ?? '';
    assert.equal((await fetch(`${shop.urlOf('TILL-7')}/ui/till/link`, { headers: { cookie: session } })).status, 200);
    const staff = (await shop.ui('centre', 'GET', '/ui/staff')).body as unknown as Array<{ staff_id: string; login: string }>;
    const kasia = staff.find((s) => s.login === CASHIER.login);
    assert.ok(kasia);
    assert.equal((await shop.ui('centre', 'POST', `/ui/staff/${kasia.staff_id}/disable`)).status, 200);
    await until(
      'the disabled cashier out at the till',
      async () =>
        (await fetch(`${shop.urlOf('TILL-7')}/ui/till/link`, { headers: { cookie: session } })).status === 401 ? true : undefined,
      10_000,
    );
    assert.equal((await login('TILL-7', CASHIER)).status, 401);
  });
});
