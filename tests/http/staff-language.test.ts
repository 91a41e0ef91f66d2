// The staff screens' language (D21, issue 36), as the gateway keeps it: a staff member's own choice
// (PUT /ui/session/language, kept with their account and answered in the session), else the shop's
// language (the profile, which offers Croatian); a channel's language stays an invoice e-mail
// language (en, de, pt). Every bad field is named in one 400 and nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertApiError, createTestMerchant, loginStaff, startTestGateway, type TestGateway, type TestMerchant } from '../helpers/api.js';

describe("the staff screens' language", () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let admin: string;
  let cashier: string;
  let cashierPassword: string;

  before(async () => {
    gw = await startTestGateway();
    shop = await createTestMerchant(gw, 'Sprachladen');
    admin = (await loginStaff(gw, shop, 'admin', 'lang-admin')).session;
    const made = await gw.composition.gateway.staff.create({ merchantId: shop.merchant_id, role: 'cashier', login: 'lang-cashier' });
    assert.ok(made.ok);
    cashierPassword = made.value.password;
    cashier = await logIn();
  });
  after(async () => {
    await gw.close();
  });

  const logIn = async () => {
    const answer = await gw.app.inject({
      method: 'POST',
      url: '/ui/session',
      payload: { login: 'lang-cashier', password: cashierPassword },
    });
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.cookies.find((c) => c.name === 'tillgate_session')?.value ?? '';
  };
  const as = (session: string | undefined, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    gw.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      ...(session ? { cookies: { tillgate_session: session } } : {}),
    });
  const session = async (who: string) => {
    const answer = await as(who, 'GET', '/ui/session');
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json() as { staff: { language: string | null }; merchant: { language: string } };
  };

  test("a staff member's own language: none at first, chosen, kept with the account, and null again", async () => {
    assert.equal((await session(cashier)).staff.language, null);
    const chosen = await as(cashier, 'PUT', '/ui/session/language', { language: 'hr' });
    assert.equal(chosen.statusCode, 200, chosen.body);
    assert.deepEqual(chosen.json(), { language: 'hr' });
    assert.equal((await session(cashier)).staff.language, 'hr');
    // Another session of the same person (another computer) gets it too; another person does not.
    const login = await gw.app.inject({
      method: 'POST',
      url: '/ui/session',
      payload: { login: 'lang-cashier', password: cashierPassword },
    });
    assert.equal((login.json() as { staff: { language: string | null } }).staff.language, 'hr', 'the login answers it');
    assert.equal((await session(await logIn())).staff.language, 'hr');
    assert.equal((await session(admin)).staff.language, null);
    const cleared = await as(cashier, 'PUT', '/ui/session/language', { language: null });
    assert.deepEqual(cleared.json(), { language: null });
    assert.equal((await session(cashier)).staff.language, null);
  });

  test('a language that is none of the four, or no body, is a 400 naming language; nobody logged in is a 401', async () => {
    for (const payload of [{ language: 'fr' }, { language: 'DE' }, {}, { language: 3 }]) {
      assertApiError(await as(cashier, 'PUT', '/ui/session/language', payload), 400, 1001, ['language']);
    }
    assert.equal((await session(cashier)).staff.language, null);
    assert.equal((await as(undefined, 'PUT', '/ui/session/language', { language: 'de' })).statusCode, 401);
  });

  test("the shop's language offers Croatian, and every session answers it; channels keep the invoice languages", async () => {
    const profile = (await as(admin, 'GET', '/ui/profile')).json() as { name: string; currency: string };
    const saved = await as(admin, 'PUT', '/ui/profile', { name: profile.name, currency: profile.currency, language: 'hr' });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal((await session(cashier)).merchant.language, 'hr');
    assertApiError(await as(admin, 'PUT', '/ui/profile', { name: profile.name, currency: profile.currency, language: 'fr' }), 400, 1001, [
      'language',
    ]);
    assert.equal((await session(cashier)).merchant.language, 'hr');
    const channel = await as(admin, 'POST', '/ui/channels', { url_name: 'zagreb-shop', name: 'Zagreb', currency: 'EUR', language: 'hr' });
    assertApiError(channel, 400, 1001, ['language']);
    const german = await as(admin, 'POST', '/ui/channels', { url_name: 'berlin-shop', name: 'Berlin', currency: 'EUR', language: 'de' });
    assert.equal(german.statusCode, 201, german.body);
  });
});
