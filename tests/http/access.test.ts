// The gateway answers as contract/access.ts says, over inject() on either engine: every operation of
// contract/operation-table.ts is called by each kind of caller (nobody; a merchant's, a partner's and a
// joined till's API credentials; a cashier's, a back-office and an admin session), and a caller the
// table names is never answered 401 or 403 while one it does not name always is. So the /ui routes'
// own guards (requireStaffSession, requireBackOfficeSession, requireAdminSession, the role checks in
// handlers and use cases) and the API routes' role check, which reads the table, agree with it. A
// cashier's call that needs a manager's approval is refused without one and goes through with it,
// and a staff refund through the API still writes its audit entry.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ACCESS, type Access, type ApiCredential } from '../../contract/access.js';
import { STAFF_ROLES, type StaffRole } from '../../contract/constants.js';
import { OPERATIONS, type OperationName } from '../../contract/operation-table.js';
import { buildServer } from '../../main/http/server.js';
import { createLogger } from '../../main/infra/logger.js';
import { resolveSettings } from '../../main/settings.js';
import { composeForTest, createTestMerchant, TestClock, tempDir, type TestGateway, type TestMerchant } from '../helpers/api.js';
import { basicAuth } from '../helpers/gateway-process.js';
import { cardPayment, freshPan, posPayment } from '../helpers/payments.js';

const COOKIE = 'tillgate_session';
/** An address that is not this computer's (TEST-NET-2). */
const ELSEWHERE = '198.51.100.7';

type Caller = 'nobody' | ApiCredential | StaffRole;
const CALLERS: readonly Caller[] = ['nobody', 'merchant', 'partner', 'joined_till', ...STAFF_ROLES];
const isRole = (caller: Caller): caller is StaffRole => (STAFF_ROLES as readonly string[]).includes(caller);

/** Whether the table lets `caller` call an operation (a joined till's credential is a merchant's too). */
function mayCall(access: Access, caller: Caller): boolean {
  if ('open' in access) return true;
  if (caller === 'nobody') return false;
  if (isRole(caller)) return access.staff.includes(caller);
  if (caller === 'joined_till') return access.credentials.includes('joined_till') || access.credentials.includes('merchant');
  return access.credentials.includes(caller);
}

/**
 * Bodies that pass validation, for the operations that refuse a caller only after it (a role check
 * in the handler or the use case, the joined till's check, the loopback check): without them the
 * refused caller would meet the 400 first. Harmless where the caller may: nothing here charges or
 * changes more than the test's own shop.
 */
const VALID_BODY: Partial<Record<OperationName, () => unknown>> = {
  'centre.heartbeat': () => ({ version: '0.1.0', stored: { count: 0, oldest_at: null, totals: [] }, open_attempt: false }),
  'centre.fence': () => ({ idempotency_key: `access-fence-${randomUUID()}` }),
  'centre.forward': () => ({
    entries: [
      {
        seq: 1,
        transaction_id: randomUUID(),
        stored_at: new Date().toISOString(),
        staff_id: null,
        request: posPayment(1.5, { pan: freshPan(), entry: 'chip' }),
      },
    ],
  }),
  'centre.joinShop': () => ({ centre: 'http://127.0.0.1:9', code: 'AAAA-BBBB-CCCC-DDDD-EEEE' }),
  'centre.advanceClock': () => ({ advance_seconds: 0 }),
  'payment-methods.createShop': () => ({ name: 'Access Shop' }),
  'payment-methods.assignTerminal': () => ({ terminal_id: 'ACCESS-1' }),
  'receipts.setPrinter': () => ({ connection: 'none' }),
  'staff.create': () => ({ role: 'cashier', login: `access-${randomBytes(4).toString('hex')}` }),
};

interface Account {
  staffId: string;
  login: string;
  pin: string;
  session: string;
}

describe('who may call each operation: the gateway answers as the table says', () => {
  let gw: TestGateway;
  let shop: TestMerchant;
  let partnerAuth = '';
  let tillAuth = '';
  const staff = {} as Record<StaffRole, Account>;
  let loginCount = 0;

  const inject = (options: InjectOptions): Promise<LightMyRequestResponse> => gw.app.inject(options);

  async function logIn(login: string, pin: string): Promise<string> {
    const response = await inject({ method: 'POST', url: '/ui/session', payload: { login, pin } });
    assert.equal(response.statusCode, 200, response.body);
    const cookie = response.cookies.find((c) => c.name === COOKIE);
    assert.ok(cookie?.value);
    return cookie.value;
  }

  async function newAccount(role: StaffRole): Promise<Account> {
    loginCount += 1;
    const login = `${role.replace('_', '-')}-${loginCount}`;
    const pin = String(1000 + loginCount);
    const created = await gw.composition.gateway.staff.create({ merchantId: shop.merchant_id, role, login, pin });
    assert.ok(created.ok);
    return { staffId: created.value.staff_id, login, pin, session: await logIn(login, pin) };
  }

  /** The headers `caller` sends; a logout gets a session of its own (it ends the session it is sent with). */
  async function headersOf(caller: Caller, name: OperationName): Promise<Record<string, string>> {
    switch (caller) {
      case 'nobody':
        return {};
      case 'merchant':
        return { authorization: shop.auth };
      case 'partner':
        return { authorization: partnerAuth };
      case 'joined_till':
        return { authorization: tillAuth };
      default: {
        const account = staff[caller];
        const session = name === 'staff.logout' ? await logIn(account.login, account.pin) : account.session;
        return { cookie: `${COOKIE}=${session}` };
      }
    }
  }

  /** Operation `name` as `headers` call it: params filled in with ids that name nothing, and a valid body where one is needed. */
  function call(name: OperationName, headers: Record<string, string>, remoteAddress?: string): Promise<LightMyRequestResponse> {
    const { method, path } = OPERATIONS[name];
    const url = path.replace(/:([a-z_]+)/g, (_, param: string) => (param === 'merchant_id' ? shop.merchant_id : 'x1'));
    const body = VALID_BODY[name]?.();
    return inject({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  }

  /** A manager's approval of `action`, asked from the cashier's screen. */
  async function approval(action: string): Promise<string> {
    const manager = staff.back_office;
    const response = await inject({
      method: 'POST',
      url: '/ui/approvals',
      headers: { cookie: `${COOKIE}=${staff.cashier.session}` },
      payload: { action, login: manager.login, pin: manager.pin },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ approval_token: string }>().approval_token;
  }

  before(async () => {
    // The movable simulated clock: POST /test/clock is registered only with it. A high lock-out
    // limit: refused callers are no guesses, but nothing here should hinge on that.
    const dir = tempDir();
    const composition = await composeForTest({
      settings: resolveSettings(dir, { 'sim-clock': 'movable', 'lockout-max-failures': '10000' }, {}),
      dataKey: randomBytes(32),
      logger: createLogger({ level: 'silent' }),
    });
    const app = await buildServer(composition.gateway);
    gw = {
      dir,
      clock: new TestClock(),
      dataKey: randomBytes(32),
      composition,
      app,
      async close() {
        await app.close();
        await composition.close();
      },
    };
    shop = await createTestMerchant(gw, 'Access Shop');
    const partner = await gw.composition.gateway.partners.create({ name: 'Access Partner' });
    assert.ok(partner.ok);
    partnerAuth = basicAuth(partner.value);
    for (const role of STAFF_ROLES) staff[role] = await newAccount(role);
    // A till joins with a pairing code and gets a credential of its own.
    const invite = await inject({
      method: 'POST',
      url: '/ui/tills/TILL-2/invite',
      headers: { cookie: `${COOKIE}=${staff.admin.session}` },
    });
    assert.equal(invite.statusCode, 201, invite.body);
    const joined = await inject({
      method: 'POST',
      url: '/centre/join',
      payload: { code: invite.json<{ code: string }>().code, till_version: '0.1.0' },
    });
    assert.equal(joined.statusCode, 200, joined.body);
    tillAuth = basicAuth(joined.json<{ api_key: string; api_password: string }>());
  });

  after(async () => {
    await gw.close();
  });

  test('every operation, every caller: 401 or 403 exactly where the table names no such caller', async () => {
    const wrong: string[] = [];
    let calls = 0;
    for (const name of Object.keys(OPERATIONS) as OperationName[]) {
      const access = ACCESS[name];
      for (const caller of CALLERS) {
        const response = await call(name, await headersOf(caller, name));
        calls += 1;
        const refused = response.statusCode === 401 || response.statusCode === 403;
        const may = mayCall(access, caller);
        // A cashier's call that needs a manager's approval is refused without one (checked below with one).
        const expected = may && !(caller === 'cashier' && 'staff' in access && access.cashierApproval !== undefined);
        if (expected === refused)
          wrong.push(
            `${name} as ${caller}: ${response.statusCode} ${response.body.slice(0, 120)} (the table ${may ? 'allows' : 'refuses'} it)`,
          );
      }
    }
    assert.deepEqual(wrong, []);
    assert.equal(calls, Object.keys(OPERATIONS).length * CALLERS.length);
  });

  test("a cashier's call that needs a manager's approval: 403 naming X-Manager-Approval without one, through with it", async () => {
    const needing = (Object.keys(OPERATIONS) as OperationName[]).filter((name) => {
      const access = ACCESS[name];
      return 'staff' in access && access.cashierApproval !== undefined;
    });
    assert.deepEqual(needing, ['payments.refund', 'reports.closeDay']);
    const cashier = { cookie: `${COOKIE}=${staff.cashier.session}` };
    // The cashier's screen holds a till (the day it closes is that till's).
    const take = await inject({
      method: 'PUT',
      url: '/ui/session/till',
      headers: cashier,
      payload: { till_id: 'TILL-1', screen_id: 'access-test-screen', take_over: true },
    });
    assert.equal(take.statusCode, 200, take.body);
    for (const name of needing) {
      const access = ACCESS[name];
      assert.ok('staff' in access && access.cashierApproval);
      const without = await call(name, cashier);
      assert.equal(without.statusCode, 403, `${name}: ${without.body}`);
      assert.ok(
        without.json<{ errors: Array<{ field: string }> }>().errors.some((e) => e.field === 'X-Manager-Approval'),
        `${name}: ${without.body}`,
      );
      // Approved for the action the table names.
      const token = await approval(access.cashierApproval);
      const approved = await call(name, { ...cashier, 'x-manager-approval': token });
      assert.ok(
        approved.statusCode !== 401 && approved.statusCode !== 403,
        `${name} with an approval: ${approved.statusCode} ${approved.body}`,
      );
    }
  });

  test('an operation open to this computer only is refused from another address', async () => {
    const local = (Object.keys(OPERATIONS) as OperationName[]).filter((name) => {
      const access = ACCESS[name];
      return 'open' in access && access.open === 'this_computer';
    });
    assert.deepEqual(local, ['centre.joinShop', 'centre.advanceClock']);
    for (const name of local) {
      const response = await call(name, {}, ELSEWHERE);
      assert.equal(response.statusCode, 403, `${name}: ${response.body}`);
    }
  });

  describe('a staff refund through the API writes its audit entry (its action in the table)', () => {
    const audit = async (transactionId: string) =>
      (await inject({ method: 'GET', url: '/ui/audit', headers: { cookie: `${COOKIE}=${staff.admin.session}` } }))
        .json<Array<{ action: string; staff_id: string; approved_by: string | null; subject_id: string; detail: string | null }>>()
        .filter((entry) => entry.subject_id === transactionId)
        .map(({ action, staff_id, approved_by, detail }) => ({ action, staff_id, approved_by, detail }));

    async function pay(session: string): Promise<string> {
      const response = await inject({
        method: 'POST',
        url: '/rest/payment',
        headers: { cookie: `${COOKIE}=${session}` },
        payload: cardPayment(freshPan(), 20),
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json<{ transaction_id: string }>().transaction_id;
    }

    test('by the back office: refund, with the amount', async () => {
      const id = await pay(staff.back_office.session);
      const refund = await inject({
        method: 'POST',
        url: '/rest/refund',
        headers: { cookie: `${COOKIE}=${staff.back_office.session}` },
        payload: { transaction_id: id, amount: 5 },
      });
      assert.equal(refund.statusCode, 200, refund.body);
      assert.deepEqual(await audit(id), [{ action: 'refund', staff_id: staff.back_office.staffId, approved_by: null, detail: 'amount 5' }]);
    });

    test("by a cashier with a manager's approval: refund, naming the approver", async () => {
      const id = await pay(staff.cashier.session);
      const token = await approval('refund');
      const refund = await inject({
        method: 'POST',
        url: '/rest/refund',
        headers: { cookie: `${COOKIE}=${staff.cashier.session}`, 'x-manager-approval': token },
        payload: { transaction_id: id, amount: 2 },
      });
      assert.equal(refund.statusCode, 200, refund.body);
      assert.deepEqual(await audit(id), [
        { action: 'refund', staff_id: staff.cashier.staffId, approved_by: staff.back_office.staffId, detail: 'amount 2' },
      ]);
    });

    test('with the merchant key: no staff member, no entry', async () => {
      const pay = await inject({
        method: 'POST',
        url: '/rest/payment',
        headers: { authorization: shop.auth },
        payload: cardPayment(freshPan(), 20),
      });
      const id = pay.json<{ transaction_id: string }>().transaction_id;
      const refund = await inject({
        method: 'POST',
        url: '/rest/refund',
        headers: { authorization: shop.auth },
        payload: { transaction_id: id, amount: 1 },
      });
      assert.equal(refund.statusCode, 200, refund.body);
      assert.deepEqual(await audit(id), []);
    });
  });
});
