// The back office's network tokens and checkouts (issue 16, 1 and 2; docs/decisions.md "Back office:
// network tokens and checkouts"): the /ui routes of the screens with who may call them, every bad
// field or parameter named in one 400, the token list's last fours and the status history, the
// audited reveal of the token data (also through /v2 by staff), staff token actions in the audit log
// without card numbers, sessions for phone and e-mail orders (own page as result, no postbacks, the
// QR code of the link, idempotency), paying one through its page, the list and cancelling.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertApiError, loginStaff } from '../helpers/api.js';
import { EXPIRY_YEAR, newMerchant, SIM_DELAY_MS, startHarness, type Harness } from '../helpers/payments.js';
import type { TestMerchant } from '../helpers/api.js';
import { countOf, sqlOf } from '../helpers/sql.js';

type Method = 'GET' | 'POST' | 'DELETE';
type Who = 'api' | 'office' | 'admin' | 'cashier' | 'otherOffice' | 'nobody';

interface Token {
  id: string;
  status: string;
  network: string;
  token_last_four: string;
  card_last_four: string;
  card_holder: string | null;
  created_at: string;
  last_token_refresh: string | null;
}
interface Detail {
  checkout: {
    checkout_id: string;
    status: string;
    order_id: string;
    currency: string;
    amount: number;
    amount_taxes: number;
    amount_shipping: number;
    total_amount: number;
    transaction_id: string | null;
    url: string;
    description: string | null;
    locale: string | null;
    postback_url: string | null;
  };
  merchant_name: string;
  collect: Record<string, boolean>;
  display_transaction_details: boolean;
  qr_code: string;
  transaction: {
    transaction_id: string;
    status: string;
    amount: number;
    currency: string;
    card_last_four?: string;
    order_id: string;
  } | null;
}
interface AuditEntry {
  action: string;
  staff_id: string | null;
  subject_id: string | null;
  detail: string | null;
}

const CARD = {
  step: 'card',
  card_number: '4111 1111 1111 1111',
  expiry: `12/${String(EXPIRY_YEAR).slice(2)}`,
  cvc: '123',
  holder: 'Lena Vogel',
};

describe('back office: network tokens and checkouts', () => {
  let h: Harness;
  let shop: TestMerchant;
  let other: TestMerchant;
  const sessions: Record<Exclude<Who, 'api' | 'nobody'>, string> = { office: '', admin: '', cashier: '', otherOffice: '' };
  const staffIds: Record<string, string> = {};

  const login = async (merchant: TestMerchant, role: string, loginName: string): Promise<string> => {
    const { staffId, session } = await loginStaff(h, merchant, role, loginName);
    staffIds[loginName] = staffId;
    return session;
  };

  before(async () => {
    h = await startHarness();
    shop = await newMerchant(h, 'Token Bakery');
    other = await newMerchant(h, 'Other Bakery');
    sessions.office = await login(shop, 'back_office', 'office');
    sessions.admin = await login(shop, 'admin', 'boss');
    sessions.cashier = await login(shop, 'cashier', 'till');
    sessions.otherOffice = await login(other, 'back_office', 'other-office');
  });

  after(async () => {
    await h.close();
  });

  const inject = (method: Method, url: string, who: Who = 'api', payload?: unknown, headers: Record<string, string> = {}) =>
    h.app.inject({
      method,
      url,
      headers: {
        ...(who === 'api' ? { authorization: shop.auth } : who === 'nobody' ? {} : { cookie: `tillgate_session=${sessions[who]}` }),
        ...headers,
      },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const audit = async (): Promise<AuditEntry[]> => (await inject('GET', '/ui/audit', 'admin')).json<AuditEntry[]>();
  /** The audit entries written by `work`, oldest first. */
  const auditedBy = async (work: () => Promise<void>): Promise<AuditEntry[]> => {
    const before = (await audit()).length;
    await work();
    const entries = await audit();
    return entries.slice(0, entries.length - before).reverse();
  };
  /** The simulated token service's delay passes: requested tokens become active, archived ones archived. */
  const settle = () => h.advance(SIM_DELAY_MS + 1);
  const tokenOf = async (pan: string, who: Who = 'api', extra: Record<string, unknown> = {}): Promise<{ id: string; status: string }> => {
    const response = await inject('POST', '/v2/network_tokens', who, {
      card_number: pan,
      expiry_month: 12,
      expiry_year: EXPIRY_YEAR,
      ...extra,
    });
    assert.ok(response.statusCode === 201 || response.statusCode === 200, response.body);
    return response.json<{ data: { id: string; status: string } }>().data;
  };

  describe('network tokens', () => {
    const pans = { visa: '4111111111111111', mastercard: '5555555555554444', failing: '5105105105105100' };
    const ids: Record<string, string> = {};

    before(async () => {
      ids.visa = (await tokenOf(pans.visa, 'api', { card_holder: 'Lena Vogel' })).id;
      ids.mastercard = (await tokenOf(pans.mastercard)).id;
      ids.failing = (await tokenOf(pans.failing)).id;
      ids.theirs = (await tokenOf('4012888888881881', 'api')).id;
      await h.app.inject({
        method: 'POST',
        url: '/v2/network_tokens',
        headers: { authorization: other.auth },
        payload: { card_number: '4000056655665556', expiry_month: 1, expiry_year: EXPIRY_YEAR },
      });
      await settle();
    });

    test("GET /ui/network-tokens: the API's tokens with the last fours of token and card, filters and pages; only the merchant's", async () => {
      const response = await inject('GET', '/ui/network-tokens', 'office');
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json<{ data_set: Token[]; metadata: Record<string, number> }>();
      const api = (await inject('GET', '/v2/network_tokens')).json<{
        data_set: Array<{ id: string; status: string; created_at: string }>;
        metadata: Record<string, number>;
      }>();
      assert.deepEqual(
        body.data_set.map((t) => [t.id, t.status, t.created_at]),
        api.data_set.map((t) => [t.id, t.status, t.created_at]),
        'the same tokens, in the same order, as the API',
      );
      assert.deepEqual(body.metadata, api.metadata);
      assert.equal(body.data_set.length, 4, "another merchant's token is not listed");
      const visa = body.data_set.find((t) => t.id === ids.visa);
      const data = (await inject('GET', `/v2/network_tokens/${ids.visa ?? ''}/data`)).json<{ data: { number: string } }>().data;
      assert.deepEqual(
        [visa?.card_last_four, visa?.token_last_four, visa?.card_holder, visa?.network],
        ['1111', data.number.slice(-4), 'Lena Vogel', 'visa'],
      );
      assert.notEqual(visa?.token_last_four, visa?.card_last_four);
      assert.ok(!response.body.includes(pans.visa) && !response.body.includes(data.number), 'no card or token number in the list');
      assert.equal(body.data_set.find((t) => t.id === ids.mastercard)?.card_last_four, '4444');

      const failed = (await inject('GET', '/ui/network-tokens?status=failed', 'admin')).json<{ data_set: Token[] }>();
      assert.deepEqual(
        failed.data_set.map((t) => t.id),
        [ids.failing],
      );
      const masters = (await inject('GET', '/ui/network-tokens?network=mastercard', 'office')).json<{ data_set: Token[] }>();
      assert.deepEqual(masters.data_set.map((t) => t.id).sort(), [ids.mastercard, ids.failing].sort());
      const paged = (await inject('GET', '/ui/network-tokens?per=3&page=2', 'office')).json<{
        data_set: Token[];
        metadata: Record<string, number>;
      }>();
      assert.deepEqual(paged.metadata, { per_page: 3, total_items: 4, current_page: 2, total_pages: 2 });
      assert.equal(paged.data_set.length, 1);
      const future = new Date(Date.now() + 60_000).toISOString();
      assert.equal(
        (await inject('GET', `/ui/network-tokens?created_at[min]=${encodeURIComponent(future)}`, 'office')).json<{ data_set: Token[] }>()
          .data_set.length,
        0,
      );
      assert.equal(
        (await inject('GET', `/ui/network-tokens?created_at[max]=${encodeURIComponent(future)}`, 'office')).json<{ data_set: Token[] }>()
          .data_set.length,
        4,
      );
    });

    test('GET /ui/network-tokens: every bad parameter in one 400; a cashier 403 before anything is checked; no session 401', async () => {
      const bad = await inject(
        'GET',
        '/ui/network-tokens?status=lost&network=amex&created_at[min]=yesterday&page=0&per=500&colour=red',
        'office',
      );
      const body = assertApiError(bad, 400, 1001);
      assert.deepEqual(body.errors.map((e) => e.field).sort(), ['colour', 'created_at[min]', 'network', 'page', 'per', 'status'].sort());
      // The pattern-checked page is named by the schema and the created range by the core's check, in one answer.
      const mixed = assertApiError(await inject('GET', '/ui/network-tokens?page=x&created_at[max]=nope', 'office'), 400, 1001);
      assert.deepEqual(mixed.errors.map((e) => e.field).sort(), ['created_at[max]', 'page']);
      assertApiError(await inject('GET', '/ui/network-tokens?page=x', 'cashier'), 403, 2002);
      assertApiError(await inject('GET', '/ui/network-tokens', 'nobody'), 401, 2001);
      assertApiError(await inject('GET', '/ui/network-tokens', 'api'), 401, 2001);
    });

    test('GET /ui/network-tokens/:id: the status history, step by step, as the token moves', async () => {
      const id = (await tokenOf('4242424242424242', 'office')).id;
      const history = async () =>
        (await inject('GET', `/ui/network-tokens/${id}`, 'office')).json<{
          token: Token;
          history: Array<{ event: string; status: string; at: string }>;
        }>();
      const first = await history();
      assert.deepEqual(
        first.history.map((e) => [e.event, e.status]),
        [['created', 'requested']],
      );
      assert.equal(first.history[0]?.at, first.token.created_at);
      await settle();
      assert.equal((await inject('POST', `/v2/network_tokens/${id}/simulate`, 'office', { action: 'suspend' })).statusCode, 200);
      assert.equal((await inject('POST', `/v2/network_tokens/${id}/simulate`, 'office', { action: 'refresh' })).statusCode, 200);
      assert.equal((await inject('POST', `/v2/network_tokens/${id}/simulate`, 'admin', { action: 'resume' })).statusCode, 200);
      assert.equal((await inject('DELETE', `/v2/network_tokens/${id}`, 'office')).statusCode, 202);
      await settle();
      const last = await history();
      assert.deepEqual(
        last.history.map((e) => [e.event, e.status]),
        [
          ['created', 'requested'],
          ['status', 'active'],
          ['status', 'suspended'],
          ['refreshed', 'suspended'],
          ['status', 'active'],
          ['status', 'archive_pending'],
          ['status', 'archived'],
        ],
      );
      assert.equal(last.token.status, 'archived');
      const times = last.history.map((e) => Date.parse(e.at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
        'oldest first',
      );
      assert.equal(last.history[3]?.at, last.token.last_token_refresh);
      // A refused action adds nothing.
      assertApiError(await inject('POST', `/v2/network_tokens/${id}/simulate`, 'office', { action: 'suspend' }), 400, 1002);
      assert.equal((await history()).history.length, 7);

      assertApiError(await inject('GET', `/ui/network-tokens/${id}`, 'cashier'), 403, 2002);
      assertApiError(await inject('GET', `/ui/network-tokens/${id}`, 'otherOffice'), 404, 3001, ['id']);
      assertApiError(await inject('GET', '/ui/network-tokens/not-a-uuid', 'office'), 400, 1001, ['id']);
    });

    test('POST /ui/network-tokens/:id/reveal: the token data for 30 s, the reveal audited under the staff member first; refused reveals leave no entry', async () => {
      const id = ids.visa ?? '';
      let answer = { statusCode: 0, body: '' } as Awaited<ReturnType<typeof inject>>;
      const entries = await auditedBy(async () => {
        answer = await inject('POST', `/ui/network-tokens/${id}/reveal`, 'office');
      });
      assert.equal(answer.statusCode, 200, answer.body);
      const api = (await inject('GET', `/v2/network_tokens/${id}/data`)).json<{ data: unknown }>().data;
      assert.deepEqual(answer.json(), { data: api, hide_after_seconds: 30 });
      assert.deepEqual(entries, [
        { ...entries[0], action: 'token_reveal', staff_id: staffIds.office, subject_id: id, detail: 'token data shown (back office)' },
      ]);
      assert.ok(!JSON.stringify(entries).includes((api as { number: string }).number), 'the audit entry holds no token number');

      // Staff reading the data through the API are audited too; API credentials are not staff.
      const viaApi = await auditedBy(async () => {
        assert.equal((await inject('GET', `/v2/network_tokens/${id}/data`, 'admin')).statusCode, 200);
        assert.equal((await inject('GET', `/v2/network_tokens/${id}/data`, 'api')).statusCode, 200);
      });
      assert.deepEqual(
        viaApi.map((e) => [e.action, e.staff_id, e.subject_id, e.detail]),
        [['token_reveal', staffIds.boss, id, 'token data shown (API)']],
      );

      // Refused: a failed token has no data, a cashier may not, another merchant's token is not found.
      const refused = await auditedBy(async () => {
        assertApiError(await inject('POST', `/ui/network-tokens/${ids.failing ?? ''}/reveal`, 'office'), 400, 1002, ['id']);
        assertApiError(await inject('POST', `/ui/network-tokens/${id}/reveal`, 'cashier'), 403, 2002);
        assertApiError(await inject('GET', `/v2/network_tokens/${id}/data`, 'cashier'), 403, 2002);
        assertApiError(await inject('POST', `/ui/network-tokens/${id}/reveal`, 'otherOffice'), 404, 3001);
        assertApiError(await inject('POST', `/ui/network-tokens/${id}/reveal`, 'nobody'), 401, 2001);
        // A cross-origin write is refused (CSRF).
        assertApiError(
          await inject('POST', `/ui/network-tokens/${id}/reveal`, 'office', undefined, { origin: 'https://evil.example' }),
          403,
          2002,
        );
      });
      assert.deepEqual(refused, []);
    });

    test('POST /ui/network-tokens/check: the errors the create would answer (schema and rules), nothing requested, nothing audited', async () => {
      const count = () => countOf(h, 'SELECT COUNT(*) AS n FROM network_tokens');
      const before = await count();
      const bodies: unknown[] = [
        {
          card_number: '4111111111111112',
          expiry_month: 13,
          expiry_year: 2001,
          card_cvv: '12',
          email: 'nobody',
          billing_country: 'XX',
          postback_url: 'ftp://x',
        },
        { card_number: '378282246310005', expiry_month: 1, expiry_year: 2020, billing_postal_code: '10 115' },
        { card_number: 4111111111111111, expiry_month: '12', colour: 'red' },
      ];
      const entries = await auditedBy(async () => {
        for (const body of bodies) {
          const real = await inject('POST', '/v2/network_tokens', 'office', body);
          assert.equal(real.statusCode, 400, real.body);
          const check = await inject('POST', '/ui/network-tokens/check', 'office', body);
          assert.equal(check.statusCode, 200, check.body);
          assert.deepEqual(check.json(), { errors: real.json<{ errors: unknown[] }>().errors }, JSON.stringify(body));
        }
        const fine = await inject('POST', '/ui/network-tokens/check', 'admin', {
          card_number: '5555555555554444',
          expiry_month: 12,
          expiry_year: EXPIRY_YEAR,
          card_holder: 'Ana Silva',
        });
        assert.deepEqual([fine.statusCode, fine.json()], [200, { errors: [] }]);
      });
      assert.equal(await count(), before, 'a check requests nothing');
      assert.deepEqual(entries, [], 'and is not audited');
      assertApiError(await inject('POST', '/ui/network-tokens/check', 'cashier', bodies[0]), 403, 2002);
      assertApiError(await inject('POST', '/ui/network-tokens/check', 'nobody', bodies[0]), 401, 2001);
    });

    test('token actions by staff through /v2 are audited with the token id, never a card or token number; a cashier may do none', async () => {
      let id = '';
      const entries = await auditedBy(async () => {
        id = (await tokenOf('5200828282828210', 'office', { card_holder: 'Ana Silva' })).id;
        await settle();
        assert.equal((await inject('POST', `/v2/network_tokens/${id}/cryptogram`, 'office')).statusCode, 200);
        assert.equal((await inject('POST', `/v2/network_tokens/${id}/simulate`, 'admin', { action: 'refresh' })).statusCode, 200);
        assert.equal((await inject('DELETE', `/v2/network_tokens/${id}`, 'office')).statusCode, 202);
        // Refusals are not audited.
        assertApiError(await inject('POST', `/v2/network_tokens/${id}/cryptogram`, 'office'), 400, 1002);
        assertApiError(
          await inject('POST', '/v2/network_tokens', 'office', { card_number: '4111111111111112', expiry_month: 13, expiry_year: 2001 }),
          400,
          1001,
          ['card_number', 'expiry_month', 'expiry_year'],
        );
      });
      assert.deepEqual(
        entries.map((e) => [e.action, e.staff_id, e.subject_id, e.detail]),
        [
          ['token_create', staffIds.office, id, 'mastercard card ending 8210, requested'],
          ['token_cryptogram', staffIds.office, id, 'DSRP cryptogram'],
          ['token_simulate', staffIds.boss, id, 'refresh: now active'],
          ['token_archive', staffIds.office, id, null],
        ],
      );
      assert.ok(!JSON.stringify(entries).includes('5200828282828210'));
      for (const [method, url, payload] of [
        ['GET', '/v2/network_tokens', undefined],
        ['POST', '/v2/network_tokens', { card_number: pans.visa, expiry_month: 12, expiry_year: EXPIRY_YEAR }],
        ['POST', `/v2/network_tokens/${ids.visa ?? ''}/cryptogram`, undefined],
        ['POST', `/v2/network_tokens/${ids.visa ?? ''}/simulate`, { action: 'suspend' }],
        ['DELETE', `/v2/network_tokens/${ids.visa ?? ''}`, undefined],
      ] as const) {
        assertApiError(await inject(method, url, 'cashier', payload), 403, 2002);
      }
      assert.equal(
        (await inject('GET', `/ui/network-tokens/${ids.visa ?? ''}`, 'office')).json<{ token: Token }>().token.status,
        'active',
        'nothing the cashier tried happened',
      );
    });
  });

  describe('checkouts', () => {
    const order = {
      order_id: 'PHONE-1001',
      description: 'Wedding cake, 3 tiers',
      currency: 'EUR',
      amount: 84.2,
      amount_taxes: 16,
      amount_shipping: 4.9,
      locale: 'de',
      collect_phone: 1,
    };
    const create = async (body: Record<string, unknown>, who: Who = 'office', headers: Record<string, string> = {}) => {
      const response = await inject('POST', '/ui/checkouts', who, body, headers);
      assert.equal(response.statusCode, 201, response.body);
      return response.json<Detail>();
    };
    const detail = async (id: string, who: Who = 'office') => (await inject('GET', `/ui/checkouts/${id}`, who)).json<Detail>();
    const form = (url: string, fields: Record<string, string>) =>
      h.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        payload: new URLSearchParams(fields).toString(),
      });

    test('POST /ui/checkouts: a session for a phone order, total of its parts, own page as result, no postback, QR code of its link; audited', async () => {
      let created = {} as Detail;
      const entries = await auditedBy(async () => {
        created = await create(order);
      });
      const { checkout } = created;
      assert.deepEqual(
        [
          checkout.status,
          checkout.order_id,
          checkout.currency,
          checkout.amount,
          checkout.amount_taxes,
          checkout.amount_shipping,
          checkout.total_amount,
          checkout.description,
          checkout.locale,
          checkout.postback_url,
          checkout.transaction_id,
        ],
        ['open', 'PHONE-1001', 'EUR', 84.2, 16, 4.9, 105.1, 'Wedding cake, 3 tiers', 'de', null, null],
      );
      assert.equal(created.merchant_name, 'Token Bakery');
      assert.deepEqual(created.collect, { dob: false, phone: true, gender: false, shipping_address: false, billing_address: false });
      assert.match(checkout.url, new RegExp(`/checkout/${checkout.checkout_id}$`));
      assert.match(created.qr_code, /^data:image\/png;base64,/);
      assert.equal(created.transaction, null);
      assert.deepEqual(
        entries.map((e) => [e.action, e.staff_id, e.subject_id, e.detail]),
        [['checkout_create', staffIds.office, checkout.checkout_id, 'order PHONE-1001, 105.1 EUR']],
      );
      // The API reads it as any session; its page is its own success and error URL.
      const api = (await inject('GET', `/rest/checkouts/${checkout.checkout_id}`)).json<{
        total_amount: number;
        status: string;
        url: string;
      }>();
      assert.deepEqual([api.total_amount, api.status, api.url], [105.1, 'open', checkout.url]);
      const row = await sqlOf(h).get(
        'SELECT success_url, error_url, postback_url FROM checkout_sessions WHERE id = ?',
        checkout.checkout_id,
      );
      assert.deepEqual(row, { success_url: checkout.url, error_url: checkout.url, postback_url: null });
      const page = await h.app.inject({ method: 'GET', url: `/checkout/${checkout.checkout_id}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Token Bakery/);
      assert.equal((await detail(checkout.checkout_id, 'admin')).checkout.checkout_id, checkout.checkout_id);
    });

    test('POST /ui/checkouts: every bad field named in one 400, in the words of POST /rest/checkouts; nothing created', async () => {
      const count = () => countOf(h, 'SELECT COUNT(*) AS n FROM checkout_sessions');
      const before = await count();
      const bad = assertApiError(
        await inject('POST', '/ui/checkouts', 'office', {
          order_id: ' ',
          currency: 'EUR',
          amount: 1.234,
          amount_taxes: -1,
          amount_shipping: 'free',
          locale: 'fr',
          collect_dob: 2,
          collect_gender: 1,
          prefill_customer_info: { email: 'nobody', country: 'XX', shoe_size: '42' },
          postback_url: 'ftp://shop.example',
          colour: 'red',
        }),
        400,
        1001,
      );
      assert.deepEqual(bad.errors.map((e) => e.field).sort(), [
        'amount',
        'amount_shipping',
        'amount_taxes',
        'collect_dob',
        'colour',
        'locale',
        'order_id',
        'postback_url',
        'prefill_customer_info.country',
        'prefill_customer_info.email',
        'prefill_customer_info.shoe_size',
      ]);
      const api = assertApiError(
        await inject('POST', '/rest/checkouts', 'api', {
          merchant_name: 'x',
          order_id: ' ',
          currency: 'EUR',
          amount: 1.234,
          amount_taxes: -1,
          total_amount: 1,
          collect_dob: 2,
          success_url: 'https://a.example',
          error_url: 'https://a.example',
          postback_url: 'ftp://shop.example',
        }),
        400,
        1001,
      );
      for (const field of ['order_id', 'amount', 'amount_taxes', 'collect_dob', 'postback_url']) {
        assert.equal(
          bad.errors.find((e) => e.field === field)?.message,
          api.errors.find((e) => e.field === field)?.message,
          `${field}: the API's words`,
        );
      }
      // A total of 0 is named on the amount; a missing currency and order id by the schema; an unknown currency by its rule.
      const zero = assertApiError(
        await inject('POST', '/ui/checkouts', 'office', { order_id: 'Z-1', currency: 'EUR', amount: 0 }),
        400,
        1001,
      );
      assert.deepEqual(zero.errors, [{ field: 'amount', message: 'the total (amount, taxes and shipping) must be greater than 0' }]);
      const missing = assertApiError(await inject('POST', '/ui/checkouts', 'office', { amount: 5 }), 400, 1001);
      assert.deepEqual(missing.errors.map((e) => e.field).sort(), ['currency', 'order_id']);
      assertApiError(await inject('POST', '/ui/checkouts', 'office', { order_id: 'Z-2', currency: 'ABC', amount: 5 }), 400, 1001, [
        'currency',
      ]);
      assert.equal(await count(), before, 'nothing was created');
      assertApiError(await inject('POST', '/ui/checkouts', 'cashier', order), 403, 2002);
      assertApiError(await inject('POST', '/ui/checkouts', 'cashier', { colour: 1 }), 403, 2002);
      assertApiError(await inject('POST', '/ui/checkouts', 'nobody', order), 401, 2001);
      assert.equal(await count(), before);
    });

    test('POST /ui/checkouts/check: the errors the create would answer, as 200; nothing opened', async () => {
      const count = () => countOf(h, 'SELECT COUNT(*) AS n FROM checkout_sessions');
      const before = await count();
      const bodies: unknown[] = [
        {
          order_id: ' ',
          currency: 'EUR',
          amount: 1.234,
          amount_taxes: -1,
          amount_shipping: 'free',
          locale: 'fr',
          collect_dob: 2,
          prefill_customer_info: { email: 'nobody' },
          postback_url: 'ftp://x',
          colour: 1,
        },
        { order_id: 'Z-1', currency: 'EUR', amount: 0 },
        { amount: 5 },
        { order_id: 'Z-2', currency: 'ABC', amount: 5 },
      ];
      for (const body of bodies) {
        const real = await inject('POST', '/ui/checkouts', 'office', body);
        assert.equal(real.statusCode, 400, real.body);
        const check = await inject('POST', '/ui/checkouts/check', 'office', body);
        assert.equal(check.statusCode, 200, check.body);
        assert.deepEqual(check.json(), { errors: real.json<{ errors: unknown[] }>().errors }, JSON.stringify(body));
      }
      const fine = await inject('POST', '/ui/checkouts/check', 'office', order);
      assert.deepEqual([fine.statusCode, fine.json()], [200, { errors: [] }]);
      assert.equal(await count(), before, 'a check opens nothing');
      assertApiError(await inject('POST', '/ui/checkouts/check', 'cashier', order), 403, 2002);
    });

    test('POST /ui/checkouts with an Idempotency-Key: a repeat answers the same session and creates none', async () => {
      const key = crypto.randomUUID();
      const first = await create({ ...order, order_id: 'IDEM-1' }, 'office', { 'idempotency-key': key });
      const again = await inject('POST', '/ui/checkouts', 'office', { ...order, order_id: 'IDEM-1' }, { 'idempotency-key': key });
      assert.equal(again.statusCode, 201);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.json<Detail>().checkout.checkout_id, first.checkout.checkout_id);
      assert.equal(await countOf(h, "SELECT COUNT(*) AS n FROM checkout_sessions WHERE order_id = 'IDEM-1'"), 1);
      assertApiError(
        await inject('POST', '/ui/checkouts', 'office', { ...order, order_id: 'IDEM-2' }, { 'idempotency-key': key }),
        422,
        4002,
      );
    });

    test('paid through its page: the detail shows the completed session and its transaction; no postback is queued', async () => {
      const { checkout } = await create({ order_id: 'MAIL-77', currency: 'EUR', amount: 12.5 });
      const chosen = await form(`/checkout/${checkout.checkout_id}`, { method: 'cardecom' });
      assert.equal(chosen.statusCode, 303, chosen.body);
      const card = await form(String(chosen.headers.location), CARD);
      assert.equal(card.statusCode, 303, card.body);
      assert.equal(
        new URL(String(card.headers.location)).pathname,
        `/checkout/${checkout.checkout_id}`,
        'the customer comes back to the session page',
      );
      const paid = await detail(checkout.checkout_id);
      assert.equal(paid.checkout.status, 'completed');
      assert.ok(paid.transaction);
      assert.deepEqual(
        [
          paid.transaction.transaction_id,
          paid.transaction.status,
          paid.transaction.amount,
          paid.transaction.currency,
          paid.transaction.card_last_four,
          paid.transaction.order_id,
        ],
        [paid.checkout.transaction_id, 'completed', 12.5, 'EUR', '1111', 'MAIL-77'],
      );
      const api = (await inject('GET', `/rest/transactions/${paid.transaction.transaction_id}`)).json<{ status: string; amount: number }>();
      assert.deepEqual([api.status, api.amount], ['completed', 12.5]);
      const outbox = await countOf(
        h,
        'SELECT COUNT(*) AS n FROM postback_outbox WHERE subject_id IN (?, ?)',
        checkout.checkout_id,
        paid.transaction.transaction_id,
      );
      assert.equal(outbox, 0, 'no postback without a postback URL');
      const page = await h.app.inject({ method: 'GET', url: `/checkout/${checkout.checkout_id}` });
      assert.equal(page.statusCode, 200);
      // With a postback URL the session and its payment send postbacks as API sessions do.
      const withPostbacks = (
        await create({ order_id: 'MAIL-78', currency: 'EUR', amount: 3, postback_url: 'https://shop.example/postbacks' })
      ).checkout;
      assert.equal(withPostbacks.postback_url, 'https://shop.example/postbacks');
      const chosen2 = await form(`/checkout/${withPostbacks.checkout_id}`, { method: 'cardecom' });
      await form(String(chosen2.headers.location), CARD);
      const sessionPostbacks = await countOf(
        h,
        "SELECT COUNT(*) AS n FROM postback_outbox WHERE subject_type = 'checkout' AND subject_id = ?",
        withPostbacks.checkout_id,
      );
      assert.equal(sessionPostbacks, 2, 'processing and completed');
    });

    test('POST /ui/checkouts/:id/cancel: an open session is cancelled and audited; its page takes no payment; only open ones', async () => {
      const { checkout } = await create({ order_id: 'CANCEL-1', currency: 'EUR', amount: 9.99 });
      let cancelled = {} as Detail;
      const entries = await auditedBy(async () => {
        const response = await inject('POST', `/ui/checkouts/${checkout.checkout_id}/cancel`, 'office');
        assert.equal(response.statusCode, 200, response.body);
        cancelled = response.json<Detail>();
      });
      assert.equal(cancelled.checkout.status, 'cancelled');
      assert.deepEqual(
        entries.map((e) => [e.action, e.staff_id, e.subject_id, e.detail]),
        [['checkout_cancel', staffIds.office, checkout.checkout_id, 'order CANCEL-1']],
      );
      assert.equal((await inject('GET', `/rest/checkouts/${checkout.checkout_id}`)).json<{ status: string }>().status, 'cancelled');
      const pay = await form(`/checkout/${checkout.checkout_id}`, { method: 'cardecom' });
      assert.equal(pay.statusCode, 409, 'the page takes no payment');
      const again = await auditedBy(async () => {
        const body = assertApiError(await inject('POST', `/ui/checkouts/${checkout.checkout_id}/cancel`, 'office'), 400, 1002, [
          'checkout_id',
        ]);
        assert.equal(body.message, 'Only an open checkout can be cancelled; this one is cancelled');
        assertApiError(await inject('POST', '/ui/checkouts/no-such-checkout/cancel', 'office'), 404, 3001, ['checkout_id']);
      });
      assert.deepEqual(again, []);
      const open = (await create({ order_id: 'CANCEL-2', currency: 'EUR', amount: 1 })).checkout;
      assertApiError(await inject('POST', `/ui/checkouts/${open.checkout_id}/cancel`, 'cashier'), 403, 2002);
      assertApiError(await inject('POST', `/ui/checkouts/${open.checkout_id}/cancel`, 'otherOffice'), 404, 3001);
      assertApiError(await inject('GET', `/ui/checkouts/${open.checkout_id}`, 'otherOffice'), 404, 3001);
      assertApiError(await inject('GET', `/ui/checkouts/${open.checkout_id}`, 'cashier'), 403, 2002);
      assert.equal((await detail(open.checkout_id)).checkout.status, 'open');
    });

    test('GET /ui/checkouts: newest first with description and amounts, by status and created range, a page at a time; bad parameters named', async () => {
      // A session made through the API is listed too.
      const viaApi = await inject('POST', '/rest/checkouts', 'api', {
        merchant_name: 'Token Bakery',
        order_id: 'WEB-1',
        currency: 'EUR',
        amount: 5,
        total_amount: 5,
        success_url: 'https://shop.example/ok',
        error_url: 'https://shop.example/err',
        postback_url: 'https://shop.example/pb',
      });
      assert.equal(viaApi.statusCode, 200, viaApi.body);
      const list = (await inject('GET', '/ui/checkouts', 'office')).json<{
        data_set: Array<Detail['checkout']>;
        metadata: Record<string, number>;
      }>();
      const rows = await sqlOf(h).all<{ id: string }>(
        'SELECT id FROM checkout_sessions WHERE merchant_id = ? ORDER BY created_at DESC, id DESC',
        shop.merchant_id,
      );
      assert.deepEqual(
        list.data_set.map((c) => c.checkout_id),
        rows.map((r) => r.id),
      );
      assert.equal(list.metadata.total_items, rows.length);
      assert.equal(list.data_set[0]?.order_id, 'WEB-1');
      assert.equal(list.data_set[0]?.postback_url, 'https://shop.example/pb');
      const phone = list.data_set.find((c) => c.order_id === 'PHONE-1001');
      assert.deepEqual([phone?.total_amount, phone?.description, phone?.currency], [105.1, 'Wedding cake, 3 tiers', 'EUR']);

      const completed = (await inject('GET', '/ui/checkouts?status=completed', 'admin')).json<{ data_set: Array<Detail['checkout']> }>();
      assert.deepEqual(completed.data_set.map((c) => c.order_id).sort(), ['MAIL-77', 'MAIL-78']);
      const cancelled = (await inject('GET', '/ui/checkouts?status=cancelled', 'office')).json<{ data_set: Array<Detail['checkout']> }>();
      assert.deepEqual(
        cancelled.data_set.map((c) => c.order_id),
        ['CANCEL-1'],
      );
      const page2 = (await inject('GET', '/ui/checkouts?per=2&page=2', 'office')).json<{
        data_set: Array<Detail['checkout']>;
        metadata: Record<string, number>;
      }>();
      assert.deepEqual(
        page2.data_set.map((c) => c.checkout_id),
        rows.slice(2, 4).map((r) => r.id),
      );
      assert.deepEqual(page2.metadata, { per_page: 2, total_items: rows.length, current_page: 2, total_pages: Math.ceil(rows.length / 2) });
      const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
      assert.equal(
        (await inject('GET', `/ui/checkouts?created_at[min]=${future}`, 'office')).json<{ data_set: unknown[] }>().data_set.length,
        0,
      );
      assert.equal(
        (await inject('GET', `/ui/checkouts?created_at[max]=${future}`, 'office')).json<{ data_set: unknown[] }>().data_set.length,
        rows.length,
      );
      assert.equal(
        (await inject('GET', '/ui/checkouts', 'otherOffice')).json<{ data_set: unknown[] }>().data_set.length,
        0,
        "another merchant's sessions are not listed",
      );

      const bad = assertApiError(
        await inject('GET', '/ui/checkouts?status=paid&created_at[min]=soon&page=0&per=101&sort=asc', 'office'),
        400,
        1001,
      );
      assert.deepEqual(bad.errors.map((e) => e.field).sort(), ['created_at[min]', 'page', 'per', 'sort', 'status']);
      assertApiError(await inject('GET', '/ui/checkouts', 'cashier'), 403, 2002);
      assertApiError(await inject('GET', '/ui/checkouts', 'nobody'), 401, 2001);
    });
  });

  test('the OpenAPI document describes the new /ui routes with their answers', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown>; tags: string[] }>>;
    }>();
    for (const [path, method, statuses] of [
      ['/ui/network-tokens', 'get', ['200', '400', '401', '403']],
      ['/ui/network-tokens/{id}', 'get', ['200', '400', '401', '403', '404']],
      ['/ui/network-tokens/{id}/reveal', 'post', ['200', '400', '401', '403', '404']],
      ['/ui/checkouts', 'get', ['200', '400', '401', '403']],
      ['/ui/checkouts', 'post', ['201', '400', '401', '403', '409', '422']],
      ['/ui/checkouts/{checkout_id}', 'get', ['200', '400', '401', '403', '404']],
      ['/ui/checkouts/{checkout_id}/cancel', 'post', ['200', '400', '401', '403', '404']],
      ['/ui/checkouts/check', 'post', ['200', '401', '403']],
      ['/ui/network-tokens/check', 'post', ['200', '401', '403']],
    ] as const) {
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method} ${path} is documented`);
      assert.deepEqual(operation.tags, ['Back-office UI']);
      for (const status of statuses) assert.ok(operation.responses[status], `${method} ${path} documents ${status}`);
    }
  });
});
