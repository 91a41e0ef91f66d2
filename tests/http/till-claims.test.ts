// A till claim is a secret the gateway gives, not an id the screen chooses (issue 35, item 6;
// docs/decisions.md "Several tills"). The first take of a till answers a claim; the same screen
// presents it to get its till back after a new login, without take_over. Another session sending
// the holder's screen id, or a wrong claim, is refused like any other screen (409, 4005) and does
// not get the till; take_over still takes it and the old screen learns so at its next call. A till
// joined from another computer is never this gateway's screens': not taken, not kept, not sold as,
// even by a screen that held it before it joined. Each test has tills of its own. Through inject()
// on both engines.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { newMerchant, posPayment, startHarness, type Harness } from '../helpers/payments.js';

const COOKIE = 'tillgate_session';
const CLAIM = /^[A-Za-z0-9_-]{43}$/;

interface TakenTill {
  till_id: string;
  holder: { staff_name: string | null; this_screen: boolean } | null;
  claim: string | null;
}

interface TillList {
  tills: Array<{ till_id: string; holder: { staff_name: string | null; this_screen: boolean } | null; remote: unknown }>;
  this_screen: string | null;
}

/**
 * A till screen as the renderer is one: its staff session, the screen id it sent before claims (a
 * label now), and the claim it keeps from the gateway's answers.
 */
interface Screen {
  cookie: string;
  screenId: string;
  claim?: string;
}

describe('till claims', () => {
  let h: Harness;
  let shop: TestMerchant;

  const logIn = async (login: string) => {
    const response = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login, pin: '2468' } });
    assert.equal(response.statusCode, 200, response.body);
    return `${COOKIE}=${response.cookies.find((c) => c.name === COOKIE)?.value ?? ''}`;
  };
  /** A new screen with a new session. */
  const screen = async (login: string): Promise<Screen> => ({
    cookie: await logIn(login),
    screenId: `screen-${randomUUID().replaceAll('-', '')}`,
  });
  /** The same screen after a new login (a session that ended, a restart): its screen id and claim, a new session. */
  const loggedInAgain = async (was: Screen, login: string): Promise<Screen> => ({ ...was, cookie: await logIn(login) });
  const call = (who: Screen, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    h.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload === undefined ? {} : { payload }) });
  /** PUT /ui/session/till as the till screen sends it (its claim, if it has one; `claim: null`: none); a claim answered is kept. */
  const take = async (who: Screen, tillId: string, options: { takeOver?: boolean; claim?: string | null; screenId?: string } = {}) => {
    const claim = options.claim === null ? undefined : (options.claim ?? who.claim);
    const response = await call(who, 'PUT', '/ui/session/till', {
      till_id: tillId,
      screen_id: options.screenId ?? who.screenId,
      ...(claim === undefined ? {} : { claim }),
      ...(options.takeOver ? { take_over: true } : {}),
    });
    if (response.statusCode === 200) {
      const answered = response.json<TakenTill>().claim;
      if (typeof answered === 'string') who.claim = answered;
    }
    return response;
  };
  const taken = (response: Awaited<ReturnType<typeof take>>) => {
    assert.equal(response.statusCode, 200, response.body);
    return response.json<TakenTill>();
  };
  const terminalOf = (who: Screen) => call(who, 'GET', '/ui/terminal');
  const sellsOn = async (who: Screen) => {
    const terminal = await terminalOf(who);
    assert.equal(terminal.statusCode, 200, terminal.body);
    return terminal.json<{ terminal_id: string }>().terminal_id;
  };
  const list = async (who: Screen) => (await call(who, 'GET', '/ui/tills')).json<TillList>();
  /** A card-present sale from a screen, naming a terminal id: the till it is booked to. */
  const sell = async (who: Screen, terminal: string) => {
    const body = posPayment(7.5, { pan: '4111111111111111' });
    (body.pos_data as { terminal: { id: string } }).terminal.id = terminal;
    const sale = await h.app.inject({
      method: 'POST',
      url: '/rest/payment',
      headers: { cookie: who.cookie, 'idempotency-key': randomUUID() },
      payload: body,
    });
    assert.equal(sale.statusCode, 200, sale.body);
    const stored = await h.app.inject({
      method: 'GET',
      url: `/rest/transactions/${sale.json<{ transaction_id: string }>().transaction_id}`,
      headers: { authorization: shop.auth },
    });
    assert.equal(stored.statusCode, 200, stored.body);
    return stored.json<{ till_id?: string }>().till_id;
  };
  let boss: Screen;

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Claim Bakery');
    for (const [login, role, name] of [
      ['anna', 'cashier', 'Anna'],
      ['ben', 'cashier', 'Ben'],
      ['boss', 'admin', 'Olga'],
    ] as const) {
      assert.ok((await h.gateway.staff.create({ merchantId: shop.merchant_id, role, login, pin: '2468', displayName: name })).ok);
    }
    boss = await screen('boss');
    for (const till of ['A-1', 'A-2', 'B-1', 'C-1', 'C-2', 'D-1', 'D-2', 'E-1', 'E-2'])
      assert.equal((await call(boss, 'POST', '/ui/tills', { till_id: till })).statusCode, 201);
  });

  after(async () => {
    await h.close();
  });

  test("another session sending the holder's screen id is refused (409, 4005) and does not get the till; the first take answers a claim, a heartbeat keeps it", async () => {
    const anna = await screen('anna');
    const ben = await screen('ben');
    const first = taken(await take(anna, 'A-1'));
    // Ben's screen says it is Anna's.
    const refused = assertApiError(await take(ben, 'A-1', { screenId: anna.screenId }), 409, 4005, ['till_id']);
    assert.match(refused.message, /Till A-1 is open on another screen \(Anna\)/);
    assertApiError(await terminalOf(ben), 400, 1001, ['till_id']);
    const bens = await list(ben);
    assert.equal(bens.this_screen, null);
    const holder = bens.tills.find((t) => t.till_id === 'A-1')?.holder;
    assert.deepEqual([holder?.staff_name, holder?.this_screen], ['Anna', false]);
    assert.equal(await sellsOn(anna), 'A-1');

    // Anna's take answered a claim: random, of the gateway's making, not her screen id.
    assert.match(first.claim ?? '', CLAIM);
    assert.notEqual(first.claim, anna.screenId);
    // Her heartbeat presents it: the till stays hers, and so does the claim (null: keep yours).
    const beat = taken(await take(anna, 'A-1'));
    assert.deepEqual([beat.holder?.this_screen, beat.claim], [true, null]);
    assert.equal(anna.claim, first.claim);
    // Her session without it (a client that keeps none) keeps the till too, and is given a new claim.
    const bare = taken(await take(anna, 'A-1', { claim: null, screenId: 'any-label-at-all' }));
    assert.equal(bare.holder?.this_screen, true);
    assert.match(bare.claim ?? '', CLAIM);
    assert.notEqual(bare.claim, first.claim);
  });

  test('with its claim the same screen gets its till back after a new login, without take_over; the claim is then a new one', async () => {
    const before_ = await screen('anna');
    const first = taken(await take(before_, 'B-1'));
    // The same screen, a new session: without its claim nothing says it is that screen, not even its screen id.
    const after_ = await loggedInAgain(before_, 'anna');
    assertApiError(await take(after_, 'B-1', { claim: null }), 409, 4005, ['till_id']);
    assert.match(first.claim ?? '', CLAIM);
    // With it, the till is back.
    const back = taken(await take(after_, 'B-1'));
    assert.equal(back.holder?.this_screen, true);
    assert.match(back.claim ?? '', CLAIM);
    assert.notEqual(back.claim, first.claim, 'a claim moves a till to a new session once');
    assert.equal(await sellsOn(after_), 'B-1');
    // The session it came from no longer has it, and the claim it used is spent.
    assertApiError(await take(before_, 'B-1', { claim: first.claim ?? '' }), 409, 4005, ['till_id']);
    assertApiError(await terminalOf(before_), 400, 1001, ['till_id']);
    assert.equal(taken(await take(after_, 'B-1')).claim, null);
  });

  test("a wrong claim is refused like none: a random one, another till's, a malformed one", async () => {
    const anna = await screen('anna');
    const ben = await screen('ben');
    taken(await take(anna, 'C-1'));
    assertApiError(await take(ben, 'C-1', { claim: randomBytes(32).toString('base64url') }), 409, 4005, ['till_id']);
    taken(await take(ben, 'C-2'));
    assert.match(ben.claim ?? '', CLAIM);
    assertApiError(await take(ben, 'C-1'), 409, 4005, ['till_id']);
    assertApiError(await take(ben, 'C-1', { claim: 'not a claim' }), 400, 1001, ['claim']);
    assert.equal(await sellsOn(ben), 'C-2', 'Ben still sells on his own till');
    assert.equal(await sellsOn(anna), 'C-1');
  });

  test('take_over still takes the till; the old screen learns it at its next call, and its claim no longer gets it back', async () => {
    const anna = await screen('anna');
    const ben = await screen('ben');
    taken(await take(anna, 'D-1'));
    const annasClaim = anna.claim;
    assert.match(annasClaim ?? '', CLAIM);
    taken(await take(ben, 'D-2'));
    const over = taken(await take(ben, 'D-1', { takeOver: true }));
    assert.deepEqual([over.holder?.staff_name, over.holder?.this_screen], ['Ben', true]);
    assert.match(over.claim ?? '', CLAIM);
    assert.notEqual(over.claim, annasClaim);
    // A screen holds one till: Ben's D-2 is free.
    assert.equal((await list(boss)).tills.find((t) => t.till_id === 'D-2')?.holder, null);
    // Anna's screen, at its next heartbeat: someone else's now, named.
    const told = assertApiError(await take(anna, 'D-1'), 409, 4005, ['till_id']);
    assert.match(told.message, /\(Ben\)/);
    assertApiError(await terminalOf(anna), 400, 1001, ['till_id']);
    // Nor after a new login with the claim it had.
    assertApiError(await take(await loggedInAgain(anna, 'anna'), 'D-1'), 409, 4005, ['till_id']);
    assert.equal(await sellsOn(ben), 'D-1');
  });

  test('a till joined from another computer: no screen at the centre takes it, keeps it or sells as it, not even the one that held it before the join', async () => {
    const ben = await screen('ben');
    const anna = await screen('anna');
    taken(await take(ben, 'E-1'));
    // The admin pairs E-1 with a till on another computer, and it joins.
    const invite = await call(boss, 'POST', '/ui/tills/E-1/invite');
    assert.equal(invite.statusCode, 201, invite.body);
    const joined = await h.app.inject({
      method: 'POST',
      url: '/centre/join',
      payload: { code: invite.json<{ code: string }>().code, till_version: '0.1.0' },
    });
    assert.equal(joined.statusCode, 200, joined.body);

    // Ben's screen no longer sells as E-1: not its terminal, not its attempt slot, not its sales.
    assertApiError(await terminalOf(ben), 400, 1001, ['till_id']);
    assertApiError(
      await call(ben, 'PUT', '/ui/till/attempt', {
        order_id: `claim-${randomUUID()}`,
        idempotency_key: randomUUID(),
        amount: 5,
        currency: 'EUR',
      }),
      400,
      1001,
      ['till_id'],
    );
    assert.equal(await sell(ben, 'E-1'), undefined, "a sale from the centre's screen naming E-1 is no till's (other terminals)");
    // Its heartbeat (with its claim) and take_over are refused; so is any other screen's take.
    assertApiError(await take(ben, 'E-1'), 400, 1002, ['till_id']);
    assertApiError(await take(ben, 'E-1', { takeOver: true }), 400, 1002, ['till_id']);
    assertApiError(await take(anna, 'E-1'), 400, 1002, ['till_id']);
    assertApiError(await take(anna, 'E-1', { takeOver: true }), 400, 1002, ['till_id']);
    // The chooser: nobody here holds it, it is not this screen's, and it is marked as on another computer.
    const chooser = await list(ben);
    assert.equal(chooser.this_screen, null);
    const listed = chooser.tills.find((t) => t.till_id === 'E-1');
    assert.equal(listed?.holder, null);
    assert.notEqual(listed?.remote, null);
    // Ben's screen takes another till and sells there, whatever terminal id a sale names.
    assert.equal(taken(await take(ben, 'E-2')).till_id, 'E-2');
    assert.equal(await sellsOn(ben), 'E-2');
    assert.equal(await sell(ben, 'E-1'), 'E-2');
  });
});
