// A sale's configuration reads (the terminal's shop, the payment method's settings) are remembered
// between sales (issue 38; docs/decisions.md "The sale's configuration, remembered"). These gateways
// remember them for up to an hour (--configuration-cache-ms), so only the store's word that they
// changed can make a sale see a change: on the instance that made it at once, and on another instance
// of the same PostgreSQL database once it heard the change (NOTIFY).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { assertApiError, type TestMerchant } from '../helpers/api.js';
import { basicAuth } from '../helpers/gateway-process.js';
import { freshPan, posPayment, startHarness, TEST_PIN, type Harness } from '../helpers/payments.js';

const AN_HOUR = String(60 * 60 * 1000);
const onPostgres = process.env.TEST_ENGINE === 'postgres';

describe("a sale's configuration, remembered", () => {
  let h: Harness;
  let partner: string;
  let merchant: TestMerchant;
  let cookie: string;

  const inject = (app: Harness['app'], method: string, url: string, headers: Record<string, string>, body?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const sale = (app: Harness['app'], terminal: string): Promise<LightMyRequestResponse> =>
    inject(app, 'POST', '/rest/payment', { authorization: merchant.auth }, posPayment(12.5, { pan: freshPan(), pin: TEST_PIN, terminal }));
  const approved = (response: LightMyRequestResponse) => {
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<{ message: string }>().message, 'Approved', response.body);
  };
  const refused = (response: LightMyRequestResponse) => {
    const body = assertApiError(response, 400, 1004, ['payment_type']);
    assert.match(body.message, /cardpos is not enabled for this (shop|merchant)/);
  };
  const setting = async (app: Harness['app'], enabled: boolean | null, shopId?: string) => {
    const path = `/v2/merchants/${merchant.merchant_id}${shopId ? `/shops/${shopId}` : ''}/payment-methods/cardpos`;
    const response =
      enabled === null
        ? await inject(app, 'DELETE', path, { authorization: partner })
        : await inject(app, 'PUT', path, { authorization: partner }, { enabled });
    assert.ok(response.statusCode === 200 || response.statusCode === 201, response.body);
  };

  before(async () => {
    h = await startHarness({ 'configuration-cache-ms': AN_HOUR });
    const owner = await h.gateway.partners.create({ name: 'Cache Partner' });
    assert.ok(owner.ok);
    partner = basicAuth(owner.value);
    const created = await h.gateway.merchants.create({ name: 'Remembering Shop', partnerId: owner.value.partner_id });
    assert.ok(created.ok);
    merchant = { ...created.value, auth: basicAuth(created.value) };
    const admin = await h.gateway.staff.create({ merchantId: merchant.merchant_id, role: 'admin', login: 'cache-admin', pin: '4711' });
    assert.ok(admin.ok);
    const login = await h.app.inject({
      method: 'POST',
      url: '/ui/session',
      payload: { login: 'cache-admin', password: admin.value.password },
    });
    assert.equal(login.statusCode, 200, login.body);
    cookie = `tillgate_session=${login.cookies.find((c) => c.name === 'tillgate_session')?.value ?? ''}`;
  });

  after(async () => {
    await h.close();
  });

  test("on one instance, the next sale sees each change: the merchant's setting, a terminal put in a shop and taken out, the shop's setting", async () => {
    approved(await sale(h.app, 'T-CACHE-1'));
    approved(await sale(h.app, 'T-CACHE-1'));
    await setting(h.app, false);
    refused(await sale(h.app, 'T-CACHE-1'));
    const shop = await inject(h.app, 'POST', '/ui/shops', { cookie }, { name: 'Corner' });
    assert.equal(shop.statusCode, 201, shop.body);
    const shopId = shop.json<{ shop_id: string }>().shop_id;
    await setting(h.app, true, shopId);
    refused(await sale(h.app, 'T-CACHE-1'));
    const assigned = await inject(h.app, 'POST', `/ui/shops/${shopId}/terminals`, { cookie }, { terminal_id: 'T-CACHE-1' });
    assert.ok(assigned.statusCode === 200 || assigned.statusCode === 201, assigned.body);
    approved(await sale(h.app, 'T-CACHE-1'));
    await setting(h.app, false, shopId);
    refused(await sale(h.app, 'T-CACHE-1'));
    await setting(h.app, null, shopId);
    refused(await sale(h.app, 'T-CACHE-1'));
    await setting(h.app, null);
    approved(await sale(h.app, 'T-CACHE-1'));
    const unassigned = await inject(h.app, 'DELETE', '/ui/terminals/T-CACHE-1', { cookie });
    assert.equal(unassigned.statusCode, 200, unassigned.body);
    approved(await sale(h.app, 'T-CACHE-1'));
  });

  test(
    'on PostgreSQL, another instance of the database sees a change once it heard it (its sales remember for an hour)',
    { skip: onPostgres ? false : 'two instances share a PostgreSQL database (TEST_ENGINE=postgres)' },
    async () => {
      const database = h.composition.settings.databaseUrl;
      assert.ok(database);
      const other = await startHarness({ database, 'configuration-cache-ms': AN_HOUR }, { dataKey: h.dataKey });
      try {
        // The other instance hears once its listener heard its own notification.
        const until = async (what: string, check: () => Promise<boolean>) => {
          const deadline = Date.now() + 15_000;
          while (!(await check())) {
            assert.ok(Date.now() < deadline, `${what} within 15 s`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        };
        await until('the other instance hears', () => Promise.resolve(other.composition.gateway !== undefined && hears(other)));
        approved(await sale(other.app, 'T-CACHE-2'));
        approved(await sale(other.app, 'T-CACHE-2'));
        await setting(h.app, false);
        await until('the other instance refuses the sale', async () => (await sale(other.app, 'T-CACHE-2')).statusCode === 400);
        refused(await sale(other.app, 'T-CACHE-2'));
        await setting(h.app, null);
        await until('the other instance takes the sale again', async () => (await sale(other.app, 'T-CACHE-2')).statusCode === 200);
      } finally {
        await other.close();
      }
    },
  );
});

/** Whether the instance's store says what it remembers may be used (its listener hears). */
function hears(h: Harness): boolean {
  const store = h.composition.store as { configurationGeneration?: () => number | undefined };
  return store.configurationGeneration?.() !== undefined;
}
