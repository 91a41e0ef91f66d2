// Staff of the desktop UI (decisions.md D9) over inject() on real SQLite: login by password or PIN
// (an HttpOnly, SameSite=Strict session cookie, or the same token as a Bearer), the source lock-out,
// idle and absolute session expiry on a movable clock, logout, disabled and unknown accounts, role
// permissions on the /rest routes, manager approvals for till refunds and the audit log, the CSRF
// origin check, /ui/staff, and `gateway staff create` against a running server.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../main/core/staff/staff.js';
import { assertApiError, createTestMerchant, startTestGateway, TestClock, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { createMerchant, runGateway, startGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { cardPayment, DAY, freshPan } from '../helpers/payments.js';
import { dialects } from '../../db/sql.js';
import { countOf, sqlOf } from '../helpers/sql.js';

const MINUTE = 60 * 1000;
const COOKIE = 'tillgate_session';
/** The origin inject() requests are addressed to (Host: localhost:80). */
const OWN_ORIGIN = 'http://localhost:80';

interface SessionBody {
  staff: { staff_id: string; login: string; display_name: string; role: string };
  merchant: { merchant_id: string; name: string; currency: string };
  expires_at: string;
  idle_timeout_seconds: number;
}

interface Account {
  staff_id: string;
  login: string;
  password: string;
  pin?: string;
}

/** Local noon today: tests that move the clock by hours stay on known days. */
function noonToday(): number {
  const noon = new Date();
  noon.setHours(12, 0, 0, 0);
  return noon.getTime();
}

async function createStaff(gw: TestGateway, merchant: TestMerchant, role: string, login: string, pin?: string): Promise<Account> {
  const created = await gw.composition.gateway.staff.create({ merchantId: merchant.merchant_id, role, login, ...(pin ? { pin } : {}) });
  assert.ok(created.ok, `staff create ${login} failed`);
  return { staff_id: created.value.staff_id, login, password: created.value.password, ...(pin ? { pin } : {}) };
}

function loginRequest(gw: TestGateway, body: Record<string, unknown>, remoteAddress?: string): Promise<LightMyRequestResponse> {
  return gw.app.inject({ method: 'POST', url: '/ui/session', payload: body, ...(remoteAddress ? { remoteAddress } : {}) });
}

/** The session token of a login answer's Set-Cookie. */
function tokenOf(response: LightMyRequestResponse): string {
  assert.equal(response.statusCode, 200, `login failed: ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === COOKIE);
  assert.ok(cookie?.value, 'login sets the session cookie');
  return cookie.value;
}

async function login(gw: TestGateway, account: Account, by: 'password' | 'pin' = 'password'): Promise<string> {
  const secret = by === 'pin' ? { pin: account.pin } : { password: account.password };
  return tokenOf(await loginRequest(gw, { login: account.login, ...secret }));
}

const withCookie = (token: string, headers: Record<string, string> = {}) => ({ cookie: `${COOKIE}=${token}`, ...headers });

function call(
  gw: TestGateway,
  method: InjectOptions['method'],
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  return gw.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }) });
}

const sessionOf = (gw: TestGateway, token: string) => call(gw, 'GET', '/ui/session', withCookie(token));

async function pay(gw: TestGateway, headers: Record<string, string>, amount = 12.5): Promise<string> {
  const response = await call(gw, 'POST', '/rest/payment', headers, cardPayment(freshPan(), amount));
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json<{ transaction_id: string; status: string }>();
  assert.equal(body.status, 'completed');
  return body.transaction_id;
}

function transactionCount(gw: TestGateway, merchantId: string): Promise<number> {
  return countOf(gw, 'SELECT COUNT(*) AS n FROM transactions WHERE merchant_id = ?', merchantId);
}

function refundCount(gw: TestGateway, transactionId: string): Promise<number> {
  return countOf(gw, 'SELECT COUNT(*) AS n FROM refunds WHERE transaction_id = ?', transactionId);
}

describe('staff of the desktop UI', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let otherShop: TestMerchant;
  let cashier: Account;
  let backOffice: Account;
  let admin: Account;
  let otherManager: Account;
  let otherCashier: Account;
  let secondCashier: Account;

  before(async () => {
    // A high lock-out limit: this suite makes some failures on purpose from inject's one address.
    gw = await startTestGateway({
      clock: new TestClock(noonToday()),
      flags: { 'lockout-max-failures': '1000', 'time-zone': 'Europe/Berlin' },
    });
    shop = await createTestMerchant(gw, 'Corner Shop');
    otherShop = await createTestMerchant(gw, 'Other Shop');
    cashier = await createStaff(gw, shop, 'cashier', 'till', '2580');
    secondCashier = await createStaff(gw, shop, 'cashier', 'till-2', '1357');
    backOffice = await createStaff(gw, shop, 'back_office', 'office', '4321');
    admin = await createStaff(gw, shop, 'admin', 'boss');
    otherManager = await createStaff(gw, otherShop, 'back_office', 'other-office', '9999');
    otherCashier = await createStaff(gw, otherShop, 'cashier', 'other-till', '1111');
  });

  after(async () => {
    await gw.close();
  });

  describe('login', () => {
    test('by password: 200 with the session, and an HttpOnly SameSite=Strict cookie for the whole site', async () => {
      const response = await loginRequest(gw, { login: admin.login, password: admin.password });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json<SessionBody>();
      assert.deepEqual(body.staff, { staff_id: admin.staff_id, login: 'boss', display_name: 'boss', role: 'admin', language: null });
      // The shop's time zone: staff screens show times in it.
      assert.deepEqual(body.merchant, {
        merchant_id: shop.merchant_id,
        name: 'Corner Shop',
        currency: 'EUR',
        time_zone: 'Europe/Berlin',
        language: 'en',
      });
      assert.equal(body.idle_timeout_seconds, 30 * 60);
      assert.equal(Date.parse(body.expires_at), gw.clock.now().getTime() + 12 * 60 * 60 * 1000);
      const raw = String(response.headers['set-cookie']);
      assert.match(raw, new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{40,};`));
      assert.match(raw, /;\s*HttpOnly/i);
      assert.match(raw, /;\s*SameSite=Strict/i);
      assert.match(raw, /;\s*Path=\/(;|$)/);
      assert.match(raw, /;\s*Max-Age=43200/);
      assert.doesNotMatch(raw, /;\s*Secure/i, 'plain http: a Secure cookie would never come back');
      const [cookie] = response.cookies;
      assert.equal(cookie?.httpOnly, true);
      assert.equal(cookie?.sameSite, 'Strict');
      assert.doesNotMatch(response.body, new RegExp(cookie?.value ?? 'x'), 'the token is only in the cookie');
    });

    test('by PIN: the same cookie; the session names the cashier', async () => {
      const response = await loginRequest(gw, { login: cashier.login, pin: '2580' });
      const token = tokenOf(response);
      assert.match(String(response.headers['set-cookie']), /HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/i);
      const session = await sessionOf(gw, token);
      assert.equal(session.statusCode, 200);
      assert.deepEqual(session.json<SessionBody>().staff, {
        staff_id: cashier.staff_id,
        login: 'till',
        display_name: 'Cashier (till)',
        role: 'cashier',
        language: null,
      });
    });

    test('a wrong PIN or password, a PIN on an account without one, or both or neither: no session', async () => {
      for (const body of [
        { login: cashier.login, pin: '0000' },
        { login: cashier.login, password: `${cashier.password}x` },
        { login: cashier.login, password: '2580' }, // the PIN is not the password
        { login: admin.login, pin: '1234' }, // admin has no PIN
      ]) {
        const response = await loginRequest(gw, body);
        assertApiError(response, 401, 2001);
        assert.equal(response.headers['set-cookie'], undefined, JSON.stringify(body));
      }
      assertApiError(await loginRequest(gw, { login: cashier.login, pin: '2580', password: cashier.password }), 400, 1001);
      assertApiError(await loginRequest(gw, { login: cashier.login }), 400, 1001);
    });

    test('an unknown login cannot log in', async () => {
      const response = await loginRequest(gw, { login: 'nobody', password: 'whatever-password' });
      assertApiError(response, 401, 2001);
      assert.equal(response.headers['set-cookie'], undefined);
    });

    test('a disabled account cannot log in, and its open sessions end', async () => {
      const leaver = await createStaff(gw, shop, 'cashier', 'leaver', '2468');
      const token = await login(gw, leaver, 'pin');
      assert.equal((await sessionOf(gw, token)).statusCode, 200);
      await sqlOf(gw).run('UPDATE staff SET disabled_at = ? WHERE id = ?', gw.clock.now().toISOString(), leaver.staff_id);
      assertApiError(await loginRequest(gw, { login: leaver.login, pin: '2468' }), 401, 2001);
      assertApiError(await loginRequest(gw, { login: leaver.login, password: leaver.password }), 401, 2001);
      assertApiError(await sessionOf(gw, token), 401, 2001);
      assertApiError(await call(gw, 'GET', '/rest/transactions', withCookie(token)), 401, 2001);
    });
  });

  describe('GET /ui/whoami', () => {
    test('answers the session, or null without an error when nobody (or an ended session) is logged in', async () => {
      const none = await call(gw, 'GET', '/ui/whoami', {});
      assert.equal(none.statusCode, 200);
      assert.deepEqual(none.json(), { session: null });
      const token = await login(gw, cashier, 'pin');
      const mine = await call(gw, 'GET', '/ui/whoami', withCookie(token));
      assert.equal(mine.statusCode, 200);
      assert.equal(mine.json<{ session: SessionBody }>().session.staff.login, cashier.login);
      await call(gw, 'DELETE', '/ui/session', withCookie(token));
      assert.deepEqual((await call(gw, 'GET', '/ui/whoami', withCookie(token))).json(), { session: null });
      assert.deepEqual((await call(gw, 'GET', '/ui/whoami', withCookie('made-up'))).json(), { session: null });
    });
  });

  describe('the session', () => {
    test('GET /ui/session without a cookie, or with an unknown token, is 401', async () => {
      assertApiError(await call(gw, 'GET', '/ui/session', {}), 401, 2001);
      assertApiError(await sessionOf(gw, 'not-a-session-token'), 401, 2001);
      assertApiError(await call(gw, 'GET', '/ui/session', { authorization: 'Bearer not-a-session-token' }), 401, 2001);
    });

    test('logout revokes this session only: its cookie no longer works anywhere', async () => {
      const token = await login(gw, cashier, 'pin');
      const other = await login(gw, cashier, 'pin');
      assert.equal((await call(gw, 'GET', '/rest/transactions', withCookie(token))).statusCode, 200);
      const logout = await call(gw, 'DELETE', '/ui/session', withCookie(token));
      assert.equal(logout.statusCode, 204);
      const cleared = logout.cookies.find((c) => c.name === COOKIE);
      assert.ok(cleared, 'the cookie is cleared');
      assert.equal(cleared.value, '');
      assert.ok(
        cleared.maxAge === 0 || (cleared.expires !== undefined && cleared.expires.getTime() <= Date.now()),
        'cleared cookie expires',
      );
      assertApiError(await sessionOf(gw, token), 401, 2001);
      assertApiError(await call(gw, 'GET', '/rest/transactions', withCookie(token)), 401, 2001);
      assertApiError(await call(gw, 'GET', '/rest/transactions', { authorization: `Bearer ${token}` }), 401, 2001);
      assert.equal((await sessionOf(gw, other)).statusCode, 200, 'the other session of the same staff lives on');
    });

    test('a Bearer token works like the cookie, with the same role limits', async () => {
      const token = await login(gw, cashier, 'pin');
      const bearer = { authorization: `Bearer ${token}` };
      const session = await call(gw, 'GET', '/ui/session', bearer);
      assert.equal(session.statusCode, 200);
      assert.equal(session.json<SessionBody>().staff.staff_id, cashier.staff_id);
      const id = await pay(gw, { ...bearer, 'content-type': 'application/json' });
      assert.equal((await call(gw, 'GET', `/rest/transactions/${id}`, bearer)).statusCode, 200);
      assertApiError(await call(gw, 'POST', '/rest/webhook_key/rotate', bearer), 403, 2002);
      assertApiError(await call(gw, 'GET', '/rest/postbacks', bearer), 403, 2002);
      // A bearer token is not the cookie: a cross-origin request with it is still refused.
      assertApiError(
        await call(gw, 'POST', '/rest/payment', { ...bearer, origin: 'https://evil.example' }, cardPayment(freshPan(), 3)),
        403,
        2002,
      );
    });
  });

  describe('role permissions on /rest', () => {
    test('cashier: pays and reads transactions; may not rotate the webhook key or list postbacks', async () => {
      const token = await login(gw, cashier, 'pin');
      const before = await transactionCount(gw, shop.merchant_id);
      const id = await pay(gw, withCookie(token));
      assert.equal(await transactionCount(gw, shop.merchant_id), before + 1);
      const one = await call(gw, 'GET', `/rest/transactions/${id}`, withCookie(token));
      assert.equal(one.statusCode, 200);
      assert.equal(one.json<{ transaction_id: string }>().transaction_id, id);
      assert.equal((await call(gw, 'GET', `/rest/transactions/${id}/log`, withCookie(token))).statusCode, 200);
      const list = await call(gw, 'GET', '/rest/transactions', withCookie(token));
      assert.equal(list.statusCode, 200);
      assert.ok(list.json<Array<{ transaction_id: string }>>().some((t) => t.transaction_id === id));

      const rotate = assertApiError(await call(gw, 'POST', '/rest/webhook_key/rotate', withCookie(token)), 403, 2002);
      assert.match(rotate.message, /cashier/);
      assertApiError(await call(gw, 'GET', '/rest/postbacks', withCookie(token)), 403, 2002);
      assertApiError(await call(gw, 'GET', `/rest/transactions/${id}/postbacks`, withCookie(token)), 403, 2002);
    });

    test('back_office: refunds without an approval, lists postbacks, may not rotate the webhook key', async () => {
      const token = await login(gw, backOffice, 'pin');
      const id = await pay(gw, withCookie(token), 20);
      const key = { 'idempotency-key': `refund-${id}` };
      const refund = await call(gw, 'POST', '/rest/refund', withCookie(token, key), { transaction_id: id, amount: 5 });
      assert.equal(refund.statusCode, 200, refund.body);
      assert.equal(await refundCount(gw, id), 1);
      // Read at once: the audit entry is written before the reply leaves.
      const audit = (await call(gw, 'GET', '/ui/audit', withCookie(token))).json<
        Array<{ action: string; staff_id: string; approved_by: string | null; subject_id: string; detail: string }>
      >();
      const entries = audit.filter((a) => a.action === 'refund' && a.subject_id === id);
      assert.deepEqual(
        entries.map((e) => ({ staff_id: e.staff_id, approved_by: e.approved_by, detail: e.detail })),
        [{ staff_id: backOffice.staff_id, approved_by: null, detail: 'amount 5' }],
      );
      const replay = await call(gw, 'POST', '/rest/refund', withCookie(token, key), { transaction_id: id, amount: 5 });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      const after = (await call(gw, 'GET', '/ui/audit', withCookie(token))).json<Array<{ action: string; subject_id: string }>>();
      assert.equal(after.filter((a) => a.action === 'refund' && a.subject_id === id).length, 1, 'a replay is not audited again');

      assert.equal((await call(gw, 'GET', '/rest/postbacks', withCookie(token))).statusCode, 200);
      const rotate = assertApiError(await call(gw, 'POST', '/rest/webhook_key/rotate', withCookie(token)), 403, 2002);
      assert.match(rotate.message, /back_office/);
    });

    test('a refund and its audit entry commit together: when the entry cannot be written, no refund is made', async () => {
      const token = await login(gw, backOffice, 'pin');
      const id = await pay(gw, withCookie(token), 20);
      const sql = sqlOf(gw);
      // The audit log refuses this one refund's entry (a fault of the storage, as a full disk would be).
      await sql.run(
        dialects({
          sqlite: `CREATE TRIGGER refuse_refund_audit BEFORE INSERT ON audit_log WHEN NEW.action = 'refund' AND NEW.subject_id = '${id}' BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
          postgres: `CREATE FUNCTION refuse_refund_audit() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN IF NEW.action = 'refund' AND NEW.subject_id = '${id}' THEN RAISE EXCEPTION 'audit refused'; END IF; RETURN NEW; END $fn$`,
        }),
      );
      if (sql.dialect === 'postgres')
        await sql.run('CREATE TRIGGER refuse_refund_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_refund_audit()');
      const key = { 'idempotency-key': `refund-audit-${id}` };
      try {
        const refused = await call(gw, 'POST', '/rest/refund', withCookie(token, key), { transaction_id: id, amount: 5 });
        assert.ok(refused.statusCode >= 500, `the refund failed as a whole: ${refused.statusCode} ${refused.body}`);
        assert.equal(await refundCount(gw, id), 0, 'no refund');
        const detail = (await call(gw, 'GET', `/rest/transactions/${id}`, withCookie(token))).json<{
          refunded_amount?: number;
          status_code: number;
        }>();
        assert.equal(detail.status_code, 3, 'still completed, nothing refunded');
        const log = (await call(gw, 'GET', `/rest/transactions/${id}/log`, withCookie(token))).json<Array<{ type: string }>>();
        assert.ok(!log.some((event) => event.type === 'refund'), 'no refund event');
        assert.equal(
          await countOf(gw, "SELECT COUNT(*) AS n FROM postback_outbox WHERE subject_id = ? AND payload LIKE '%refund%'", id),
          0,
          'no refund postback queued',
        );
      } finally {
        await sql.run(dialects({ sqlite: 'DROP TRIGGER refuse_refund_audit', postgres: 'DROP TRIGGER refuse_refund_audit ON audit_log' }));
        if (sql.dialect === 'postgres') await sql.run('DROP FUNCTION refuse_refund_audit()');
      }
      // Nothing was stored for the key: the same request now refunds, audited once.
      const again = await call(gw, 'POST', '/rest/refund', withCookie(token, key), { transaction_id: id, amount: 5 });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(await refundCount(gw, id), 1);
      const audit = (await call(gw, 'GET', '/ui/audit', withCookie(token))).json<Array<{ action: string; subject_id: string }>>();
      assert.equal(audit.filter((a) => a.action === 'refund' && a.subject_id === id).length, 1);
    });

    test('admin: may rotate the webhook key', async () => {
      const token = await login(gw, admin);
      const rotate = await call(gw, 'POST', '/rest/webhook_key/rotate', withCookie(token));
      assert.equal(rotate.statusCode, 200, rotate.body);
      assert.match(rotate.json<{ webhook_key: string }>().webhook_key, /^whsec_/);
    });
  });

  describe('manager approval of a till refund', () => {
    let till: string;
    let office: string;

    before(async () => {
      till = await login(gw, cashier, 'pin');
      office = await login(gw, backOffice, 'pin');
    });

    const approve = (token: string, credentials: Record<string, string>, headers: Record<string, string> = {}) =>
      call(gw, 'POST', '/ui/approvals', withCookie(token, headers), { action: 'refund', ...credentials });

    async function approval(credentials: Record<string, string> = { login: backOffice.login, pin: '4321' }): Promise<string> {
      const response = await approve(till, credentials);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json<{ approval_token: string; approver: string; expires_at: string }>();
      assert.equal(Date.parse(body.expires_at), gw.clock.now().getTime() + 2 * MINUTE);
      return body.approval_token;
    }

    const refund = (transactionId: string, approvalToken?: string) =>
      call(gw, 'POST', '/rest/refund', withCookie(till, approvalToken ? { 'x-manager-approval': approvalToken } : {}), {
        transaction_id: transactionId,
        amount: 1,
      });

    test('an admin without a PIN approves with the password, then sets a PIN (confirmed by the password) and approves with it', async () => {
      const firstAdmin = await createStaff(gw, shop, 'admin', 'first-admin');
      const id = await pay(gw, withCookie(till));
      // No PIN yet: a PIN fails, the password works.
      assertApiError(await approve(till, { login: firstAdmin.login, pin: '8642' }), 403, 2002, ['login']);
      const byPassword = await approval({ login: firstAdmin.login, password: firstAdmin.password });
      assert.equal((await refund(id, byPassword)).statusCode, 200);

      const own = await login(gw, firstAdmin);
      const setPin = (body: Record<string, string>) => call(gw, 'PUT', '/ui/session/pin', withCookie(own), body);
      assertApiError(await setPin({ password: firstAdmin.password, pin: '12a4' }), 400, 1001, ['pin']);
      assertApiError(await setPin({ password: 'not-the-password', pin: '8642' }), 403, 2002, ['password']);
      assertApiError(await approve(till, { login: firstAdmin.login, pin: '8642' }), 403, 2002, ['login']);
      assertApiError(await call(gw, 'PUT', '/ui/session/pin', {}, { password: firstAdmin.password, pin: '8642' }), 401, 2001);
      const set = await setPin({ password: firstAdmin.password, pin: '8642' });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json(), { has_pin: true });
      assert.equal((await sessionOf(gw, own)).statusCode, 200, 'the session goes on');

      const byPin = await approval({ login: firstAdmin.login, pin: '8642' });
      assert.equal((await refund(id, byPin)).statusCode, 200);
      tokenOf(await loginRequest(gw, { login: firstAdmin.login, pin: '8642' }));
      const audit = await sqlOf(gw).all<{ action: string }>(
        "SELECT action FROM audit_log WHERE staff_id = ? AND action LIKE 'pin_%'",
        firstAdmin.staff_id,
      );
      assert.deepEqual(
        audit.map((a) => a.action),
        ['pin_set'],
      );
      // Changing it again is 'pin_changed'; the old PIN stops working.
      assert.equal((await setPin({ password: firstAdmin.password, pin: '97531' })).statusCode, 200);
      assertApiError(await approve(till, { login: firstAdmin.login, pin: '8642' }), 403, 2002, ['login']);
      await approval({ login: firstAdmin.login, pin: '97531' });
    });

    test('without X-Manager-Approval the cashier refund is refused with 403 naming the header', async () => {
      const id = await pay(gw, withCookie(till));
      assertApiError(await refund(id), 403, 2002, ['X-Manager-Approval']);
      assertApiError(await refund(id, 'made-up-token'), 403, 2002, ['X-Manager-Approval']);
      assert.equal(await refundCount(gw, id), 0);
    });

    test('with a back_office approval of the same shop: 200, and the audit log names the approver', async () => {
      const id = await pay(gw, withCookie(till));
      const response = await approve(till, { login: backOffice.login, pin: '4321' });
      assert.equal(response.statusCode, 200, response.body);
      const { approval_token: token, approver } = response.json<{ approval_token: string; approver: string }>();
      assert.equal(approver, 'office');
      const refunded = await refund(id, token);
      assert.equal(refunded.statusCode, 200, refunded.body);
      assert.equal(await refundCount(gw, id), 1);

      const audit = await call(gw, 'GET', '/ui/audit', withCookie(office));
      assert.equal(audit.statusCode, 200);
      const entries =
        audit.json<
          Array<{ action: string; staff_id: string; approved_by: string | null; subject_id: string | null; detail: string | null }>
        >();
      const entry = entries.find((a) => a.action === 'refund' && a.subject_id === id);
      assert.ok(entry, 'refund audited');
      assert.deepEqual(
        { staff_id: entry.staff_id, approved_by: entry.approved_by, detail: entry.detail },
        { staff_id: cashier.staff_id, approved_by: backOffice.staff_id, detail: 'amount 1' },
      );
      assertApiError(await call(gw, 'GET', '/ui/audit', withCookie(till)), 403, 2002);
    });

    test('an admin may approve too; a password works as well as a PIN', async () => {
      const id = await pay(gw, withCookie(till));
      const token = await approval({ login: admin.login, password: admin.password });
      assert.equal((await refund(id, token)).statusCode, 200);
    });

    test('an approval token is single use', async () => {
      const id = await pay(gw, withCookie(till));
      const token = await approval();
      assert.equal((await refund(id, token)).statusCode, 200);
      assertApiError(await refund(id, token), 403, 2002, ['X-Manager-Approval']);
      assert.equal(await refundCount(gw, id), 1);
    });

    test("two refunds sent at once with one approval: one is approved; the database keeps only the token's SHA-256", async () => {
      const [first, second] = [await pay(gw, withCookie(till)), await pay(gw, withCookie(till))];
      const token = await approval();
      const answers = await Promise.all([refund(first, token), refund(second, token)]);
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 403], answers.map((r) => r.body).join('\n'));
      assert.equal((await refundCount(gw, first)) + (await refundCount(gw, second)), 1);
      const rows = (await sqlOf(gw).all('SELECT id, used_at FROM manager_approvals')) as Array<{ id: string; used_at: string | null }>;
      assert.ok(rows.length > 0);
      assert.ok(!rows.some((r) => r.id === token), 'the token itself is not stored');
      assert.ok(rows.some((r) => r.id === createHash('sha256').update(token).digest('base64url') && r.used_at !== null));
    });

    test('a refund retried with the same idempotency key may reuse its approval; any other request may not', async () => {
      const id = await pay(gw, withCookie(till));
      const token = await approval();
      const send = (key: string) =>
        call(gw, 'POST', '/rest/refund', withCookie(till, { 'x-manager-approval': token, 'idempotency-key': key }), {
          transaction_id: id,
          amount: 1,
        });
      const first = await send('refund-retry-1');
      assert.equal(first.statusCode, 200, first.body);
      const retry = await send('refund-retry-1');
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, first.body);
      assertApiError(await send('refund-retry-2'), 403, 2002, ['X-Manager-Approval']);
      assertApiError(await refund(id, token), 403, 2002, ['X-Manager-Approval']);
      assert.equal(await refundCount(gw, id), 1);
    });

    test('an approval token expires after 2 minutes', async () => {
      const id = await pay(gw, withCookie(till));
      const fresh = await approval();
      const stale = await approval();
      gw.clock.advance(2 * MINUTE - 1000);
      assert.equal((await refund(id, fresh)).statusCode, 200, 'still valid just before 2 minutes');
      gw.clock.advance(2000);
      assertApiError(await refund(id, stale), 403, 2002, ['X-Manager-Approval']);
      assert.equal(await refundCount(gw, id), 1);
    });

    test("a cashier's approval, another shop's manager and wrong manager credentials are refused", async () => {
      assertApiError(await approve(till, { login: secondCashier.login, pin: '1357' }), 403, 2002);
      assertApiError(await approve(till, { login: otherManager.login, pin: '9999' }), 403, 2002);
      // Wrong manager credentials refuse the approval (403, naming login), not the cashier's session.
      assertApiError(await approve(till, { login: backOffice.login, pin: '0000' }), 403, 2002, ['login']);
      assert.equal((await sessionOf(gw, till)).statusCode, 200, "the cashier's session is untouched");
      // Nor may another shop's cashier use this shop's approval.
      const otherTill = await login(gw, otherCashier, 'pin');
      const otherId = await pay(gw, withCookie(otherTill));
      const token = await approval();
      assertApiError(
        await call(gw, 'POST', '/rest/refund', withCookie(otherTill, { 'x-manager-approval': token }), {
          transaction_id: otherId,
          amount: 1,
        }),
        403,
        2002,
        ['X-Manager-Approval'],
      );
      assert.equal(await refundCount(gw, otherId), 0);
    });
  });

  describe('cross-origin requests with the cookie', () => {
    test('a POST from https://evil.example is refused with 403 and does nothing; our own origin works', async () => {
      const till = await login(gw, cashier, 'pin');
      const office = await login(gw, admin);
      const evil = { origin: 'https://evil.example' };
      const before = await transactionCount(gw, shop.merchant_id);
      assertApiError(await call(gw, 'POST', '/rest/payment', withCookie(till, evil), cardPayment(freshPan(), 9)), 403, 2002);
      assert.equal(await transactionCount(gw, shop.merchant_id), before, 'no payment made');
      assertApiError(
        await call(gw, 'POST', '/ui/approvals', withCookie(till, evil), { action: 'refund', login: backOffice.login, pin: '4321' }),
        403,
        2002,
      );
      assertApiError(await call(gw, 'POST', '/ui/staff', withCookie(office, evil), { role: 'admin', login: 'intruder' }), 403, 2002);
      assertApiError(await call(gw, 'POST', '/rest/webhook_key/rotate', withCookie(office, evil)), 403, 2002);
      await pay(gw, withCookie(till, { origin: OWN_ORIGIN }));
      assert.equal(await transactionCount(gw, shop.merchant_id), before + 1);
    });
  });

  describe('/ui/staff', () => {
    test('an admin lists the staff of the own shop only', async () => {
      const response = await call(gw, 'GET', '/ui/staff', withCookie(await login(gw, admin)));
      assert.equal(response.statusCode, 200);
      const staff = response.json<Array<{ staff_id: string; login: string; role: string; has_pin: boolean; disabled: boolean }>>();
      const logins = staff.map((s) => s.login);
      for (const expected of ['till', 'till-2', 'office', 'boss']) assert.ok(logins.includes(expected), expected);
      assert.ok(!logins.includes('other-office') && !logins.includes('other-till'), "another shop's staff is not listed");
      assert.deepEqual(
        staff.find((s) => s.login === 'till'),
        { ...staff.find((s) => s.login === 'till'), role: 'cashier', has_pin: true, disabled: false },
      );
      assert.equal(staff.find((s) => s.login === 'boss')?.has_pin, false);
      assert.doesNotMatch(response.body, /hash|password/i);
      // The back office reads it too (it names and filters sales by cashier).
      assert.equal((await call(gw, 'GET', '/ui/staff', withCookie(await login(gw, backOffice, 'pin')))).statusCode, 200);
    });

    test('an admin creates an account (password shown once) that can log in', async () => {
      const token = await login(gw, admin);
      const response = await call(gw, 'POST', '/ui/staff', withCookie(token), {
        role: 'cashier',
        login: 'new-till',
        display_name: 'New Till',
        pin: '8642',
      });
      assert.equal(response.statusCode, 201, response.body);
      const created = response.json<{ staff_id: string; login: string; password: string; role: string; merchant_id: string }>();
      assert.deepEqual(
        { ...created, staff_id: 'x', password: 'x' },
        { staff_id: 'x', login: 'new-till', password: 'x', role: 'cashier', merchant_id: shop.merchant_id },
      );
      assert.ok(created.password.length >= 8);
      const session = await sessionOf(gw, tokenOf(await loginRequest(gw, { login: 'new-till', pin: '8642' })));
      assert.deepEqual(session.json<SessionBody>().staff, {
        staff_id: created.staff_id,
        login: 'new-till',
        display_name: 'New Till',
        role: 'cashier',
        language: null,
      });
      assert.equal((await loginRequest(gw, { login: 'new-till', password: created.password })).statusCode, 200);
      assertApiError(await call(gw, 'POST', '/ui/staff', withCookie(token), { role: 'cashier', login: 'new-till' }), 400, 1001, ['login']);
    });

    test("a person's name never reads like a till's: 'Till 2' or 'TILL-3' is a 400 naming display_name; a till-like login without a name gets its role's", async () => {
      const token = await login(gw, admin);
      for (const name of ['Till 2', 'TILL-3', ' till ', 'Register 4']) {
        assertApiError(
          await call(gw, 'POST', '/ui/staff', withCookie(token), {
            role: 'cashier',
            login: 'counter-person',
            display_name: name,
            pin: '8642',
          }),
          400,
          1001,
          ['display_name'],
        );
      }
      const created = await call(gw, 'POST', '/ui/staff', withCookie(token), { role: 'cashier', login: 'till-5', pin: '8642' });
      assert.equal(created.statusCode, 201, created.body);
      const session = await sessionOf(gw, tokenOf(await loginRequest(gw, { login: 'till-5', pin: '8642' })));
      assert.equal(session.json<SessionBody>().staff.display_name, 'Cashier (till-5)');
    });

    test('a cashier may neither list nor create staff; the back office may list, not create', async () => {
      for (const account of [cashier, backOffice]) {
        const token = await login(gw, account, 'pin');
        if (account === cashier) assertApiError(await call(gw, 'GET', '/ui/staff', withCookie(token)), 403, 2002);
        assertApiError(
          await call(gw, 'POST', '/ui/staff', withCookie(token), { role: 'admin', login: `sneaky-${account.login}` }),
          403,
          2002,
        );
        assertApiError(await loginRequest(gw, { login: `sneaky-${account.login}`, password: 'anything-at-all' }), 401, 2001);
      }
      assertApiError(await call(gw, 'GET', '/ui/staff', {}), 401, 2001);
    });
  });
});

describe('lock-out of a staff login after failed attempts', () => {
  let gw: TestGateway;
  let shop: TestMerchant;

  before(async () => {
    gw = await startTestGateway({ flags: { 'lockout-max-failures': '3', 'lockout-minutes': '5' } });
    shop = await createTestMerchant(gw);
  });

  after(async () => {
    await gw.close();
  });

  test('3 wrong PINs or passwords lock that login from every address, even with the right PIN; the lock ends', async () => {
    const cashier = await createStaff(gw, shop, 'cashier', 'till-a', '2580');
    assertApiError(await loginRequest(gw, { login: cashier.login, pin: '0000' }, '10.9.0.1'), 401, 2001);
    assertApiError(await loginRequest(gw, { login: cashier.login, password: 'wrong-password' }, '10.9.0.2'), 401, 2001);
    assertApiError(await loginRequest(gw, { login: cashier.login, pin: '1111' }, '10.9.0.1'), 401, 2001);
    const locked = await loginRequest(gw, { login: cashier.login, pin: '2580' }, '10.9.0.3');
    assertApiError(locked, 429, 4004);
    assert.ok(Number(locked.headers['retry-after']) > 0, 'Retry-After');
    assert.equal(locked.headers['set-cookie'], undefined);
    gw.clock.advance(5 * MINUTE + 1000);
    assert.equal((await loginRequest(gw, { login: cashier.login, pin: '2580' }, '10.9.0.1')).statusCode, 200, 'the lock-out ends');
  });

  test('a locked login does not lock the address: other staff, live sessions and the API keep working (a till shares 127.0.0.1)', async () => {
    const source = '127.0.0.1';
    const mistyped = await createStaff(gw, shop, 'cashier', 'till-b', '2580');
    const colleague = await createStaff(gw, shop, 'cashier', 'till-c', '4711');
    const session = tokenOf(await loginRequest(gw, { login: colleague.login, pin: '4711' }, source));
    for (let i = 0; i < 3; i += 1) assertApiError(await loginRequest(gw, { login: mistyped.login, pin: '0000' }, source), 401, 2001);
    assertApiError(await loginRequest(gw, { login: mistyped.login, pin: '2580' }, source), 429, 4004);
    assert.equal(
      (await loginRequest(gw, { login: colleague.login, pin: '4711' }, source)).statusCode,
      200,
      'another login from the same address',
    );
    const live = await gw.app.inject({ method: 'GET', url: '/rest/transactions', headers: withCookie(session), remoteAddress: source });
    assert.equal(live.statusCode, 200, 'a live session from the same address');
    const api = await gw.app.inject({
      method: 'GET',
      url: '/rest/transactions',
      headers: { authorization: shop.auth },
      remoteAddress: source,
    });
    assert.equal(api.statusCode, 200, 'the merchant API from the same address');
  });

  test('two failures do not lock', async () => {
    const cashier = await createStaff(gw, shop, 'cashier', 'till-d', '2580');
    for (let i = 0; i < 2; i += 1) assertApiError(await loginRequest(gw, { login: cashier.login, pin: '0000' }, '10.9.0.5'), 401, 2001);
    assert.equal((await loginRequest(gw, { login: cashier.login, pin: '2580' }, '10.9.0.5')).statusCode, 200);
  });

  test('wrong manager credentials in an approval count toward that manager login', async () => {
    const cashier = await createStaff(gw, shop, 'cashier', 'till-e', '2580');
    const manager = await createStaff(gw, shop, 'back_office', 'boss-e', '9999');
    const token = tokenOf(await loginRequest(gw, { login: cashier.login, pin: '2580' }, '10.9.0.6'));
    for (let i = 0; i < 3; i += 1) {
      const response = await gw.app.inject({
        method: 'POST',
        url: '/ui/approvals',
        headers: withCookie(token),
        payload: { action: 'refund', login: manager.login, pin: '0000' },
        remoteAddress: '10.9.0.6',
      });
      assertApiError(response, 403, 2002, ['login']);
    }
    assertApiError(await loginRequest(gw, { login: manager.login, pin: '9999' }, '10.9.0.7'), 429, 4004);
    assert.equal((await sessionOf(gw, token)).statusCode, 200, "the cashier's session is not affected");
  });
});

describe('session expiry', () => {
  let gw: TestGateway;
  let cashier: Account;

  before(async () => {
    gw = await startTestGateway({ clock: new TestClock(noonToday() - 6 * 60 * MINUTE) });
    const shop = await createTestMerchant(gw);
    cashier = await createStaff(gw, shop, 'cashier', 'till', '2580');
  });

  after(async () => {
    await gw.close();
  });

  test('the idle timeout is 30 minutes and the longest session 12 hours', () => {
    assert.equal(SESSION_IDLE_MS, 30 * MINUTE);
    assert.equal(SESSION_MAX_MS, 12 * 60 * MINUTE);
  });

  test('30 minutes without use end the session', async () => {
    const token = await login(gw, cashier, 'pin');
    gw.clock.advance(30 * MINUTE - 1000);
    assert.equal((await sessionOf(gw, token)).statusCode, 200, 'alive just before 30 minutes');
    const second = await login(gw, cashier, 'pin');
    gw.clock.advance(30 * MINUTE + 1000);
    assertApiError(await sessionOf(gw, second), 401, 2001);
    assertApiError(await call(gw, 'GET', '/rest/transactions', withCookie(second)), 401, 2001);
  });

  test('use keeps the session alive past 30 minutes; then idleness still ends it', async () => {
    const token = await login(gw, cashier, 'pin');
    for (let i = 0; i < 6; i += 1) {
      gw.clock.advance(20 * MINUTE);
      const use = i % 2 === 0 ? await call(gw, 'GET', '/rest/transactions', withCookie(token)) : await sessionOf(gw, token);
      assert.equal(use.statusCode, 200, `use ${i + 1} after ${(i + 1) * 20} minutes`);
    }
    gw.clock.advance(31 * MINUTE);
    assertApiError(await sessionOf(gw, token), 401, 2001);
  });

  test('12 hours after login the session ends however busy it was', async () => {
    const token = await login(gw, cashier, 'pin');
    const loggedInAt = gw.clock.now().getTime();
    while (gw.clock.now().getTime() + 25 * MINUTE < loggedInAt + SESSION_MAX_MS) {
      gw.clock.advance(25 * MINUTE);
      assert.equal((await sessionOf(gw, token)).statusCode, 200);
    }
    gw.clock.advance(loggedInAt + SESSION_MAX_MS - 1000 - gw.clock.now().getTime());
    assert.equal((await sessionOf(gw, token)).statusCode, 200, 'alive a second before 12 hours');
    gw.clock.advance(2000);
    assertApiError(await sessionOf(gw, token), 401, 2001);
    assertApiError(await call(gw, 'POST', '/rest/payment', withCookie(token), cardPayment(freshPan(), 5)), 401, 2001);
  });
});

describe("a cashier's transaction list holds today's transactions only", () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let cashier: Account;
  let backOffice: Account;

  before(async () => {
    gw = await startTestGateway({ clock: new TestClock(noonToday() - DAY) });
    shop = await createTestMerchant(gw);
    cashier = await createStaff(gw, shop, 'cashier', 'till', '2580');
    backOffice = await createStaff(gw, shop, 'back_office', 'office', '4321');
  });

  after(async () => {
    await gw.close();
  });

  test("yesterday's payment is not in the cashier's list, whatever `from` says, but in the others'", async () => {
    const yesterday = await pay(gw, withCookie(await login(gw, cashier, 'pin')));
    const yesterdayStart = new Date(gw.clock.now());
    yesterdayStart.setHours(0, 0, 0, 0);
    gw.clock.advance(DAY);
    const till = await login(gw, cashier, 'pin');
    const today = await pay(gw, withCookie(till));

    const ids = async (headers: Record<string, string>, query = '') => {
      const response = await call(gw, 'GET', `/rest/transactions${query}`, headers);
      assert.equal(response.statusCode, 200, response.body);
      return response.json<Array<{ transaction_id: string }>>().map((t) => t.transaction_id);
    };
    assert.deepEqual(await ids(withCookie(till)), [today]);
    assert.deepEqual(await ids(withCookie(till), `?from=${encodeURIComponent(yesterdayStart.toISOString())}`), [today]);
    assert.deepEqual(await ids(withCookie(till), '?from=2000-01-01'), [today]);
    assert.deepEqual(await ids(withCookie(await login(gw, backOffice, 'pin'))), [today, yesterday]);
    assert.deepEqual(await ids({ authorization: shop.auth }), [today, yesterday]);
  });
});

describe('gateway staff create', () => {
  let server: GatewayProcess;

  before(async () => {
    server = await startGateway();
  });

  after(async () => {
    await server.stop();
  });

  test('--json prints exactly {staff_id, login, password}, and the account logs in to the running server', async () => {
    const merchant = createMerchant(server.dataDir, 'CLI Shop');
    const result = runGateway([
      'staff',
      'create',
      '--data-dir',
      server.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--role',
      'cashier',
      '--json',
    ]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim().split('\n').length, 1, 'one line of JSON');
    const created = JSON.parse(result.stdout) as { staff_id: string; login: string; password: string };
    assert.deepEqual(Object.keys(created).sort(), ['login', 'password', 'staff_id']);
    assert.match(created.login, /^cashier-[a-z0-9._-]+$/);
    assert.ok(created.password.length >= 8);

    const loggedIn = await fetch(`${server.url}/ui/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: created.login, password: created.password }),
    });
    assert.equal(loggedIn.status, 200, await loggedIn.clone().text());
    const cookie = loggedIn.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`));
    assert.ok(cookie);
    const session = await fetch(`${server.url}/ui/session`, { headers: { cookie: cookie.split(';')[0] ?? '' } });
    assert.equal(session.status, 200);
    const body = (await session.json()) as SessionBody;
    assert.deepEqual(
      [body.staff.staff_id, body.staff.role, body.merchant.merchant_id],
      [created.staff_id, 'cashier', merchant.merchant_id],
    );
  });

  test('a wrong role or an unknown merchant is a usage error (exit 2), nothing printed on stdout', () => {
    const merchant = createMerchant(server.dataDir, 'CLI Shop 2');
    const wrongRole = runGateway([
      'staff',
      'create',
      '--data-dir',
      server.dataDir,
      '--merchant',
      merchant.merchant_id,
      '--role',
      'boss',
      '--json',
    ]);
    assert.equal(wrongRole.status, 2);
    assert.equal(wrongRole.stdout, '');
    assert.match(wrongRole.stderr, /--role/);
    const unknown = runGateway([
      'staff',
      'create',
      '--data-dir',
      server.dataDir,
      '--merchant',
      'no-such-merchant',
      '--role',
      'cashier',
      '--json',
    ]);
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stdout, '');
  });
});
