// Merchant management (issue 17, decisions.md D15) through HTTP: partners and their credentials, the
// payment-method catalog, the effective settings per merchant and per shop in the /v2 envelope, the
// resolution shop -> merchant -> default, validation, access rules, the audit log, and the whole
// gateway obeying the settings (payments, payouts, refunds, checkout and pay pages, fees, the CVM limit).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { basicAuth } from '../helpers/gateway-process.js';
import {
  api,
  cardPayment,
  freshPan,
  orderId,
  outboxOf,
  POSTBACK_URL,
  posData,
  posPayment,
  REDIRECT,
  SETTLING_IBAN,
  SIM_DELAY_MS,
  startHarness,
  TEST_PIN,
  type Api,
  type Harness,
} from '../helpers/payments.js';

interface Setting {
  payment_type: string;
  merchant_id: string;
  shop_id: string | null;
  enabled: boolean;
  currencies: string[] | null;
  countries: string[] | null;
  capabilities: Record<string, boolean>;
  fee_fixed: number;
  fee_percent: number;
  cvm_limit: Record<string, number> | null;
  source: string;
  field_sources: {
    enabled: string;
    currencies: string;
    countries: string;
    capabilities: Record<string, string>;
    fee_fixed: string;
    fee_percent: string;
    cvm_limit: Record<string, string> | null;
  };
  updated_at: string | null;
}

interface List<T> {
  result: string;
  data_set: T[];
  metadata: { per_page: number; total_items: number; current_page: number; total_pages: number };
  links: Record<'self' | 'first' | 'last' | 'prev' | 'next', { href: string | null }>;
}

interface Partner {
  partner_id: string;
  auth: string;
}

interface Tx {
  transaction_id: string;
  status_code: number;
  message: string | null;
  included_fees: string;
  [key: string]: unknown;
}

const TYPES = ['cardecom', 'cardpos', 'dd', 'dd_b2b', 'wallet', 'devicewallet', 'a2a', 'bankredirect'];

describe('merchant management', () => {
  let h: Harness;
  let partner: Partner;
  let other: Partner;

  const request = (method: 'GET' | 'PUT' | 'DELETE', url: string, auth: string, body?: unknown): Promise<LightMyRequestResponse> =>
    h.app.inject({
      method,
      url,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  async function newPartner(name: string): Promise<Partner> {
    const created = await h.gateway.partners.create({ name });
    assert.ok(created.ok);
    return { partner_id: created.value.partner_id, auth: basicAuth(created.value) };
  }

  async function managedMerchant(owner: Partner, name = 'Managed Shop', currency?: string): Promise<TestMerchant> {
    const created = await h.gateway.merchants.create({ name, partnerId: owner.partner_id, ...(currency ? { currency } : {}) });
    assert.ok(created.ok);
    return { ...created.value, auth: basicAuth(created.value) };
  }

  async function newShop(merchant: TestMerchant, name: string, ...terminals: string[]): Promise<string> {
    const shop = await h.gateway.partners.createShop(merchant.merchant_id, name);
    assert.ok(shop.ok);
    for (const terminalId of terminals) assert.ok((await h.gateway.partners.assignTerminal({ shopId: shop.value.shop_id, terminalId })).ok);
    return shop.value.shop_id;
  }

  const methodsPath = (merchant: TestMerchant, shopId?: string) =>
    `/v2/merchants/${merchant.merchant_id}${shopId ? `/shops/${shopId}` : ''}/payment-methods`;

  async function put(
    owner: Partner,
    merchant: TestMerchant,
    type: string,
    body: unknown,
    shopId?: string,
    status?: number,
  ): Promise<Setting> {
    const response = await request('PUT', `${methodsPath(merchant, shopId)}/${type}`, owner.auth, body);
    if (status !== undefined) assert.equal(response.statusCode, status, response.body);
    else assert.ok(response.statusCode === 200 || response.statusCode === 201, response.body);
    const parsed = response.json<{ result: string; data: Setting }>();
    assert.equal(parsed.result, 'OK');
    return parsed.data;
  }

  async function show(owner: Partner, merchant: TestMerchant, type: string, shopId?: string): Promise<Setting> {
    const response = await request('GET', `${methodsPath(merchant, shopId)}/${type}`, owner.auth);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ data: Setting }>().data;
  }

  /** A cardpos payment from a terminal. */
  const fromTerminal = (terminal: string, amount: number, extra: { pin?: string; currency?: string } = {}) => {
    const body = posPayment(
      amount,
      { pan: freshPan(), ...(extra.pin ? { pin: extra.pin } : {}) },
      extra.currency ? { currency: extra.currency } : {},
    );
    (body.pos_data as { terminal: { id: string } }).terminal.id = terminal;
    return body;
  };

  /** Logs an admin of the merchant in; returns the session cookie header. */
  async function adminSession(merchant: TestMerchant): Promise<string> {
    const login = `admin-${merchant.merchant_id.slice(-8)}`;
    const created = await h.gateway.staff.create({ merchantId: merchant.merchant_id, role: 'admin', login, pin: '4711' });
    assert.ok(created.ok);
    const response = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login, password: created.value.password } });
    assert.equal(response.statusCode, 200, response.body);
    const cookie = response.cookies.find((c) => c.name === 'tillgate_session');
    assert.ok(cookie);
    return `tillgate_session=${cookie.value}`;
  }

  before(async () => {
    h = await startHarness();
    partner = await newPartner('POS Vendor');
    other = await newPartner('Other Reseller');
  });

  after(async () => {
    await h.close();
  });

  describe('the catalog', () => {
    test('a partner lists the catalog in the /v2 envelope: every payment type with currencies, countries, capabilities and defaults', async () => {
      const response = await request('GET', '/v2/payment-methods', partner.auth);
      assert.equal(response.statusCode, 200, response.body);
      const list = response.json<List<Record<string, unknown>>>();
      assert.equal(list.result, 'OK');
      assert.deepEqual(
        list.data_set.map((m) => m.payment_type),
        TYPES,
      );
      assert.deepEqual(list.metadata, { per_page: 20, total_items: 8, current_page: 1, total_pages: 1 });
      assert.deepEqual(list.links.prev, { href: null });
      assert.equal(list.links.self.href, '/v2/payment-methods?page=1&per=20');
      const byType = new Map(list.data_set.map((m) => [m.payment_type as string, m]));
      assert.deepEqual(Object.keys(byType.get('cardpos') ?? {}).sort(), [
        'capabilities',
        'countries',
        'currencies',
        'cvm_limit',
        'default_enabled',
        'description',
        'fee_fixed',
        'fee_percent',
        'name',
        'payment_type',
      ]);
      assert.deepEqual(byType.get('a2a')?.currencies, ['EUR', 'GBP']);
      assert.deepEqual(byType.get('a2a')?.capabilities, {
        payout: true,
        partial_refund: true,
        partial_reversal: false,
        recurring: false,
        subscription: false,
      });
      assert.equal(byType.get('cardecom')?.countries, null, 'cards serve every country');
      assert.ok(
        (byType.get('dd')?.countries as string[]).includes('DE') && !(byType.get('dd')?.countries as string[]).includes('US'),
        'SEPA countries',
      );
      const cvm = byType.get('cardpos')?.cvm_limit as Record<string, number>;
      assert.deepEqual([cvm.EUR, cvm.USD, cvm.GBP, cvm.CHF, cvm.JPY, cvm.KWD], [50, 50, 50, 50, 7000, 15]);
      assert.equal(byType.get('cardecom')?.cvm_limit, null);
      assert.ok(list.data_set.every((m) => m.default_enabled === true));
    });

    test('merchant credentials read the catalog too; filters and paging; one entry; an unknown type is a 404 naming it', async () => {
      const merchant = await managedMerchant(partner, 'Catalog Reader');
      const filtered = (await request('GET', '/v2/payment-methods?capability=payout&currency=EUR', merchant.auth)).json<
        List<{ payment_type: string }>
      >();
      assert.deepEqual(
        filtered.data_set.map((m) => m.payment_type),
        ['cardpos', 'a2a'],
      );
      assert.equal(filtered.links.self.href, '/v2/payment-methods?currency=EUR&capability=payout&page=1&per=20');
      const paged = (await request('GET', '/v2/payment-methods?per=3&page=3', merchant.auth)).json<List<{ payment_type: string }>>();
      assert.deepEqual(
        paged.data_set.map((m) => m.payment_type),
        ['a2a', 'bankredirect'],
      );
      assert.deepEqual(paged.metadata, { per_page: 3, total_items: 8, current_page: 3, total_pages: 3 });
      assert.deepEqual(paged.links.next, { href: null });
      assert.equal(paged.links.prev.href, '/v2/payment-methods?page=2&per=3');
      assert.equal(paged.links.last.href, '/v2/payment-methods?page=3&per=3');
      const one = await request('GET', '/v2/payment-methods/dd', merchant.auth);
      assert.equal(one.statusCode, 200);
      assert.deepEqual(one.json<{ result: string; data: { payment_type: string; currencies: string[] } }>().data.currencies, ['EUR']);
      const unknown = assertApiError(await request('GET', '/v2/payment-methods/bitcoin', merchant.auth), 404, 3001, ['payment_type']);
      assert.match(unknown.message, /Payment method bitcoin not found/);
      assertApiError(
        await request('GET', '/v2/payment-methods?currency=EURO&capability=teleport&per=500&page=0', merchant.auth),
        400,
        1001,
        ['currency', 'capability', 'per', 'page'],
      );
      assertApiError(await h.app.inject({ method: 'GET', url: '/v2/payment-methods' }), 401, 2001);
    });
  });

  describe('settings per merchant and per shop', () => {
    test('the effective setting: catalog defaults with their sources; PUT 201 then 200; field_sources; DELETE brings the default back', async () => {
      const merchant = await managedMerchant(partner, 'Settings Shop');
      const initial = await show(partner, merchant, 'cardecom');
      assert.deepEqual(
        { ...initial, updated_at: initial.updated_at },
        {
          payment_type: 'cardecom',
          merchant_id: merchant.merchant_id,
          shop_id: null,
          enabled: true,
          currencies: null,
          countries: null,
          capabilities: { payout: false, partial_refund: true, partial_reversal: true, recurring: true, subscription: false },
          fee_fixed: 0.25,
          fee_percent: 1.4,
          cvm_limit: null,
          source: 'default',
          field_sources: {
            enabled: 'default',
            currencies: 'default',
            countries: 'default',
            capabilities: {
              payout: 'default',
              partial_refund: 'default',
              partial_reversal: 'default',
              recurring: 'default',
              subscription: 'default',
            },
            fee_fixed: 'default',
            fee_percent: 'default',
            cvm_limit: null,
          },
          updated_at: null,
        },
      );
      const created = await put(
        partner,
        merchant,
        'cardecom',
        { currencies: ['EUR', 'GBP'], fee_fixed: 0.3, fee_percent: 2.5, capabilities: { partial_refund: false } },
        undefined,
        201,
      );
      assert.deepEqual(
        [created.currencies, created.fee_fixed, created.fee_percent, created.capabilities.partial_refund, created.enabled],
        [['EUR', 'GBP'], 0.3, 2.5, false, true],
      );
      assert.deepEqual(
        [
          created.source,
          created.field_sources.currencies,
          created.field_sources.fee_fixed,
          created.field_sources.capabilities.partial_refund,
          created.field_sources.capabilities.recurring,
        ],
        ['default', 'merchant', 'merchant', 'merchant', 'default'],
      );
      assert.ok(created.updated_at);
      // A PUT sets the whole level: fields left out inherit again.
      const changed = await put(partner, merchant, 'cardecom', { enabled: false }, undefined, 200);
      assert.deepEqual(
        [changed.enabled, changed.source, changed.currencies, changed.fee_fixed, changed.field_sources.fee_fixed],
        [false, 'merchant', null, 0.25, 'default'],
      );
      const removed = await request('DELETE', `${methodsPath(merchant)}/cardecom`, partner.auth);
      assert.equal(removed.statusCode, 200, removed.body);
      const after = removed.json<{ result: string; data: Setting }>();
      assert.deepEqual([after.result, after.data.enabled, after.data.source, after.data.updated_at], ['OK', true, 'default', null]);
      const again = assertApiError(await request('DELETE', `${methodsPath(merchant)}/cardecom`, partner.auth), 404, 3001, ['payment_type']);
      assert.match(again.message, /Setting of cardecom not found/);
    });

    test('each field resolves shop -> merchant -> default; a shop switches off what its merchant has on, and the reverse', async () => {
      const merchant = await managedMerchant(partner, 'Two Level Shop');
      const shopId = await newShop(merchant, 'High Street');
      await put(partner, merchant, 'wallet', { enabled: false, fee_percent: 2 });
      await put(partner, merchant, 'cardpos', { cvm_limit: { EUR: 40, JPY: 5000 }, fee_fixed: 0.05 });
      const wallet = await put(partner, merchant, 'wallet', { enabled: true }, shopId, 201);
      assert.deepEqual(
        [wallet.enabled, wallet.source, wallet.shop_id, wallet.fee_percent, wallet.field_sources.fee_percent],
        [true, 'shop', shopId, 2, 'merchant'],
      );
      const cardpos = await put(partner, merchant, 'cardpos', { enabled: false, cvm_limit: { EUR: 20 } }, shopId, 201);
      assert.deepEqual(
        [cardpos.enabled, cardpos.source, cardpos.fee_fixed, cardpos.field_sources.fee_fixed],
        [false, 'shop', 0.05, 'merchant'],
      );
      assert.deepEqual(
        [cardpos.cvm_limit?.EUR, cardpos.cvm_limit?.JPY, cardpos.cvm_limit?.USD],
        [20, 5000, 50],
        'cvm_limit resolves currency by currency',
      );
      assert.deepEqual(
        [cardpos.field_sources.cvm_limit?.EUR, cardpos.field_sources.cvm_limit?.JPY, cardpos.field_sources.cvm_limit?.USD],
        ['shop', 'merchant', 'default'],
      );
      // The merchant path still shows the merchant's own level.
      const merchantLevel = await show(partner, merchant, 'wallet');
      assert.deepEqual([merchantLevel.enabled, merchantLevel.source, merchantLevel.shop_id], [false, 'merchant', null]);
    });

    test('the list: every type, the envelope, filters enabled, currency and capability, and paging with links that keep the filters', async () => {
      const merchant = await managedMerchant(partner, 'List Shop');
      const shopId = await newShop(merchant, 'Mall');
      await put(partner, merchant, 'cardecom', { enabled: false });
      await put(partner, merchant, 'a2a', { currencies: ['GBP'] });
      await put(partner, merchant, 'dd', { enabled: false }, shopId);
      const all = (await request('GET', methodsPath(merchant), partner.auth)).json<List<Setting>>();
      assert.deepEqual(
        all.data_set.map((s) => s.payment_type),
        TYPES,
      );
      assert.deepEqual(all.metadata, { per_page: 20, total_items: 8, current_page: 1, total_pages: 1 });
      const disabled = (await request('GET', `${methodsPath(merchant, shopId)}?enabled=false`, partner.auth)).json<List<Setting>>();
      assert.deepEqual(
        disabled.data_set.map((s) => [s.payment_type, s.source, s.shop_id]),
        [
          ['cardecom', 'merchant', shopId],
          ['dd', 'shop', shopId],
        ],
      );
      const eur = (await request('GET', `${methodsPath(merchant)}?currency=EUR&enabled=true`, partner.auth)).json<List<Setting>>();
      assert.deepEqual(
        eur.data_set.map((s) => s.payment_type),
        ['cardpos', 'dd', 'dd_b2b', 'wallet', 'devicewallet', 'bankredirect'],
        'a2a is GBP only here',
      );
      const payouts = (await request('GET', `${methodsPath(merchant)}?capability=payout&per=1&page=2`, partner.auth)).json<List<Setting>>();
      assert.deepEqual(
        payouts.data_set.map((s) => s.payment_type),
        ['a2a'],
      );
      assert.deepEqual(payouts.metadata, { per_page: 1, total_items: 2, current_page: 2, total_pages: 2 });
      assert.equal(payouts.links.prev.href, `${methodsPath(merchant)}?capability=payout&page=1&per=1`);
      assert.deepEqual(payouts.links.next, { href: null });
      assertApiError(
        await request('GET', `${methodsPath(merchant)}?enabled=yes&currency=E&capability=fly&per=0`, partner.auth),
        400,
        1001,
        ['enabled', 'currency', 'capability', 'per'],
      );
    });

    test('values must stay within the catalog: one 400 names every bad field', async () => {
      const merchant = await managedMerchant(partner, 'Validation Shop');
      const body = {
        enabled: 'yes',
        currencies: ['EUR', 'XYZ', 'EUR'],
        countries: ['ZZ'],
        capabilities: { recurring: true, subscription: null, colour: true },
        fee_fixed: -1,
        fee_percent: 100.5,
        cvm_limit: { EUR: 10.555, ABC: 5, USD: null },
        surcharge: 1,
      };
      const error = assertApiError(await request('PUT', `${methodsPath(merchant)}/cardpos`, partner.auth, body), 400, 1001, [
        'enabled',
        'currencies',
        'countries',
        'capabilities.recurring',
        'capabilities.colour',
        'fee_fixed',
        'fee_percent',
        'cvm_limit.EUR',
        'cvm_limit.ABC',
        'surcharge',
      ]);
      const messages = new Map(error.errors.map((e) => [e.field, e.message]));
      assert.match(messages.get('currencies') ?? '', /XYZ is not an ISO 4217 currency code.*EUR is listed twice/);
      assert.match(messages.get('capabilities.recurring') ?? '', /cardpos does not offer recurring payments/);
      assert.match(messages.get('fee_percent') ?? '', /at most 100/);
      assertApiError(
        await request('PUT', `${methodsPath(merchant)}/a2a`, partner.auth, {
          currencies: ['USD'],
          countries: ['US', 'DE'],
          cvm_limit: { EUR: 20 },
        }),
        400,
        1001,
        ['currencies', 'countries', 'cvm_limit'],
      );
      assertApiError(
        await request('PUT', `${methodsPath(merchant)}/cardecom`, partner.auth, { currencies: [], fee_fixed: 1.005 }),
        400,
        1001,
        ['currencies', 'fee_fixed'],
      );
      assertApiError(await request('PUT', `${methodsPath(merchant)}/cardpos`, partner.auth, { cvm_limit: { JPY: 5000.5 } }), 400, 1001, [
        'cvm_limit.JPY',
      ]);
      // Nothing was stored by the refused requests.
      assert.equal((await show(partner, merchant, 'cardpos')).source, 'default');
      assert.equal((await show(partner, merchant, 'cardpos')).updated_at, null);
    });

    test('every PUT and DELETE is in the audit log: the partner, when, and the old and new values', async () => {
      const merchant = await managedMerchant(partner, 'Audited Shop');
      const shopId = await newShop(merchant, 'Audited Street');
      await put(partner, merchant, 'cardecom', { enabled: false });
      await put(partner, merchant, 'cardecom', { enabled: true, fee_percent: 1.1 });
      await put(partner, merchant, 'cardpos', { cvm_limit: { EUR: 30 } }, shopId);
      assert.equal((await request('DELETE', `${methodsPath(merchant, shopId)}/cardpos`, partner.auth)).statusCode, 200);
      const cookie = await adminSession(merchant);
      const audit = await h.app.inject({ method: 'GET', url: '/ui/audit', headers: { cookie } });
      assert.equal(audit.statusCode, 200, audit.body);
      const entries = audit
        .json<
          Array<{
            action: string;
            partner_id: string | null;
            subject_id: string;
            detail: string;
            old_value: unknown;
            new_value: unknown;
            created_at: string;
            staff_id: string | null;
          }>
        >()
        .filter((e) => e.action.startsWith('payment_method'))
        .reverse();
      const inherit = {
        enabled: null,
        currencies: null,
        countries: null,
        capabilities: null,
        fee_fixed: null,
        fee_percent: null,
        cvm_limit: null,
      };
      assert.deepEqual(
        entries.map((e) => [e.action, e.partner_id, e.subject_id, e.detail, e.old_value, e.new_value]),
        [
          [
            'payment_method_set',
            partner.partner_id,
            merchant.merchant_id,
            'cardecom merchant setting',
            null,
            { ...inherit, enabled: false },
          ],
          [
            'payment_method_set',
            partner.partner_id,
            merchant.merchant_id,
            'cardecom merchant setting',
            { ...inherit, enabled: false },
            { ...inherit, enabled: true, fee_percent: 1.1 },
          ],
          ['payment_method_set', partner.partner_id, shopId, 'cardpos shop setting', null, { ...inherit, cvm_limit: { EUR: 30 } }],
          ['payment_method_removed', partner.partner_id, shopId, 'cardpos shop setting', { ...inherit, cvm_limit: { EUR: 30 } }, null],
        ],
      );
      assert.ok(entries.every((e) => e.staff_id === null && !Number.isNaN(Date.parse(e.created_at))));
    });
  });

  describe('access', () => {
    test('a merchant key gets 403 2002 on every /v2/merchants path, its own merchant included', async () => {
      const merchant = await managedMerchant(partner, 'Key Holder');
      const shopId = await newShop(merchant, 'Back Street');
      for (const [method, url, body] of [
        ['GET', methodsPath(merchant)],
        ['GET', `${methodsPath(merchant)}/cardpos`],
        ['PUT', `${methodsPath(merchant)}/cardpos`, { enabled: false }],
        ['DELETE', `${methodsPath(merchant)}/cardpos`],
        ['GET', methodsPath(merchant, shopId)],
        ['PUT', `${methodsPath(merchant, shopId)}/cardpos`, { enabled: false }],
        ['DELETE', `${methodsPath(merchant, shopId)}/cardpos`],
      ] as const) {
        const error = assertApiError(await request(method, url, merchant.auth, body), 403, 2002);
        assert.match(error.message, /merchant credentials; this endpoint takes partner credentials/, `${method} ${url}`);
      }
      assert.equal((await show(partner, merchant, 'cardpos')).source, 'default', 'nothing changed');
    });

    test("a partner gets 404 for another partner's merchant, exactly as for none; an unknown shop or type is a 404 naming it; none reads like an unknown route", async () => {
      const mine = await managedMerchant(partner, 'Mine');
      const theirs = await managedMerchant(other, 'Theirs');
      const unmanaged = await h.gateway.merchants.create({ name: 'Nobody Manages' });
      assert.ok(unmanaged.ok);
      const theirShop = await newShop(theirs, 'Their Shop');
      const notMine = assertApiError(await request('GET', `${methodsPath(theirs)}/cardpos`, partner.auth), 404, 3001, ['merchant_id']);
      assert.equal(notMine.message, `Merchant ${theirs.merchant_id} not found`);
      const none = assertApiError(
        await request('GET', '/v2/merchants/01995d30-0000-7000-8000-000000000000/payment-methods', partner.auth),
        404,
        3001,
        ['merchant_id'],
      );
      assert.deepEqual(none.errors, notMine.errors, 'the same answer as for a merchant that does not exist');
      assertApiError(await request('GET', `/v2/merchants/${unmanaged.value.merchant_id}/payment-methods`, partner.auth), 404, 3001, [
        'merchant_id',
      ]);
      assertApiError(await request('PUT', `${methodsPath(theirs)}/cardpos`, partner.auth, { enabled: 'no' }), 404, 3001, ['merchant_id']);
      assertApiError(await request('PUT', `${methodsPath(theirs, theirShop)}/cardpos`, partner.auth, { enabled: false }), 404, 3001, [
        'merchant_id',
      ]);
      assertApiError(await request('DELETE', `${methodsPath(theirs)}/cardpos`, partner.auth), 404, 3001, ['merchant_id']);
      assert.equal((await show(other, theirs, 'cardpos')).enabled, true, 'the other partner sees its merchant unchanged');
      // Another merchant's shop under my merchant, and an unknown shop: 404 naming the shop.
      const shop = assertApiError(await request('GET', methodsPath(mine, theirShop), partner.auth), 404, 3001, ['shop_id']);
      assert.match(shop.message, /^Shop .* not found$/);
      assertApiError(await request('PUT', `${methodsPath(mine, 'no-such-shop')}/cardpos`, partner.auth, { enabled: false }), 404, 3001, [
        'shop_id',
      ]);
      assertApiError(await request('GET', `${methodsPath(mine)}/bitcoin`, partner.auth), 404, 3001, ['payment_type']);
      const route = assertApiError(await request('GET', `/v2/merchants/${mine.merchant_id}/shops`, partner.auth), 404, 3001);
      assert.match(route.message, /^No route GET/);
      assert.deepEqual(route.errors, []);
      assertApiError(await h.app.inject({ method: 'GET', url: methodsPath(mine) }), 401, 2001);
    });
  });

  describe('the gateway obeys', () => {
    let merchant: TestMerchant;
    let c: Api;
    let shopA: string;
    let shopB: string;

    before(async () => {
      merchant = await managedMerchant(partner, 'Obedient Shop');
      c = api(h, merchant);
      shopA = await newShop(merchant, 'Shop A', 'T-A1', 'T-A2');
      shopB = await newShop(merchant, 'Shop B', 'T-B1');
    });

    test('cardecom disabled for the merchant: a cardecom payment is refused with 1004, cardpos works', async () => {
      const before = await c.ok<Tx>('/rest/payment', cardPayment('4111111111111111', 10));
      assert.equal(before.status_code, 3);
      await put(partner, merchant, 'cardecom', { enabled: false });
      const refused = assertApiError(await c.post('/rest/payment', cardPayment('4111111111111111', 10)), 400, 1004, ['payment_type']);
      assert.equal(refused.message, 'cardecom is not enabled for this merchant');
      // The other bad fields are named with it.
      assertApiError(await c.post('/rest/authorize', cardPayment('4111111111111112', 10, { email: 'nobody' })), 400, 1004, [
        'payment_type',
        'card_number',
        'email',
      ]);
      assertApiError(
        await c.post('/rest/register', { payment_type: 'cardecom', order_id: orderId('reg'), amount: 0, currency: 'EUR', ...REDIRECT }),
        400,
        1004,
        ['payment_type'],
      );
      const pos = await c.ok<Tx>('/rest/payment', fromTerminal('T-NOSHOP', 12));
      assert.equal(pos.status_code, 3);
      // A refund of the earlier cardecom payment still works: money taken must be returnable.
      const refund = await c.ok<{ status_code: number }>('/rest/refund', { transaction_id: before.transaction_id });
      assert.equal(refund.status_code, 1);
      await put(partner, merchant, 'cardecom', { enabled: true });
      assert.equal((await c.ok<Tx>('/rest/payment', cardPayment('4111111111111111', 10))).status_code, 3);
    });

    test("cardpos disabled for one shop: its terminals' payments are refused, another shop's terminal and a terminal of no shop work", async () => {
      await put(partner, merchant, 'cardpos', { enabled: false }, shopA);
      const refused = assertApiError(await c.post('/rest/payment', fromTerminal('T-A1', 20)), 400, 1004, ['payment_type']);
      assert.equal(refused.message, 'cardpos is not enabled for this shop');
      assertApiError(await c.post('/rest/authorize', fromTerminal('T-A2', 20)), 400, 1004, ['payment_type']);
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-B1', 20))).status_code, 3);
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-ELSEWHERE', 20))).status_code, 3);
      // The reverse: the merchant switches cardpos off, shop A switches it on again.
      await put(partner, merchant, 'cardpos', { enabled: false });
      await put(partner, merchant, 'cardpos', { enabled: true }, shopA);
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-A1', 20))).status_code, 3);
      assertApiError(await c.post('/rest/payment', fromTerminal('T-B1', 20)), 400, 1004, ['payment_type']);
      assertApiError(await c.post('/rest/payment', fromTerminal('T-ELSEWHERE', 20)), 400, 1004, ['payment_type']);
      assert.equal((await request('DELETE', `${methodsPath(merchant)}/cardpos`, partner.auth)).statusCode, 200);
      assert.equal((await request('DELETE', `${methodsPath(merchant, shopA)}/cardpos`, partner.auth)).statusCode, 200);
    });

    test("a shop's cvm_limit: a tap above it asks for the PIN; removing the shop's setting brings the merchant's back", async () => {
      await put(partner, merchant, 'cardpos', { cvm_limit: { EUR: 40 } });
      await put(partner, merchant, 'cardpos', { cvm_limit: { EUR: 20 } }, shopA);
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-A1', 20))).status_code, 3, 'exactly the limit: no PIN');
      const asked = await c.ok<Tx>('/rest/payment', fromTerminal('T-A1', 25));
      assert.deepEqual([asked.status_code, asked.message, asked.reason_code], [6, 'request_pin', '1A']);
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-A1', 25, { pin: TEST_PIN }))).status_code, 3, 'with the PIN');
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-B1', 35))).status_code, 3, "shop B: the merchant's 40");
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-B1', 45))).message, 'request_pin');
      const removed = (await request('DELETE', `${methodsPath(merchant, shopA)}/cardpos`, partner.auth)).json<{ data: Setting }>().data;
      assert.deepEqual([removed.cvm_limit?.EUR, removed.field_sources.cvm_limit?.EUR], [40, 'merchant']);
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-A1', 25))).status_code, 3, "the merchant's 40 applies again");
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-A1', 45))).message, 'request_pin');
      // Other currencies keep their defaults: a 500 JPY tap needs no PIN, 7,001 JPY does.
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-A1', 500, { currency: 'JPY' }))).status_code, 3);
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-A1', 7001, { currency: 'JPY' }))).message, 'request_pin');
      assert.equal((await request('DELETE', `${methodsPath(merchant)}/cardpos`, partner.auth)).statusCode, 200);
    });

    test('fees: fee_fixed and fee_percent give included_fees on the answer, the transaction and its postbacks; a shop has its own', async () => {
      await put(partner, merchant, 'cardpos', { fee_fixed: 0.3, fee_percent: 2 });
      await put(partner, merchant, 'cardpos', { fee_percent: 1 }, shopB);
      const merchantLevel = await c.ok<Tx>('/rest/payment', fromTerminal('T-ELSEWHERE', 10));
      assert.equal(merchantLevel.included_fees, '0.50', '2 % of 10.00 + 0.30');
      const shopLevel = await c.ok<Tx>('/rest/payment', { ...fromTerminal('T-B1', 10), postback_url: POSTBACK_URL });
      assert.equal(shopLevel.included_fees, '0.40', "1 % (the shop's) + 0.30 (the merchant's)");
      const postbacks = await outboxOf(h, shopLevel.transaction_id);
      assert.ok(postbacks.length > 0);
      assert.ok(
        postbacks.every((row) => row.payload.included_fees === '0.40'),
        JSON.stringify(postbacks.map((r) => r.payload.included_fees)),
      );
      // In JPY the fixed part is scaled to no decimals (0.30 -> 0).
      assert.equal((await c.ok<Tx>('/rest/payment', fromTerminal('T-ELSEWHERE', 1000, { currency: 'JPY' }))).included_fees, '20');
      // Redirect payments get theirs when the customer completes: a wallet approved on its page.
      await put(partner, merchant, 'wallet', { fee_fixed: 0, fee_percent: 10 });
      const started = await c.ok<Tx>('/rest/payment', {
        payment_type: 'wallet',
        order_id: orderId('w'),
        amount: 20,
        currency: 'EUR',
        ...REDIRECT,
      });
      assert.ok((await h.gateway.payments.completeRedirect(started.transaction_id, 'approved')).ok);
      assert.equal((await outboxOf(h, started.transaction_id)).at(-1)?.payload.included_fees, '2.00');
      for (const type of ['cardpos', 'wallet']) await request('DELETE', `${methodsPath(merchant)}/${type}`, partner.auth);
      await request('DELETE', `${methodsPath(merchant, shopB)}/cardpos`, partner.auth);
    });

    test('currencies and countries: outside them is 1004 naming the field', async () => {
      await put(partner, merchant, 'cardecom', { currencies: ['EUR'] });
      const usd = assertApiError(await c.post('/rest/payment', cardPayment('4111111111111111', 10, { currency: 'USD' })), 400, 1004, [
        'currency',
      ]);
      assert.equal(usd.message, 'cardecom does not accept USD for this merchant');
      assert.equal((await c.ok<Tx>('/rest/payment', cardPayment('4111111111111111', 10))).status_code, 3);
      // The catalog's own limits stay validation errors (a2a takes EUR and GBP only).
      assertApiError(
        await c.post('/rest/payment', { payment_type: 'a2a', order_id: orderId('a2a'), amount: 5, currency: 'USD', ...REDIRECT }),
        400,
        1001,
        ['currency'],
      );
      // SEPA Direct Debit serves SEPA countries; a merchant narrows them further.
      const dd = {
        payment_type: 'dd',
        order_id: orderId('dd'),
        amount: 5,
        currency: 'EUR',
        iban: SETTLING_IBAN,
        account_holder: 'Ada Lovelace',
        postback_url: POSTBACK_URL,
      };
      assertApiError(await c.post('/rest/payment', { ...dd, country: 'US' }), 400, 1004, ['country']);
      await put(partner, merchant, 'dd', { countries: ['DE', 'AT'] });
      const fr = assertApiError(await c.post('/rest/payment', { ...dd, order_id: orderId('dd'), country: 'FR' }), 400, 1004, ['country']);
      assert.equal(fr.message, 'dd does not serve customers in FR for this merchant');
      assert.equal((await c.ok<Tx>('/rest/payment', { ...dd, order_id: orderId('dd'), country: 'AT' })).status_code, 2);
      for (const type of ['cardecom', 'dd']) await request('DELETE', `${methodsPath(merchant)}/${type}`, partner.auth);
    });

    test('capabilities switched off: recurring, subscription, payout, partial refund and partial reversal are 1004; whole ones still work', async () => {
      await put(partner, merchant, 'cardecom', { capabilities: { recurring: false, partial_refund: false, partial_reversal: false } });
      assertApiError(await c.post('/rest/payment', cardPayment('4111111111111111', 10, { recurring: 1 })), 400, 1004, ['recurring']);
      const register = assertApiError(
        await c.post('/rest/register', { payment_type: 'cardecom', order_id: orderId('reg'), amount: 0, currency: 'EUR', ...REDIRECT }),
        400,
        1004,
        ['payment_type'],
      );
      assert.equal(register.message, 'recurring payments with cardecom are switched off for this merchant');
      assertApiError(
        await c.post(
          '/rest/payment',
          cardPayment('4111111111111111', 10, { original_transaction_id: '01995d30-0000-7000-8000-000000000001' }),
        ),
        400,
        1004,
        ['original_transaction_id'],
      );
      const paid = await c.ok<Tx>('/rest/payment', cardPayment('4111111111111111', 30));
      assertApiError(await c.post('/rest/refund', { transaction_id: paid.transaction_id, amount: 10 }), 400, 1004, ['amount']);
      assert.equal(
        (await c.ok<{ status_code: number }>('/rest/refund', { transaction_id: paid.transaction_id })).status_code,
        1,
        'a whole refund works',
      );
      const held = await c.ok<Tx>('/rest/authorize', cardPayment('4111111111111111', 30));
      assertApiError(await c.post('/rest/reverse', { transaction_id: held.transaction_id, amount: 10 }), 400, 1004, ['amount']);
      assert.equal((await c.ok<{ status_code: number }>('/rest/reverse', { transaction_id: held.transaction_id })).status_code, 5);

      await put(partner, merchant, 'wallet', { capabilities: { subscription: false } });
      assertApiError(
        await c.post('/rest/payment', {
          payment_type: 'wallet',
          order_id: orderId('sub'),
          amount: 9.99,
          currency: 'EUR',
          recurring: 1,
          subscription_plan_id: 'basic',
          ...REDIRECT,
        }),
        400,
        1004,
        ['subscription_plan_id'],
      );
      await put(partner, merchant, 'a2a', { capabilities: { payout: false } });
      const payout = {
        payment_type: 'a2a',
        order_id: orderId('out'),
        amount: 10,
        currency: 'EUR',
        merchant_reference: 'Payout 1',
        postback_url: POSTBACK_URL,
        country: 'DE',
        email: 'grace@example.com',
      };
      const refusedPayout = assertApiError(await c.post('/rest/payout', payout), 400, 1004, ['payment_type']);
      assert.equal(refusedPayout.message, 'payouts with a2a are switched off for this merchant');
      await put(partner, merchant, 'cardpos', { enabled: false }, shopB);
      const cardCredit = {
        payment_type: 'cardpos',
        order_id: orderId('credit'),
        amount: 5,
        currency: 'EUR',
        merchant_reference: 'Credit 1',
        postback_url: POSTBACK_URL,
        country: 'DE',
        pos_data: { ...posData({ pan: freshPan() }), terminal: { id: 'T-B1' } },
      };
      assertApiError(await c.post('/rest/payout', cardCredit), 400, 1004, ['payment_type']);
      for (const type of ['cardecom', 'wallet', 'a2a']) await request('DELETE', `${methodsPath(merchant)}/${type}`, partner.auth);
      await request('DELETE', `${methodsPath(merchant, shopB)}/cardpos`, partner.auth);
      assert.equal((await c.ok<{ status_code: number }>('/rest/payout', { ...payout, order_id: orderId('out') })).status_code, 2);
    });

    test('checkout pages offer only the enabled methods; a session no enabled method can take is refused', async () => {
      const session = {
        merchant_name: 'Obedient Shop',
        order_id: orderId('co'),
        currency: 'EUR',
        amount: 20,
        total_amount: 20,
        success_url: REDIRECT.success_url,
        error_url: REDIRECT.error_url,
        postback_url: POSTBACK_URL,
      };
      await put(partner, merchant, 'wallet', { enabled: false });
      await put(partner, merchant, 'dd', { enabled: false });
      const created = await c.ok<{ checkout_id: string }>('/rest/checkouts', session);
      const read = await c.get(`/rest/checkouts/${created.checkout_id}`);
      assert.deepEqual(read.json<{ payment_methods: string[] }>().payment_methods, ['cardecom', 'a2a', 'bankredirect']);
      const page = await h.app.inject({ method: 'GET', url: `/checkout/${created.checkout_id}` });
      assert.equal(page.statusCode, 200);
      assert.doesNotMatch(page.body, /value="wallet"/);
      assert.match(page.body, /value="cardecom"/);
      assert.equal(
        (await h.gateway.checkouts.pay(created.checkout_id, { method: 'wallet', customer: {} })).ok,
        false,
        'a method not offered is refused',
      );
      // GBP: cardecom (wallet is off) and a2a take it on a hosted page; with both narrowed to EUR nothing is left.
      await put(partner, merchant, 'a2a', { currencies: ['EUR'] });
      await put(partner, merchant, 'cardecom', { currencies: ['EUR'] });
      assertApiError(
        await c.post('/rest/checkouts', { ...session, order_id: orderId('co'), currency: 'GBP', amount: 5, total_amount: 5 }),
        400,
        1004,
        ['currency'],
      );
      for (const type of ['wallet', 'dd', 'a2a', 'cardecom']) await request('DELETE', `${methodsPath(merchant)}/${type}`, partner.auth);
      assert.equal(
        (await c.post('/rest/checkouts', { ...session, order_id: orderId('co'), currency: 'GBP', amount: 5, total_amount: 5 })).statusCode,
        200,
      );
    });

    test("invoice pay pages offer only the enabled methods, for the invoice's country", async () => {
      const urlName = merchant.channel.url_name;
      const create = async (invoice: Record<string, unknown>) => {
        const response = await c.post('/rest/invoices', { url_name: urlName, invoice: { amount: 12.5, ...invoice } });
        assert.equal(response.statusCode, 201, response.body);
        return response.json<{ paylink: string }>().paylink;
      };
      const methodsOn = async (paylink: string) => {
        const page = await h.app.inject({ method: 'GET', url: new URL(paylink).pathname });
        assert.equal(page.statusCode, 200);
        return [...page.body.matchAll(/name="method" value="(\w+)"/g)].map((m) => m[1]);
      };
      assert.deepEqual(await methodsOn(await create({})), ['cardecom', 'dd', 'wallet']);
      assert.deepEqual(await methodsOn(await create({ country: 'US' })), ['cardecom', 'wallet'], 'SEPA serves no customer in the US');
      await put(partner, merchant, 'wallet', { enabled: false });
      assert.deepEqual(await methodsOn(await create({})), ['cardecom', 'dd']);
      await request('DELETE', `${methodsPath(merchant)}/wallet`, partner.auth);
    });

    test("the till's GET /ui/terminal answers its effective CVM limit (its shop's, the merchant's, the default)", async () => {
      const cookie = await adminSession(merchant);
      const terminal = async () =>
        (await h.app.inject({ method: 'GET', url: '/ui/terminal', headers: { cookie } })).json<{
          terminal_id: string;
          cvm_limit: number;
        }>();
      assert.deepEqual(await terminal().then((t) => [t.terminal_id, t.cvm_limit]), ['TILL-1', 50]);
      await put(partner, merchant, 'cardpos', { cvm_limit: { EUR: 45 } });
      assert.equal((await terminal()).cvm_limit, 45);
      assert.ok((await h.gateway.partners.assignTerminal({ shopId: shopB, terminalId: 'TILL-1' })).ok);
      await put(partner, merchant, 'cardpos', { cvm_limit: { EUR: 30 } }, shopB);
      assert.equal((await terminal()).cvm_limit, 30);
      await request('DELETE', `${methodsPath(merchant, shopB)}/cardpos`, partner.auth);
      await request('DELETE', `${methodsPath(merchant)}/cardpos`, partner.auth);
      // A merchant in yen: the till's limit is 7,000 JPY, not 50 yen.
      const yen = await managedMerchant(partner, 'Yen Shop', 'JPY');
      const yenCookie = await adminSession(yen);
      assert.equal(
        (await h.app.inject({ method: 'GET', url: '/ui/terminal', headers: { cookie: yenCookie } })).json<{ cvm_limit: number }>()
          .cvm_limit,
        7000,
      );
    });
  });

  describe('shops and terminals in the app (admin)', () => {
    test('an admin lists and creates shops and assigns terminals; a terminal belongs to one shop; audited', async () => {
      const merchant = await managedMerchant(partner, 'App Shop');
      const cookie = await adminSession(merchant);
      const ui = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
        h.app.inject({
          method,
          url,
          headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
      const created = await ui('POST', '/ui/shops', { name: 'Harbour' });
      assert.equal(created.statusCode, 201, created.body);
      const harbour = created.json<{ shop_id: string; name: string; terminals: string[] }>();
      assert.deepEqual([harbour.name, harbour.terminals], ['Harbour', []]);
      const second = (await ui('POST', '/ui/shops', { name: 'Station' })).json<{ shop_id: string }>();
      assert.equal((await ui('POST', `/ui/shops/${harbour.shop_id}/terminals`, { terminal_id: 'T-9' })).statusCode, 200);
      const moved = await ui('POST', `/ui/shops/${second.shop_id}/terminals`, { terminal_id: 'T-9' });
      assert.deepEqual(moved.json(), {
        terminal_id: 'T-9',
        shop_id: second.shop_id,
        merchant_id: merchant.merchant_id,
        previous_shop_id: harbour.shop_id,
      });
      const shops = (await ui('GET', '/ui/shops')).json<Array<{ name: string; terminals: string[] }>>();
      assert.deepEqual(
        shops.map((s) => [s.name, s.terminals]),
        [
          ['Harbour', []],
          ['Station', ['T-9']],
        ],
      );
      assertApiError(await ui('POST', '/ui/shops', { name: ' ' }), 400, 1001, ['name']);
      assertApiError(await ui('POST', '/ui/shops/nope/terminals', { terminal_id: 'T-1' }), 404, 3001, ['shop']);
      assertApiError(await ui('POST', `/ui/shops/${harbour.shop_id}/terminals`, { terminal_id: 'has space' }), 400, 1001, ['terminal_id']);
      assert.equal((await ui('DELETE', '/ui/terminals/T-9')).statusCode, 200);
      assertApiError(await ui('DELETE', '/ui/terminals/T-9'), 404, 3001, ['terminal_id']);
      // Another merchant's shop is not this admin's.
      const stranger = await managedMerchant(other, 'Stranger');
      const strangerShop = await newShop(stranger, 'Elsewhere');
      assertApiError(await ui('POST', `/ui/shops/${strangerShop}/terminals`, { terminal_id: 'T-1' }), 404, 3001, ['shop']);
      const actions = (await ui('GET', '/ui/audit')).json<Array<{ action: string; staff_id: string | null }>>().map((e) => e.action);
      for (const action of ['shop_created', 'terminal_assigned', 'terminal_unassigned']) assert.ok(actions.includes(action), action);
      // A cashier may not manage shops.
      const cashier = await h.gateway.staff.create({
        merchantId: merchant.merchant_id,
        role: 'cashier',
        login: 'cashier-app-shop',
        pin: '2580',
      });
      assert.ok(cashier.ok);
      const login = await h.app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'cashier-app-shop', pin: '2580' } });
      const cashierCookie = `tillgate_session=${login.cookies.find((k) => k.name === 'tillgate_session')?.value ?? ''}`;
      assertApiError(
        await h.app.inject({
          method: 'POST',
          url: '/ui/shops',
          headers: { cookie: cashierCookie, 'content-type': 'application/json' },
          payload: '{"name":"Mine"}',
        }),
        403,
        2002,
      );
    });
  });

  describe('a2a payouts take the interface fields', () => {
    test('the recipient by email; by original_transaction_id the payer of an a2a payment is paid back; iban optional', async () => {
      const merchant = await managedMerchant(partner, 'Payout Shop');
      const c = api(h, merchant);
      const base = {
        payment_type: 'a2a',
        amount: 15,
        currency: 'EUR',
        merchant_reference: 'Payout 9',
        postback_url: POSTBACK_URL,
        country: 'DE',
      };
      const byEmail = await c.ok<Tx>('/rest/payout', {
        ...base,
        order_id: orderId('out'),
        email: 'grace@example.com',
        first_name: 'Grace',
      });
      assert.equal(byEmail.status_code, 2);
      await h.advance(SIM_DELAY_MS + 1);
      assert.equal((await c.transaction(byEmail.transaction_id)).status_code, 3);
      const paid = await c.ok<Tx>('/rest/payment', {
        payment_type: 'a2a',
        order_id: orderId('a2a'),
        amount: 40,
        currency: 'EUR',
        ...REDIRECT,
      });
      const back = await c.post('/rest/payout', { ...base, order_id: orderId('out'), original_transaction_id: paid.transaction_id });
      assertApiError(back, 400, 1001, ['original_transaction_id']);
      assert.match(back.json<{ errors: Array<{ message: string }> }>().errors[0]?.message ?? '', /nothing was paid/);
      assert.ok((await h.gateway.payments.completeRedirect(paid.transaction_id, 'approved')).ok);
      const payBack = await c.ok<Tx>('/rest/payout', { ...base, order_id: orderId('out'), original_transaction_id: paid.transaction_id });
      assert.equal((await c.transaction(payBack.transaction_id)).parent_id, paid.transaction_id);
      const card = await c.ok<Tx>('/rest/payment', cardPayment('4111111111111111', 5));
      assertApiError(
        await c.post('/rest/payout', { ...base, order_id: orderId('out'), original_transaction_id: card.transaction_id }),
        400,
        1001,
        ['original_transaction_id'],
      );
      assertApiError(
        await c.post('/rest/payout', {
          ...base,
          order_id: orderId('out'),
          original_transaction_id: '01995d30-0000-7000-8000-0000000000ff',
        }),
        400,
        1001,
        ['original_transaction_id'],
      );
      assert.equal(
        (await c.ok<Tx>('/rest/payout', { ...base, order_id: orderId('out'), iban: SETTLING_IBAN, account_holder: 'Grace Hopper' }))
          .status_code,
        2,
      );
      assertApiError(await c.post('/rest/payout', { ...base, order_id: orderId('out') }), 400, 1001, ['email']);
      assertApiError(
        await c.post('/rest/payout', {
          ...base,
          payment_type: 'cardpos',
          order_id: orderId('out'),
          original_transaction_id: paid.transaction_id,
          pos_data: posData({ pan: freshPan() }),
        }),
        400,
        1001,
        ['original_transaction_id'],
      );
    });
  });
});
