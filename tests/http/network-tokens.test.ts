// Network tokens through the API (docs/api.md and docs/decisions.md "Network tokens"): the whole
// lifecycle with postbacks, list paging and links, every validation rule, per-merchant scoping,
// encryption at rest and in logs, and paying with a token and its single-use cryptogram.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { luhnValid } from '../../contract/cards.js';
import { createLogger } from '../../main/infra/logger.js';
import { assertApiError, createTestMerchant, startTestGateway, type TestMerchant } from '../helpers/api.js';
import { startPostbackGateway } from '../helpers/postback-gateway.js';
import { startReceiver } from '../helpers/postback-receiver.js';
import { onPostgres, sqliteDb, sqlOf } from '../helpers/sql.js';
import {
  api,
  assertNoPanAtRest,
  cardPayment,
  DAY,
  EXPIRY_YEAR,
  freshPan,
  luhnComplete,
  newMerchant,
  SIM_DELAY_MS,
  startHarness,
  type Harness,
} from '../helpers/payments.js';

interface TokenView {
  id: string;
  merchant_id: string;
  status: string;
  type: string;
  network: string;
  provider: string;
  last_token_refresh: string | null;
  error?: { code: string; detail: string };
  created_at: string;
  updated_at: string;
}

interface ListBody {
  result: string;
  data_set: TokenView[];
  metadata: { per_page: number; total_items: number; current_page: number; total_pages: number };
  links: Record<'self' | 'first' | 'last' | 'prev' | 'next', { href: string | null }>;
}

const POSTBACK = 'https://shop.example/token-postbacks';
const FAILING_CARD = '5105105105105100';

describe('network tokens', () => {
  let h: Harness;
  let shop: TestMerchant;
  let other: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Token Shop');
    other = await newMerchant(h, 'Other Token Shop');
  });

  after(async () => {
    await h.close();
  });

  const request = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, merchant = shop) =>
    h.app.inject({
      method,
      url,
      headers: { authorization: merchant.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const valid = (pan: string, extra: Record<string, unknown> = {}) => ({
    card_number: pan,
    expiry_month: 12,
    expiry_year: EXPIRY_YEAR,
    postback_url: POSTBACK,
    ...extra,
  });
  const create = async (pan: string, extra: Record<string, unknown> = {}, merchant = shop) => {
    const response = await request('POST', '/v2/network_tokens', valid(pan, extra), merchant);
    assert.ok(response.statusCode === 201 || response.statusCode === 200, response.body);
    const body = response.json<{ result: string; data: TokenView }>();
    assert.equal(body.result, 'OK');
    return { status: response.statusCode, token: body.data };
  };
  const read = async (id: string) => (await request('GET', `/v2/network_tokens/${id}`)).json<{ data: TokenView }>().data;
  const postbacks = async (id: string) =>
    (
      await sqlOf(h).all<{ sequence: number; url: string; payload: string }>(
        "SELECT sequence, url, payload FROM postback_outbox WHERE subject_type = 'token' AND subject_id = ? ORDER BY sequence",
        id,
      )
    ).map((row) => ({ sequence: row.sequence, url: row.url, payload: JSON.parse(row.payload) as Record<string, unknown> }));
  const activeToken = async (pan = freshPan()) => {
    const { token } = await create(pan);
    await h.advance(SIM_DELAY_MS + 1);
    assert.equal((await read(token.id)).status, 'active');
    return token;
  };
  const tokenData = async (id: string) => {
    const response = await request('GET', `/v2/network_tokens/${id}/data`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{
      result: string;
      data: { id: string; number: string; expiry_month: number; expiry_year: number; payment_account_reference: string };
    }>().data;
  };
  const cryptogram = async (id: string) => {
    const response = await request('POST', `/v2/network_tokens/${id}/cryptogram`, {});
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{
      result: string;
      data: {
        id: string;
        type: string;
        authentication_data: string;
        pan_sequence_number: string;
        track2_equivalent: string;
        created: string;
      };
    }>().data;
  };

  test('lifecycle: requested -> active with a postback, data, cryptogram, suspend/resume/refresh, archive', async () => {
    const pan = freshPan();
    const { status, token } = await create(pan);
    assert.equal(status, 201);
    assert.equal(token.status, 'requested');
    assert.equal(token.type, 'merchant');
    assert.equal(token.network, 'visa');
    assert.equal(token.provider, 'simulator');
    assert.equal(token.merchant_id, shop.merchant_id);
    assert.equal(token.last_token_refresh, null);
    assert.equal(token.error, undefined);

    // Not active yet: no data, no cryptogram.
    assertApiError(await request('GET', `/v2/network_tokens/${token.id}/data`), 400, 1002);
    assertApiError(await request('POST', `/v2/network_tokens/${token.id}/cryptogram`, {}), 400, 1002);

    await h.advance(SIM_DELAY_MS + 1);
    assert.equal((await read(token.id)).status, 'active');
    const sent = await postbacks(token.id);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.url, POSTBACK);
    assert.deepEqual(sent[0]?.payload, { id: token.id, status: 'active', network: 'visa', error: null });

    // The same card for the same merchant: the existing token.
    const again = await create(pan);
    assert.equal(again.status, 200);
    assert.equal(again.token.id, token.id);
    assert.equal(again.token.status, 'active');

    const data = await tokenData(token.id);
    assert.deepEqual(Object.keys(data).sort(), ['expiry_month', 'expiry_year', 'id', 'number', 'payment_account_reference']);
    assert.match(data.number, /^4895\d{12}$/);
    assert.ok(luhnValid(data.number));
    assert.notEqual(data.number, pan);
    assert.equal(data.expiry_month, 12);
    assert.equal(data.expiry_year, EXPIRY_YEAR);
    assert.equal(data.payment_account_reference.length, 29);
    assert.deepEqual(await tokenData(token.id), data, 'the token number is stable');

    const c = await cryptogram(token.id);
    assert.equal(c.type, 'TAVV');
    assert.match(c.authentication_data, /^[A-Za-z0-9+/]+={0,2}$/);
    assert.ok(c.authentication_data.length <= 32);
    assert.match(c.pan_sequence_number, /^\d{2}$/);
    assert.match(c.track2_equivalent, /^[0-9A-Fa-f]{1,40}$/);
    assert.ok(!Number.isNaN(Date.parse(c.created)));

    // Test mode: suspend, resume, refresh.
    const simulate = (action: string) => request('POST', `/v2/network_tokens/${token.id}/simulate`, { action });
    let response = await simulate('suspend');
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<{ data: TokenView }>().data.status, 'suspended');
    assertApiError(await request('POST', `/v2/network_tokens/${token.id}/cryptogram`, {}), 400, 1002);
    assertApiError(await simulate('suspend'), 400, 1002);
    response = await simulate('resume');
    assert.equal(response.json<{ data: TokenView }>().data.status, 'active');
    h.clock.advance(1000);
    response = await simulate('refresh');
    const refreshed = response.json<{ data: TokenView }>().data;
    assert.equal(refreshed.status, 'active');
    assert.equal(refreshed.last_token_refresh, h.clock.now().toISOString());
    assertApiError(await simulate('explode'), 400, 1001);

    // Archive: 202, archive_pending, then archived; irreversible.
    response = await request('DELETE', `/v2/network_tokens/${token.id}`);
    assert.equal(response.statusCode, 202);
    assert.equal(response.body, '');
    assert.equal((await read(token.id)).status, 'archive_pending');
    assertApiError(await request('GET', `/v2/network_tokens/${token.id}/data`), 400, 1002);
    assertApiError(await request('POST', `/v2/network_tokens/${token.id}/cryptogram`, {}), 400, 1002);
    await h.advance(SIM_DELAY_MS + 1);
    assert.equal((await read(token.id)).status, 'archived');
    assertApiError(await request('GET', `/v2/network_tokens/${token.id}/data`), 400, 1002);
    assertApiError(await request('POST', `/v2/network_tokens/${token.id}/cryptogram`, {}), 400, 1002);
    assertApiError(await simulate('resume'), 400, 1002);
    assert.equal((await request('DELETE', `/v2/network_tokens/${token.id}`)).statusCode, 202);
    assert.equal((await read(token.id)).status, 'archived');
    const statuses = (await postbacks(token.id)).map((p) => p.payload.status);
    assert.deepEqual(statuses, ['active', 'suspended', 'active', 'active', 'archive_pending', 'archived']);
    assert.deepEqual(
      (await postbacks(token.id)).map((p) => p.sequence),
      [1, 2, 3, 4, 5, 6],
    );

    // After archiving, the same card gets a new token.
    const fresh = await create(pan);
    assert.equal(fresh.status, 201);
    assert.notEqual(fresh.token.id, token.id);
  });

  test('mastercard tokens use DSRP cryptograms and their own token BIN range', async () => {
    const token = await activeToken(luhnComplete('520000111122223'));
    assert.equal(token.network, 'mastercard');
    assert.match((await tokenData(token.id)).number, /^5204\d{12}$/);
    assert.equal((await cryptogram(token.id)).type, 'DSRP');
  });

  test('the provisioning test card ends failed with error.code and error.detail', async () => {
    const { token } = await create(FAILING_CARD);
    assert.equal(token.network, 'mastercard');
    await h.advance(SIM_DELAY_MS + 1);
    const failed = await read(token.id);
    assert.equal(failed.status, 'failed');
    assert.equal(typeof failed.error?.code, 'string');
    assert.ok((failed.error?.detail ?? '').length > 0);
    const [postback] = await postbacks(token.id);
    assert.deepEqual(postback?.payload, { id: token.id, status: 'failed', network: 'mastercard', error: failed.error });
    assertApiError(await request('GET', `/v2/network_tokens/${token.id}/data`), 400, 1002);
    // A failed token is not "the existing token" of the card.
    assert.equal((await create(FAILING_CARD)).status, 201);
  });

  test('every validation rule of the create request', async () => {
    const thisYear = new Date().getUTCFullYear();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ card_number: '41111111111' }, 'card_number'], // 11 digits
      [{ card_number: '41111111111111111111' }, 'card_number'], // 20 digits
      [{ card_number: '4111 1111 1111 1111' }, 'card_number'],
      [{ card_number: '4111111111111112' }, 'card_number'], // Luhn
      [{ card_number: '378282246310005' }, 'card_number'], // amex: neither visa nor mastercard
      [{ expiry_month: 0 }, 'expiry_month'],
      [{ expiry_month: 13 }, 'expiry_month'],
      [{ expiry_month: '12' }, 'expiry_month'],
      [{ expiry_year: 30 }, 'expiry_year'], // no century
      [{ expiry_year: thisYear - 1 }, 'expiry_year'], // past
      [
        { expiry_year: thisYear, expiry_month: new Date().getUTCMonth() === 0 ? 13 : new Date().getUTCMonth() },
        new Date().getUTCMonth() === 0 ? 'expiry_month' : 'expiry_year',
      ],
      [{ card_cvv: '12' }, 'card_cvv'],
      [{ card_cvv: '1234' }, 'card_cvv'],
      [{ card_cvv: '12a' }, 'card_cvv'],
      [{ card_holder: 'A'.repeat(121) }, 'card_holder'],
      [{ card_holder: 'Ada <script>' }, 'card_holder'],
      [{ billing_postal_code: '10 115' }, 'billing_postal_code'],
      [{ billing_postal_code: '10-115' }, 'billing_postal_code'],
      [{ billing_country: 'DEU' }, 'billing_country'],
      [{ billing_country: 'XX' }, 'billing_country'],
      [{ email: 'not-an-email' }, 'email'],
      [{ postback_url: 'http://shop.example/postbacks' }, 'postback_url'],
      [{ postback_url: 'not a url' }, 'postback_url'],
      [{ unknown_field: 1 }, 'unknown_field'],
    ];
    for (const [override, field] of cases) {
      const response = await request('POST', '/v2/network_tokens', valid(freshPan(), override));
      const body = assertApiError(response, 400, 1001);
      if (field !== 'unknown_field')
        assert.ok(
          body.errors.some((e) => e.field === field),
          `${JSON.stringify(override)} names ${field}: ${response.body}`,
        );
    }
    for (const missing of ['card_number', 'expiry_month', 'expiry_year']) {
      const body: Record<string, unknown> = valid(freshPan());
      delete body[missing];
      assertApiError(await request('POST', '/v2/network_tokens', body), 400, 1001);
    }
    // Every optional field, valid: accepted; 12- and 19-digit numbers are accepted.
    const full = await create(freshPan(), {
      card_cvv: '123',
      card_holder: 'A'.repeat(120),
      email: 'ada@example.com',
      phone: '+49 30 1234567',
      billing_country: 'DE',
      billing_city: 'Berlin',
      billing_line1: 'Unter den Linden 1',
      billing_line2: 'Hinterhaus',
      billing_postal_code: '10115',
      billing_state: 'BE',
    });
    assert.equal(full.status, 201);
    assert.equal((await create(luhnComplete('41111111111'))).status, 201);
    assert.equal((await create(luhnComplete('411111111111111111'))).status, 201);
    assert.equal(
      (await create(freshPan(), { expiry_year: thisYear, expiry_month: new Date().getUTCMonth() + 1 })).status,
      201,
      'this month is not past',
    );
  });

  test('list: filters, paging, metadata and links', async () => {
    const lister = await newMerchant(h, 'Lister');
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      h.clock.advance(1000);
      ids.push((await create(freshPan(), {}, lister)).token.id);
    }
    h.clock.advance(1000);
    const mc = (await create(luhnComplete('520000333344445'), {}, lister)).token;
    const list = async (query: string) => {
      const response = await request('GET', `/v2/network_tokens${query}`, undefined, lister);
      assert.equal(response.statusCode, 200, response.body);
      return response.json<ListBody>();
    };

    const all = await list('');
    assert.equal(all.result, 'OK');
    assert.deepEqual(all.metadata, { per_page: 20, total_items: 6, current_page: 1, total_pages: 1 });
    assert.deepEqual(
      all.data_set.map((t) => t.id),
      [mc.id, ...[...ids].reverse()],
      'newest first',
    );
    assert.equal(all.links.self.href, '/v2/network_tokens?page=1&per=20');
    assert.equal(all.links.prev.href, null);
    assert.equal(all.links.next.href, null);

    const page2 = await list('?per=2&page=2');
    assert.deepEqual(page2.metadata, { per_page: 2, total_items: 6, current_page: 2, total_pages: 3 });
    assert.deepEqual(
      page2.data_set.map((t) => t.id),
      [ids[3], ids[2]],
    );
    assert.deepEqual(page2.links, {
      self: { href: '/v2/network_tokens?page=2&per=2' },
      first: { href: '/v2/network_tokens?page=1&per=2' },
      last: { href: '/v2/network_tokens?page=3&per=2' },
      prev: { href: '/v2/network_tokens?page=1&per=2' },
      next: { href: '/v2/network_tokens?page=3&per=2' },
    });
    // Following next to the end.
    const page3 = await list(page2.links.next.href?.replace('/v2/network_tokens', '') ?? '');
    assert.deepEqual(
      page3.data_set.map((t) => t.id),
      [ids[1], ids[0]],
    );
    assert.equal(page3.links.next.href, null);
    assert.equal((await list('?per=2&page=9')).data_set.length, 0);

    assert.deepEqual(
      (await list('?network=mastercard')).data_set.map((t) => t.id),
      [mc.id],
    );
    assert.equal((await list('?network=visa')).metadata.total_items, 5);
    await h.advance(SIM_DELAY_MS + 1);
    assert.equal((await list('?status=active')).metadata.total_items, 6);
    assert.equal((await list('?status=requested')).metadata.total_items, 0);
    const filtered = await list('?status=active&network=visa&per=2');
    assert.equal(filtered.links.next.href, '/v2/network_tokens?status=active&network=visa&page=2&per=2');

    const created = all.data_set.map((t) => t.created_at).sort();
    const window = await list(
      `?created_at[min]=${encodeURIComponent(created[1] ?? '')}&created_at[max]=${encodeURIComponent(created[3] ?? '')}`,
    );
    assert.equal(window.metadata.total_items, 3);
    assert.match(window.links.self.href ?? '', /created_at%5Bmin%5D=/);

    for (const query of [
      '?status=gone',
      '?network=amex',
      '?page=0',
      '?per=0',
      '?per=101',
      '?page=x',
      '?created_at[min]=yesterday',
      '?nope=1',
    ]) {
      assertApiError(await request('GET', `/v2/network_tokens${query}`, undefined, lister), 400, 1001);
    }
  });

  test("another merchant's token is 404 everywhere and not listed", async () => {
    const token = await activeToken();
    for (const [method, url, body] of [
      ['GET', `/v2/network_tokens/${token.id}`, undefined],
      ['GET', `/v2/network_tokens/${token.id}/data`, undefined],
      ['POST', `/v2/network_tokens/${token.id}/cryptogram`, {}],
      ['POST', `/v2/network_tokens/${token.id}/simulate`, { action: 'suspend' }],
      ['DELETE', `/v2/network_tokens/${token.id}`, undefined],
    ] as const) {
      assertApiError(await request(method, url, body, other), 404, 3001);
    }
    assert.equal((await read(token.id)).status, 'active');
    const listed = (await request('GET', '/v2/network_tokens?per=100', undefined, other)).json<ListBody>();
    assert.ok(!listed.data_set.some((t) => t.id === token.id));
    assertApiError(await request('GET', '/v2/network_tokens/not-a-uuid'), 400, 1001);
    assert.equal((await h.app.inject({ method: 'GET', url: '/v2/network_tokens' })).statusCode, 401);
  });

  test('paying with the token number and its cryptogram: approved once, declined on replay, forgery, expiry', async () => {
    const pan = freshPan();
    const token = await activeToken(pan);
    const data = await tokenData(token.id);
    const shopApi = api(h, shop);
    const pay = (cryptogramValue: string | undefined, eci = '05', merchant = shop) =>
      api(h, merchant).post(
        '/rest/payment',
        cardPayment(data.number, 10, {
          card_expiry_month: String(data.expiry_month),
          card_expiry_year: String(data.expiry_year),
          ...(cryptogramValue === undefined ? {} : { threeds_wallet_cryptogram: cryptogramValue, threeds_wallet_cryptogram_eci: eci }),
        }),
      );
    const result = async (response: Awaited<ReturnType<typeof pay>>) => {
      assert.equal(response.statusCode, 200, response.body);
      return response.json<{ transaction_id: string; status_code: number; message: string | null }>();
    };

    const c = await cryptogram(token.id);
    const approved = await result(await pay(c.authentication_data));
    assert.equal(approved.status_code, 3, JSON.stringify(approved));
    assert.equal(approved.message, 'Approved');
    assert.equal((await shopApi.transaction(approved.transaction_id)).card_last_four, data.number.slice(-4));

    const replay = await result(await pay(c.authentication_data));
    assert.equal(replay.status_code, 6);
    assert.equal(replay.message, '05 Invalid cryptogram');

    const forged = await result(await pay(Buffer.alloc(20, 7).toString('base64')));
    assert.equal(forged.status_code, 6);
    assert.equal(forged.message, '05 Invalid cryptogram');
    assert.equal((await result(await pay(undefined))).status_code, 6, 'a token number without a cryptogram is declined');
    const wrongEci = await cryptogram(token.id);
    assert.equal((await result(await pay(wrongEci.authentication_data, '02'))).status_code, 6);

    const late = await cryptogram(token.id);
    h.clock.advance(DAY + 1000);
    assert.equal((await result(await pay(late.authentication_data))).message, '05 Invalid cryptogram', 'expired after 24 h');

    // Another merchant cannot use this merchant's token number and cryptogram as a token payment;
    // for them it is just a card number (the cryptogram stays unused here).
    const mine = await cryptogram(token.id);
    await pay(mine.authentication_data, '05', other);
    assert.equal((await result(await pay(mine.authentication_data))).status_code, 3);

    // A suspended token's cryptogram is declined.
    const before = await cryptogram(token.id);
    await request('POST', `/v2/network_tokens/${token.id}/simulate`, { action: 'suspend' });
    assert.equal((await result(await pay(before.authentication_data))).status_code, 6);
    await request('POST', `/v2/network_tokens/${token.id}/simulate`, { action: 'resume' });
    assert.equal((await result(await pay(before.authentication_data))).status_code, 3);

    // Ordinary card payments are unaffected.
    assert.equal((await result(await shopApi.post('/rest/payment', cardPayment(freshPan(), 5)))).status_code, 3);
  });

  test('card and token numbers are encrypted at rest', async () => {
    const pan = freshPan();
    const token = await activeToken(pan);
    const { number } = await tokenData(token.id);
    await cryptogram(token.id);
    if (!onPostgres()) sqliteDb(h).pragma('wal_checkpoint(TRUNCATE)');
    await assertNoPanAtRest(h, [pan, number, FAILING_CARD]);
  });
});

test('card and token numbers never reach the logs', async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const gw = await startTestGateway({ flags: { 'sim-delay-ms': '10' }, logger: createLogger({ level: 'debug', destination: sink }) });
  try {
    const shop = await createTestMerchant(gw, 'Logged Shop');
    const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      gw.app.inject({
        method,
        url,
        headers: { authorization: shop.auth, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    const pan = freshPan();
    const created = await call('POST', '/v2/network_tokens', {
      card_number: pan,
      expiry_month: 12,
      expiry_year: EXPIRY_YEAR,
      card_cvv: '987',
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json<{ data: { id: string } }>().data.id;
    gw.clock.advance(20);
    await gw.composition.gateway.scheduler.runDue();
    const { number } = (await call('GET', `/v2/network_tokens/${id}/data`)).json<{ data: { number: string } }>().data;
    const { authentication_data: cryptogram } = (await call('POST', `/v2/network_tokens/${id}/cryptogram`, {})).json<{
      data: { authentication_data: string };
    }>().data;
    const payment = {
      payment_type: 'cardecom',
      order_id: 'logged-1',
      amount: 1,
      currency: 'EUR',
      merchant_reference: 'Logged 1',
      card_number: number,
      card_expiry_month: '12',
      card_expiry_year: String(EXPIRY_YEAR),
      threeds_wallet_cryptogram: cryptogram,
      threeds_wallet_cryptogram_eci: '05',
    };
    assert.equal((await call('POST', '/rest/payment', payment)).json<{ status_code: number }>().status_code, 3);
    assert.equal(
      (await call('POST', '/rest/payment', { ...payment, order_id: 'logged-2' })).json<{ status_code: number }>().status_code,
      6,
    );
    await call('POST', '/v2/network_tokens', { card_number: `${pan}1234`, expiry_month: 13, expiry_year: 1, card_cvv: '98x' });
    const text = lines.join('');
    assert.ok(text.length > 0, 'something was logged');
    for (const secret of [pan, number, cryptogram]) assert.ok(!text.includes(secret), `${secret} found in the logs`);
  } finally {
    await gw.close();
  }
});

// docs/postbacks.md "Network tokens": a token's postback_url is HTTPS, except that plain http may
// go to a receiver on this machine or the shop's network while postbackPrivateAddresses is allow
// (the default, as for payments); with deny, plain http is refused like any other http URL.
describe('token postback_url: HTTPS, or plain http to a local receiver', () => {
  test('with --postback-private-addresses allow, a plain-http loopback receiver gets the token postbacks', async () => {
    const gw = await startPostbackGateway({ flags: { 'postback-private-addresses': 'allow' } });
    const receiver = await startReceiver();
    try {
      const shop = await gw.merchant('Local Token Shop');
      const url = receiver.url('/token-postbacks');
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\//);
      const created = await shop.post('/v2/network_tokens', {
        card_number: freshPan(),
        expiry_month: 12,
        expiry_year: EXPIRY_YEAR,
        postback_url: url,
      });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json<{ data: { id: string } }>().data.id;
      gw.clock.advance(1000);
      await gw.gateway.scheduler.runDue();
      await gw.deliver();
      const [postback] = await receiver.waitFor(1);
      assert.equal(postback?.path, '/token-postbacks');
      assert.equal(postback?.body.id, id);
      assert.equal(postback?.body.status, 'active');
      // localhost and private-network addresses count as local too; any other http host does not.
      for (const local of ['http://localhost:8080/pb', 'http://[::1]:8080/pb', 'http://192.168.1.20/pb', 'http://10.0.0.5:9000/pb']) {
        const response = await shop.post('/v2/network_tokens', {
          card_number: freshPan(),
          expiry_month: 12,
          expiry_year: EXPIRY_YEAR,
          postback_url: local,
        });
        assert.equal(response.statusCode, 201, `${local}: ${response.body}`);
      }
      for (const remote of ['http://shop.example/pb', 'http://8.8.8.8/pb', 'ftp://127.0.0.1/pb']) {
        const response = await shop.post('/v2/network_tokens', {
          card_number: freshPan(),
          expiry_month: 12,
          expiry_year: EXPIRY_YEAR,
          postback_url: remote,
        });
        const body = assertApiError(response, 400, 1001, ['postback_url']);
        assert.match(body.errors[0]?.message ?? '', /HTTPS/);
      }
    } finally {
      await receiver.close();
      await gw.close();
    }
  });

  test('with --postback-private-addresses deny, plain http is refused even on loopback', async () => {
    const gw = await startPostbackGateway({ flags: { 'postback-private-addresses': 'deny' } });
    try {
      const shop = await gw.merchant('Server Token Shop');
      const response = await shop.post('/v2/network_tokens', {
        card_number: freshPan(),
        expiry_month: 12,
        expiry_year: EXPIRY_YEAR,
        postback_url: 'http://127.0.0.1:8080/pb',
      });
      assertApiError(response, 400, 1001, ['postback_url']);
      const https = await shop.post('/v2/network_tokens', {
        card_number: freshPan(),
        expiry_month: 12,
        expiry_year: EXPIRY_YEAR,
        postback_url: 'https://shop.example/pb',
      });
      assert.equal(https.statusCode, 201, https.body);
    } finally {
      await gw.close();
    }
  });
});
