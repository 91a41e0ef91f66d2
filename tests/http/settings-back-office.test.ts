// The back office's Settings and staff (issue 16, 4; docs/decisions.md "Back office: settings, staff
// and audit"): admin only (back office and cashier 403, nobody 401), every bad field named in one
// 400, the merchant's profile and channels, API credentials that work from Basic auth and answer 401
// at once when revoked (also after a cached verification), staff created with a role, reset (shown
// once) and disabled (cannot log in, sessions end), SMTP with a write-only password and a test
// e-mail through a real smtp-server peer, the paged and filtered audit log with every change in it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { assertApiError, createTestMerchant, loginStaff, startTestGateway, type TestGateway, type TestMerchant } from '../helpers/api.js';

type Who = 'admin' | 'office' | 'cashier' | 'nobody';
type Method = 'GET' | 'POST' | 'PUT';

const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-Secret-Word-77';

interface Received {
  to: string[];
  raw: string;
}

function startSmtp(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        received,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

interface AuditEntry {
  id: string;
  action: string;
  staff_id: string | null;
  staff_name: string | null;
  subject_id: string | null;
  detail: string | null;
  old_value: unknown;
  new_value: unknown;
  created_at: string;
}
interface AuditPage {
  data_set: AuditEntry[];
  metadata: { per_page: number; total_items: number; current_page: number; total_pages: number };
  actions: string[];
}

describe('back office: settings, staff and audit', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let other: TestMerchant;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const sessions: Record<Exclude<Who, 'nobody'>, string> = { admin: '', office: '', cashier: '' };
  let otherAdmin = '';
  let adminId = '';

  before(async () => {
    smtp = await startSmtp();
    gw = await startTestGateway();
    shop = await createTestMerchant(gw, 'Settings Bakery');
    other = await createTestMerchant(gw, 'Other Bakery');
    const admin = await loginStaff(gw, shop, 'admin', 'boss');
    adminId = admin.staffId;
    sessions.admin = admin.session;
    sessions.office = (await loginStaff(gw, shop, 'back_office', 'office')).session;
    sessions.cashier = (await loginStaff(gw, shop, 'cashier', 'till')).session;
    otherAdmin = (await loginStaff(gw, other, 'admin', 'other-boss')).session;
  });

  after(async () => {
    await gw?.close();
    await smtp?.close();
  });

  const call = (who: Who | string, method: Method, url: string, payload?: unknown) => {
    const session = who === 'nobody' ? undefined : who in sessions ? sessions[who as Exclude<Who, 'nobody'>] : who;
    return gw.app.inject({
      method,
      url,
      ...(session ? { cookies: { tillgate_session: session } } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  };
  const json = <T>(response: { statusCode: number; body: string }, status = 200): T => {
    assert.equal(response.statusCode, status, response.body);
    return JSON.parse(response.body) as T;
  };
  const audit = async (query = ''): Promise<AuditPage> => json<AuditPage>(await call('admin', 'GET', `/ui/audit-log${query}`));

  test('only an admin may use Settings: back office and cashier get 403, nobody 401, before anything is checked', async () => {
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', '/ui/profile'],
      ['PUT', '/ui/profile', { name: '', currency: 'X', language: 'xx' }],
      ['GET', '/ui/channels'],
      ['POST', '/ui/channels', {}],
      ['PUT', '/ui/channels/settings-bakery', {}],
      ['GET', '/ui/credentials'],
      ['POST', '/ui/credentials'],
      ['POST', '/ui/credentials/nope/revoke'],
      ['POST', '/ui/staff/nope/reset', { secret: 'pin' }],
      ['POST', '/ui/staff/nope/disable'],
      ['GET', '/ui/smtp'],
      ['PUT', '/ui/smtp', {}],
      ['POST', '/ui/smtp/test', { to: 'a@b.example' }],
      ['GET', '/ui/audit-log?page=x'],
    ];
    for (const [method, url, payload] of routes) {
      for (const who of ['office', 'cashier'] as const) assertApiError(await call(who, method, url, payload), 403, 2002);
      assertApiError(await call('nobody', method, url, payload), 401, 2001);
    }
    // Creating staff stays admin only, as before.
    assertApiError(await call('office', 'POST', '/ui/staff', { role: 'cashier' }), 403, 2002);
  });

  test('profile: read and change name, default currency and language; every bad field in one 400', async () => {
    const profile = json<{ merchant_id: string; name: string; currency: string; language: string; customer_links_base: string }>(
      await call('admin', 'GET', '/ui/profile'),
    );
    // The base of customers' links is the gateway's (a host setting), shown so a loopback one can be warned about.
    assert.deepEqual(
      { ...profile, created_at: undefined },
      {
        merchant_id: shop.merchant_id,
        name: 'Settings Bakery',
        currency: 'EUR',
        language: 'en',
        created_at: undefined,
        customer_links_base: gw.composition.publicUrl(),
      },
    );
    assert.match(profile.customer_links_base, /^https?:\/\//);

    const bad = assertApiError(await call('admin', 'PUT', '/ui/profile', { name: '  ', currency: 'EURO', language: 'fr' }), 400, 1001, [
      'name',
      'currency',
      'language',
    ]);
    assert.equal(bad.errors.length, 3);

    const changed = json<{ name: string; currency: string; language: string }>(
      await call('admin', 'PUT', '/ui/profile', { name: 'Bäckerei Süd', currency: 'CHF', language: 'de' }),
    );
    assert.deepEqual([changed.name, changed.currency, changed.language], ['Bäckerei Süd', 'CHF', 'de']);
    // The session shows the new name and currency.
    const session = json<{ merchant: { name: string; currency: string; time_zone: string; language: string } }>(
      await call('admin', 'GET', '/ui/session'),
    );
    // The staff screens now speak the shop's language (D21).
    assert.deepEqual(session.merchant, {
      merchant_id: shop.merchant_id,
      name: 'Bäckerei Süd',
      currency: 'CHF',
      time_zone: session.merchant.time_zone,
      language: 'de',
    });

    const entry = (await audit('?action=profile_update')).data_set[0];
    assert.ok(entry);
    assert.equal(entry.staff_id, adminId);
    assert.equal(entry.detail, 'changed name, currency, language');
    assert.deepEqual(entry.old_value, { name: 'Settings Bakery', currency: 'EUR', language: 'en' });
    assert.deepEqual(entry.new_value, { name: 'Bäckerei Süd', currency: 'CHF', language: 'de' });
  });

  test('channels: list, create (url_name unique, fixed), edit; invoices can use the new channel', async () => {
    const list = json<Array<{ url_name: string; name: string }>>(await call('admin', 'GET', '/ui/channels'));
    assert.deepEqual(
      list.map((c) => c.url_name),
      ['settings-bakery'],
    );

    const bad = assertApiError(
      await call('admin', 'POST', '/ui/channels', {
        url_name: 'Web Shop',
        name: '',
        currency: 'EU',
        language: 'de',
        sender_email: 'nope',
        extra: 1,
      }),
      400,
      1001,
      ['url_name', 'name', 'currency', 'sender_email', 'extra'],
    );
    assert.equal(bad.errors.length, 5);

    const created = json<{
      url_name: string;
      name: string;
      currency: string;
      language: string;
      sender_email: string | null;
      channel_id: number;
    }>(
      await call('admin', 'POST', '/ui/channels', {
        url_name: 'web-shop',
        name: 'Web shop',
        currency: 'EUR',
        language: 'de',
        sender_email: 'web@bakery.example',
      }),
      201,
    );
    assert.equal(created.url_name, 'web-shop');
    assert.equal(typeof created.channel_id, 'number');
    assertApiError(
      await call('admin', 'POST', '/ui/channels', { url_name: 'web-shop', name: 'Again', currency: 'EUR', language: 'en' }),
      400,
      1001,
      ['url_name'],
    );
    // Another merchant cannot take it or change it.
    assertApiError(await call(otherAdmin, 'PUT', '/ui/channels/web-shop', { name: 'Mine', currency: 'EUR', language: 'en' }), 404, 3001);

    const edited = json<{ name: string; language: string; sender_email: string | null }>(
      await call('admin', 'PUT', '/ui/channels/web-shop', {
        name: 'Web shop (Zürich)',
        currency: 'CHF',
        language: 'pt',
        sender_email: null,
      }),
    );
    assert.deepEqual([edited.name, edited.language, edited.sender_email], ['Web shop (Zürich)', 'pt', null]);
    assertApiError(
      await call('admin', 'PUT', '/ui/channels/web-shop', { url_name: 'x', name: 'n', currency: 'CHF', language: 'pt' }),
      400,
      1001,
      ['url_name'],
    );

    // The API's invoices take the channel's currency and language.
    const invoice = await gw.app.inject({
      method: 'POST',
      url: '/rest/invoices',
      headers: { authorization: shop.auth },
      payload: { url_name: 'web-shop', invoice: { amount: 12.5, first_name: 'Ana', last_name: 'Lima' } },
    });
    assert.equal(invoice.statusCode, 201, invoice.body);
    const body = JSON.parse(invoice.body) as { invoice: { currency: string; effective_locale: string } };
    assert.deepEqual([body.invoice.currency, body.invoice.effective_locale], ['CHF', 'pt']);

    const actions = (await audit('?action=channel_update')).data_set;
    assert.equal(actions.length, 1);
    assert.equal(actions[0]?.subject_id, 'web-shop');
    assert.equal(actions[0]?.detail, 'changed name, currency, language, sender_email');
    assert.equal((await audit('?action=channel_create')).data_set[0]?.subject_id, 'web-shop');
  });

  test('API credentials: created once with the password, work with Basic auth, revoked answer 401 at once (cache too)', async () => {
    const created = json<{ credential_id: string; api_key: string; api_password: string }>(
      await call('admin', 'POST', '/ui/credentials'),
      201,
    );
    const basic = `Basic ${Buffer.from(`${created.api_key}:${created.api_password}`).toString('base64')}`;
    const transactions = () => gw.app.inject({ method: 'GET', url: '/rest/transactions', headers: { authorization: basic } });
    // Twice: the second answer comes from the authenticator's cache.
    assert.equal((await transactions()).statusCode, 200);
    assert.equal((await transactions()).statusCode, 200);

    const list = await call('admin', 'GET', '/ui/credentials');
    assert.ok(!list.body.includes(created.api_password), 'the password is never listed');
    const rows = json<Array<{ credential_id: string; api_key: string; revoked_at: string | null }>>(list);
    assert.deepEqual(
      rows.map((r) => r.api_key),
      [shop.api_key, created.api_key],
    );
    assert.ok(rows.every((r) => Object.keys(r).sort().join() === 'api_key,created_at,credential_id,revoked_at'));
    // Another merchant's admin sees only theirs and cannot revoke these.
    assert.ok(!(await call(otherAdmin, 'GET', '/ui/credentials')).body.includes(created.api_key));
    assertApiError(await call(otherAdmin, 'POST', `/ui/credentials/${created.credential_id}/revoke`), 404, 3001);

    const revoked = json<{ revoked_at: string | null }>(await call('admin', 'POST', `/ui/credentials/${created.credential_id}/revoke`));
    assert.ok(revoked.revoked_at);
    assertApiError(await transactions(), 401, 2001);
    assertApiError(await call('admin', 'POST', `/ui/credentials/${created.credential_id}/revoke`), 400, 1002);
    // The merchant's first credentials still work.
    assert.equal(
      (await gw.app.inject({ method: 'GET', url: '/rest/transactions', headers: { authorization: shop.auth } })).statusCode,
      200,
    );

    const entries = (await audit()).data_set.filter((e) => e.subject_id === created.api_key);
    assert.deepEqual(
      entries.map((e) => e.action),
      ['credential_revoke', 'credential_create'],
    );
    assert.ok(!JSON.stringify(entries).includes(created.api_password));
  });

  test('staff: create with a role and password, reset (shown once, sessions end), disable (no login, sessions end)', async () => {
    const bad = assertApiError(
      await call('admin', 'POST', '/ui/staff', { role: 'boss', login: 'A B', password: 'short', pin: '12' }),
      400,
      1001,
      ['role', 'login', 'password', 'pin'],
    );
    assert.equal(bad.errors.length, 4);
    const created = json<{ staff_id: string; login: string; password: string; role: string }>(
      await call('admin', 'POST', '/ui/staff', {
        role: 'cashier',
        login: 'mia',
        display_name: 'Mia Ros',
        password: 'first-Password-1',
        pin: '2468',
      }),
      201,
    );
    assert.equal(created.role, 'cashier');
    const login = (secret: Record<string, string>) =>
      gw.app.inject({ method: 'POST', url: '/ui/session', payload: { login: 'mia', ...secret } });
    const first = await login({ pin: '2468' });
    assert.equal(first.statusCode, 200, first.body);
    const miaSession = first.cookies.find((c) => c.name === 'tillgate_session')?.value ?? '';
    assert.equal((await call(miaSession, 'GET', '/ui/session')).statusCode, 200);

    assertApiError(await call('admin', 'POST', `/ui/staff/${created.staff_id}/reset`, { secret: 'pin', value: '12ab' }), 400, 1001, [
      'value',
    ]);
    assertApiError(await call('admin', 'POST', `/ui/staff/${created.staff_id}/reset`, { secret: 'key' }), 400, 1001, ['secret']);
    const reset = json<{ secret: string; value: string | null; sessions_ended: number }>(
      await call('admin', 'POST', `/ui/staff/${created.staff_id}/reset`, { secret: 'pin' }),
    );
    assert.equal(reset.secret, 'pin');
    assert.match(reset.value ?? '', /^\d{6}$/);
    assert.equal(reset.sessions_ended, 1);
    assertApiError(await call(miaSession, 'GET', '/ui/session'), 401, 2001);
    assertApiError(await login({ pin: '2468' }), 401, 2001);
    const second = await login({ pin: reset.value ?? '' });
    assert.equal(second.statusCode, 200, second.body);
    const secondSession = second.cookies.find((c) => c.name === 'tillgate_session')?.value ?? '';

    const password = json<{ value: string | null }>(
      await call('admin', 'POST', `/ui/staff/${created.staff_id}/reset`, { secret: 'password', value: 'second-Password-2' }),
    );
    assert.equal(password.value, null, 'a given password is not answered back');
    assert.equal((await login({ password: 'second-Password-2' })).statusCode, 200);
    const third = await login({ password: 'second-Password-2' });
    const thirdSession = third.cookies.find((c) => c.name === 'tillgate_session')?.value ?? '';
    assert.equal((await call(thirdSession, 'GET', '/ui/session')).statusCode, 200);
    assertApiError(await call(secondSession, 'GET', '/ui/session'), 401, 2001);

    assertApiError(await call('admin', 'POST', `/ui/staff/${adminId}/disable`), 400, 1002);
    const disabled = json<{ disabled: boolean }>(await call('admin', 'POST', `/ui/staff/${created.staff_id}/disable`));
    assert.equal(disabled.disabled, true);
    assertApiError(await call(thirdSession, 'GET', '/ui/session'), 401, 2001);
    assertApiError(await call(thirdSession, 'GET', '/rest/transactions'), 401, 2001);
    assertApiError(await login({ password: 'second-Password-2' }), 401, 2001);
    assertApiError(await call('admin', 'POST', `/ui/staff/${created.staff_id}/disable`), 400, 1002);
    assertApiError(await call(otherAdmin, 'POST', `/ui/staff/${created.staff_id}/reset`, { secret: 'pin' }), 404, 3001);

    const entries = (await audit()).data_set.filter((e) => e.subject_id === created.staff_id);
    assert.deepEqual(
      entries.map((e) => e.action),
      ['staff_disable', 'staff_reset_password', 'staff_reset_pin', 'staff_create'],
    );
    const text = JSON.stringify(entries);
    for (const secret of ['first-Password-1', 'second-Password-2', '2468', reset.value ?? ''])
      assert.ok(!text.includes(secret), `audit must not hold ${secret}`);
  });

  test('SMTP: the password is write-only; a test e-mail arrives at the server and its answer is shown; a refusal is shown too', async () => {
    const empty = json<{ configured: boolean; password_set: boolean }>(await call('admin', 'GET', '/ui/smtp'));
    assert.deepEqual([empty.configured, empty.password_set], [false, false]);
    assertApiError(await call('admin', 'POST', '/ui/smtp/test', { to: 'owner@bakery.example' }), 400, 1002);

    const bad = assertApiError(
      await call('admin', 'PUT', '/ui/smtp', { host: 'bad host', port: 70000, security: 'ssl', from: 'nobody', password: '' }),
      400,
      1001,
      ['host', 'port', 'security', 'from', 'password'],
    );
    assert.equal(bad.errors.length, 5);

    const settings = { host: '127.0.0.1', port: smtp.port, security: 'none', user: SMTP_USER, from: 'Bakery <billing@bakery.example>' };
    const saved = await call('admin', 'PUT', '/ui/smtp', { ...settings, password: 'wrong-Password' });
    assert.ok(!saved.body.includes('wrong-Password'));
    assert.deepEqual(json<Record<string, unknown>>(saved).password_set, true);

    const refused = json<{ accepted: boolean; response: string }>(
      await call('admin', 'POST', '/ui/smtp/test', { to: 'owner@bakery.example' }),
    );
    assert.equal(refused.accepted, false);
    assert.match(refused.response, /Invalid username or password/);
    assert.ok(!refused.response.includes('wrong-Password'));

    // Saving again without a password keeps it; then the right one.
    assert.equal(json<{ password_set: boolean }>(await call('admin', 'PUT', '/ui/smtp', settings)).password_set, true);
    const got = await call('admin', 'GET', '/ui/smtp');
    assert.ok(!got.body.includes('wrong-Password'));
    json(await call('admin', 'PUT', '/ui/smtp', { ...settings, password: SMTP_PASSWORD }));

    const before = smtp.received.length;
    const sent = json<{ accepted: boolean; response: string }>(
      await call('admin', 'POST', '/ui/smtp/test', { to: 'owner@bakery.example' }),
    );
    assert.equal(sent.accepted, true, sent.response);
    assert.match(sent.response, /^250\b/);
    assert.equal(smtp.received.length, before + 1);
    assert.deepEqual(smtp.received.at(-1)?.to, ['owner@bakery.example']);
    assert.match(smtp.received.at(-1)?.raw ?? '', /This is a test e-mail from Tillgate, sent through 127\.0\.0\.1:\d+ \(none\)/);
    assertApiError(await call('admin', 'POST', '/ui/smtp/test', { to: 'not an address' }), 400, 1001, ['to']);

    // Another merchant keeps the local test outbox.
    assert.equal(json<{ configured: boolean }>(await call(otherAdmin, 'GET', '/ui/smtp')).configured, false);

    const entries = (await audit('?action=smtp_update')).data_set;
    assert.equal(entries.length, 3);
    const text = JSON.stringify(await audit());
    assert.ok(!text.includes(SMTP_PASSWORD) && !text.includes('wrong-Password'), 'the SMTP password never reaches the audit log');
    assert.deepEqual((entries.at(-1)?.new_value as { password: string }).password, 'set');
    assert.deepEqual(
      (await audit('?action=smtp_test')).data_set.map((e) => e.detail?.split(':')[0]),
      ['accepted', 'refused'],
    );
  });

  test("invoice e-mails use the merchant's SMTP server once it is set", async () => {
    const before = smtp.received.length;
    const invoice = await gw.app.inject({
      method: 'POST',
      url: '/rest/invoices',
      headers: { authorization: shop.auth },
      payload: {
        url_name: 'settings-bakery',
        invoice: { amount: 20, first_name: 'Ana', last_name: 'Lima', email: 'ana@customer.example', send_initial_email: true },
      },
    });
    assert.equal(invoice.statusCode, 201, invoice.body);
    await gw.composition.gateway.mailQueue.drain();
    assert.equal(smtp.received.length, before + 1);
    assert.deepEqual(smtp.received.at(-1)?.to, ['ana@customer.example']);
  });

  test('audit log: filters by person, action and time, pages on the server; bad parameters named in one 400; GET /ui/audit unchanged', async () => {
    const all = await audit('?per=200');
    assert.ok(all.actions.includes('credential_create') && all.actions.includes('staff_disable') && all.actions.includes('login'));
    const byAdmin = await audit(`?staff_id=${adminId}&per=200`);
    assert.ok(byAdmin.data_set.length > 0 && byAdmin.data_set.every((e) => e.staff_id === adminId && e.staff_name === 'boss'));
    assert.ok(byAdmin.metadata.total_items < all.metadata.total_items, 'logins of others are not the admin');

    const logins = await audit('?action=login&per=2&page=2');
    assert.equal(logins.metadata.per_page, 2);
    assert.equal(logins.metadata.current_page, 2);
    assert.ok(logins.metadata.total_items >= 5);
    assert.equal(logins.data_set.length, 2);
    const first = await audit('?action=login&per=2');
    assert.ok(
      first.data_set.every((e) => !logins.data_set.some((l) => l.id === e.id)),
      'page 2 follows page 1',
    );
    assert.ok((first.data_set[1]?.created_at ?? '') >= (logins.data_set[0]?.created_at ?? ''), 'newest first');

    const now = gw.clock.now();
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    assert.equal((await audit(`?created_at[min]=${tomorrow}`)).metadata.total_items, 0);
    assert.equal((await audit(`?created_at[max]=${tomorrow}&per=200`)).metadata.total_items, all.metadata.total_items);

    const bad = assertApiError(await call('admin', 'GET', '/ui/audit-log?created_at[min]=yesterday&per=0&page=x&colour=red'), 400, 1001, [
      'created_at[min]',
      'per',
      'page',
      'colour',
    ]);
    assert.equal(bad.errors.length, 4);

    // The old route still answers an array (back office may read it).
    const old = json<unknown[]>(await call('office', 'GET', '/ui/audit'));
    assert.ok(Array.isArray(old) && old.length > 0);
    // Another merchant's log is its own.
    const theirs = json<AuditPage>(await call(otherAdmin, 'GET', '/ui/audit-log'));
    assert.ok(theirs.data_set.every((e) => e.action === 'login'));
  });

  test('the routes are in the OpenAPI document', async () => {
    // The back office's own routes are on the second page of the API docs.
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await gw.app.inject({ method: 'GET', url: '/docs/back-office/json' }),
    );
    for (const path of [
      '/ui/profile',
      '/ui/channels',
      '/ui/channels/{url_name}',
      '/ui/credentials',
      '/ui/credentials/{credential_id}/revoke',
      '/ui/staff/{staff_id}/reset',
      '/ui/staff/{staff_id}/disable',
      '/ui/smtp',
      '/ui/smtp/test',
      '/ui/audit-log',
    ]) {
      assert.ok(doc.paths[path], `${path} is documented`);
    }
  });
});
